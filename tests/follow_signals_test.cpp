// `runtop dump --follow` ended by a signal: it stops at the end of its turn, so every row it
// read comes out whole and flushed. SIGINT, SIGTERM and SIGHUP (the terminal or the ssh link
// went away) then exit 0; SIGQUIT ends it by SIGQUIT, as SIGQUIT does. A signal ignored from
// the start (nohup) stays ignored.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/test_support.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::TempDir;

constexpr int kPipeBytes = 4096;  // the smallest pipe Linux makes: filled by a short backfill

// `runtop dump --follow DIR` writing into a pipe of kPipeBytes that the test reads only when
// told, so the child can be caught blocked on a full pipe.
class SlowReader {
  public:
    SlowReader(const std::string& dir, int ignored_signal = 0) {
        int fds[2];
        if (::pipe(fds) != 0) return;
        ::fcntl(fds[1], F_SETPIPE_SZ, kPipeBytes);
        const std::string binary = testing::runtop_binary();
        pid_ = ::fork();
        if (pid_ == 0) {
            ::dup2(fds[1], 1);
            ::close(fds[0]);
            ::close(fds[1]);
            const rlimit no_core{0, 0};  // SIGQUIT's core must not land in the test's directory
            ::setrlimit(RLIMIT_CORE, &no_core);
            if (ignored_signal) ::signal(ignored_signal, SIG_IGN);
            ::execl(binary.c_str(), binary.c_str(), "dump", "--follow", dir.c_str(), nullptr);
            ::_exit(127);
        }
        ::close(fds[1]);
        fd_ = fds[0];
    }
    ~SlowReader() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        if (fd_ >= 0) ::close(fd_);
    }
    pid_t pid() const { return pid_; }

    // Waits (reading nothing) until the pipe is full: the child is blocked writing.
    bool wait_full(int timeout_ms = 10000) {
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        int queued = 0;
        while (::ioctl(fd_, FIONREAD, &queued) == 0 && queued < kPipeBytes) {
            if (std::chrono::steady_clock::now() > deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return queued >= kPipeBytes;
    }
    // Reads until `text` has appeared in the output (true) or the deadline.
    bool read_until(const std::string& text, int timeout_ms = 10000) {
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        while (out_.find(text) == std::string::npos) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0 || !read_some(static_cast<int>(left.count()))) return false;
        }
        return true;
    }
    // Reads to the end of the output, then reaps the child: its wait status.
    int finish() {
        while (read_some(20000)) {
        }
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        return status;
    }
    const std::string& out() const { return out_; }

  private:
    bool read_some(int timeout_ms) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, timeout_ms) <= 0) return false;
        char buf[65536];
        const ssize_t n = ::read(fd_, buf, sizeof buf);
        if (n <= 0) return false;
        out_.append(buf, static_cast<std::size_t>(n));
        return true;
    }

    pid_t pid_ = -1;
    int fd_ = -1;
    std::string out_;
};

// An event file of `points` points of "loss", steps 0, 1, 2...
void write_points(const std::string& path, int points) {
    std::string bytes = frame_record(events::file_version(1.7e9));
    for (int step = 0; step < points; ++step)
        bytes += frame_record(events::simple_scalar("loss", 0.5f, step, 1.7e9 + step));
    testing::write_file(path, bytes);
}

// Every line complete, the header once, then steps 0, 1, 2... with none missing.
void expect_whole_rows(const std::string& out) {
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back(), '\n') << "a row cut short: ..." << out.substr(out.size() - 40);
    const std::vector<std::string> rows = testing::split_lines(out);
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows[0], "run,rank,tag,step,wall_time,value");
    for (std::size_t i = 1; i < rows.size(); ++i)
        ASSERT_NE(rows[i].find(",loss," + std::to_string(i - 1) + ","), std::string::npos)
            << "row " << i << ": " << rows[i];
}

struct StopCase {
    const char* name;
    int signal;
};
void PrintTo(const StopCase& c, std::ostream* os) {
    *os << c.name;
}

class FollowStop : public ::testing::TestWithParam<StopCase> {};

// The signal comes while the child is blocked writing its backfill into a full pipe: the rows
// already formatted must still come out, whole.
TEST_P(FollowStop, WritesEveryRowItReadThenEnds) {
    const StopCase c = GetParam();
    TempDir dir;
    write_points(dir / "events.out.tfevents.1", 2000);  // ~60 KB of rows
    SlowReader r(dir.path());
    ASSERT_GT(r.pid(), 0);
    ASSERT_TRUE(r.wait_full());
    ASSERT_EQ(::kill(r.pid(), c.signal), 0);
    const int status = r.finish();
    if (c.signal == SIGQUIT)
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGQUIT) << status;
    else
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    // More than the pipe held when the signal came: what was buffered was not dropped.
    EXPECT_GT(r.out().size(), static_cast<std::size_t>(kPipeBytes));
    expect_whole_rows(r.out());
}

INSTANTIATE_TEST_SUITE_P(Signals, FollowStop,
                         ::testing::Values(StopCase{"Hup", SIGHUP}, StopCase{"Quit", SIGQUIT},
                                           StopCase{"Term", SIGTERM}, StopCase{"Int", SIGINT}),
                         [](const ::testing::TestParamInfo<StopCase>& info) {
                             return std::string(info.param.name);
                         });

// Under nohup SIGHUP is ignored, and must stay so: the follower goes on printing.
TEST(FollowStop, AnIgnoredHangupStaysIgnored) {
    TempDir dir;
    const std::string file = dir / "events.out.tfevents.1";
    write_points(file, 1);
    SlowReader r(dir.path(), SIGHUP);
    ASSERT_TRUE(r.read_until(",loss,0,")) << r.out();
    ASSERT_EQ(::kill(r.pid(), SIGHUP), 0);
    testing::append_file(file, frame_record(events::simple_scalar("loss", 0.5f, 1, 1.7e9 + 1)));
    ASSERT_TRUE(r.read_until(",loss,1,")) << r.out();
    ASSERT_EQ(::kill(r.pid(), SIGTERM), 0);
    const int status = r.finish();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    expect_whole_rows(r.out());
}

}  // namespace
}  // namespace runtop
