// End-to-end helper: drives a real program inside tmux, headless, on a private tmux server.
//
//   REQUIRE_TOOL("tmux");
//   TmuxSession s("build/runtop ls DIR", TmuxOptions(120, 40).with_env("NAME", "value"));
//   ASSERT_TRUE(s.started()) << s.error();
//   ASSERT_TRUE(s.wait_for("loss"));        // polls capture-pane every ~20 ms; the failure
//   s.send_keys({"j", "Enter"});            // message holds the last screen
//   s.send_text("train/");                  // literal text (send-keys -l)
//   ASSERT_TRUE(s.resize(20, 6));
//   ASSERT_TRUE(s.wait_exit(&status));
//
// Each session has its own server (`tmux -L <unique socket> -f /dev/null`), started with a
// clean environment (PATH, HOME, SHELL=/bin/sh, LANG=C.UTF-8 plus the options' env), and the
// destructor always kills it. Panes remain on exit so the exit status can be read.
//
// tmux 3.3a (Debian 12) quirks handled here: setting a global window option before the first
// session crashes the server (the options are set right after new-session, in the same command
// sequence); a pane's exit status is sometimes never reported (see zombie_status()). Not
// handled: a program that exits within milliseconds of starting may lose its output, so run
// line-mode commands whose output matters with run_runtop() instead.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace runtop::testing {

// Runs argv (PATH searched) with stdin from /dev/null and the given environment (nullptr: this
// process'), capturing stdout and stderr. exit_code is 128 + signal when killed, 127 when argv[0]
// cannot be run, -1 when it could not be started.
struct ProcessOutput {
    int exit_code = -1;
    std::string out;
    std::string err;
};
ProcessOutput run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>* env = nullptr);

// Every program a test runs beyond the base system (sh, bash, coreutils, gzip, cmp), with the
// Debian package that provides it. `make deps` installs them all (the Makefile's DEB_PACKAGES,
// which a test checks against this table); tests never install anything themselves.
struct TestTool {
    const char* program;  // looked up on PATH, or an absolute path
    const char* package;
};
std::span<const TestTool> test_tools();

// "" when `program` (a row of test_tools()) can be run; otherwise a one-line reason naming the
// package and `make deps`.
std::string missing_tool(const std::string& program);

// The TERM a tmux pane should have: tmux-256color when its terminfo entry exists, else
// screen-256color (which every ncurses install has).
std::string tmux_pane_term();

// Quotes a word for /bin/sh: 'it'\''s'.
std::string shell_quote(std::string_view word);

// Fails the current test, never skips it, when `program` is missing: a machine without it is
// one `make deps` has not prepared, and a skipped test would pass there unseen.
#define REQUIRE_TOOL(program)                                                       \
    do {                                                                            \
        const std::string missing_tool_ = ::runtop::testing::missing_tool(program); \
        if (!missing_tool_.empty()) FAIL() << missing_tool_;                        \
    } while (0)

// TmuxOptions(120, 40).with_env("NAME", "value").in_dir(dir)
struct TmuxOptions {
    TmuxOptions() = default;
    TmuxOptions(int w, int h) : width(w), height(h) {}
    TmuxOptions& with_env(std::string name, std::string value) {
        env.emplace_back(std::move(name), std::move(value));
        return *this;
    }
    TmuxOptions& in_dir(std::string dir) {
        cwd = std::move(dir);
        return *this;
    }
    TmuxOptions& with_term(std::string name) {
        term = std::move(name);
        return *this;
    }

    int width = 120;
    int height = 40;
    // Extra environment for the program (NAME, value), on top of the clean base.
    std::vector<std::pair<std::string, std::string>> env;
    // Working directory of the program; "" keeps the test's.
    std::string cwd;
    // TERM inside the pane; "" = tmux_pane_term().
    std::string term;
};

// Exit of a pane's program: the exit code, or 128 + signal number when it was killed; -1 while
// not known (the pane closes a moment before tmux reaps the process).
struct PaneExit {
    bool dead = false;
    int status = -1;
};

// The exit status (as in PaneExit) of a zombie process, from /proc/PID/stat's exit_code; -1 when
// PID is not a zombie. tmux 3.3a sometimes misses a pane's SIGCHLD (about one exit in five here:
// the pane is dead, #{pane_dead_status} stays empty and the process a zombie until the server
// exits), so pane_state() falls back on this.
int zombie_status(int pid);

class TmuxSession {
  public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::milliseconds kDefaultTimeout{10000};

    // Starts the server and a detached session of the given size running `command` (a /bin/sh
    // command line). Check started() before using it.
    explicit TmuxSession(const std::string& command, const TmuxOptions& options = {});
    ~TmuxSession();
    TmuxSession(const TmuxSession&) = delete;
    TmuxSession& operator=(const TmuxSession&) = delete;

    bool started() const { return started_; }
    // Why starting failed, or the last failed tmux command.
    const std::string& error() const { return error_; }
    const std::string& socket_name() const { return socket_; }

    // Key names as tmux knows them ("Enter", "Escape", "Up", "C-l", "PageDown", "q"...), each
    // sent as one key.
    bool send_keys(const std::vector<std::string>& keys);
    // Literal text, byte for byte (send-keys -l).
    bool send_text(std::string_view text);

    // The visible screen as text, one line per row (capture-pane -p; with escapes: -e, so
    // colours and attributes show as SGR sequences).
    std::string capture(bool escapes = false);
    // The scrollback and the screen (capture-pane -p -S -): output of line-mode programs longer
    // than the screen, and the final screen of a program that exited (tmux scrolls a dead pane
    // up one line to print "Pane is dead (status N, ...)" at the bottom, so its top row is then
    // in the scrollback).
    std::string capture_history();
    // After the program exited: the screen as it last drew it (one line of scrollback, then the
    // screen, whose bottom line is now tmux's "Pane is dead (status N, ...)"; when tmux missed
    // the exit, see zombie_status(), there is no such line and the first line is just history).
    std::string capture_dead(bool escapes = false);

    // Polls the screen every ~20 ms until it contains `text` or the predicate holds. On timeout
    // the failure message holds what was waited for and the last screen. When the program has
    // exited it fails at once (within ~200 ms), after one last look with capture_dead().
    ::testing::AssertionResult wait_for(std::string_view text,
                                        std::chrono::milliseconds timeout = kDefaultTimeout);
    ::testing::AssertionResult wait_for(const std::function<bool(const std::string&)>& predicate,
                                        std::string_view description,
                                        std::chrono::milliseconds timeout = kDefaultTimeout,
                                        bool escapes = false);

    // resize-window -x -y (the window-size option is manual, so it applies without a client).
    bool resize(int width, int height);
    // The pane's size as tmux reports it.
    std::pair<int, int> pane_size();

    // The program's pid (the pane's process: the command when it is one simple command, which
    // /bin/sh -c execs, else the shell running it).
    int pane_pid();
    PaneExit pane_state();
    bool pane_dead() { return pane_state().dead; }
    // Waits for the program to exit and its status to be known; stores it (see PaneExit).
    ::testing::AssertionResult wait_exit(int* status,
                                         std::chrono::milliseconds timeout = kDefaultTimeout);

    // Runs a tmux command on this session's server (argv after `tmux -L S -f /dev/null`);
    // returns its stdout, or nullopt when it failed (error() then says why).
    std::optional<std::string> tmux(const std::vector<std::string>& args);

  private:
    std::string socket_;
    std::string target_;
    std::vector<std::string> env_;
    bool started_ = false;
    std::string error_;
    std::string last_capture_;
};

}  // namespace runtop::testing
