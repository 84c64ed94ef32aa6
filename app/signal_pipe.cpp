#include "app/signal_pipe.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <map>

namespace runtop {
namespace {

// One pipe per process: signal handlers cannot carry state.
int g_pipe[2] = {-1, -1};
std::map<int, struct sigaction> g_saved;

void on_signal(int sig) {
    const int saved = errno;
    const unsigned char byte = static_cast<unsigned char>(sig);
    [[maybe_unused]] ssize_t n = ::write(g_pipe[1], &byte, 1);  // full pipe: dropped, harmless
    errno = saved;
}

}  // namespace

SignalPipe::SignalPipe(std::initializer_list<int> signals) : signals_(signals) {
    if (g_pipe[0] < 0 && ::pipe2(g_pipe, O_NONBLOCK | O_CLOEXEC) != 0) g_pipe[0] = g_pipe[1] = -1;
    struct sigaction sa = {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int sig : signals_) {
        struct sigaction old = {};
        ::sigaction(sig, &sa, &old);
        g_saved.emplace(sig, old);
    }
}

SignalPipe::~SignalPipe() {
    for (int sig : signals_) {
        auto it = g_saved.find(sig);
        if (it == g_saved.end()) continue;
        ::sigaction(sig, &it->second, nullptr);
        g_saved.erase(it);
    }
}

int SignalPipe::fd() const {
    return g_pipe[0];
}

std::vector<int> SignalPipe::take() {
    std::vector<int> out;
    unsigned char buf[64];
    ssize_t n;
    while ((n = ::read(g_pipe[0], buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; ++i) out.push_back(buf[i]);
    return out;
}

}  // namespace runtop
