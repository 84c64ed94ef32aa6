// `runtop dump --follow` (or another following command) in a child process, its output read as it
// arrives: the live tests (follow_test.cpp, fault_injection_test.cpp) drive the real binary through
// it.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace runtop::testing {

struct FollowerOptions {
    std::string mode;  // "" (inotify) or "--poll=MS"
    // The child drops root privileges (so permissions apply) and its stderr joins its stdout.
    bool as_nobody = false;
    bool jsonl = false;         // --format jsonl
    rlim_t max_open_files = 0;  // RLIMIT_NOFILE of the child; 0: inherited
    // The command and its options before `mode` and the directory (`check --follow --exec ...`).
    std::vector<std::string> command = {"dump", "--follow"};
};

class Follower {
  public:
    explicit Follower(const std::string& dir, const std::string& mode = "", bool as_nobody = false);
    Follower(const std::string& dir, FollowerOptions options);
    ~Follower();
    Follower(const Follower&) = delete;
    Follower& operator=(const Follower&) = delete;

    // Reads until `text` has appeared in the output or the deadline passes.
    bool wait_for(const std::string& text, int timeout_ms = 10000);
    // Reads what arrives within `timeout_ms` (returns at the first read that got something);
    // false once the child has closed its output.
    bool read_some(int timeout_ms);
    // Reads until `done(out())` holds, or `timeout_ms` passes.
    bool wait_until(const std::function<bool(const std::string&)>& done, int timeout_ms);
    // SIGTERM, then everything the child still prints, then its exit code.
    int stop();

    pid_t pid() const { return pid_; }
    // Whether the child's stdout pipe is full: unless the test reads, its next write blocks.
    bool output_pipe_full() const;
    const std::string& out() const { return out_; }
    // stderr, when it is not joined with stdout.
    const std::string& err() const { return err_; }

  private:
    pid_t pid_ = -1;
    int out_fd_ = -1;
    int err_fd_ = -1;
    std::string out_;
    std::string err_;
};

}  // namespace runtop::testing
