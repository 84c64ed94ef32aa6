#include "views/terminal/crash_guard.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>

namespace runtop::ui::detail {
namespace {

// SIGQUIT is not a crash, but it ends the process (and dumps core) with no chance to clean
// up, like one: the terminal must come back all the same.
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGQUIT};
constexpr int kSignalCount = sizeof(kSignals) / sizeof(kSignals[0]);

// Everything the handler reads is plain static storage, written only while no handler can
// use it (armed == 0), so a signal never sees half an update.
std::atomic<int> g_armed{0};
int g_fd = -1;
termios g_saved{};
char g_bytes[512];
std::size_t g_length = 0;

bool g_installed = false;
struct sigaction g_previous[kSignalCount];
std::terminate_handler g_previous_terminate = nullptr;

// A stack overflow faults with no stack left for the handler: give it one, unless someone
// (ASan) already did.
alignas(16) char g_alt_stack[64 * 1024];

void write_all(int fd, const char* p, std::size_t n) {
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return;
        }
        p += w;
        n -= static_cast<std::size_t>(w);
    }
}

int slot_of(int sig) {
    for (int i = 0; i < kSignalCount; ++i)
        if (kSignals[i] == sig) return i;
    return -1;
}

void on_fatal_signal(int sig, siginfo_t* info, void*) {
    int saved_errno = errno;
    emergency_restore();
    int slot = slot_of(sig);
    if (slot >= 0) sigaction(sig, &g_previous[slot], nullptr);
    errno = saved_errno;
    // A fault raised by the kernel (si_code > 0: SEGV_MAPERR, FPE_INTDIV...) happens again when
    // we return, now meeting the previous handler with the real fault address, which is what
    // ASan and debuggers want to see. A sent signal (abort(), kill, the tty's Ctrl-\ whose
    // si_code is SI_KERNEL) is sent again; it stays blocked until we return.
    const bool fault = sig != SIGABRT && sig != SIGQUIT;
    if (fault && info && info->si_code > 0) return;
    raise(sig);
}

void on_terminate() {
    emergency_restore();
    std::terminate_handler next = g_previous_terminate;
    if (next) next();
    std::abort();
}

}  // namespace

void emergency_restore() {
    if (g_armed.exchange(0) == 0) return;
    write_all(g_fd, g_bytes, g_length);
    tcsetattr(g_fd, TCSANOW, &g_saved);
}

void arm_crash_guard(int tty_fd, const termios& saved, std::string_view bytes) {
    g_armed.store(0);
    g_fd = tty_fd;
    g_saved = saved;
    g_length = bytes.size() < sizeof g_bytes ? bytes.size() : sizeof g_bytes;
    std::memcpy(g_bytes, bytes.data(), g_length);
    if (!g_installed) {
        stack_t current{};
        if (sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
            stack_t mine{};
            mine.ss_sp = g_alt_stack;
            mine.ss_size = sizeof g_alt_stack;
            sigaltstack(&mine, nullptr);
        }
        struct sigaction action {};
        action.sa_sigaction = on_fatal_signal;
        sigemptyset(&action.sa_mask);
        // SA_RESETHAND: should anything go wrong in the handler, the next fault takes the
        // default action instead of looping.
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
        for (int i = 0; i < kSignalCount; ++i) {
            sigaction(kSignals[i], nullptr, &g_previous[i]);
            // A SIGQUIT ignored by whoever started us (a background job of a shell without job
            // control) stays ignored: it would end nothing.
            if (kSignals[i] == SIGQUIT && g_previous[i].sa_handler == SIG_IGN) continue;
            sigaction(kSignals[i], &action, nullptr);
        }
        g_previous_terminate = std::set_terminate(on_terminate);
        g_installed = true;
    }
    g_armed.store(1);
}

void pause_crash_guard() {
    g_armed.store(0);
}

void disarm_crash_guard() {
    g_armed.store(0);
    if (!g_installed) return;
    for (int i = 0; i < kSignalCount; ++i) {
        // Only where ours is still the handler: one installed after us stays.
        struct sigaction current {};
        if (sigaction(kSignals[i], nullptr, &current) == 0 && (current.sa_flags & SA_SIGINFO) &&
            current.sa_sigaction == on_fatal_signal)
            sigaction(kSignals[i], &g_previous[i], nullptr);
    }
    if (std::get_terminate() == on_terminate) std::set_terminate(g_previous_terminate);
    g_installed = false;
}

}  // namespace runtop::ui::detail
