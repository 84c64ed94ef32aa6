#include "tests/tmux_session.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

#include "tests/test_support.h"

namespace runtop::testing {

namespace {

bool executable_on_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        std::size_t end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        std::string candidate = dirs.substr(start, end - start) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) return true;
        start = end + 1;
    }
    return false;
}

bool terminfo_exists(const std::string& name) {
    if (name.empty()) return false;
    for (const char* dir :
         {"/usr/share/terminfo", "/lib/terminfo", "/etc/terminfo", "/usr/lib/terminfo"}) {
        std::string path = std::string(dir) + "/" + name[0] + "/" + name;
        if (::access(path.c_str(), R_OK) == 0) return true;
    }
    return false;
}

std::string unique_socket_name() {
    static std::atomic<int> counter{0};
    return "runtop-e2e-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

}  // namespace

ProcessOutput run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>* env) {
    ProcessOutput result;
    int out[2], err[2];
    if (argv.empty() || ::pipe(out) != 0) return result;
    if (::pipe(err) != 0) {
        ::close(out[0]);
        ::close(out[1]);
        return result;
    }
    pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        ::close(out[0]);
        ::close(out[1]);
        ::close(err[0]);
        ::close(err[1]);
        int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull >= 0) ::dup2(devnull, 0);
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        if (env) {
            std::vector<char*> envp;
            for (const std::string& e : *env) envp.push_back(const_cast<char*>(e.c_str()));
            envp.push_back(nullptr);
            ::execvpe(args[0], args.data(), envp.data());
        } else {
            ::execvp(args[0], args.data());
        }
        std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
        ::_exit(127);
    }
    ::close(out[1]);
    ::close(err[1]);
    if (pid < 0) {
        ::close(out[0]);
        ::close(err[0]);
        return result;
    }
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    int open_fds = 2;
    char buf[4096];
    while (open_fds > 0) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                (i == 0 ? result.out : result.err).append(buf, static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
            }
        }
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

std::span<const TestTool> test_tools() {
    static constexpr TestTool kTools[] = {
        {"tmux", "tmux"},
        {"zsh", "zsh"},
        {"groff", "groff-base"},
        {"ssh", "openssh-client"},
        {"ssh-keygen", "openssh-client"},
        {"/usr/sbin/sshd", "openssh-server"},
        {"clang-format", "clang-format"},
    };
    return kTools;
}

std::string missing_tool(const std::string& program) {
    for (const TestTool& t : test_tools()) {
        if (program != t.program) continue;
        const bool found = program.front() == '/' ? ::access(program.c_str(), X_OK) == 0
                                                  : executable_on_path(program);
        if (found) return "";
        return program + " is not installed (Debian package " + t.package +
               "): run `make deps`, which installs everything the tests run";
    }
    return program + " is not in test_tools() (tests/tmux_session.cpp): add it with its package, " +
           "and the package to DEB_PACKAGES in the Makefile";
}

std::string tmux_pane_term() {
    return terminfo_exists("tmux-256color") ? "tmux-256color" : "screen-256color";
}

std::string shell_quote(std::string_view word) {
    std::string quoted = "'";
    for (char c : word) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    return quoted + "'";
}

TmuxSession::TmuxSession(const std::string& command, const TmuxOptions& options)
    : socket_(unique_socket_name()), target_("e2e") {
    // The server inherits the first client's environment: make it a clean, known one.
    const char* path = std::getenv("PATH");
    const char* home = std::getenv("HOME");
    env_ = {std::string("PATH=") + (path && *path ? path : "/usr/local/bin:/usr/bin:/bin"),
            std::string("HOME=") + (home && *home ? home : "/tmp"), "SHELL=/bin/sh",
            "LANG=C.UTF-8"};
    const char* tmpdir = std::getenv("TMUX_TMPDIR");
    if (tmpdir && *tmpdir) env_.push_back(std::string("TMUX_TMPDIR=") + tmpdir);
    // The tmux client itself needs a TERM it knows; the pane gets default-terminal.
    env_.push_back("TERM=xterm-256color");
    for (const auto& [name, value] : options.env) env_.push_back(name + "=" + value);

    const std::string term = options.term.empty() ? tmux_pane_term() : options.term;
    // Session options go before new-session; window options after it, in the same command
    // sequence (tmux 3.3 crashes setting a global window option while it has no session). The
    // sequence runs before the server handles the program's exit, so even a program that exits
    // at once leaves a dead pane with its status.
    std::vector<std::string> args = {"set-option",
                                     "-g",
                                     "default-terminal",
                                     term,
                                     ";",
                                     "set-option",
                                     "-g",
                                     "status",
                                     "off",
                                     ";",
                                     "new-session",
                                     "-d",
                                     "-s",
                                     target_,
                                     "-x",
                                     std::to_string(options.width),
                                     "-y",
                                     std::to_string(options.height)};
    if (!options.cwd.empty()) {
        args.push_back("-c");
        args.push_back(options.cwd);
    }
    args.push_back("-e");
    args.push_back("LANG=C.UTF-8");
    for (const auto& [name, value] : options.env) {
        args.push_back("-e");
        args.push_back(name + "=" + value);
    }
    args.push_back(command);
    for (const char* option : {"remain-on-exit on", "window-size manual"}) {
        std::string text = option;
        std::size_t space = text.find(' ');
        args.insert(args.end(),
                    {";", "set-option", "-g", text.substr(0, space), text.substr(space + 1)});
    }
    started_ = tmux(args).has_value();
}

TmuxSession::~TmuxSession() {
    // Always, even when starting failed half-way: a server may be running.
    std::vector<std::string> argv = {"tmux", "-L", socket_, "-f", "/dev/null", "kill-server"};
    run_process(argv, &env_);
    // A server that crashed leaves its socket behind.
    const char* tmpdir = std::getenv("TMUX_TMPDIR");
    std::string socket_path = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/tmux-" +
                              std::to_string(::getuid()) + "/" + socket_;
    ::unlink(socket_path.c_str());
}

std::optional<std::string> TmuxSession::tmux(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"tmux", "-L", socket_, "-f", "/dev/null"};
    argv.insert(argv.end(), args.begin(), args.end());
    ProcessOutput r = run_process(argv, &env_);
    if (r.exit_code != 0) {
        std::ostringstream msg;
        msg << "tmux";
        for (std::size_t i = 1; i < argv.size(); ++i) msg << ' ' << argv[i];
        msg << " exited " << r.exit_code << ": " << r.err;
        error_ = msg.str();
        return std::nullopt;
    }
    return std::move(r.out);
}

bool TmuxSession::send_keys(const std::vector<std::string>& keys) {
    std::vector<std::string> args = {"send-keys", "-t", target_};
    args.insert(args.end(), keys.begin(), keys.end());
    return tmux(args).has_value();
}

// "--": text starting with a dash is text, not a send-keys flag.
bool TmuxSession::send_text(std::string_view text) {
    return tmux({"send-keys", "-t", target_, "-l", "--", std::string(text)}).has_value();
}

std::string TmuxSession::capture(bool escapes) {
    std::vector<std::string> args = {"capture-pane", "-p", "-t", target_};
    if (escapes) args.push_back("-e");
    std::optional<std::string> screen = tmux(args);
    last_capture_ = screen ? *screen : "(capture-pane failed: " + error_ + ")";
    return last_capture_;
}

std::string TmuxSession::capture_dead(bool escapes) {
    // The screen as it was when the program exited: tmux scrolled it up one line to print
    // "Pane is dead" at the bottom, so take that line back from the scrollback.
    std::vector<std::string> args = {"capture-pane", "-p", "-S", "-1", "-t", target_};
    if (escapes) args.push_back("-e");
    std::optional<std::string> screen = tmux(args);
    last_capture_ = screen ? *screen : "(capture-pane failed: " + error_ + ")";
    return last_capture_;
}

std::string TmuxSession::capture_history() {
    std::optional<std::string> text = tmux({"capture-pane", "-p", "-S", "-", "-t", target_});
    return text ? *text : "(capture-pane failed: " + error_ + ")";
}

::testing::AssertionResult TmuxSession::wait_for(std::string_view text,
                                                 std::chrono::milliseconds timeout) {
    std::string wanted(text);
    return wait_for(
        [&wanted](const std::string& screen) { return screen.find(wanted) != std::string::npos; },
        "text \"" + wanted + "\"", timeout);
}

::testing::AssertionResult TmuxSession::wait_for(
    const std::function<bool(const std::string&)>& predicate, std::string_view description,
    std::chrono::milliseconds timeout, bool escapes) {
    const auto start = Clock::now();
    const auto deadline = start + timeout;
    PaneExit state;
    for (int polls = 1;; ++polls) {
        std::string screen = capture(escapes);
        if (predicate(screen)) return ::testing::AssertionSuccess();
        if (Clock::now() >= deadline) break;
        // A dead pane never changes: fail at once (checked every ~200 ms), with one more look
        // in case the last output arrived with the exit.
        if (polls % 10 == 0 && (state = pane_state()).dead) {
            if (predicate(capture_dead(escapes))) return ::testing::AssertionSuccess();
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!state.dead) state = pane_state();
    // The status follows the pane's death by a moment.
    for (int i = 0; state.dead && state.status < 0 && i < 50; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        state = pane_state();
    }
    auto waited =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    ::testing::AssertionResult failure = ::testing::AssertionFailure();
    failure << "timed out after " << waited << " ms waiting for " << description;
    if (state.dead) failure << " (the program has exited, status " << state.status << ")";
    failure << "; last screen:\n-----\n" << last_capture_ << "-----";
    return failure;
}

bool TmuxSession::resize(int width, int height) {
    return tmux({"resize-window", "-t", target_, "-x", std::to_string(width), "-y",
                 std::to_string(height)})
        .has_value();
}

std::pair<int, int> TmuxSession::pane_size() {
    std::optional<std::string> out =
        tmux({"display-message", "-p", "-t", target_, "#{pane_width} #{pane_height}"});
    int w = -1, h = -1;
    if (out) std::sscanf(out->c_str(), "%d %d", &w, &h);
    return {w, h};
}

int TmuxSession::pane_pid() {
    std::optional<std::string> out = tmux({"display-message", "-p", "-t", target_, "#{pane_pid}"});
    return out ? std::atoi(out->c_str()) : -1;
}

PaneExit TmuxSession::pane_state() {
    PaneExit state;
    std::optional<std::string> out =
        tmux({"display-message", "-p", "-t", target_,
              "#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}|#{pane_pid}"});
    if (!out) return state;
    std::istringstream fields(*out);
    std::string dead, status, signal, pid;
    std::getline(fields, dead, '|');
    std::getline(fields, status, '|');
    std::getline(fields, signal, '|');
    std::getline(fields, pid);
    state.dead = dead == "1";
    if (!state.dead) return state;
    if (!status.empty())
        state.status = std::atoi(status.c_str());
    else if (!signal.empty())
        state.status = 128 + std::atoi(signal.c_str());
    else
        state.status = zombie_status(std::atoi(pid.c_str()));
    return state;
}

int zombie_status(int pid) {
    if (pid <= 0) return -1;
    std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    std::size_t close = stat.rfind(')');
    if (close == std::string::npos) return -1;
    // After "pid (comm) ": field 3 (state) ... field 52 (exit_code, a wait status).
    std::istringstream fields(stat.substr(close + 2));
    std::string field, state;
    fields >> state;
    int index = 3;
    long long exit_code = -1;
    while (fields >> field)
        if (++index == 52) exit_code = std::atoll(field.c_str());
    if (state != "Z" || exit_code < 0) return -1;
    const int wait_status = static_cast<int>(exit_code);
    if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
    if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
    return -1;
}

::testing::AssertionResult TmuxSession::wait_exit(int* status, std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        PaneExit state = pane_state();
        // tmux marks the pane dead when the pty closes, and knows the status a moment later,
        // when it has reaped the process.
        if (state.dead && state.status >= 0) {
            if (status) *status = state.status;
            return ::testing::AssertionSuccess();
        }
        if (Clock::now() >= deadline) {
            capture();
            return ::testing::AssertionFailure()
                   << (state.dead ? "the pane closed but the program's exit status was not known"
                                  : "the program did not exit")
                   << " within " << timeout.count() << " ms; last screen:\n-----\n"
                   << last_capture_ << "-----";
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

}  // namespace runtop::testing
