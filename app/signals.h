// Stop signals for the long-running commands that print or write (dump --follow, demo):
// SIGINT, SIGTERM, SIGHUP and SIGQUIT ask them to stop at the next turn, so what was read is
// printed whole and flushed, and the command ends cleanly (SIGQUIT then by its default action:
// finish_stop()). A signal ignored by whoever started runtop (nohup, a background job of a
// shell without job control) stays ignored.
#pragma once

namespace runtop {

void install_stop_signals();
bool stop_requested();
// Sleeps up to `ms`, returning early when a stop was requested.
void sleep_unless_stopped(int ms);
// Call once the command has stopped and flushed its output. When SIGQUIT asked for the stop,
// ends the process by SIGQUIT's default action (a core dump where enabled, the shell's "Quit"
// and status 131), as a SIGQUIT does; otherwise returns. A second SIGQUIT while the command
// finishes its turn ends it at once (the way out of a turn that never finishes).
void finish_stop();

}  // namespace runtop
