#include "tests/follower.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <stdexcept>
#include <vector>

#include "tests/test_support.h"

namespace runtop::testing {
namespace {

using Clock = std::chrono::steady_clock;

int ms_until(Clock::time_point deadline) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left < 0 ? 0 : static_cast<int>(left);
}

}  // namespace

Follower::Follower(const std::string& dir, const std::string& mode, bool as_nobody)
    : Follower(dir, FollowerOptions{mode, as_nobody, false, 0, {"dump", "--follow"}}) {}

Follower::Follower(const std::string& dir, FollowerOptions options) {
    int out[2], err[2] = {-1, -1};
    if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    if (!options.as_nobody && ::pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    // Everything the child needs is built before fork(): only async-signal-safe calls after.
    std::vector<std::string> args = {runtop_binary()};
    args.insert(args.end(), options.command.begin(), options.command.end());
    if (options.jsonl) args.insert(args.end(), {"--format", "jsonl"});
    if (!options.mode.empty()) args.push_back(options.mode);
    args.push_back(dir);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const rlimit files{options.max_open_files, options.max_open_files};
    pid_ = ::fork();
    if (pid_ == 0) {
        ::dup2(out[1], 1);
        ::dup2(options.as_nobody ? out[1] : err[1], 2);
        if (options.max_open_files != 0 && ::setrlimit(RLIMIT_NOFILE, &files) != 0) ::_exit(125);
        if (options.as_nobody && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(126);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(out[1]);
    out_fd_ = out[0];
    if (err[1] >= 0) {
        ::close(err[1]);
        err_fd_ = err[0];
    }
}

Follower::~Follower() {
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
    if (out_fd_ >= 0) ::close(out_fd_);
    if (err_fd_ >= 0) ::close(err_fd_);
}

bool Follower::read_some(int timeout_ms) {
    // stderr is drained with stdout: a child blocked on a full stderr pipe would print nothing.
    auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (out_fd_ >= 0 || err_fd_ >= 0) {
        pollfd p[2];
        int* fds[2];
        nfds_t n = 0;
        for (int* fd : {&out_fd_, &err_fd_}) {
            if (*fd < 0) continue;
            p[n] = pollfd{*fd, POLLIN, 0};
            fds[n++] = fd;
        }
        int ready = ::poll(p, n, ms_until(deadline));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return out_fd_ >= 0;
        bool got_out = false;
        for (nfds_t i = 0; i < n; ++i) {
            if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char buf[65536];
            ssize_t r = ::read(*fds[i], buf, sizeof buf);
            if (r <= 0) {
                ::close(*fds[i]);
                *fds[i] = -1;
                continue;
            }
            const bool is_out = fds[i] == &out_fd_;
            (is_out ? out_ : err_).append(buf, static_cast<std::size_t>(r));
            got_out = got_out || is_out;
        }
        if (got_out || ms_until(deadline) == 0) return out_fd_ >= 0;
    }
    return false;
}

bool Follower::wait_until(const std::function<bool(const std::string&)>& done, int timeout_ms) {
    auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!done(out_)) {
        int left = ms_until(deadline);
        if (left == 0 || !read_some(left)) return done(out_);
    }
    return true;
}

bool Follower::wait_for(const std::string& text, int timeout_ms) {
    return wait_until([&](const std::string& out) { return out.find(text) != std::string::npos; },
                      timeout_ms);
}

bool Follower::output_pipe_full() const {
    int queued = 0;
    const int capacity = out_fd_ >= 0 ? ::fcntl(out_fd_, F_GETPIPE_SZ) : -1;
    return capacity > 0 && ::ioctl(out_fd_, FIONREAD, &queued) == 0 && queued >= capacity;
}

int Follower::stop() {
    ::kill(pid_, SIGTERM);
    // What it prints while stopping is read first: a child blocked on a full pipe never exits.
    auto deadline = Clock::now() + std::chrono::seconds(30);
    while ((out_fd_ >= 0 || err_fd_ >= 0) && ms_until(deadline) > 0) read_some(ms_until(deadline));
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace runtop::testing
