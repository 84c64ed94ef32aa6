// The process-wide part of restoring the terminal: fatal signals (SIGSEGV, SIGBUS, SIGABRT,
// SIGFPE, SIGILL, and SIGQUIT, which ends a process as abruptly) and std::terminate write
// bytes prepared in advance (leave the alternate screen, show the cursor, reset attributes,
// mouse reporting off) and put back the termios saved before curses started, then hand over to
// whatever handled them before (the default action, ASan's reporter, a debugger's).
// Async-signal-safe: write(2) and tcsetattr(3) only. No curses here: the Terminal prepares the
// bytes from terminfo.
#pragma once

#include <termios.h>

#include <string_view>

namespace runtop::ui::detail {

// Installs the handlers (once; they stay until disarm) and remembers what to restore: `bytes`
// written to `tty_fd`, then `saved` set on it. Re-arming replaces the bytes.
void arm_crash_guard(int tty_fd, const termios& saved, std::string_view bytes);
// Nothing to restore any more (the terminal was restored cleanly); the handlers stay but pass
// straight through.
void pause_crash_guard();
// Puts back the handlers that were there before arm_crash_guard.
void disarm_crash_guard();
// Writes the bytes and the termios if armed, at most once per arming. Async-signal-safe.
void emergency_restore();

}  // namespace runtop::ui::detail
