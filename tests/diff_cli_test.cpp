// `runtop diff` as scripts use it (docs/diff.md): the real binary over runs written with
// runtop's own event writer. A run against itself, two runs of one seed that part at a known
// step, disjoint tags, different step grids, a restarted run, configuration differences (text
// summary, hparams.yaml, deepspeed_config.csv), rank means, wall-time alignment, several runs
// per root, smoothing (--smooth), usage errors and missing paths; and a sample run against
// itself.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/smoothing.h"
#include "core/compare/run_compare.h"
#include "tests/test_support.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using json = nlohmann::json;
using testing::run_runtop;
using testing::split_lines;
using testing::TempDir;

constexpr int kSteps = 100;
constexpr int kDivergence = 37;  // K: where the "new" run parts from the base

// The value of (rank, step): a seeded random walk, the same in every run made from `seed`.
std::vector<double> walk(std::uint64_t seed, int steps) {
    testing::FixtureNoise noise(seed);
    std::vector<double> v;
    double x = 2.0;
    for (int s = 0; s < steps; ++s) {
        x = std::fabs(x + 0.05 * noise()) + 0.1;
        v.push_back(x);
    }
    return v;
}

struct Scalar {
    std::string tag;
    int step;
    double wall;
    double value;
};

// One event file holding `scalars` (and `texts`: tag → text, at step 0).
void write_events(const std::string& dir, const std::string& name,
                  const std::vector<Scalar>& scalars,
                  const std::vector<std::pair<std::string, std::string>>& texts = {}) {
    testing::make_dirs(dir);
    std::string bytes = frame_record(events::file_version(1.7e9));
    for (const auto& [tag, body] : texts) bytes += frame_record(events::text(tag, body, 0, 1.7e9));
    for (const Scalar& s : scalars)
        bytes +=
            frame_record(events::simple_scalar(s.tag, static_cast<float>(s.value), s.step, s.wall));
    testing::write_file(dir + "/" + name, bytes);
}

// A run of `ranks` rank directories; `value(rank, step)` for the tags given.
void write_run(const std::string& root, int ranks, const std::vector<std::string>& tags,
               const std::function<double(int, int)>& value, int steps = kSteps, int stride = 1) {
    for (int rank = 0; rank < ranks; ++rank) {
        std::vector<Scalar> scalars;
        for (int i = 0; i < steps; ++i) {
            const int step = i * stride;
            for (const std::string& tag : tags)
                scalars.push_back({tag, step, 1.7e9 + step, value(rank, step)});
        }
        write_events(root + "/rank_" + std::to_string(rank), "events.out.tfevents.1700000000.h.1.0",
                     scalars);
    }
}

// Two runs from one seed: rank 1 of "new" parts at K, rank 0 three steps later.
class SameSeed : public ::testing::Test {
  protected:
    void SetUp() override {
        const std::vector<double> w0 = walk(7, kSteps), w1 = walk(8, kSteps);
        auto base = [&](int rank, int step) { return (rank == 0 ? w0 : w1)[step]; };
        auto changed = [&](int rank, int step) {
            const int from = rank == 1 ? kDivergence : kDivergence + 3;
            return base(rank, step) * (step >= from ? 1.01 : 1.0);
        };
        write_run(dir_ / "base", 2, {"train/loss", "train/lr"}, base);
        write_run(dir_ / "new", 2, {"train/loss"}, changed);
        // train/lr is the same in both.
        write_run(dir_ / "new_lr", 2, {"train/lr"}, base);
        for (int rank = 0; rank < 2; ++rank) {
            const std::string from = dir_ / ("new_lr/rank_" + std::to_string(rank));
            const std::string to = dir_ / ("new/rank_" + std::to_string(rank));
            testing::write_file(to + "/events.out.tfevents.1700000000.h.1.1",
                                testing::read_file(from + "/events.out.tfevents.1700000000.h.1.0"));
        }
    }
    TempDir dir_;
};

TEST_F(SameSeed, ARunAgainstItselfExitsZeroInEveryFormat) {
    for (const char* format : {"text", "csv", "json"}) {
        auto r = run_runtop({"diff", "--format", format, dir_ / "base", dir_ / "base"});
        EXPECT_EQ(r.exit_code, 0) << format << "\n" << r.out << r.err;
        EXPECT_TRUE(r.err.empty()) << r.err;
    }
    auto r = run_runtop({"diff", "--format", "json", dir_ / "base", dir_ / "base"});
    const json j = json::parse(r.out);
    EXPECT_EQ(j["diverging"], 0);
    EXPECT_EQ(j["run_a"], "base#1");  // the same name twice: told apart
    EXPECT_EQ(j["run_b"], "base#2");
    ASSERT_EQ(j["tags"].size(), 2u);
    for (const json& t : j["tags"]) {
        EXPECT_EQ(t["compared"], 2);
        EXPECT_EQ(t["common_steps"], kSteps);
        EXPECT_TRUE(t["first_divergence"].is_null());
        EXPECT_EQ(t["delta"], 0);
    }
    EXPECT_TRUE(j["only_a"].empty());
    EXPECT_TRUE(j["only_b"].empty());
    EXPECT_TRUE(j["config"].empty());
    auto text = run_runtop({"diff", dir_ / "base", dir_ / "base"});
    EXPECT_NE(text.out.find("no divergence: 2 tags (4 series) agree within 1e-06"),
              std::string::npos)
        << text.out;
}

TEST_F(SameSeed, TheFirstDivergenceIsStepKOnTheRankThatPartsFirst) {
    const std::string k = std::to_string(kDivergence);
    auto text = run_runtop({"diff", "base=" + (dir_ / "base"), "new=" + (dir_ / "new")});
    EXPECT_EQ(text.exit_code, 1) << text.out << text.err;
    const std::vector<std::string> lines = split_lines(text.out);
    ASSERT_GE(lines.size(), 6u) << text.out;
    EXPECT_EQ(lines[0], "A: base  " + (dir_ / "base"));
    EXPECT_EQ(lines[1], "B: new   " + (dir_ / "new"));
    EXPECT_EQ(lines[2], "tolerance 1e-06, align step, by rank");
    bool loss_row = false, lr_row = false;
    for (const std::string& line : lines) {
        if (line.starts_with("train/loss ")) {
            loss_row = true;
            EXPECT_TRUE(line.ends_with("  " + k + " @ rank 1 (2 of 2)")) << line;
        }
        if (line.starts_with("train/lr ")) {
            lr_row = true;
            EXPECT_TRUE(line.ends_with("  -")) << line;
        }
    }
    EXPECT_TRUE(loss_row && lr_row) << text.out;
    EXPECT_EQ(lines.back(), "1 of 2 tags diverge (2 of 4 series), first at step " + k +
                                " in train/loss rank 1; only in A: 0 tags, only in B: 0 tags; "
                                "config: 0 changes");

    auto csv =
        run_runtop({"diff", "--format", "csv", "base=" + (dir_ / "base"), "new=" + (dir_ / "new")});
    EXPECT_EQ(csv.exit_code, 1);
    const std::vector<std::string> rows = split_lines(csv.out);
    ASSERT_EQ(rows.size(), 5u) << csv.out;
    EXPECT_EQ(rows[0],
              "kind,run_a,run_b,tag,rank,common_steps,last_a,last_b,last_common_step,delta,ratio,"
              "first_divergence,first_divergence_time,max_relative_difference,key,value_a,"
              "value_b,smoothing");
    EXPECT_TRUE(rows[1].starts_with("series,base,new,train/loss,0,100,")) << rows[1];
    // ...,first_divergence,first_divergence_time (empty: aligned by step),...
    EXPECT_NE(rows[1].find("," + std::to_string(kDivergence + 3) + ",,"), std::string::npos)
        << rows[1];
    EXPECT_TRUE(rows[2].starts_with("series,base,new,train/loss,1,100,")) << rows[2];
    EXPECT_NE(rows[2].find("," + k + ",,"), std::string::npos) << rows[2];
    EXPECT_TRUE(rows[3].starts_with("series,base,new,train/lr,0,100,")) << rows[3];
    EXPECT_NE(rows[3].find(",99,0,1,,,0,,,,0"), std::string::npos) << rows[3];

    auto js = run_runtop(
        {"diff", "--format", "json", "base=" + (dir_ / "base"), "new=" + (dir_ / "new")});
    EXPECT_EQ(js.exit_code, 1);
    const json j = json::parse(js.out);
    EXPECT_EQ(j["run_a"], "base");
    EXPECT_EQ(j["run_b"], "new");
    EXPECT_EQ(j["options"],
              json::parse(R"({"tolerance":1e-06,"align":"step","by":"rank","smoothing":0})"));
    EXPECT_EQ(j["diverging"], 1);
    EXPECT_EQ(j["diverging_series"], 2);
    const json& loss = j["tags"][0];
    EXPECT_EQ(loss["tag"], "train/loss");
    EXPECT_EQ(loss["first_divergence"], kDivergence);
    EXPECT_EQ(loss["first_divergence_rank"], 1);
    EXPECT_EQ(loss["diverging"], 2);
    ASSERT_EQ(loss["series"].size(), 2u);
    EXPECT_EQ(loss["series"][0]["first_divergence"], kDivergence + 3);
    EXPECT_EQ(loss["series"][1]["first_divergence"], kDivergence);
    EXPECT_NEAR(loss["ratio"].get<double>(), 1.01, 1e-6);
}

TEST_F(SameSeed, ALooseToleranceAndAFilterSeeNoDivergence) {
    auto loose = run_runtop({"diff", "--tolerance", "0.02", dir_ / "base", dir_ / "new"});
    EXPECT_EQ(loose.exit_code, 0) << loose.out;
    auto lr_only = run_runtop({"diff", "--filter", "lr$", dir_ / "base", dir_ / "new"});
    EXPECT_EQ(lr_only.exit_code, 0) << lr_only.out;
    auto rank0 =
        run_runtop({"diff", "--format", "json", "--ranks", "0", dir_ / "base", dir_ / "new"});
    EXPECT_EQ(rank0.exit_code, 1);
    EXPECT_EQ(json::parse(rank0.out)["tags"][0]["first_divergence"], kDivergence + 3);
}

// --smooth W: runs of two seeds around one trend differ from step 0 on, raw; smoothed with
// TensorBoard's weight 0.9 they stay within 5% (exit 0), and a run that departs from the trend
// is caught (exit 1) at the step where the smoothed curves part, computed here with the batch
// smoothing over the values as stored (float32, as the event files hold them).
class Smoothed : public ::testing::Test {
  protected:
    static constexpr int kSmoothSteps = 300;
    static constexpr int kDeparts = 180;

    // The trend with ~2% noise of `seed`; 15% higher from `departs` on.
    static std::vector<double> run_values(std::uint64_t seed, int departs) {
        testing::FixtureNoise noise(seed);
        std::vector<double> v;
        for (int s = 0; s < kSmoothSteps; ++s) {
            const double trend = 0.6 + 2.5 * std::exp(-s / 100.0);
            v.push_back(
                static_cast<float>(trend * (1 + 0.035 * noise()) * (s >= departs ? 1.15 : 1.0)));
        }
        return v;
    }
    static void write(const std::string& dir, const std::vector<double>& v) {
        std::vector<Scalar> scalars;
        for (int s = 0; s < kSmoothSteps; ++s)
            scalars.push_back({"train/loss", s, 1.7e9 + s, v[s]});
        write_events(dir, "events.out.tfevents.1700000000.h.1.0", scalars);
    }
    void SetUp() override {
        write(dir_ / "base", base_);
        write(dir_ / "seed2", seed2_);
        write(dir_ / "departs", departs_);
    }
    TempDir dir_;
    const std::vector<double> base_ = run_values(11, kSmoothSteps);
    const std::vector<double> seed2_ = run_values(12, kSmoothSteps);
    const std::vector<double> departs_ = run_values(12, kDeparts);
};

TEST_F(Smoothed, OtherSeedsFollowTheBaseWithinFivePercentAndADepartureIsCaught) {
    const std::string base = dir_ / "base", seed2 = dir_ / "seed2", departs = dir_ / "departs";
    auto raw = run_runtop({"diff", "--format", "json", base, seed2});
    EXPECT_EQ(raw.exit_code, 1) << raw.out << raw.err;
    EXPECT_EQ(json::parse(raw.out)["tags"][0]["first_divergence"], 0);
    EXPECT_EQ(run_runtop({"diff", "--tolerance", "0.05", base, seed2}).exit_code, 1);

    auto text = run_runtop({"diff", "--tolerance", "0.05", "--smooth", "0.9", base, seed2});
    EXPECT_EQ(text.exit_code, 0) << text.out << text.err;
    const std::vector<std::string> lines = split_lines(text.out);
    ASSERT_GE(lines.size(), 3u) << text.out;
    EXPECT_EQ(lines[2], "tolerance 0.05, align step, by rank, smooth 0.9 (TensorBoard's EMA)");
    EXPECT_EQ(lines.back(),
              "no divergence: 1 tag (1 series) agree within 0.05 smoothed at 0.9; only in A: 0 "
              "tags, only in B: 0 tags; config: 0 changes");

    // The departure, at the first step TensorBoard's curves are more than 5% apart.
    std::vector<double> sa(base_.size()), sb(departs_.size());
    classic_smooth(base_, 0.9, sa);
    classic_smooth(departs_, 0.9, sb);
    std::optional<int> expected;
    for (int s = 0; s < kSmoothSteps && !expected; ++s)
        if (values_diverge(sa[s], sb[s], 0.05)) expected = s;
    ASSERT_TRUE(expected);
    EXPECT_GE(*expected, kDeparts);
    EXPECT_LT(*expected, kDeparts + 20);
    auto js = run_runtop(
        {"diff", "--format", "json", "--tolerance", "0.05", "--smooth", "0.9", base, departs});
    EXPECT_EQ(js.exit_code, 1) << js.out << js.err;
    const json j = json::parse(js.out);
    EXPECT_EQ(j["options"]["smoothing"], 0.9);
    const json& t = j["tags"][0];
    EXPECT_EQ(t["first_divergence"], *expected);
    // The values reported are the smoothed ones (json numbers are %.9g).
    EXPECT_NEAR(t["last_a"].get<double>(), sa.back(), 1e-8 * sa.back());
    EXPECT_NEAR(t["last_b"].get<double>(), sb.back(), 1e-8 * sb.back());
    EXPECT_GT(std::fabs(t["last_b"].get<double>() - departs_.back()), 1e-6);

    auto departed = run_runtop({"diff", "--tolerance", "0.05", "--smooth", "0.9", base, departs});
    EXPECT_EQ(departed.exit_code, 1);
    EXPECT_EQ(split_lines(departed.out).back(),
              "1 of 1 tag diverge (1 of 1 series) smoothed at 0.9, first at step " +
                  std::to_string(*expected) +
                  " in train/loss; only in A: 0 tags, only in B: 0 tags; config: 0 "
                  "changes");

    auto csv = run_runtop(
        {"diff", "--format", "csv", "--tolerance", "0.05", "--smooth", "0.9", base, departs});
    EXPECT_EQ(csv.exit_code, 1);
    const std::vector<std::string> rows = split_lines(csv.out);
    ASSERT_EQ(rows.size(), 2u) << csv.out;
    EXPECT_TRUE(rows[0].ends_with(",smoothing")) << rows[0];
    // ...,first_divergence,first_divergence_time (empty: aligned by step),...
    EXPECT_NE(rows[1].find("," + std::to_string(*expected) + ",,"), std::string::npos) << rows[1];
    EXPECT_TRUE(rows[1].ends_with(",0.9")) << rows[1];
}

TEST(Diff, DisjointTagsAreListedApartAndDoNotDiverge) {
    TempDir dir;
    auto v = [](int, int step) { return 1.0 + step / 64.0; };
    write_run(dir / "a", 1, {"loss", "acc"}, v);
    write_run(dir / "b", 1, {"loss", "f1"}, v);
    auto r = run_runtop({"diff", dir / "a", dir / "b"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("\nonly in A (a): 1 tag\n  acc  ranks 0\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nonly in B (b): 1 tag\n  f1  ranks 0\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("only in A: 1 tag, only in B: 1 tag"), std::string::npos) << r.out;
    const json j = json::parse(run_runtop({"diff", "--format", "json", dir / "a", dir / "b"}).out);
    ASSERT_EQ(j["tags"].size(), 1u);
    EXPECT_EQ(j["tags"][0]["tag"], "loss");
    EXPECT_EQ(j["only_a"], json::parse(R"([{"run_a":"a","run_b":"b","tag":"acc","ranks":[0]}])"));
    EXPECT_EQ(j["only_b"], json::parse(R"([{"run_a":"a","run_b":"b","tag":"f1","ranks":[0]}])"));
    const std::vector<std::string> rows =
        split_lines(run_runtop({"diff", "--format", "csv", dir / "a", dir / "b"}).out);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_TRUE(rows[2].starts_with("only_a,a,b,acc,0,,")) << rows[2];
    EXPECT_TRUE(rows[3].starts_with("only_b,a,b,f1,0,,")) << rows[3];
}

TEST(Diff, DifferentStepGridsCompareTheStepsInCommon) {
    TempDir dir;
    auto v = [](int, int step) { return 1.0 + step / 64.0; };
    write_run(dir / "every", 1, {"loss"}, v, 100, 1);
    write_run(dir / "every3", 1, {"loss"}, v, 50, 3);  // 0, 3, ... 147
    const json j =
        json::parse(run_runtop({"diff", "--format", "json", dir / "every", dir / "every3"}).out);
    EXPECT_EQ(j["diverging"], 0);
    const json& t = j["tags"][0];
    EXPECT_EQ(t["common_steps"], 34);  // 0, 3, ... 99
    EXPECT_EQ(t["last_common_step"], 99);
    EXPECT_EQ(t["last_step_a"], 99);
    EXPECT_EQ(t["last_step_b"], 147);
    EXPECT_EQ(t["delta"], 0);
}

TEST(Diff, ARestartedRunComparesThePointsKeptAfterTheRestart) {
    TempDir dir;
    const std::vector<double> w = walk(3, kSteps);
    auto v = [&](int, int step) { return w[step]; };
    write_run(dir / "straight", 1, {"loss"}, v);
    // The restarted run: steps 0-59 with other values, then a new process from step 40 on
    // writing the base's values (the Store drops 40-59 of the first file).
    std::vector<Scalar> first, second;
    for (int s = 0; s < 60; ++s) first.push_back({"loss", s, 1.7e9 + s, s < 40 ? w[s] : -1.0});
    for (int s = 40; s < kSteps; ++s) second.push_back({"loss", s, 1.8e9 + s, w[s]});
    write_events(dir / "restarted/rank_0", "events.out.tfevents.1700000000.h.1.0", first);
    write_events(dir / "restarted/rank_0", "events.out.tfevents.1800000000.h.2.0", second);
    auto r = run_runtop({"diff", "--format", "json", dir / "straight", dir / "restarted"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(json::parse(r.out)["tags"][0]["common_steps"], kSteps);
}

TEST(Diff, ConfigurationChangesFromTextSummariesHparamsAndDeepSpeed) {
    TempDir dir;
    auto v = [](int, int step) { return 1.0 + step / 64.0; };
    for (const std::string run : {"a", "b"}) {
        write_run(dir / run, 1, {"loss"}, v);
        const bool b = run == "b";
        write_events(dir / (run + "/rank_0"), "events.out.tfevents.1700000000.h.1.1", {},
                     {{"config", b ? R"({"lr": 0.2, "optim": {"name": "adamw"}, "seed": 1})"
                                   : R"({"lr": 0.1, "optim": {"name": "adamw"}, "seed": 1})"},
                      {"notes", b ? "second try" : "baseline"}});
        testing::write_file(dir / (run + "/hparams.yaml"),
                            b ? "batch_size: 32\nmodel:\n  depth: 24\n"
                              : "batch_size: 32\nmodel:\n  depth: 12\ndropout: 0.1\n");
        testing::write_file(
            dir / (run + "/deepspeed_config.csv"),
            b ? "train_batch_size,32\r\ngradient_clipping,1.0\r\n" : "train_batch_size,32\r\n");
    }
    auto r = run_runtop({"diff", dir / "a", dir / "b"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;  // configuration does not make a divergence
    EXPECT_NE(r.out.find("\nconfig: 1 added, 1 removed, 3 changed\n"
                         "  ~ config/lr            0.1 → 0.2\n"
                         "  + gradient_clipping    1.0\n"
                         "  - hparams/dropout      0.1\n"
                         "  ~ hparams/model.depth  12 → 24\n"
                         "  ~ notes                baseline → second try\n"),
              std::string::npos)
        << r.out;
    EXPECT_TRUE(split_lines(r.out).back().ends_with("config: 5 changes")) << r.out;

    const json j = json::parse(run_runtop({"diff", "--format", "json", dir / "a", dir / "b"}).out);
    ASSERT_EQ(j["config"].size(), 5u) << j.dump();
    EXPECT_EQ(j["config"][0],
              json::parse(R"({"run_a":"a","run_b":"b","change":"changed","key":"config/lr",
                              "rank":null,"a":"0.1","b":"0.2"})"));
    EXPECT_EQ(j["config"][1]["change"], "added");
    EXPECT_TRUE(j["config"][1]["a"].is_null());
    EXPECT_EQ(j["config"][2]["change"], "removed");
    EXPECT_TRUE(j["config"][2]["b"].is_null());

    const std::vector<std::string> rows =
        split_lines(run_runtop({"diff", "--format", "csv", dir / "a", dir / "b"}).out);
    ASSERT_EQ(rows.size(), 7u);
    EXPECT_EQ(rows[2], "config_changed,a,b,,,,,,,,,,,,config/lr,0.1,0.2,");
    EXPECT_EQ(rows[3], "config_added,a,b,,,,,,,,,,,,gradient_clipping,,1.0,");
    EXPECT_EQ(rows[4], "config_removed,a,b,,,,,,,,,,,,hparams/dropout,0.1,,");
}

// A value that texts without a rank give against the ranks' is its own entry: "unranked" in
// every format, never confused with the run's value.
TEST(Diff, UnrankedConfigurationEntriesAreNamedInEveryFormat) {
    TempDir dir;
    auto v = [](int, int step) { return 1.0 + step / 64.0; };
    for (const std::string run : {"a", "b"}) {
        write_run(dir / run, 2, {"loss"}, v);
        for (int rank = 0; rank < 2; ++rank)
            write_events(dir / (run + "/rank_" + std::to_string(rank)),
                         "events.out.tfevents.1700000000.h.1.1", {}, {{"notes", "x"}});
        // Beside the rank directories: a file of the run that carries no rank.
        write_events(dir / run, "events.out.tfevents.1700000000.h.1.2", {},
                     {{"notes", run == "a" ? "y" : "x"}});
    }
    auto text = run_runtop({"diff", dir / "a", dir / "b"});
    EXPECT_EQ(text.exit_code, 0) << text.out << text.err;
    EXPECT_NE(text.out.find("  - unranked:notes  y\n"), std::string::npos) << text.out;
    const json j = json::parse(run_runtop({"diff", "--format", "json", dir / "a", dir / "b"}).out);
    ASSERT_EQ(j["config"].size(), 1u) << j.dump();
    EXPECT_EQ(j["config"][0]["rank"], "unranked");
    EXPECT_EQ(j["config"][0]["key"], "notes");
    const std::vector<std::string> rows =
        split_lines(run_runtop({"diff", "--format", "csv", dir / "a", dir / "b"}).out);
    ASSERT_GE(rows.size(), 3u);
    EXPECT_EQ(rows.back(), "config_removed,a,b,,unranked,,,,,,,,,,notes,y,,") << rows.back();
}

TEST(Diff, RankMeansCanAgreeWhereRanksDoNot) {
    TempDir dir;
    // Exact in float32: rank 0 and 1 of "spread" are the base ± 0.5, so their mean is the base.
    write_run(dir / "base", 2, {"loss"}, [](int, int step) { return 2.0 + step / 64.0; });
    write_run(dir / "spread", 2, {"loss"},
              [](int rank, int step) { return 2.0 + step / 64.0 + (rank == 0 ? 0.5 : -0.5); });
    auto by_rank = run_runtop({"diff", dir / "base", dir / "spread"});
    EXPECT_EQ(by_rank.exit_code, 1) << by_rank.out;
    auto by_mean =
        run_runtop({"diff", "--by", "mean", "--format", "json", dir / "base", dir / "spread"});
    EXPECT_EQ(by_mean.exit_code, 0) << by_mean.out << by_mean.err;
    const json j = json::parse(by_mean.out);
    EXPECT_EQ(j["options"]["by"], "mean");
    ASSERT_EQ(j["tags"].size(), 1u);
    EXPECT_EQ(j["tags"][0]["compared"], 1);
    EXPECT_EQ(j["tags"][0]["ranks_a"], 2);
    EXPECT_TRUE(j["tags"][0]["series"][0]["rank"].is_null());
    auto text = run_runtop({"diff", "--by", "mean", dir / "base", dir / "spread"});
    EXPECT_NE(text.out.find("tolerance 1e-06, align step, by mean"), std::string::npos);
    EXPECT_NE(text.out.find("\nloss  mean 2  "), std::string::npos) << text.out;
}

TEST(Diff, WallAlignmentPairsPointsByTimeSinceEachRunsStart) {
    TempDir dir;
    // The same curve over the same seconds, one run counting steps, the other samples (x10),
    // started at another time.
    std::vector<Scalar> steps, samples;
    for (int i = 0; i < 50; ++i) {
        steps.push_back({"loss", i, 1.7e9 + i, 1.0 + i / 64.0});
        samples.push_back({"loss", 10 * i, 1.8e9 + i, 1.0 + i / 64.0});
    }
    write_events(dir / "steps", "events.out.tfevents.1700000000.h.1.0", steps);
    write_events(dir / "samples", "events.out.tfevents.1800000000.h.1.0", samples);
    auto by_step = run_runtop({"diff", dir / "steps", dir / "samples"});
    EXPECT_EQ(by_step.exit_code, 1) << by_step.out;  // step 10 of one is step 1 of the other
    auto by_wall =
        run_runtop({"diff", "--align", "wall", "--format", "json", dir / "steps", dir / "samples"});
    EXPECT_EQ(by_wall.exit_code, 0) << by_wall.out << by_wall.err;
    const json j = json::parse(by_wall.out);
    EXPECT_EQ(j["options"]["align"], "wall");
    EXPECT_EQ(j["tags"][0]["common_steps"], 50);
}

TEST(Diff, RootsWithSeveralRunsArePairedByTheirPathBelowTheRoot) {
    TempDir dir;
    auto v = [](int, int step) { return 1.0 + step / 64.0; };
    auto w = [](int, int step) { return 1.0 + step / 32.0; };
    write_run(dir / "a/seed1", 1, {"loss"}, v);
    write_run(dir / "a/seed2", 1, {"loss"}, v);
    write_run(dir / "a/seed3", 1, {"loss"}, v);
    write_run(dir / "b/seed1", 1, {"loss"}, v);
    write_run(dir / "b/seed2", 1, {"loss"}, w);
    write_run(dir / "b/seed4", 1, {"loss"}, v);
    auto r = run_runtop({"diff", "--format", "json", dir / "a", dir / "b"});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    const json j = json::parse(r.out);
    ASSERT_EQ(j["tags"].size(), 2u);
    EXPECT_EQ(j["tags"][0]["run_a"], "a/seed1");
    EXPECT_EQ(j["tags"][0]["run_b"], "b/seed1");
    EXPECT_TRUE(j["tags"][0]["first_divergence"].is_null());
    EXPECT_EQ(j["tags"][1]["run_a"], "a/seed2");
    EXPECT_EQ(j["tags"][1]["first_divergence"], 1);
    EXPECT_EQ(j["runs_only_a"], json::parse(R"(["a/seed3"])"));
    EXPECT_EQ(j["runs_only_b"], json::parse(R"(["b/seed4"])"));
    auto text = run_runtop({"diff", dir / "a", dir / "b"});
    EXPECT_NE(text.out.find("\n== a/seed2 vs b/seed2 ==\n"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("runs only in A (no run of the same path below the other root):\n"
                            "  a/seed3\n"),
              std::string::npos)
        << text.out;
    // No partner at all: nothing to compare is an error.
    write_run(dir / "c/other", 1, {"loss"}, v);
    write_run(dir / "c/more", 1, {"loss"}, v);
    auto none = run_runtop({"diff", dir / "a", dir / "c"});
    EXPECT_EQ(none.exit_code, 2);
    EXPECT_EQ(split_lines(none.err).size(), 1u) << none.err;
}

TEST(Diff, UsageErrorsAreOneLineAndExitTwo) {
    TempDir dir;
    write_run(dir / "a", 1, {"loss"}, [](int, int step) { return step; });
    const std::string a = dir / "a";
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"diff", "--format", "xml", a, a}, "--format must be text, csv or json, not 'xml'"},
        {{"diff", "--tolerance", "-1", a, a}, "--tolerance"},
        {{"diff", "--tolerance", "nan", a, a}, "'nan'"},
        {{"diff", "--tolerance=abc", a, a}, "'abc'"},
        {{"diff", "--align", "time", a, a}, "--align needs step or wall, not 'time'"},
        {{"diff", "--by", "node", a, a}, "--by needs rank or mean, not 'node'"},
        {{"diff", "--tolerance", "2", a, a},
         "--tolerance 2 can never fire: a relative difference |b - a| / max(|a|, |b|) is at "
         "most 2 (values of opposite sign), so only NaN/Inf would be reported"},
        {{"diff", "--tolerance=5", a, a}, "--tolerance 5 can never fire"},
        {{"diff", "--smooth", "1", a, a}, "--smooth needs"},
        {{"diff", "--smooth", "-0.5", a, a}, "'-0.5'"},
        {{"diff", "--filter", "(", a, a}, "("},
        {{"diff", "--ranks", "x", a, a}, "x"},
        {{"diff", a}, "needs two roots"},
        {{"diff", a, a, a}, "needs two roots"},
        {{"diff", "--bogus", a, a}, "--bogus"},
    };
    for (const auto& [args, needle] : cases) {
        auto r = run_runtop(args);
        EXPECT_EQ(r.exit_code, 2) << args[1];
        EXPECT_TRUE(r.out.empty()) << args[1];
        EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
        EXPECT_TRUE(r.err.starts_with("runtop diff: ")) << r.err;
        EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    }
}

TEST(Diff, AMissingOrEmptyRootIsOneLineNamingIt) {
    TempDir dir;
    write_run(dir / "a", 1, {"loss"}, [](int, int step) { return step; });
    testing::make_dirs(dir / "empty");
    auto missing = run_runtop({"diff", dir / "a", dir / "nope"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_EQ(missing.err, "runtop diff: " + (dir / "nope") + ": No such file or directory\n");
    EXPECT_TRUE(missing.out.empty());
    auto empty = run_runtop({"diff", dir / "empty", dir / "a"});
    EXPECT_EQ(empty.exit_code, 2);
    EXPECT_EQ(empty.err,
              "runtop diff: " + (dir / "empty") + ": no series or configuration found\n");
}

// diff is a gate too: runs it could only partly read are not "no divergence". Rank 1 of B
// cannot be read, so only rank 0 would be compared (and agree): exit 2 unless
// --allow-unreadable, which compares what could be read.
TEST(Diff, AnUnreadableFileFailsTheGateUnlessAllowed) {
    TempDir dir;
    ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);  // for nobody
    write_run(dir / "a", 2, {"loss"}, [](int rank, int step) { return rank + 0.5 * step; });
    write_run(dir / "b", 2, {"loss"}, [](int rank, int step) { return rank + 0.5 * step; });
    const std::string locked = dir / "b/rank_1/events.out.tfevents.1700000000.h.1.0";
    ASSERT_EQ(::chmod(locked.c_str(), 0), 0);
    auto run = [](const std::vector<std::string>& args) {
        return ::geteuid() == 0 ? testing::run_runtop_as_nobody(args) : run_runtop(args);
    };
    auto r = run({"diff", dir / "a", dir / "b"});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(locked + ": cannot open: Permission denied"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("runtop diff: 1 data file under " + (dir / "b") +
                         " could not be read: the comparison is incomplete, the gate did not "
                         "pass"),
              std::string::npos)
        << r.err;
    auto allowed = run({"diff", "--allow-unreadable", dir / "a", dir / "b"});
    EXPECT_EQ(allowed.exit_code, 0) << allowed.out << allowed.err;
    EXPECT_NE(allowed.err.find("skipped (--allow-unreadable)"), std::string::npos) << allowed.err;
}

TEST(Diff, HelpListsTheCompareOptions) {
    auto r = run_runtop({"diff", "--help"});
    EXPECT_EQ(r.exit_code, 0);
    for (const char* option : {"--format", "--tolerance X", "--smooth W", "--align step|wall",
                               "--by rank|mean", "--filter", "--ranks", "--memory"})
        EXPECT_NE(r.out.find(option), std::string::npos) << option;
    EXPECT_NE(run_runtop({"--help"}).out.find("runtop diff [--format text|csv|json]"),
              std::string::npos);
}

// ---- ../shared/samples -------------------------------------------------------------------

TEST(DiffSamples, ASampleRunAgainstItselfExitsZero) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent";
    for (const std::string run : {"/generated/msprobe/trainermon_2rank_csv/monitor_output",
                                  "/generated/deepspeed/tensorboard/ds_pipe_job",
                                  "/generated/lightning/lightning_logs/version_0"}) {
        auto r = run_runtop({"diff", "--format", "json", samples + run, samples + run});
        EXPECT_EQ(r.exit_code, 0) << run << "\n" << r.err;
        const json j = json::parse(r.out);
        EXPECT_EQ(j["diverging"], 0) << run;
        EXPECT_FALSE(j["tags"].empty()) << run;
        EXPECT_TRUE(j["config"].empty()) << run;
    }
}

// Two public PyTorch runs that differ in their learning rate: every value runtop compares is
// checked against what TensorBoard's own loader read from the same files (EXPECTED/*.csv).
TEST(DiffSamples, TwoPublicRunsDivergeWhereTensorBoardsValuesDo) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent";
    const std::string runs = samples + "/tfevents-public/study_tensorboard/runs/";
    const std::string expected = samples + "/tfevents-public/EXPECTED/study_tensorboard/runs/";
    // tag -> step -> value, from TensorBoard's loader.
    auto load = [&](const std::string& run, const std::string& file) {
        std::map<std::string, std::map<std::int64_t, double>> out;
        const std::vector<std::string> lines =
            split_lines(testing::read_file(expected + run + "/" + file));
        for (std::size_t i = 1; i < lines.size(); ++i) {
            std::vector<std::string> f;
            std::size_t from = 0;
            for (std::size_t at; (at = lines[i].find(',', from)) != std::string::npos;
                 from = at + 1)
                f.push_back(lines[i].substr(from, at - from));
            f.push_back(lines[i].substr(from));
            if (f.size() == 4) out[f[0]][std::stoll(f[1])] = std::stod(f[3]);
        }
        return out;
    };
    const auto a =
        load("experiment_lr_0.001", "events.out.tfevents.1771594954.zyzkings.14144.2.scalars.csv");
    const auto b =
        load("experiment_lr_0.01", "events.out.tfevents.1771594954.zyzkings.14144.1.scalars.csv");
    ASSERT_FALSE(a.empty());

    auto r = run_runtop(
        {"diff", "--format", "json", runs + "experiment_lr_0.001", runs + "experiment_lr_0.01"});
    ASSERT_NE(r.exit_code, 2) << r.err;
    const json j = json::parse(r.out);
    ASSERT_EQ(j["tags"].size(), a.size()) << r.out;
    bool any = false;
    for (const json& row : j["tags"]) {
        const std::string tag = row["tag"];
        ASSERT_TRUE(a.count(tag) && b.count(tag)) << tag;
        std::optional<std::int64_t> first;
        std::uint64_t common = 0;
        for (const auto& [step, va] : a.at(tag)) {
            auto it = b.at(tag).find(step);
            if (it == b.at(tag).end()) continue;
            ++common;
            if (!first && values_diverge(va, it->second, 1e-6)) first = step;
        }
        EXPECT_EQ(row["common_steps"], common) << tag;
        if (first) {
            any = true;
            EXPECT_EQ(row["first_divergence"], *first) << tag;
        } else {
            EXPECT_TRUE(row["first_divergence"].is_null()) << tag;
        }
    }
    EXPECT_EQ(r.exit_code, any ? 1 : 0);
}

// PyTorch add_hparams: each run's hyperparameters (the hparams plugin's session start, read from
// the sample's bytes: batch_size 32.0, lr 0.1, optimizer "SGD" against 64.0, 0.01, "Adam").
TEST(DiffSamples, AddHparamsRunsDifferInTheirHyperparameters) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent";
    const std::string runs = samples + "/tfevents-public/study_tensorboard/runs/";
    auto r = run_runtop({"diff", runs + "hparams_search_exp_1", runs + "hparams_search_exp_2"});
    ASSERT_NE(r.exit_code, 2) << r.err;
    EXPECT_NE(r.out.find("config: 0 added, 0 removed, 3 changed\n"
                         "  ~ _hparams_/batch_size  32 → 64\n"
                         "  ~ _hparams_/lr          0.1 → 0.01\n"
                         "  ~ _hparams_/optimizer   SGD → Adam\n"),
              std::string::npos)
        << r.out;
}

}  // namespace
}  // namespace runtop
