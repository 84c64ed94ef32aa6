// `runtop dump --follow` on a file that grows: every point printed once, as it arrives.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/follower.h"
#include "tests/test_support.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::Follower;
using testing::TempDir;

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

// Live CSV monitor output, watched with inotify and with stat polling: every kind of change a
// writer (or a user) makes, and every point printed exactly once.
class FollowCsv : public ::testing::TestWithParam<std::string> {};

std::string grad_row(int step, double norm) {
    return "0,fc1.weight," + std::to_string(step) + "," + std::to_string(norm).substr(0, 4) +
           ",\"[4, 8]\",torch.float32\n";
}
std::string grad_point(int rank, int step) {
    return "mon," + std::to_string(rank) + ",grad_reduced/fc1.weight/norm," + std::to_string(step) +
           ",";  // wall time (the file's mtime) follows, then the value
}

TEST_P(FollowCsv, EveryChangeOnceInThisMode) {
    TempDir dir;
    std::string mon = dir / "monitor_output";
    testing::make_dirs(mon);
    Follower f("mon=" + mon, GetParam());
    ASSERT_TRUE(f.wait_for("run,rank,tag,step,wall_time,value\n")) << f.out();
    std::string rank0 = mon + "/Nov21_14-35-29-rank0-ad82d4e3";
    testing::make_dirs(rank0);  // a new rank dir appears...
    std::string file = rank0 + "/grad_reduced_0-4.csv";
    testing::write_file(file, "vpp_stage,name,step,norm,shape,dtype\n");  // ...header-only first
    for (int step = 0; step < 3; ++step) {                                // appended line by line
        testing::append_file(file, grad_row(step, 1.5));
        ASSERT_TRUE(f.wait_for(grad_point(0, step))) << f.out();
    }
    std::string row = grad_row(3, 2.5);
    for (char c : row) testing::append_file(file, std::string(1, c));  // byte by byte
    ASSERT_TRUE(f.wait_for(grad_point(0, 3))) << f.out();
    std::string next = rank0 + "/grad_reduced_5-9.csv";  // the next step range's file
    testing::write_file(next, "vpp_stage,name,step,norm,shape,dtype\n" + grad_row(5, 3.5));
    ASSERT_TRUE(f.wait_for(grad_point(0, 5))) << f.out();
    std::string rank1 = mon + "/Nov21_14-35-30-rank1-1535879a";  // another rank, later
    testing::make_dirs(rank1);
    testing::write_file(rank1 + "/grad_reduced_0-4.csv",
                        "vpp_stage,name,step,norm,shape,dtype\n" + grad_row(0, 4.5));
    ASSERT_TRUE(f.wait_for(grad_point(1, 0))) << f.out();
    // Truncated and rewritten: the new content is read again from the start.
    testing::write_file(next, "vpp_stage,name,step,norm,shape,dtype\n" + grad_row(6, 5.5));
    ASSERT_TRUE(f.wait_for(grad_point(0, 6))) << f.out();
    // Renamed over: a new file at the same path.
    testing::write_file(rank1 + "/tmp",
                        "vpp_stage,name,step,norm,shape,dtype\n" + grad_row(1, 6.5));
    ASSERT_EQ(::rename((rank1 + "/tmp").c_str(), (rank1 + "/grad_reduced_0-4.csv").c_str()), 0);
    ASSERT_TRUE(f.wait_for(grad_point(1, 1))) << f.out();
    // Deleted: nothing breaks, later files still arrive.
    ASSERT_EQ(::unlink(file.c_str()), 0);
    testing::write_file(rank0 + "/grad_reduced_10-14.csv",
                        "vpp_stage,name,step,norm,shape,dtype\n" + grad_row(10, 7.5));
    ASSERT_TRUE(f.wait_for(grad_point(0, 10))) << f.out();
    EXPECT_EQ(f.stop(), 0);
    for (auto [rank, step] : std::vector<std::pair<int, int>>{
             {0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 5}, {1, 0}, {0, 6}, {0, 10}})
        EXPECT_EQ(count(f.out(), grad_point(rank, step).substr(0, grad_point(rank, step).size())),
                  1u)
            << rank << "@" << step << "\n"
            << f.out();
}

INSTANTIATE_TEST_SUITE_P(Modes, FollowCsv, ::testing::Values("", "--poll=50"),
                         [](const auto& info) { return info.param.empty() ? "inotify" : "poll"; });

TEST_P(FollowCsv, PermissionDeniedIsReportedThenReadOnceAllowed) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root, to run the follower as another user";
    TempDir dir;
    ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
    std::string ok = dir / "ok", locked = dir / "locked";
    testing::make_dirs(ok);
    testing::make_dirs(locked);
    testing::write_file(ok + "/Train_Samples_loss.csv", "step,loss\r\n32,2.5\r\n");
    testing::write_file(locked + "/Train_Samples_lr.csv", "step,lr\r\n32,0.001\r\n");
    std::string secret = ok + "/Train_Samples_loss_scale.csv";
    testing::write_file(secret, "step,loss_scale\r\n32,65536\r\n");
    ASSERT_EQ(::chmod(locked.c_str(), 0), 0);
    ASSERT_EQ(::chmod(secret.c_str(), 0), 0);
    Follower f("ds=" + dir.path(), GetParam(), true);
    // The rest continues, and each problem is one line naming the path.
    ASSERT_TRUE(f.wait_for("ds/ok,,Train/Samples/loss,32,")) << f.out();
    ASSERT_TRUE(f.wait_for(locked)) << f.out();
    ASSERT_TRUE(f.wait_for(secret + ": cannot open: Permission denied")) << f.out();
    ASSERT_EQ(::chmod(locked.c_str(), 0755), 0);
    ASSERT_EQ(::chmod(secret.c_str(), 0644), 0);
    ASSERT_TRUE(f.wait_for("ds/locked,,Train/Samples/lr,32,")) << f.out();
    ASSERT_TRUE(f.wait_for("ds/ok,,Train/Samples/loss_scale,32,")) << f.out();
    EXPECT_EQ(f.stop(), 0);
    EXPECT_EQ(count(f.out(), "Permission denied"), 2u) << f.out();  // said once each
}

// Append -> printed latency, reported (timing is measured, not asserted: CI machines vary).
TEST(DumpFollow, AppendToOutputLatency) {
    for (std::string mode : {"", "--poll=100"}) {
        TempDir dir;
        std::string file = dir / "Train_Samples_loss.csv";
        testing::write_file(file, "step,loss\r\n");
        Follower f(dir.path(), mode);
        ASSERT_TRUE(f.wait_for("run,rank,tag,step,wall_time,value\n")) << f.out();
        std::vector<double> ms;
        for (int i = 1; i <= 30; ++i) {
            auto start = std::chrono::steady_clock::now();
            testing::append_file(file, std::to_string(i * 32) + ",0.5\r\n");
            ASSERT_TRUE(f.wait_for(",Train/Samples/loss," + std::to_string(i * 32) + ","))
                << f.out();
            ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
        }
        std::sort(ms.begin(), ms.end());
        std::string label = mode.empty() ? "inotify" : "poll 100 ms";
        std::printf(
            "append -> dump --follow output (%s): median %.2f ms, p90 %.2f ms, max %.2f ms\n",
            label.c_str(), ms[ms.size() / 2], ms[ms.size() * 9 / 10], ms.back());
        ::testing::Test::RecordProperty(mode.empty() ? "inotify_median_ms" : "poll100_median_ms",
                                        std::to_string(ms[ms.size() / 2]));
        EXPECT_EQ(f.stop(), 0);
    }
}

}  // namespace
}  // namespace runtop
