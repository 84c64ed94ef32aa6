// `runtop dump --follow` on a file that grows: every point printed once, as it arrives.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "tests/test_support.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::TempDir;

class Follower {
public:
    explicit Follower(const std::string& dir) {
        int fds[2];
        if (::pipe(fds) != 0) throw std::runtime_error("pipe");
        pid_ = ::fork();
        if (pid_ == 0) {
            ::dup2(fds[1], 1);
            ::close(fds[0]);
            ::execl(RUNTOP_BINARY, RUNTOP_BINARY, "dump", "--follow", dir.c_str(), nullptr);
            ::_exit(127);
        }
        ::close(fds[1]);
        fd_ = fds[0];
    }
    ~Follower() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        ::close(fd_);
    }
    // Reads until `text` has appeared in the output or the deadline passes.
    bool wait_for(const std::string& text, int timeout_ms = 10000) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        while (out_.find(text) == std::string::npos) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return false;
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
            char buf[4096];
            ssize_t n = ::read(fd_, buf, sizeof buf);
            if (n <= 0) return false;
            out_.append(buf, static_cast<std::size_t>(n));
        }
        return true;
    }
    int stop() {
        ::kill(pid_, SIGTERM);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    const std::string& out() const { return out_; }

private:
    pid_t pid_ = -1;
    int fd_ = -1;
    std::string out_;
};

std::size_t count(const std::string& haystack, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t pos = haystack.find(needle); pos != std::string::npos;
         pos = haystack.find(needle, pos + 1))
        ++n;
    return n;
}

TEST(DumpFollow, PrintsBackfillThenNewPointsAndNewFilesOnce) {
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, frame_record(events::simple_scalar("loss", 1.5f, 0, 10)));
    Follower f(dir.path());
    ASSERT_TRUE(f.wait_for(",loss,0,10,1.5\n")) << f.out();
    std::string record = frame_record(events::simple_scalar("loss", 0.25f, 1, 11));
    testing::append_file(path, record.substr(0, 7));  // a torn record first
    testing::append_file(path, record.substr(7));
    ASSERT_TRUE(f.wait_for(",loss,1,11,0.25\n")) << f.out();
    testing::make_dirs(dir / "rank_3");
    testing::write_file(dir / "rank_3/events.out.tfevents.2",
                        frame_record(events::simple_scalar("acc", 0.5f, 7, 12)));
    ASSERT_TRUE(f.wait_for(",3,acc,7,12,0.5\n")) << f.out();
    EXPECT_EQ(f.stop(), 0);
    EXPECT_EQ(count(f.out(), "run,rank,tag,step,wall_time,value\n"), 1u);
    EXPECT_EQ(count(f.out(), ",loss,0,"), 1u);
    EXPECT_EQ(count(f.out(), ",loss,1,"), 1u);
}

}  // namespace
}  // namespace runtop
