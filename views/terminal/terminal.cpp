// The ncurses side of the terminal layer. Everything curses is in this file; the escape-sequence
// decoding it falls back on is key_decode.*, the signal-time restore crash_guard.*.
#include "views/terminal/terminal.h"

#include <fmt/format.h>
#include <langinfo.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <map>
#include <optional>
#include <utility>

#include "core/format.h"
#include "views/terminal/crash_guard.h"
#include "views/terminal/key_decode.h"
#include "views/terminal/terminfo_fallback.h"

// Last, and without its function-like macros (erase(), clear(), move()...), which would
// otherwise rewrite any C++ call of the same name that follows.
#define NCURSES_WIDECHAR 1
#define NCURSES_NOMACROS 1
#include <curses.h>

namespace runtop::ui {
namespace {

// How theme colours become curses colour numbers.
enum class ColourMode {
    kNone,      // no colour: attributes only
    kAnsi8,     // to_ansi8
    kXterm256,  // to_xterm256
    kPalette,   // truecolor: each theme colour defined in a palette slot (init_extended_color)
    kDirect,    // a direct-colour terminfo entry (xterm-direct): the number is 0xRRGGBB
};

Rgb xterm256_rgb(int index) {
    if (index >= 232) {
        auto level = static_cast<std::uint8_t>(8 + 10 * (index - 232));
        return {level, level, level};
    }
    static constexpr std::uint8_t kCube[6] = {0, 95, 135, 175, 215, 255};
    int i = index - 16;
    return {kCube[i / 36], kCube[i / 6 % 6], kCube[i % 6]};
}

// A terminfo string usable as is in a signal handler: present, and without "$<..>" padding,
// which only tputs understands.
std::string plain_cap(const char* name) {
    const char* s = tigetstr(name);
    if (s == nullptr || s == reinterpret_cast<const char*>(-1) || std::strstr(s, "$<")) return "";
    return s;
}

struct RoleCell {
    bool ready = false;
    attr_t attrs = A_NORMAL;
    int pair = 0;
};

}  // namespace

struct Terminal::Impl {
    SCREEN* screen = nullptr;
    Theme theme;
    ColorTier tier = ColorTier::kNone;
    GlyphTier glyphs = GlyphTier::kAscii;
    ColourMode mode = ColourMode::kNone;
    bool mouse = false;
    bool ended = false;    // restore_terminal_now() left curses; present() resumes
    bool repaint = false;  // the screen's contents are unknown: clearok on the next present
    termios saved{};
    std::string restore_bytes;
    std::string note;  // set when the built-in xterm-256color stands in for $TERM

    std::array<RoleCell, kRoleCount> roles{};
    std::map<std::pair<int, int>, int> pairs;  // (fg, bg) → pair number
    int next_pair = 1;
    std::map<std::uint32_t, int> palette;  // kPalette: 0xRRGGBB → the slot defined for it
    int next_slot = 16;                    // slots 0..15 keep the user's ANSI colours
    std::optional<Canvas> previous;        // the last frame presented; nullopt: draw all

    int colour(Rgb c) {
        switch (mode) {
            case ColourMode::kNone:
                return -1;
            case ColourMode::kAnsi8:
                return to_ansi8(c);
            case ColourMode::kXterm256:
                return to_xterm256(c);
            case ColourMode::kDirect: {
                if (tier == ColorTier::k8) return to_ansi8(c);
                if (tier == ColorTier::k256) c = xterm256_rgb(to_xterm256(c));
                int rgb = c.r << 16 | c.g << 8 | c.b;
                // Values under 8 mean the ANSI colours in direct mode; #000001..#000007 are
                // indistinguishable from #000008.
                return std::max(rgb, 8);
            }
            case ColourMode::kPalette: {
                std::uint32_t key = static_cast<std::uint32_t>(c.r << 16 | c.g << 8 | c.b);
                if (auto it = palette.find(key); it != palette.end()) return it->second;
                // A theme has at most 2 x 28 colours, far below the 240 slots; should they run
                // out anyway, the ANSI colours (never redefined) are the fallback.
                if (next_slot >= std::min(COLORS, 256)) return to_ansi8(c);
                // curses takes 0..1000; rounding up makes its 0..255 conversion exact.
                auto scale = [](int v) { return (v * 1000 + 254) / 255; };
                if (init_extended_color(next_slot, scale(c.r), scale(c.g), scale(c.b)) != OK)
                    return to_ansi8(c);
                palette.emplace(key, next_slot);
                return next_slot++;
            }
        }
        return -1;
    }

    // The attributes and colour pair of a role, made on first use.
    const RoleCell& role(Role r) {
        RoleCell& cell = roles[static_cast<int>(r)];
        if (cell.ready) return cell;
        cell.ready = true;
        const RoleStyle& style = theme[r];
        cell.attrs = style.bold ? A_BOLD : A_NORMAL;
        if (mode == ColourMode::kNone) return cell;
        int fg = colour(style.fg);
        int bg = style.has_bg ? colour(style.bg) : -1;  // -1: the terminal's own background
        auto [it, added] = pairs.emplace(std::make_pair(fg, bg), next_pair);
        if (added) {
            if (next_pair >= COLOR_PAIRS || init_extended_pair(next_pair, fg, bg) != OK) {
                it->second = 0;
            } else {
                ++next_pair;
            }
        }
        cell.pair = it->second;
        return cell;
    }

    void put(int x, int y, char32_t ch, Style style) {
        const RoleCell& r = role(style.role);
        attr_t attrs = r.attrs;
        if (style.bold) attrs |= A_BOLD;
        if (style.reverse) attrs |= A_REVERSE;
        if (style.underline) attrs |= A_UNDERLINE;
        wchar_t text[2] = {static_cast<wchar_t>(ch), L'\0'};
        cchar_t cc;
        int pair = r.pair;
        setcchar(&cc, text, attrs, static_cast<short>(std::min(pair, 32767)), &pair);
        mvwadd_wch(stdscr, y, x, &cc);
    }

    // One canvas cell at (x, y); `cols` is the screen's width. Never hands curses a control
    // character, and never a glyph whose width the C library sees differently from the
    // canvas (curses places glyphs by wcwidth; a disagreement would shift the rest of the row).
    void draw_cell(const Canvas& canvas, int x, int y, int cols) {
        const Cell& cell = canvas.at(x, y);
        char32_t ch = cell.ch;
        if (ch == 0) {
            // The right half of the wide glyph to its left, which drew it; alone, a blank.
            if (x > 0 && codepoint_width(canvas.at(x - 1, y).ch) == 2) return;
            ch = U' ';
        }
        int width = codepoint_width(ch);
        bool control = ch < 0x20 || (ch >= 0x7f && ch < 0xa0) || (ch >= 0xd800 && ch < 0xe000) ||
                       ch > 0x10ffff;
        if (control || width == 0) {
            ch = U'?';
            width = 1;
        }
        bool substitute = false;
        if (ch >= 0x80 && ::wcwidth(static_cast<wchar_t>(ch)) != width) substitute = true;
        // A wide glyph needs its right half on screen (and on the canvas).
        if (width == 2 && (x + 1 >= cols || canvas.at(x + 1, y).ch != 0)) substitute = true;
        if (!substitute) {
            put(x, y, ch, cell.style);
            return;
        }
        put(x, y, U'?', cell.style);
        if (width == 2 && x + 1 < cols && canvas.at(x + 1, y).ch == 0)
            put(x + 1, y, U' ', cell.style);
    }

    void forget_frame() {
        previous.reset();
        repaint = true;
    }
};

namespace {

Terminal::Impl* g_open = nullptr;

constexpr std::string_view kMouseOn = "\x1b[?1000h\x1b[?1006h";
constexpr std::string_view kMouseOff = "\x1b[?1006l\x1b[?1000l";

// Straight to the terminal: curses has flushed everything it wrote by the time this runs (at
// open, after doupdate, before endwin).
void write_all(std::string_view s) {
    while (!s.empty()) {
        ssize_t w = ::write(STDOUT_FILENO, s.data(), s.size());
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        s.remove_prefix(static_cast<std::size_t>(w));
    }
}

void mouse_reports(bool on) {
    write_all(on ? kMouseOn : kMouseOff);
}

// Cleared before the alternate screen is left: tmux, restoring the main screen after the
// window was resized, pushes what the alternate one showed into the scrollback (20 lines of
// dashboard above the prompt after widening 120 to 200 columns; vim and less clear first).
// Nothing without an alternate screen: there the last frame stays, as the user saw it.
std::string clear_before_leaving() {
    if (plain_cap("rmcup").empty()) return {};
    const std::string clear = plain_cap("clear");
    return clear.empty() ? std::string("\x1b[H\x1b[2J") : clear;
}

// curses is done (endwin restores the modes and leaves the alternate screen): the screen
// cleared first, the mouse reports off.
void end_curses(bool mouse) {
    if (mouse) mouse_reports(false);
    write_all(clear_before_leaving());
    ::endwin();
}

void at_exit_hook() {
    restore_terminal_now();
}

// What the crash guard writes: terminfo's own strings where it has them (reset attributes,
// keypad transmit off, cursor visible, palette back, alternate screen off: last, so the
// output ends with it), mouse reporting off in every mode xterm knows.
std::string restore_sequence(bool mouse, bool palette) {
    std::string out = plain_cap("sgr0");
    if (out.empty()) out = "\x1b[0m";
    if (mouse) out += "\x1b[?1006l\x1b[?1000l\x1b[?1002l\x1b[?1003l";
    out += plain_cap("rmkx");
    std::string cnorm = plain_cap("cnorm");
    out += cnorm.empty() ? "\x1b[?25h" : cnorm;
    if (palette) out += plain_cap("oc");
    out += clear_before_leaving();
    out += plain_cap("rmcup");
    return out;
}

// The user's locale; when it names a UTF-8 locale this host lacks (LANG=en_US.UTF-8 carried
// over SSH to a login node that has only C.UTF-8, or a static runtop whose glibc cannot read the
// host's locale archive), C.UTF-8 for the character type, so the terminal still gets UTF-8 rather
// than ASCII glyphs. A locale that is not UTF-8 by choice is kept.
void set_locale() {
    const bool loaded = std::setlocale(LC_ALL, "") != nullptr;
    const char* codeset = ::nl_langinfo(CODESET);
    if (loaded && codeset && std::string_view(codeset) == "UTF-8") return;
    std::string_view wanted;
    for (const char* name : {"LC_ALL", "LC_CTYPE", "LANG"}) {
        const char* v = std::getenv(name);
        if (v && *v) {
            wanted = v;
            break;
        }
    }
    auto has = [&](std::string_view s) { return wanted.find(s) != std::string_view::npos; };
    if (has("UTF-8") || has("utf8") || has("UTF8") || has("utf-8"))
        if (std::setlocale(LC_CTYPE, "C.UTF-8") == nullptr) std::setlocale(LC_CTYPE, "C.utf8");
}

// TERM=dumb (and emacs' "dumb" shells) says there is no cursor to move: no stand-in for it.
bool is_dumb(std::string_view term) {
    return term == "dumb" || term.starts_with("dumb-");
}

// $TERM is unknown here, or there is no terminfo database at all: curses on the built-in
// xterm-256color (views/terminal/terminfo_fallback.h), with TERMINFO pointing at it only while
// curses reads it. `note` says what happened, for the status line.
Result<SCREEN*> newterm_builtin(std::string& note, std::string_view term) {
    Result<FallbackTerminfo> entry = FallbackTerminfo::create();
    if (!entry) return entry.error();
    const char* old = std::getenv("TERMINFO");
    const std::string saved = old ? old : "";
    ::setenv("TERMINFO", entry->dir().c_str(), 1);
    SCREEN* screen = ::newterm(FallbackTerminfo::kName, stdout, stdin);
    if (old) {
        ::setenv("TERMINFO", saved.c_str(), 1);
    } else {
        ::unsetenv("TERMINFO");
    }
    if (screen == nullptr) return Error{"curses refused the built-in xterm-256color"};
    note =
        fmt::format("TERM={} has no terminfo entry here: drawing as xterm-256color", visible(term));
    return screen;
}

}  // namespace

Terminal::Terminal(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<Terminal>> Terminal::open(const TerminalOptions& options) {
    if (g_open) return Error{"the terminal is already open"};
    if (!::isatty(STDIN_FILENO) || !::isatty(STDOUT_FILENO))
        return Error{
            "the dashboard needs a terminal: stdin and stdout must be a tty (ls, dump, check and "
            "snapshot work without one)"};
    Result<Theme> theme = load_theme(options.theme);
    if (!theme) return theme.error();

    auto impl = std::make_unique<Impl>();
    impl->theme = std::move(*theme);
    // curses changes the modes of its output descriptor; this is what the crash guard puts back.
    if (::tcgetattr(STDOUT_FILENO, &impl->saved) != 0)
        return Error{fmt::format("cannot read the terminal's modes: {}", std::strerror(errno))};

    // Before newterm: ncursesw decides from the locale whether to speak UTF-8.
    set_locale();
    const char* term = std::getenv("TERM");
    if (term == nullptr || *term == '\0')
        return Error{"TERM is not set: cannot start the dashboard (try TERM=xterm-256color)"};
    // newterm, not initscr: initscr exits the process when the terminal is unknown.
    impl->screen = ::newterm(nullptr, stdout, stdin);
    if (impl->screen == nullptr && !is_dumb(term)) {
        Result<SCREEN*> builtin = newterm_builtin(impl->note, term);
        if (!builtin)
            return Error{fmt::format(
                "cannot start the dashboard on terminal type \"{}\" (TERM): unknown to terminfo "
                "here, and the built-in xterm-256color could not be used ({}); try "
                "TERM=xterm-256color",
                visible(term), builtin.error().message)};
        impl->screen = *builtin;
    }
    const std::string no_cursor = fmt::format(
        "cannot start the dashboard on terminal type \"{}\" (TERM): unable to move the cursor "
        "(try TERM=xterm-256color)",
        visible(term));
    if (impl->screen == nullptr) return Error{no_cursor};
    ::set_term(impl->screen);
    // curses starts on TERM=dumb too, drawing line by line: a dashboard needs cursor addressing.
    if (plain_cap("cup").empty()) {
        ::endwin();
        ::delscreen(impl->screen);
        impl->screen = nullptr;
        ::tcsetattr(STDOUT_FILENO, TCSADRAIN, &impl->saved);
        return Error{no_cursor};
    }

    const char* codeset = ::nl_langinfo(CODESET);
    impl->glyphs = choose_glyph_tier(options.ascii, options.glyphs, codeset ? codeset : "", term);
    int colors = ::tigetnum("colors");
    impl->tier = choose_color_tier(options.color, std::getenv("NO_COLOR"), term,
                                   std::getenv("COLORTERM"), colors > 0 ? colors : 0);
    if (!::has_colors()) impl->tier = ColorTier::kNone;
    if (impl->tier != ColorTier::kNone) {
        ::start_color();
        // Roles without a background show the terminal's own (pair colour -1).
        ::use_default_colors();
        bool direct = COLORS >= 0x1000000;
        if (impl->tier == ColorTier::kTrue && !direct && COLORS >= 256 && ::can_change_color()) {
            // Truecolor through a 256-colour entry: theme colours are defined exactly in palette
            // slots 16.. (endwin resets the palette, terminfo "oc"). Direct-colour entries
            // (TERM=xterm-direct) are rare, so this is how COLORTERM=truecolor usually shows.
            impl->mode = ColourMode::kPalette;
        } else if (direct) {
            impl->mode = ColourMode::kDirect;
        } else if (impl->tier != ColorTier::k8 && COLORS >= 256) {
            // COLORTERM=truecolor on a terminal curses cannot redefine: the 256-colour
            // approximation, which is what the screen then shows.
            impl->mode = ColourMode::kXterm256;
            impl->tier = ColorTier::k256;
        } else if (COLORS >= 8) {
            impl->mode = ColourMode::kAnsi8;
            impl->tier = ColorTier::k8;
        } else {
            impl->tier = ColorTier::kNone;
        }
    }

    // From here on a crash must leave the terminal usable.
    static const bool registered = (std::atexit(at_exit_hook), true);
    (void)registered;
    g_open = impl.get();
    // raw: Ctrl-C and Ctrl-Z arrive as keys, so quitting is the app's own clean path.
    ::raw();
    ::noecho();
    ::nonl();
    ::keypad(stdscr, TRUE);
    ::nodelay(stdscr, TRUE);
    ::intrflush(stdscr, FALSE);
    ::leaveok(stdscr, TRUE);  // the cursor is hidden: never spend bytes moving it back
    ::curs_set(0);
    ::set_escdelay(25);  // a lone Esc ("back") answers in 25 ms, not curses' default second
    // The mouse is runtop's, not curses': with mousemask, a press and its release that reach
    // curses in one read (a quick click while a frame was being drawn) vanish together, even
    // with BUTTON1_CLICKED and any mouseinterval (measured with ncurses 6.4). So when terminfo
    // says the terminal reports a mouse (kmous), curses stops matching those reports
    // (keyok), runtop turns on xterm's press reports in SGR encoding, and read_escape()
    // decodes them (key_decode.cpp: presses and wheel steps; releases and motion dropped).
    if (options.mouse && !plain_cap("kmous").empty()) {
        ::keyok(KEY_MOUSE, FALSE);
        impl->mouse = true;
        mouse_reports(true);
    }
    impl->restore_bytes = restore_sequence(impl->mouse, impl->mode == ColourMode::kPalette);
    detail::arm_crash_guard(STDOUT_FILENO, impl->saved, impl->restore_bytes);
    return std::unique_ptr<Terminal>(new Terminal(std::move(impl)));
}

Terminal::~Terminal() {
    if (!impl_->ended) end_curses(impl_->mouse);
    ::delscreen(impl_->screen);
    detail::disarm_crash_guard();
    g_open = nullptr;
}

void restore_terminal_now() {
    Terminal::Impl* t = g_open;
    if (t == nullptr || t->ended) return;
    end_curses(t->mouse);
    t->ended = true;
    detail::pause_crash_guard();
}

int Terminal::width() const {
    return getmaxx(stdscr);
}

int Terminal::height() const {
    return getmaxy(stdscr);
}

ColorTier Terminal::color_tier() const {
    return impl_->tier;
}

const std::string& Terminal::note() const {
    return impl_->note;
}

GlyphTier Terminal::glyph_tier() const {
    return impl_->glyphs;
}

int Terminal::input_fd() const {
    return STDIN_FILENO;
}

void Terminal::resize() {
    winsize ws{};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
        ::resize_term(ws.ws_row, ws.ws_col);
    // The terminal reflowed or cleared what it showed: repaint everything next time.
    impl_->forget_frame();
}

void Terminal::present(const Canvas& canvas, bool force) {
    Impl& t = *impl_;
    bool resumed = t.ended;
    if (t.ended) {
        // Back from restore_terminal_now(): doupdate() resumes curses' modes; the rest is ours.
        detail::arm_crash_guard(STDOUT_FILENO, t.saved, t.restore_bytes);
        t.ended = false;
        t.forget_frame();
    }
    int cols = getmaxx(stdscr), rows = getmaxy(stdscr);
    int w = std::min(canvas.width(), cols), h = std::min(canvas.height(), rows);
    const Canvas* before = t.previous ? &*t.previous : nullptr;
    bool all = force || before == nullptr || before->width() != canvas.width() ||
               before->height() != canvas.height();
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (all || canvas.at(x, y) != before->at(x, y)) t.draw_cell(canvas, x, y, cols);
    if (force || t.repaint) ::clearok(curscr, TRUE);
    ::wnoutrefresh(stdscr);
    ::doupdate();
    if (resumed && t.mouse) mouse_reports(true);
    t.repaint = false;
    t.previous = canvas;
}

void Terminal::write_between_frames(std::string_view bytes) {
    if (!impl_->ended) write_all(bytes);  // with the screen given back, the shell's
}

namespace {

// After ESC: an escape sequence curses did not know, Alt and a character, or Esc alone.
std::optional<InputEvent> read_escape() {
    wint_t c = 0;
    int r = ::wget_wch(stdscr, &c);
    if (r == ERR) return InputEvent::named("Esc");
    if (r == KEY_CODE_YES) {
        ::ungetch(static_cast<int>(c));
        return InputEvent::named("Esc");
    }
    if (c == U'[' || c == U'O') {
        // curses waited ESCDELAY already; the rest of a sequence is in its queue. Read up to
        // the final byte (or, for SS3, one character) and drop what runtop has no use for.
        std::string seq(1, static_cast<char>(c));
        bool csi = c == U'[';
        for (int n = 0; n < 64; ++n) {
            r = ::wget_wch(stdscr, &c);
            if (r == ERR) {
                if (seq == "O") return InputEvent::named("Alt-O");
                return std::nullopt;  // cut short: nothing sensible to report
            }
            if (r == KEY_CODE_YES || c >= 0x80) return std::nullopt;
            seq += static_cast<char>(c);
            if (!csi) break;
            if (seq == "[M") {  // X10 mouse: three raw bytes follow
                for (int i = 0; i < 3 && ::wget_wch(stdscr, &c) == OK; ++i)
                    seq += static_cast<char>(c & 0xff);
                break;
            }
            if (seq.size() > 1 && c >= 0x40 && c <= 0x7e) break;
        }
        return decode_escape(seq);
    }
    if (c < 0x20 || c == 0x7f) {
        ::unget_wch(static_cast<wchar_t>(c));
        return InputEvent::named("Esc");
    }
    std::optional<InputEvent> key = decode_char(static_cast<char32_t>(c));
    if (!key) return InputEvent::named("Esc");
    // Esc then a key within ESCDELAY is no human typing: the terminal's Alt (meta sends ESC).
    return InputEvent::named("Alt-" + key->key);
}

std::optional<std::string> key_code_name(int code) {
    if (code >= KEY_F(1) && code <= KEY_F(63)) return fmt::format("F{}", code - KEY_F0);
    switch (code) {
        case KEY_UP:
            return "Up";
        case KEY_DOWN:
            return "Down";
        case KEY_LEFT:
            return "Left";
        case KEY_RIGHT:
            return "Right";
        case KEY_SLEFT:
            return "Shift-Left";
        case KEY_SRIGHT:
            return "Shift-Right";
        case KEY_SR:
            return "Shift-Up";
        case KEY_SF:
            return "Shift-Down";
        case KEY_PPAGE:
        case KEY_A3:
            return "PgUp";
        case KEY_NPAGE:
        case KEY_C3:
            return "PgDn";
        case KEY_HOME:
        case KEY_A1:
            return "Home";
        case KEY_END:
        case KEY_C1:
        case KEY_LL:
            return "End";
        case KEY_SHOME:
            return "Shift-Home";
        case KEY_SEND:
            return "Shift-End";
        case KEY_ENTER:
            return "Enter";
        case KEY_BACKSPACE:
            return "Backspace";
        case KEY_BTAB:
            return "BackTab";
        case KEY_DC:
            return "Delete";
        case KEY_IC:
            return "Insert";
        default:
            break;
    }
    // Keys terminfo defines as extended capabilities (Ctrl-Up is "kUP5").
    if (code > KEY_MAX) {
        const char* name = ::keyname(code);
        if (name) return decode_extended_key_name(name);
    }
    return std::nullopt;
}

}  // namespace

std::optional<InputEvent> Terminal::read_input() {
    for (;;) {
        wint_t c = 0;
        int r = ::wget_wch(stdscr, &c);
        if (r == ERR) return std::nullopt;
        std::optional<InputEvent> event;
        if (r == KEY_CODE_YES) {
            int code = static_cast<int>(c);
            if (code == KEY_RESIZE) {
                // curses resized itself (its SIGWINCH handler): only our copy is stale.
                impl_->forget_frame();
                event = InputEvent::named("Resize");
            } else if (std::optional<std::string> name = key_code_name(code)) {
                event = InputEvent::named(std::move(*name));
            }
        } else if (c == 27) {
            event = read_escape();
        } else {
            event = decode_char(static_cast<char32_t>(c));
        }
        if (event) return event;
        // Nothing runtop uses (a mouse release, a focus report, an unknown key): look at what
        // follows rather than stop while input remains.
    }
}

}  // namespace runtop::ui
