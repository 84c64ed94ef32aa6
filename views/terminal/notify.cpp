#include "views/terminal/notify.h"

namespace runtop::ui {
namespace {

constexpr std::size_t kMostText = 200;  // terminals cut long notifications anyway

std::string safe_text(std::string_view text) {
    std::string out(text.substr(0, kMostText));
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    return out;
}

}  // namespace

bool parse_notify_mode(std::string_view text, NotifyMode& mode) {
    if (text == "off")
        mode = NotifyMode::kOff;
    else if (text == "bell")
        mode = NotifyMode::kBell;
    else if (text == "desktop")
        mode = NotifyMode::kDesktop;
    else
        return false;
    return true;
}

std::string tmux_passthrough(std::string_view sequence) {
    std::string out = "\x1bPtmux;";
    for (char c : sequence) {
        if (c == '\x1b') out += '\x1b';
        out += c;
    }
    return out + "\x1b\\";
}

std::string notification_bytes(NotifyMode mode, std::string_view text, bool in_tmux) {
    switch (mode) {
        case NotifyMode::kOff:
            return {};
        case NotifyMode::kBell:
            return "\a";  // tmux passes a bell on itself (its bell-action)
        case NotifyMode::kDesktop:
            break;
    }
    const std::string body = safe_text(text);
    const std::string osc9 = "\x1b]9;" + body + "\a";
    const std::string osc777 = "\x1b]777;notify;runtop;" + body + "\a";
    if (in_tmux) return tmux_passthrough(osc9) + tmux_passthrough(osc777);
    return osc9 + osc777;
}

}  // namespace runtop::ui
