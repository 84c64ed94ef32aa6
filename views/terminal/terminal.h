// The one owner of ncurses (wide-char): opens the screen, copies a Canvas to it, decodes input
// into InputEvents, and restores the terminal on every exit path (normal return, exceptions,
// fatal signals: SIGSEGV/SIGBUS/SIGABRT/SIGFPE/SIGILL restore and re-raise; SIGTERM/SIGINT/
// SIGHUP are the event loop's, through its self-pipe). Nothing else in runtop includes curses.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/result.h"
#include "views/canvas.h"
#include "views/glyphs.h"
#include "views/input.h"
#include "views/theme.h"

namespace runtop::ui {

struct TerminalOptions {
    std::string color = "auto";  // --color never|auto|always
    std::string theme;           // --theme / config; "" = dark
    bool ascii = false;          // --ascii
    bool mouse = true;
};

class Terminal {
  public:
    // Fails (a value, not an exit) when stdin/stdout is not a terminal or curses cannot start.
    static Result<std::unique_ptr<Terminal>> open(const TerminalOptions& options);
    ~Terminal();  // endwin(): the terminal as it was
    Terminal(const Terminal&) = delete;
    Terminal& operator=(const Terminal&) = delete;

    int width() const;
    int height() const;
    ColorTier color_tier() const;
    GlyphTier glyph_tier() const;  // from the locale's codeset and --ascii

    // The descriptor the event loop polls for input (stdin).
    int input_fd() const;
    // Decodes whatever input is pending, without blocking; nullopt when none is left.
    std::optional<InputEvent> read_input();
    // After SIGWINCH: asks the kernel for the new size and resizes curses (resize_term).
    void resize();
    // Copies the canvas to the screen: only cells that differ from the last frame are touched,
    // then wnoutrefresh + one doupdate. `force` (Ctrl-L) repaints everything.
    void present(const Canvas& canvas, bool force = false);
};

}  // namespace runtop::ui
