// SIGINT/SIGTERM ask long-running commands (dump --follow, demo) to stop at the next turn.
#pragma once

namespace runtop {

void install_stop_signals();
bool stop_requested();
// Sleeps up to `ms`, returning early when a stop was requested.
void sleep_unless_stopped(int ms);

}  // namespace runtop
