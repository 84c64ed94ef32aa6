// The one owner of ncurses (wide-char): opens the screen, copies a Canvas to it, decodes input
// into InputEvents, and restores the terminal on every exit path (normal return, exceptions,
// fatal signals: SIGSEGV/SIGBUS/SIGABRT/SIGFPE/SIGILL restore and re-raise; SIGTERM/SIGINT/
// SIGHUP are the event loop's, through its self-pipe). Nothing else in runtop includes curses.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

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
    std::string glyphs;          // --glyphs braille|blocks|ascii; "" = from the locale and TERM
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
    // Something the user should know about how the terminal was opened ("" when nothing): the
    // built-in xterm-256color standing in for a $TERM terminfo does not know.
    const std::string& note() const;

    // The descriptor the event loop polls for input (stdin).
    int input_fd() const;
    // Decodes whatever input is pending, without blocking; nullopt when none is left. Call it
    // until nullopt on every wake-up: curses keeps bytes of its own (a sequence it has
    // started to match), which poll() on input_fd() cannot see.
    // Keys take the action table's names (views/actions.cpp). A printable character has
    // text = true and is its UTF-8 as key, except the space bar: key "Space" (the table's
    // name) with text = true, so a prompt inserts " " for it. Esc arrives after 25 ms
    // (ESCDELAY); escape sequences nobody asked for (focus reports, mouse releases) are
    // dropped whole, never delivered as stray keys. Ctrl-C is the key "Ctrl-C" (raw mode: no
    // SIGINT from the keyboard). Mouse: presses and wheel steps, at 0-based cells. "Resize":
    // curses noticed a new size itself (its own SIGWINCH handler, when the app has none);
    // width() and height() already tell it and the next present() repaints everything.
    std::optional<InputEvent> read_input();
    // After SIGWINCH: asks the kernel for the new size and resizes curses (resize_term).
    void resize();
    // Copies the canvas to the screen: only cells that differ from the last frame are touched,
    // then wnoutrefresh + one doupdate. `force` (Ctrl-L) repaints everything.
    void present(const Canvas& canvas, bool force = false);
    // Bytes straight to the terminal (a bell, a notification: views/terminal/notify.h), after
    // present() has flushed a frame and before the next: never inside one.
    void write_between_frames(std::string_view bytes);

    struct Impl;  // opaque: terminal.cpp's (the curses state)

  private:
    explicit Terminal(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// Puts the terminal back as it was (endwin: cooked mode, main screen, cursor, mouse off)
// while a Terminal is open, so a fatal error printed next is readable; does nothing
// otherwise. A later present() resumes the screen. Also runs from an atexit hook, so exit()
// with a Terminal still open restores it too.
void restore_terminal_now();

}  // namespace runtop::ui
