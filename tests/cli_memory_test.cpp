// `runtop ls --memory`: under a budget far below the data, the inventory is the same as
// without one (counts, steps and last values are exact), and bad sizes are usage errors.
#include <gtest/gtest.h>

#include <string>

#include "tests/test_support.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::run_runtop;
using testing::TempDir;

// Four ranks of 40 000 steps each, with a restart at step 30 000 in rank 2.
void write_run(const TempDir& dir) {
    for (int rank = 0; rank < 4; ++rank) {
        const std::string rank_dir = dir / ("run/rank_" + std::to_string(rank));
        testing::make_dirs(rank_dir);
        std::string bytes = frame_record(events::file_version(1000));
        for (int s = 0; s < 40000; ++s)
            bytes += frame_record(events::simple_scalar(
                "train/loss", s == 1234 ? 1e30f : 1.0f / static_cast<float>(1 + s), s, 1e9 + s));
        if (rank == 2)
            for (int s = 30000; s < 30010; ++s)
                bytes += frame_record(events::simple_scalar("train/loss", -1.0f, s, 2e9 + s));
        testing::write_file(rank_dir + "/events.out.tfevents.1.host", bytes);
    }
}

TEST(CliMemory, LsUnderATinyBudgetPrintsWhatItPrintsWithout) {
    TempDir dir;
    write_run(dir);
    auto plain = run_runtop({"ls", "--format", "csv", dir / "run"});
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    auto small = run_runtop({"ls", "--format", "csv", "--memory", "64K", dir / "run"});
    ASSERT_EQ(small.exit_code, 0) << small.err;
    EXPECT_EQ(small.out, plain.out);
    EXPECT_NE(plain.out.find("run,2,train/loss,30010,0,30009,-1,"), std::string::npos) << plain.out;
    auto text = run_runtop({"ls", "--memory=1GiB", dir / "run"});
    EXPECT_EQ(text.exit_code, 0) << text.err;
}

// More series than a budget holds even folded (each keeps its key and a bucket): ls and
// snapshot still show every one, and say that the budget is below what they need; within the
// budget they say nothing of it.
TEST(CliMemory, ABudgetBelowWhatTheSeriesNeedIsSaid) {
    TempDir dir;
    testing::make_dirs(dir / "run");
    std::string bytes = frame_record(events::file_version(1000));
    for (int tag = 0; tag < 2000; ++tag)
        for (int step = 0; step < 3; ++step)
            bytes += frame_record(
                events::simple_scalar("grad/layer" + std::to_string(tag), 1.0f, step, 1e9 + step));
    testing::write_file(dir / "run/events.out.tfevents.1.host", bytes);
    const std::string said = "2000 series need more than the memory budget (--memory 64K): ";
    for (const char* command : {"ls", "snapshot"}) {
        auto small = run_runtop({command, "--memory", "64K", dir / "run"});
        EXPECT_EQ(small.exit_code, 0) << command << ": " << small.err;
        EXPECT_NE(small.err.find(said), std::string::npos) << command << ": " << small.err;
        auto plain = run_runtop({command, dir / "run"});
        EXPECT_EQ(plain.exit_code, 0) << command << ": " << plain.err;
        EXPECT_EQ(plain.err.find("need more than the memory budget"), std::string::npos)
            << command << ": " << plain.err;
    }
    auto listed = run_runtop({"ls", "--format", "csv", "--memory", "64K", dir / "run"});
    EXPECT_NE(listed.out.find("run,,grad/layer1999,3,0,2,1,"), std::string::npos) << listed.out;
}

TEST(CliMemory, BadSizesAreUsageErrors) {
    TempDir dir;
    for (const char* size : {"0", "-1G", "lots", "1Q"}) {
        auto r = run_runtop({"ls", "--memory", size, dir.path()});
        EXPECT_EQ(r.exit_code, 2) << size;
        EXPECT_NE(r.err.find("--memory"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(size), std::string::npos) << r.err;
    }
}

TEST(CliMemory, HelpDescribesTheOption) {
    auto r = run_runtop({"ls", "--help"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("--memory SIZE"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("[--memory SIZE]"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace runtop
