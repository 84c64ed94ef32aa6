// The fixture of the view tests: golden text frames from `runtop snapshot` on a fixed run.
//
// Golden files: tests/golden/<name>.txt hold the expected frames. After an intended change to a
// view, re-bless them with one command and review the diff:
//
//     RUNTOP_BLESS=1 build/tests/runtop_tests --gtest_filter='*Snapshot*'
//
// The fixture is written by the test itself with runtop's own event writer: one run ("fx/job")
// of four ranks, 400 steps each, train/loss, train/grad_norm and train/lr every step and
// eval/accuracy every 50th; a spike in rank 1's grad norm at step 200 and a NaN loss on rank 2 at
// step 300. Wall times are fixed (1.7e9 + step) and the noise is a seeded generator, so every
// frame is the same on every machine, whatever its locale.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/test_support.h"
#include "views/canvas.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop::testing {

inline std::string golden_dir() {
    // From the source dir CMake names, not __FILE__: a compiler launcher (ccache's base_dir)
    // may make __FILE__ relative to the build dir.
    return std::string(RUNTOP_SOURCE_DIR) + "/tests/golden";
}

// One rank's event file: a decaying noisy loss, a lognormal grad norm, warmup-then-decay lr and
// an eval accuracy every 50 steps.
// Compares a `runtop snapshot`'s output with golden/<name>.txt (or, RUNTOP_BLESS=1, writes it),
// naming the first line that differs.
inline void expect_golden_output(const std::string& name, const CommandResult& r) {
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string path = golden_dir() + "/" + name + ".txt";
    const char* bless = std::getenv("RUNTOP_BLESS");
    if (bless && std::string(bless) == "1") {
        make_dirs(golden_dir());
        write_file(path, r.out);
        std::printf("blessed %s\n", path.c_str());
        return;
    }
    ASSERT_TRUE(std::filesystem::exists(path))
        << path << " is missing: run the test with RUNTOP_BLESS=1 to write it";
    const std::string expected = read_file(path);
    if (r.out == expected) return;
    const auto got = split_lines(r.out), want = split_lines(expected);
    for (std::size_t i = 0; i < std::max(got.size(), want.size()); ++i) {
        const std::string g = i < got.size() ? got[i] : "<none>";
        const std::string w = i < want.size() ? want[i] : "<none>";
        if (g != w) {
            ADD_FAILURE() << name << ": line " << i + 1 << " differs\n  want: " << w
                          << "\n  got:  " << g << "\n(RUNTOP_BLESS=1 re-blesses)\nframe:\n"
                          << r.out;
            return;
        }
    }
}

// One training step as PyTorch's add_scalar writes it: train/loss, train/grad_norm and train/lr
// at `step`, wall time 1.7e9 + step (the fixtures' clock).
inline std::string training_step_records(int step, double loss, double grad, double lr) {
    const double wall = 1.7e9 + step;
    std::string bytes =
        frame_record(events::simple_scalar("train/loss", static_cast<float>(loss), step, wall));
    bytes += frame_record(
        events::simple_scalar("train/grad_norm", static_cast<float>(grad), step, wall));
    bytes += frame_record(events::simple_scalar("train/lr", static_cast<float>(lr), step, wall));
    return bytes;
}

inline std::string rank_events(int rank, int steps, int nan_at = -1, int spike_at = -1) {
    std::string bytes;
    testing::FixtureNoise noise(42 + 7919 * static_cast<std::uint64_t>(rank));
    for (int s = 0; s < steps; ++s) {
        double loss = (0.6 + 2.5 * std::exp(-s / 120.0)) * std::exp(0.04 * noise());
        double grad = 1.2 * std::exp(0.2 * noise());
        const double lr = s < 40 ? 1e-3 * s / 40 : 1e-3 * (1 - (s - 40.0) / steps);
        if (s == nan_at) loss = std::nan("");
        if (s == spike_at) grad *= 30;
        bytes += training_step_records(s, loss, grad, lr);
        if (s % 50 == 49) {
            const double wall = 1.7e9 + s;
            const double acc = 0.5 + 0.4 * (1 - std::exp(-s / 150.0)) + 0.01 * noise();
            bytes += frame_record(
                events::simple_scalar("eval/accuracy", static_cast<float>(acc), s, wall));
        }
    }
    return bytes;
}

class ViewFixture : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir();
        for (int rank = 0; rank < 4; ++rank) {
            const std::string d = dir_->path() + "/job/rank_" + std::to_string(rank);
            testing::make_dirs(d);
            testing::write_file(d + "/events.out.tfevents.1",
                                rank_events(rank, 400, rank == 2 ? 300 : -1, rank == 1 ? 200 : -1));
        }
    }
    static void TearDownTestSuite() { delete dir_; }
    void SetUp() override {
        // Never pick up the rules of whoever runs the tests.
        ::setenv("XDG_CONFIG_HOME", (config_ / "config").c_str(), 1);
    }
    static std::string fixture() { return "fx=" + dir_->path(); }

    // Renders with `args` and compares with (or, RUNTOP_BLESS=1, rewrites) golden/<name>.txt.
    static void expect_golden(const std::string& name, std::vector<std::string> args) {
        args.insert(args.begin(), "snapshot");
        args.push_back(fixture());
        expect_golden_output(name, run_runtop(args));
    }

    // Every frame of `view` at these sizes is exactly the canvas (rows, and columns by display
    // width) and a real frame; below 20x6 (`too_small`), the notice naming the view.
    static void expect_frames_fit(const std::string& view, const std::string& too_small) {
        for (const char* size : {"20x6", "33x9", "100x30", "160x50"}) {
            auto r = run_runtop({"snapshot", "--size", size, "--view", view, fixture()});
            ASSERT_EQ(r.exit_code, 0) << r.err;
            const std::string text = size;
            const int w = std::stoi(text), h = std::stoi(text.substr(text.find('x') + 1));
            const auto lines = split_lines(r.out);
            EXPECT_EQ(static_cast<int>(lines.size()), h) << size;
            for (const std::string& line : lines) EXPECT_LE(ui::display_width(line), w) << line;
            EXPECT_EQ(r.out.find("too small"), std::string::npos) << r.out;
        }
        auto small = run_runtop({"snapshot", "--size", too_small, "--view", view, fixture()});
        ASSERT_EQ(small.exit_code, 0) << small.err;
        EXPECT_NE(small.out.find("too small"), std::string::npos) << small.out;
        EXPECT_NE(small.out.find(view + " needs"), std::string::npos) << small.out;
    }

    static inline TempDir* dir_ = nullptr;
    TempDir config_;
};

}  // namespace runtop::testing
