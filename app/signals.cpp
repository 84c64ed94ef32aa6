#include "app/signals.h"

#include <poll.h>
#include <signal.h>

#include <atomic>
#include <chrono>

namespace runtop {
namespace {

std::atomic<bool> g_stop{false};

void on_signal(int) { g_stop.store(true); }

}  // namespace

void install_stop_signals() {
    struct sigaction sa = {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

bool stop_requested() { return g_stop.load(); }

void sleep_unless_stopped(int ms) {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!stop_requested()) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            until - std::chrono::steady_clock::now());
        if (left.count() <= 0) return;
        ::poll(nullptr, 0, static_cast<int>(std::min<long long>(left.count(), 50)));
    }
}

}  // namespace runtop
