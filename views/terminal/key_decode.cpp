#include "views/terminal/key_decode.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/format.h"

namespace runtop::ui {
namespace {

// The key a CSI/SS3 final letter names on its own: "A" Up ... "P" F1.
std::optional<std::string> letter_key(char final) {
    switch (final) {
        case 'A':
            return "Up";
        case 'B':
            return "Down";
        case 'C':
            return "Right";
        case 'D':
            return "Left";
        case 'H':
            return "Home";
        case 'F':
            return "End";
        case 'P':
            return "F1";
        case 'Q':
            return "F2";
        case 'R':
            return "F3";
        case 'S':
            return "F4";
        default:
            return std::nullopt;
    }
}

// "CSI n ~": the VT220 editing keys and the function keys (xterm numbering, with its gaps).
std::optional<std::string> tilde_key(int n) {
    switch (n) {
        case 1:
        case 7:
            return "Home";
        case 2:
            return "Insert";
        case 3:
            return "Delete";
        case 4:
        case 8:
            return "End";
        case 5:
            return "PgUp";
        case 6:
            return "PgDn";
        default:
            break;
    }
    static constexpr std::array<std::pair<int, int>, 12> kFunction = {{{11, 1},
                                                                       {12, 2},
                                                                       {13, 3},
                                                                       {14, 4},
                                                                       {15, 5},
                                                                       {17, 6},
                                                                       {18, 7},
                                                                       {19, 8},
                                                                       {20, 9},
                                                                       {21, 10},
                                                                       {23, 11},
                                                                       {24, 12}}};
    for (auto [code, f] : kFunction)
        if (code == n) return "F" + std::to_string(f);
    return std::nullopt;
}

// Numeric parameters "1;5" (an empty one is 0; ':' sub-parameters are dropped). false when the
// text holds anything else (private markers such as '?' or '>').
bool parse_params(std::string_view text, std::vector<int>& out) {
    out.assign(1, 0);
    bool sub = false;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            if (!sub && out.back() < 100000) out.back() = out.back() * 10 + (c - '0');
        } else if (c == ';') {
            out.push_back(0);
            sub = false;
        } else if (c == ':') {
            sub = true;
        } else {
            return false;
        }
    }
    return true;
}

// xterm's button byte (SGR: the first parameter; X10: the byte minus 32). Presses and wheel
// steps only: motion (bit 32) and releases (X10's button 3) mean nothing to runtop.
std::optional<MouseButton> mouse_button(int b) {
    if (b & 32) return std::nullopt;
    if (b & 64) {
        if ((b & 3) == 0) return MouseButton::kWheelUp;
        if ((b & 3) == 1) return MouseButton::kWheelDown;
        return std::nullopt;  // horizontal wheel
    }
    switch (b & 3) {
        case 0:
            return MouseButton::kLeft;
        case 1:
            return MouseButton::kMiddle;
        case 2:
            return MouseButton::kRight;
        default:
            return std::nullopt;
    }
}

std::optional<InputEvent> mouse_event(int b, int column, int row) {
    std::optional<MouseButton> button = mouse_button(b);
    if (!button || column < 1 || row < 1) return std::nullopt;
    return InputEvent::mouse(column - 1, row - 1, *button);
}

std::optional<InputEvent> decode_csi(std::string_view body) {
    // body: what follows "ESC [", up to and including the final byte.
    if (body.empty()) return std::nullopt;
    if (body[0] == 'M') {  // X10 mouse: "M" and three bytes, each value + 32
        if (body.size() != 4) return std::nullopt;
        auto byte = [&](int i) { return static_cast<unsigned char>(body[i]) - 32; };
        return mouse_event(byte(1), byte(2), byte(3));
    }
    char final = body.back();
    std::string_view params = body.substr(0, body.size() - 1);
    std::vector<int> p;
    if (!params.empty() && params[0] == '<') {  // SGR mouse: "<b;x;yM" press, "...m" release
        if (final != 'M' || !parse_params(params.substr(1), p) || p.size() != 3)
            return std::nullopt;
        return mouse_event(p[0], p[1], p[2]);
    }
    if (!parse_params(params, p)) return std::nullopt;
    int modifier = p.size() >= 2 ? p[1] : 1;
    std::optional<std::string> key;
    if (final == '~')
        key = tilde_key(p[0]);
    else if (final == 'Z')
        key = "BackTab";
    else
        key = letter_key(final);  // focus reports ('I', 'O') and the rest: nothing
    if (!key) return std::nullopt;
    if (final == 'Z') return InputEvent::named(*key);
    return InputEvent::named(modifier_prefix(modifier) + *key);
}

}  // namespace

std::string modifier_prefix(int m) {
    if (m < 2 || m > 16) return "";
    int bits = m - 1;
    std::string out;
    if (bits & 8) out += "Meta-";
    if (bits & 4) out += "Ctrl-";
    if (bits & 2) out += "Alt-";
    if (bits & 1) out += "Shift-";
    return out;
}

std::optional<InputEvent> decode_char(char32_t c) {
    switch (c) {
        case 0:
            return InputEvent::named("Ctrl-Space");
        case 8:
        case 127:
            return InputEvent::named("Backspace");
        case 9:
            return InputEvent::named("Tab");
        case 10:
        case 13:
            return InputEvent::named("Enter");
        case 27:
            return InputEvent::named("Esc");
        case 28:
            return InputEvent::named("Ctrl-\\");
        case 29:
            return InputEvent::named("Ctrl-]");
        case 30:
            return InputEvent::named("Ctrl-^");
        case 31:
            return InputEvent::named("Ctrl-_");
        case U' ':
            // The action table's name for the key, and still text: a prompt inserts " ".
            return InputEvent::named("Space", true);
        default:
            break;
    }
    if (c < 27) return InputEvent::named(std::string("Ctrl-") + static_cast<char>('A' + c - 1));
    if ((c >= 0x80 && c < 0xa0) || (c >= 0xd800 && c < 0xe000) || c > 0x10ffff) return std::nullopt;
    std::string text;
    append_utf8(text, static_cast<std::uint32_t>(c));
    return InputEvent::named(std::move(text), true);
}

std::optional<InputEvent> decode_escape(std::string_view seq) {
    if (seq.size() >= 2 && seq[0] == '[') return decode_csi(seq.substr(1));
    if (seq.size() == 2 && seq[0] == 'O') {  // SS3: application-mode cursor keys, F1-F4
        if (seq[1] == 'M') return InputEvent::named("Enter");  // keypad Enter
        if (std::optional<std::string> key = letter_key(seq[1])) return InputEvent::named(*key);
    }
    return std::nullopt;
}

std::optional<std::string> decode_extended_key_name(std::string_view name) {
    if (name.size() < 3 || name[0] != 'k') return std::nullopt;
    name.remove_prefix(1);
    int modifier = 2;  // no digit: the shifted key ("kUP" is Shift-Up)
    if (name.back() >= '2' && name.back() <= '8') {
        modifier = name.back() - '0';
        name.remove_suffix(1);
    }
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kBases = {{
        {"UP", "Up"},
        {"DN", "Down"},
        {"LFT", "Left"},
        {"RIT", "Right"},
        {"HOM", "Home"},
        {"END", "End"},
        {"NXT", "PgDn"},
        {"PRV", "PgUp"},
        {"DC", "Delete"},
        {"IC", "Insert"},
    }};
    for (auto [cap, key] : kBases)
        if (name == cap) return modifier_prefix(modifier) + std::string(key);
    return std::nullopt;
}

}  // namespace runtop::ui
