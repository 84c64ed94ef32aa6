#include "app/signals.h"

#include <poll.h>
#include <signal.h>

#include <atomic>
#include <chrono>

namespace runtop {
namespace {

std::atomic<int> g_stop{0};  // the signal that asked, 0 while none did

void on_signal(int sig) {
    // SIGQUIT wins over an earlier stop: its end is the one asked for last.
    int none = 0;
    if (sig == SIGQUIT)
        g_stop.store(sig);
    else
        g_stop.compare_exchange_strong(none, sig);
}

}  // namespace

void install_stop_signals() {
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
        struct sigaction old = {};
        if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        struct sigaction sa = {};
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        // SA_RESTART: a write to a full pipe goes on instead of failing with EINTR, which
        // stdio takes for an error and drops the rest of its buffer. poll() still returns
        // early, so the loop sees the request at once.
        sa.sa_flags = SA_RESTART;
        // The second SIGQUIT takes the default action: out of a turn that never ends.
        if (sig == SIGQUIT) sa.sa_flags |= SA_RESETHAND;
        sigaction(sig, &sa, nullptr);
    }
}

bool stop_requested() {
    return g_stop.load() != 0;
}

void sleep_unless_stopped(int ms) {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!stop_requested()) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            until - std::chrono::steady_clock::now());
        if (left.count() <= 0) return;
        ::poll(nullptr, 0, static_cast<int>(std::min<long long>(left.count(), 50)));
    }
}

void finish_stop() {
    if (g_stop.load() != SIGQUIT) return;
    signal(SIGQUIT, SIG_DFL);
    raise(SIGQUIT);
}

}  // namespace runtop
