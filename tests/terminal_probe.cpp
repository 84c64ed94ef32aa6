// runtop_terminal_probe: the Terminal in a process of its own, for terminal_test.cpp, which
// runs it on a pseudo-terminal. Usage: runtop_terminal_probe MODE REPORT_FD
// It opens the Terminal, presents a frame with wide glyphs and colours, and writes what it
// did to REPORT_FD, one line each ("open-failed <message>", "opened <colour> <glyphs> <w>x<h>",
// "frame1", "key <name> <text 0|1>", "mouse <x> <y> <button>", "frame2"), so the test never has
// to guess from the screen bytes. MODE:
//   keys       reports every input event until the key "!", presents a frame with one cell
//              changed, reports events until ".", then returns normally (the Terminal's
//              destructor restores)
//   segv       after the first frame: a real fault (a store to an unmapped address)
//   abort      after the first frame: std::abort()
//   terminate  after the first frame: an exception nobody catches
//   exit       after the first frame: std::exit(7) with the Terminal still open (atexit hook)
//   quit       after the first frame: kill(getpid(), SIGQUIT), as `kill -QUIT` does
//   quit-key   after the first frame: turns ISIG back on, reports "isig" and waits for the
//              test's Ctrl-\, which the tty turns into SIGQUIT (si_code SI_KERNEL)
//   quit-ignored  starts with SIGQUIT ignored (as a background job of a shell without job
//              control does); after the first frame: kill(getpid(), SIGQUIT), reports
//              "survived", presents the second frame, reports "frame2" and returns normally
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "views/terminal/terminal.h"

namespace {

using runtop::ui::Canvas;
using runtop::ui::InputEvent;
using runtop::ui::MouseButton;
using runtop::ui::Role;
using runtop::ui::Style;

int g_report = -1;
runtop::ui::Terminal* g_kept = nullptr;  // exit mode: still reachable, so no leak report

void report(const std::string& line) {
    std::string out = line + "\n";
    const char* p = out.data();
    std::size_t n = out.size();
    while (n > 0) {
        ssize_t w = ::write(g_report, p, n);
        if (w <= 0) return;
        p += w;
        n -= static_cast<std::size_t>(w);
    }
}

const char* button_name(MouseButton b) {
    switch (b) {
        case MouseButton::kLeft:
            return "left";
        case MouseButton::kMiddle:
            return "middle";
        case MouseButton::kRight:
            return "right";
        case MouseButton::kWheelUp:
            return "wheel-up";
        case MouseButton::kWheelDown:
            return "wheel-down";
        case MouseButton::kNone:
            break;
    }
    return "none";
}

void draw(Canvas& canvas, int count) {
    canvas.clear();
    canvas.text(0, 0, "runtop probe", Style{Role::kAlert, true});
    canvas.text(0, 1, "wide 漢字 braille ⣿⡇ é", Style{Role::kSeries1});
    canvas.text(0, 2, "count " + std::to_string(count), Style{Role::kText});
    canvas.text(0, 3, "heat", Style{Role::kHeat7, false, true});
    canvas.box(0, 5, 30, 4, Style{Role::kBorder}, "box");
}

// A fault the sanitizers do not intercept first: address 16 is not null (UBSan's check) and
// never mapped.
void fault() {
    volatile std::uintptr_t address = 16;
    *reinterpret_cast<volatile int*>(address) = 1;
}

[[noreturn]] void uncaught() {
    throw std::runtime_error("probe: deliberately uncaught");
}

}  // namespace

// LeakSanitizer (ASan builds): ncurses keeps the terminfo it read for a terminal newterm then
// refused (libtinfo's new_prescr), with no call to free it; not runtop's to fix.
extern "C" const char* __lsan_default_suppressions() {
    return "leak:new_prescr\n";
}

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    std::string mode = argv[1];
    g_report = std::atoi(argv[2]);
    // The crash modes must not leave core files in the test's directory.
    rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);

    if (mode == "quit-ignored") ::signal(SIGQUIT, SIG_IGN);

    auto opened = runtop::ui::Terminal::open(runtop::ui::TerminalOptions{});
    if (!opened) {
        report("open-failed " + opened.error().message);
        return 3;
    }
    std::unique_ptr<runtop::ui::Terminal> term = std::move(*opened);
    report("opened " + std::string(color_tier_name(term->color_tier())) + " " +
           std::string(glyph_tier_name(term->glyph_tier())) + " " + std::to_string(term->width()) +
           "x" + std::to_string(term->height()));

    Canvas canvas(term->width(), term->height());
    draw(canvas, 1);
    term->present(canvas);
    report("frame1");

    if (mode == "segv") fault();
    if (mode == "abort") std::abort();
    if (mode == "terminate") uncaught();
    if (mode == "exit") {
        g_kept = term.release();  // still open when exit() runs
        std::exit(7);
    }
    if (mode == "quit" || mode == "quit-ignored") ::kill(::getpid(), SIGQUIT);
    if (mode == "quit-ignored") {
        report("survived");
        draw(canvas, 2);
        term->present(canvas);
        report("frame2");
        return 0;
    }
    if (mode == "quit-key") {
        termios modes{};
        ::tcgetattr(STDIN_FILENO, &modes);
        modes.c_lflag |= ISIG;
        ::tcsetattr(STDIN_FILENO, TCSANOW, &modes);
        report("isig");
        pollfd p{term->input_fd(), POLLIN, 0};
        ::poll(&p, 1, 10000);
        return 5;  // the key did not end the probe
    }
    if (mode == "quit") return 5;

    // Reports events until the key `last`; false when the test stopped talking.
    auto events_until = [&](const std::string& last) {
        for (;;) {
            pollfd p{term->input_fd(), POLLIN, 0};
            int ready = ::poll(&p, 1, 10000);
            if (ready < 0 && errno == EINTR) continue;  // SIGWINCH: curses queues KEY_RESIZE
            if (ready <= 0) return false;
            while (std::optional<InputEvent> e = term->read_input()) {
                if (e->kind == InputEvent::Kind::kMouse) {
                    report("mouse " + std::to_string(e->x) + " " + std::to_string(e->y) + " " +
                           button_name(e->button));
                    continue;
                }
                report("key " + e->key + (e->text ? " 1" : " 0"));
                if (e->key == last) return true;
            }
        }
    };
    if (!events_until("!")) return 4;
    draw(canvas, 2);  // one cell changes: "count 1" → "count 2"
    term->present(canvas);
    report("frame2");
    // Exits only when told, so the test can count the second frame's bytes alone.
    if (!events_until(".")) return 4;
    return 0;
}
