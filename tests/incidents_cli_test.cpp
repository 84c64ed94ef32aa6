// Issue 19's acceptance: `check` names the root cause first, keeps conditions apart, flags a
// rank that explodes before any warm-up, and guards a live job (`check --follow --exec`).
#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench/msprobe_scale.h"
#include "tests/follower.h"
#include "tests/test_support.h"
#include "tests/view_fixture.h"
#include "writers/demo_run.h"

namespace runtop {
namespace {

using nlohmann::json;
using testing::run_runtop;
using testing::TempDir;

class IncidentsCli : public ::testing::Test {
  protected:
    void SetUp() override { ::setenv("XDG_CONFIG_HOME", (dir_ / "config").c_str(), 1); }
    TempDir dir_;
};

json check_json(const std::vector<std::string>& roots, int expected_exit) {
    std::vector<std::string> args = {"check", "--format", "json"};
    args.insert(args.end(), roots.begin(), roots.end());
    auto r = run_runtop(args);
    EXPECT_EQ(r.exit_code, expected_exit) << r.err;
    return json::parse(r.out);
}

std::vector<json> major_incidents(const json& doc) {
    std::vector<json> out;
    for (const json& inc : doc.at("incidents"))
        if (inc["major"]) out.push_back(inc);
    return out;
}

// 16 ranks x 64 parameters x 100 steps, rank 13's gradient norm x1000 at step 60: before the
// spike rule's 64 values of warm-up, so only the ranks can tell.
TEST_F(IncidentsCli, ARankThatExplodesBeforeAnyWarmUpIsOneMajorIncident) {
    bench::ScaleShape shape{16, 64, 100, 5};
    shape.spike_rank = 13;
    shape.spike_step = 60;
    ASSERT_EQ(bench::write_msprobe_scale(dir_ / "spiked", shape), 0);
    const json doc = check_json({dir_ / "spiked"}, 1);
    const std::vector<json> major = major_incidents(doc);
    ASSERT_EQ(major.size(), 1u) << doc.dump(1);
    const json& root = major[0]["root"];
    EXPECT_EQ(major[0]["step"], 60);
    EXPECT_EQ(root["rank"], 13);
    EXPECT_EQ(root["rule"], "cross_rank");
    const std::string tag = root["tag"];
    EXPECT_TRUE(tag.starts_with("grad_unreduced/") && tag.ends_with("/norm")) << tag;
    EXPECT_EQ(doc["first"], 0);
    EXPECT_EQ(doc["incidents"].size(), 1u) << doc.dump(1);

    shape.spike = false;
    ASSERT_EQ(bench::write_msprobe_scale(dir_ / "clean", shape), 0);
    const json clean = check_json({dir_ / "clean"}, 0);
    EXPECT_EQ(clean["incidents"].size(), 0u) << clean.dump(1);
    EXPECT_TRUE(clean["first"].is_null());
}

// The demo: its loss spike and its NaN are the two major incidents of each run, rooted on the
// ranks it injects them into; nothing major on the clean ranks' own series. Its training logs
// say the same a step later (Megatron and MindFormers count iterations from 1), Megatron's from
// the last rank, which prints it (a NaN anywhere is its mean loss's: a nan iteration).
TEST_F(IncidentsCli, TheDemosSpikeAndNanAreItsTwoMajorIncidents) {
    const std::string demo = dir_ / "demo";
    auto written = run_runtop(
        {"demo", "--dir", demo, "--ranks", "4", "--steps", "2000", "--rate", "0", "--no-ui"});
    ASSERT_EQ(written.exit_code, 0) << written.err;
    DemoOptions o;
    o.ranks = 4;
    o.steps = 2000;
    const DemoTrouble t = DemoRun::trouble_for(o);
    const json doc = check_json({demo}, 1);
    std::map<std::string, std::set<std::pair<long, int>>> roots;  // run -> (step, rank)
    for (const json& inc : major_incidents(doc)) {
        const json& root = inc["root"];
        ASSERT_FALSE(root["rank"].is_null()) << inc.dump(1);
        roots[root["run"].get<std::string>()].emplace(inc["step"].get<long>(),
                                                      root["rank"].get<int>());
    }
    const std::set<std::pair<long, int>> injected = {{t.spike_step, t.spike_rank},
                                                     {t.nan_step, t.nan_rank}};
    const std::set<std::pair<long, int>> logged = {{t.spike_step + 1, t.spike_rank},
                                                   {t.nan_step + 1, t.nan_rank}};
    const int last = o.ranks - 1;
    EXPECT_EQ(roots, (std::map<std::string, std::set<std::pair<long, int>>>{
                         {"demo/tensorboard", injected},
                         {"demo/monitor_output", injected},
                         {"demo/output/log", logged},
                         {"demo", {{t.spike_step + 1, last}, {t.nan_step + 1, last}}}}))
        << doc["incidents"].dump(1);
}

class IncidentsSamples : public IncidentsCli {
  protected:
    void SetUp() override {
        IncidentsCli::SetUp();
        samples_ = testing::samples_dir();
        if (samples_.empty()) GTEST_SKIP() << "../shared/samples is absent";
    }
    std::string samples_;
};

// msProbe's public sample: x100 inputs injected at step 7, an Inf at step 10 on rank 1, a NaN
// at step 11 on rank 0, and the root module's input gradients NaN at every step from step 0.
TEST_F(IncidentsSamples, MsProbeSampleFirstMajorIsStepSevenAndTheStepZeroNansAreConditions) {
    const json doc = check_json({samples_ + "/generated/msprobe/trainermon_2rank_csv"}, 1);
    ASSERT_FALSE(doc["first"].is_null());
    const json& first = doc["incidents"][doc["first"].get<std::size_t>()];
    EXPECT_EQ(first["step"], 7) << first.dump(1);
    ASSERT_FALSE(doc["conditions"].empty());
    for (const json& c : doc["conditions"]) {
        EXPECT_EQ(c["since_step"], 0) << c.dump();
        const std::string tag = c["tag"];
        EXPECT_TRUE(tag.starts_with("actv_grad/")) << tag;
    }
    for (const json& inc : doc["incidents"]) EXPECT_NE(inc["step"], 0) << inc.dump(1);
    bool ten = false, eleven = false;
    for (const json& inc : doc["incidents"]) {
        if (inc["step"] == 10) {
            ten = true;
            EXPECT_EQ(inc["root"]["rank"], 1) << inc.dump(1);
            EXPECT_TRUE(inc["major"]);
        }
        if (inc["step"] == 11) {
            eleven = true;
            EXPECT_EQ(inc["root"]["rank"], 0) << inc.dump(1);
            EXPECT_TRUE(inc["major"]);
        }
    }
    EXPECT_TRUE(ten && eleven) << doc["incidents"].dump(1);
    // The text output names the first major incident in its summary.
    auto text = run_runtop({"check", samples_ + "/generated/msprobe/trainermon_2rank_csv"});
    EXPECT_NE(text.err.find("first major: "), std::string::npos) << text.err;
    EXPECT_NE(text.err.find("at step 7"), std::string::npos) << text.err;
}

// Guard: a run written live; `check --follow --exec` sees its NaN, runs the command once with
// the incident in its environment, and exits 1. Both inotify and polling.
class Guard : public IncidentsCli, public ::testing::WithParamInterface<std::string> {};

TEST_P(Guard, SeesTheNanRunsTheCommandOnceAndExitsOne) {
    const std::string run = dir_ / "job";
    testing::make_dirs(run);
    const std::string file = run + "/events.out.tfevents.1";
    testing::write_file(file, testing::rank_events(0, 100));
    const std::string marker = dir_ / "marker";
    const std::string command =
        "echo \"$RUNTOP_STEP $RUNTOP_RULE $RUNTOP_TAG $RUNTOP_SEVERITY\" >> '" + marker + "'";
    testing::FollowerOptions options;
    options.mode = GetParam();
    options.command = {"check", "--follow", "--exec", command};
    testing::Follower guard(run, options);
    // "watching" comes on stderr once the backfill is read: wait_for() waits on stdout.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (guard.err().find("watching") == std::string::npos &&
           std::chrono::steady_clock::now() < deadline && guard.read_some(50)) {
    }
    ASSERT_NE(guard.err().find("watching"), std::string::npos) << guard.out() << guard.err();
    EXPECT_EQ(guard.out(), "");  // a healthy backfill: nothing to say
    // Training goes on, then the loss turns NaN at step 150.
    std::string more;
    for (int s = 100; s < 160; ++s)
        more +=
            testing::training_step_records(s, s == 150 ? std::nan("") : 1.0 - s * 1e-3, 1.2, 1e-3);
    testing::append_file(file, more);
    ASSERT_TRUE(guard.wait_for("incident at step 150", 10000)) << guard.out() << guard.err();
    while (guard.read_some(10000)) {
    }  // until it ends on its own
    const int code = guard.stop();
    EXPECT_EQ(code, 1) << guard.out() << guard.err();
    EXPECT_EQ(testing::read_file(marker), "150 nonfinite train/loss alert\n");
}

INSTANTIATE_TEST_SUITE_P(Modes, Guard, ::testing::Values("", "--poll=100"),
                         [](const auto& info) { return info.param.empty() ? "inotify" : "poll"; });

TEST_F(IncidentsCli, GuardOptionsNeedFollowAndTheCommandsFailureIsNotFatal) {
    auto r = run_runtop({"check", "--exec", "true", dir_.path()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--exec only applies with --follow"), std::string::npos) << r.err;
    auto f = run_runtop({"check", "--fail-on", "often", dir_.path()});
    EXPECT_EQ(f.exit_code, 2);
    EXPECT_NE(f.err.find("minor, warn or alert"), std::string::npos) << f.err;
}

}  // namespace
}  // namespace runtop
