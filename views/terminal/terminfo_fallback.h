// The terminal description runtop carries for where the terminfo database cannot describe the
// terminal: a minimal container or chroot with no ncurses-base, a static runtop on a login node
// whose database lives somewhere unexpected, or a new emulator's $TERM (alacritty, xterm-kitty,
// wezterm) on an old host. Nearly every emulator speaks xterm-256color, so the dashboard starts
// with that entry rather than refusing to. ncurses reads entries only from files, so the entry
// is written to a private directory for the moment curses reads it, then removed.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace runtop::ui {

// ncurses 6.4's compiled xterm-256color (views/terminal/terminfo/xterm-256color.src, compiled
// by tic at build time).
std::string_view builtin_xterm_256color();

// A one-entry terminfo directory under $TMPDIR (or /tmp), removed by the destructor. Point
// TERMINFO at dir() and ask curses for "xterm-256color".
class FallbackTerminfo {
  public:
    static Result<FallbackTerminfo> create();
    FallbackTerminfo(FallbackTerminfo&& other) noexcept;
    FallbackTerminfo& operator=(FallbackTerminfo&&) = delete;
    FallbackTerminfo(const FallbackTerminfo&) = delete;
    ~FallbackTerminfo();

    const std::string& dir() const { return dir_; }
    static constexpr const char* kName = "xterm-256color";

  private:
    explicit FallbackTerminfo(std::string dir) : dir_(std::move(dir)) {}
    std::string dir_;  // "" once moved from
};

}  // namespace runtop::ui
