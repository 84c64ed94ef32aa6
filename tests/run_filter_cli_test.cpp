// Issue 18, in the binary: runs that share a directory name are told apart wherever a run is
// named (DeepSpeed writes <output>/csv_monitor/<job>/ and <output>/tensorboard/<job>/ for one
// job), and --runs keeps only the runs its patterns select (snapshot, ls, dump, check).
//
// The fixture writes DeepSpeed's two layouts itself (csv_monitor CSVs with CRLF, an event file);
// the samples' own DeepSpeed outputs are read too when ../shared/samples is there. Re-bless the
// golden frame after an intended change:
//     RUNTOP_BLESS=1 build/tests/runtop_tests --gtest_filter='RunNames*'
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/test_support.h"
#include "tests/view_fixture.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::run_runtop;
using testing::TempDir;

class RunNames : public ::testing::Test {
  protected:
    // deepspeed/csv_monitor/ds_pipe_job and deepspeed/tensorboard/ds_pipe_job, the same job's
    // loss and lr at samples 32, 64, ... (the tensorboard run's loss a little lower).
    static void SetUpTestSuite() {
        dir_ = new TempDir();
        const std::string csv = dir_->path() + "/deepspeed/csv_monitor/ds_pipe_job";
        const std::string tb = dir_->path() + "/deepspeed/tensorboard/ds_pipe_job";
        testing::make_dirs(csv);
        testing::make_dirs(tb);
        std::string loss = "step,train_loss\r\n", lr = "step,lr\r\n";
        std::string events = frame_record(events::file_version(1.7e9));
        for (int i = 1; i <= 40; ++i) {
            const int samples = 32 * i;
            const double l = 2.5 - 0.03 * i;
            loss += std::to_string(samples) + "," + std::to_string(l) + "\r\n";
            lr += std::to_string(samples) + ",2e-05\r\n";
            events += frame_record(events::simple_scalar(
                "Train/Samples/train_loss", static_cast<float>(l - 0.1), samples, 1.7e9 + i));
            events +=
                frame_record(events::simple_scalar("Train/Samples/lr", 2e-5f, samples, 1.7e9 + i));
        }
        testing::write_file(csv + "/Train_Samples_train_loss.csv", loss);
        testing::write_file(csv + "/Train_Samples_lr.csv", lr);
        testing::write_file(tb + "/events.out.tfevents.1700000000.vm.1.0", events);
    }
    static void TearDownTestSuite() { delete dir_; }
    void SetUp() override { ::setenv("XDG_CONFIG_HOME", (config_ / "config").c_str(), 1); }

    static std::string root() { return dir_->path() + "/deepspeed"; }

    static inline TempDir* dir_ = nullptr;
    TempDir config_;
};

TEST_F(RunNames, TheLegendTellsRunsWithTheSameNameApart) {
    testing::expect_golden_output(
        "overview_runs_same_name_100x20",
        run_runtop({"snapshot", "--size", "100x20", "--view", "overview", root()}));
}

TEST_F(RunNames, RunsKeepsOnlyTheMatchingRunsSeries) {
    auto all = run_runtop({"ls", "--format", "csv", root()});
    ASSERT_EQ(all.exit_code, 0) << all.err;
    EXPECT_NE(all.out.find("deepspeed/tensorboard/ds_pipe_job"), std::string::npos) << all.out;
    auto only = run_runtop({"ls", "--format", "csv", "--runs", "csv_monitor/*", root()});
    ASSERT_EQ(only.exit_code, 0) << only.err;
    const auto lines = testing::split_lines(only.out);
    ASSERT_EQ(lines.size(), 3u) << only.out;  // the header, lr and train_loss
    for (std::size_t i = 1; i < lines.size(); ++i)
        EXPECT_EQ(lines[i].rfind("deepspeed/csv_monitor/ds_pipe_job,", 0), 0u) << lines[i];

    // The snapshot reads only that run: one run, its name in the status line.
    auto frame = run_runtop(
        {"snapshot", "--size", "100x20", "--view", "overview", "--runs", "!tensorboard/*", root()});
    ASSERT_EQ(frame.exit_code, 0) << frame.err;
    EXPECT_NE(frame.out.find("runs !tensorboard/*"), std::string::npos) << frame.out;
    EXPECT_NE(frame.out.find("1 run "), std::string::npos) << frame.out;
    EXPECT_EQ(frame.out.find("tensorboard)"), std::string::npos) << frame.out;

    // dump and check take it too.
    auto dump = run_runtop({"dump", "--runs", "tensorboard/ds_pipe_job", root()});
    ASSERT_EQ(dump.exit_code, 0) << dump.err;
    EXPECT_EQ(dump.out.find("csv_monitor"), std::string::npos) << dump.out;
    EXPECT_NE(dump.out.find("tensorboard/ds_pipe_job"), std::string::npos) << dump.out;
    auto check = run_runtop({"check", "--runs", "nothing*", root()});
    EXPECT_EQ(check.exit_code, 0) << check.err;

    auto bad = run_runtop({"snapshot", "--runs", "a,,b", root()});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--runs"), std::string::npos) << bad.err;
}

TEST_F(RunNames, TheSamplesDeepSpeedJobIsTwoRunsToldApart) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent";
    const std::string deepspeed = samples + "/generated/deepspeed";
    auto r = run_runtop({"snapshot", "--size", "160x30", "--view", "overview", deepspeed});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("ds_pipe_job (csv_monitor)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ds_pipe_job (tensorboard)"), std::string::npos) << r.out;
    auto one =
        run_runtop({"ls", "--format", "csv", "--runs", "tensorboard/ds_pipe_job", deepspeed});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    const auto lines = testing::split_lines(one.out);
    ASSERT_GT(lines.size(), 1u) << one.out;
    for (std::size_t i = 1; i < lines.size(); ++i)
        EXPECT_EQ(lines[i].rfind("deepspeed/tensorboard/ds_pipe_job,", 0), 0u) << lines[i];
}

}  // namespace
}  // namespace runtop
