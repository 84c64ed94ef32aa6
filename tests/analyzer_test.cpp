// The Analyzer: every rule as points arrive (episodes, states, cross-rank waits, msProbe's rules
// verbatim, stalls), and the default rules on a realistic 8-rank run: silent when it is healthy,
// exactly the injected failures when it is not.
#include "core/analysis/analyzer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/analysis/msprobe_tag.h"
#include "tests/noisy_series.h"

namespace runtop {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846;
// What readers say of their series: an event file's, and msProbe's CSV (tags end in an op).
constexpr SeriesSource kEvents{"tfevents"};
constexpr SeriesSource kMsProbe{"msprobe-csv", StepAxis::kSteps, true};

RuleSet rules(std::string_view json) {
    Result<RuleSet> set = parse_rules(json, "test.json");
    EXPECT_TRUE(set.ok()) << (set.ok() ? "" : set.error().message);
    return set.ok() ? *set : RuleSet{};
}

void add(Analyzer& a, SeriesId id, std::int64_t step, double value, double wall = 0) {
    a.add_point(id, Point{step, wall, value});
}

// What identifies a record in these tests.
struct Found {
    int rank;
    std::string tag;
    std::int64_t step;
    std::string rule;
    bool operator==(const Found&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Found& f) {
    return os << "{rank " << f.rank << ", " << f.tag << ", step " << f.step << ", " << f.rule
              << "}";
}
using Founds = std::vector<Found>;

// The shown records, in the log's order.
Founds found(const Analyzer& a) {
    Founds out;
    for (const LogEntry& e : a.log().ordered()) {
        const AnomalyRecord& r = a.log().records()[e.index];
        out.push_back({r.rank, r.tag, r.step, r.rule});
    }
    return out;
}

const std::string kNonFiniteOnly = R"({"defaults": false, "rules": [{"rule": "nonfinite"}]})";

// ---- nonfinite ----

TEST(Analyzer, ConsecutiveNaNsAreOneEpisode) {
    Analyzer a(default_rules());
    a.add_series(0, {"r", 0, "train/loss"}, kEvents);
    for (int s = 0; s < 10; ++s) add(a, 0, s, 1.0);
    add(a, 0, 10, kNaN), add(a, 0, 11, kNaN), add(a, 0, 12, kNaN);
    add(a, 0, 13, 1.0);
    add(a, 0, 14, kNaN);
    add(a, 0, 15, 1.0);
    const auto& recs = a.log().records();
    ASSERT_EQ(recs.size(), 2u);
    EXPECT_EQ(recs[0].rule, "nonfinite");
    EXPECT_EQ(recs[0].severity, Severity::kAlert);
    EXPECT_EQ(recs[0].message, "value is NaN");
    EXPECT_EQ(recs[0].tag, "train/loss");
    EXPECT_EQ(recs[0].rank, 0);
    EXPECT_EQ(recs[0].series, 0u);
    EXPECT_EQ(recs[0].step, 10);
    EXPECT_EQ(recs[0].last_step, 12);
    EXPECT_EQ(recs[0].count, 3u);
    EXPECT_TRUE(std::isnan(recs[0].value));
    EXPECT_EQ(recs[1].step, 14);
    EXPECT_EQ(recs[1].last_step, 14);
    EXPECT_EQ(recs[1].count, 1u);
}

// Megatron leaves a NaN loss out of its log line; its count of NaN iterations says it.
TEST(Analyzer, MegatronsNanIterationsAreAnAlertByDefault) {
    constexpr SeriesSource kMegatronLog{"megatron"};
    Analyzer a(default_rules());
    a.add_series(0, {"r", 3, "number of nan iterations"}, kMegatronLog);
    a.add_series(1, {"r", 3, "number of skipped iterations"}, kMegatronLog);
    for (int s = 1; s <= 20; ++s) {
        add(a, 0, s * 10, s == 12 ? 1 : 0);
        add(a, 1, s * 10, s % 5 == 0 ? 2 : 0);  // fp16 overflows skip iterations: normal
    }
    const auto& recs = a.log().records();
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].rule, "nan_iterations");
    EXPECT_EQ(recs[0].severity, Severity::kAlert);
    EXPECT_EQ(recs[0].step, 120);
    EXPECT_EQ(recs[0].rank, 3);
}

TEST(Analyzer, InfinitiesSaySign) {
    Analyzer a(rules(kNonFiniteOnly));
    a.add_series(0, {"r", 0, "train/loss"}, kEvents);
    add(a, 0, 1, 1.0);
    add(a, 0, 2, kInf);
    add(a, 0, 3, 1.0);
    add(a, 0, 4, -kInf);
    const auto& recs = a.log().records();
    ASSERT_EQ(recs.size(), 2u);
    EXPECT_EQ(recs[0].message, "value is +Inf");
    EXPECT_EQ(recs[0].step, 2);
    EXPECT_EQ(recs[1].message, "value is -Inf");
    EXPECT_EQ(recs[1].step, 4);
}

TEST(Analyzer, SeriesAlertStateFollowsEpisodes) {
    Analyzer a(default_rules());
    a.add_series(0, {"r", 0, "train/loss"}, kEvents);
    a.add_series(1, {"r", 0, "train/grad_norm"}, kEvents);
    add(a, 0, 9, 1.0);
    add(a, 1, 9, 1.0);
    EXPECT_EQ(a.series_state(0).level, AlertLevel::kOk);
    EXPECT_EQ(a.series_state(0).count, 0u);

    add(a, 0, 10, kNaN);
    const AlertState& s = a.series_state(0);
    EXPECT_EQ(s.level, AlertLevel::kAlert);
    EXPECT_EQ(s.first_step, 10);
    EXPECT_EQ(s.last_step, 10);
    EXPECT_EQ(s.count, 1u);
    EXPECT_TRUE(s.active);
    add(a, 0, 11, kNaN);
    EXPECT_TRUE(a.series_state(0).active);
    a.acknowledge_series(0);
    add(a, 0, 12, kNaN);  // the same episode: still acknowledged
    EXPECT_TRUE(a.series_state(0).acknowledged);
    EXPECT_EQ(a.series_state(0).count, 3u);

    add(a, 0, 13, 1.0);
    EXPECT_FALSE(a.series_state(0).active);
    EXPECT_EQ(a.series_state(0).level, AlertLevel::kAlert);  // what it has been through
    EXPECT_TRUE(a.series_state(0).acknowledged);

    add(a, 0, 14, kNaN);  // a new episode wants attention again
    EXPECT_FALSE(a.series_state(0).acknowledged);
    EXPECT_TRUE(a.series_state(0).active);
    EXPECT_EQ(a.series_state(0).first_step, 10);
    EXPECT_EQ(a.series_state(0).last_step, 14);
    EXPECT_EQ(a.series_state(0).count, 4u);

    EXPECT_EQ(a.series_state(1).level, AlertLevel::kOk);   // the other series is untouched
    EXPECT_EQ(a.series_state(99).level, AlertLevel::kOk);  // unknown ids are ok
}

TEST(Analyzer, RunStateAddsUpItsSeries) {
    Analyzer a(default_rules());
    a.add_series(0, {"r", 0, "train/loss"}, kEvents);
    a.add_series(1, {"r", 1, "train/loss"}, kEvents);
    a.add_series(2, {"q", 0, "train/loss"}, kEvents);
    add(a, 0, 5, kNaN), add(a, 0, 6, kNaN);
    add(a, 1, 8, -kInf);
    add(a, 2, 8, 1.0);
    const RunStatus* r = a.run("r");
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->name, "r");
    EXPECT_EQ(r->state.level, AlertLevel::kAlert);
    EXPECT_EQ(r->state.first_step, 5);
    EXPECT_EQ(r->state.last_step, 8);
    EXPECT_EQ(r->state.count, 3u);
    EXPECT_EQ(r->furthest_step, 8);
    const RunStatus* q = a.run("q");
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(q->state.level, AlertLevel::kOk);
    EXPECT_EQ(a.run("nope"), nullptr);
    EXPECT_EQ(a.runs().size(), 2u);

    a.acknowledge_all();
    EXPECT_TRUE(a.run("r")->state.acknowledged);
    EXPECT_TRUE(a.series_state(1).acknowledged);
}

// AlertState.active: "the latest point (or the run now, for a stall) still fires". Once every
// series of the run is back to finite values, nothing in the run fires any more.
TEST(Analyzer, RunIsNoLongerActiveOnceItsSeriesRecover) {
    Analyzer a(default_rules());
    a.add_series(0, {"r", 0, "train/loss"}, kEvents);
    add(a, 0, 5, kNaN);
    EXPECT_TRUE(a.run("r")->state.active);
    add(a, 0, 6, 1.0);
    EXPECT_FALSE(a.series_state(0).active);
    EXPECT_FALSE(a.run("r")->state.active);
}

TEST(Analyzer, MsProbeNansOpCountsNaNElements) {
    Analyzer a(default_rules());
    a.add_series(0, {"r", 0, "actv/fc1.input:0/nans"}, kMsProbe);
    a.add_series(1, {"r", 0, "debug/nans"}, kEvents);  // not msProbe's: a value
    add(a, 0, 1, 0), add(a, 1, 1, 0);
    add(a, 0, 2, 3), add(a, 1, 2, 3);
    add(a, 0, 3, 5);
    add(a, 0, 4, 0);
    const auto& recs = a.log().records();
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].rule, "nonfinite");
    EXPECT_EQ(recs[0].tag, "actv/fc1.input:0/nans");
    EXPECT_EQ(recs[0].step, 2);
    EXPECT_EQ(recs[0].last_step, 3);
    EXPECT_EQ(recs[0].count, 2u);
    EXPECT_EQ(recs[0].value, 3);
    EXPECT_EQ(recs[0].message, "3 NaN elements in the tensor");
    EXPECT_EQ(recs[0].msprobe_kind, "actv");
    EXPECT_EQ(recs[0].msprobe_tag_name, "0:fc1.input:0/rank0/actv");
    EXPECT_FALSE(a.series_state(0).active);
}

// ---- spike ----

TEST(Analyzer, SpikeOnALossIsRecordedAtOnce) {
    Analyzer a(default_rules());
    a.add_series(0, {"r", 0, "train/loss"}, kEvents);
    const std::vector<double> v = noisy(200, 2.0, 31, 150, 10);
    for (int t = 0; t <= 150; ++t) add(a, 0, t, v[t]);
    ASSERT_EQ(found(a), (Founds{{0, "train/loss", 150, "spike"}}));
    const AnomalyRecord& rec = a.log().records()[0];
    EXPECT_EQ(rec.severity, Severity::kWarn);
    EXPECT_EQ(rec.value, v[150]);
    EXPECT_NE(rec.message.find("x the level"), std::string::npos) << rec.message;
    EXPECT_TRUE(a.series_state(0).active);
    EXPECT_EQ(a.series_state(0).level, AlertLevel::kWarn);
    add(a, 0, 151, v[151]);
    EXPECT_FALSE(a.series_state(0).active);
    EXPECT_EQ(a.log().size(), 1u);
}

TEST(Analyzer, SpikeOnOtherSeriesIsRecordedAtItsStepOnceItFallsBack) {
    Analyzer a(default_rules());
    a.add_series(0, {"r", 0, "train/reward"}, kEvents);  // not loss-like
    const std::vector<double> v = noisy(200, 0.7, 32, 150, 10);
    for (int t = 0; t <= 150; ++t) add(a, 0, t, v[t]);
    EXPECT_EQ(a.log().size(), 0u);
    add(a, 0, 151, v[151]);
    ASSERT_EQ(found(a), (Founds{{0, "train/reward", 150, "spike"}}));
    EXPECT_EQ(a.log().records()[0].value, v[150]);
    EXPECT_NE(a.log().records()[0].message.find("then fell back"), std::string::npos)
        << a.log().records()[0].message;
    EXPECT_FALSE(a.series_state(0).active);  // the point now is the one that fell back
}

TEST(Analyzer, FinishReportsASpikeThatNeverFellBack) {
    Analyzer a(default_rules());
    a.add_series(0, {"r", 0, "train/reward"}, kEvents);
    const std::vector<double> v = noisy(200, 0.7, 33, 199, 10);
    for (int t = 0; t < 200; ++t) add(a, 0, t, v[t]);
    EXPECT_EQ(a.log().size(), 0u);
    a.finish();
    ASSERT_EQ(found(a), (Founds{{0, "train/reward", 199, "spike"}}));
    EXPECT_NE(a.log().records()[0].message.find("the data ends before it could fall back"),
              std::string::npos)
        << a.log().records()[0].message;
}

// anomaly_log.h: "a rule that fires again on the very next point of the same series extends
// its record ... msProbe's rules are the exception". A loss that jumps 60x and stays is spiking
// on every point until the spike level catches up: one episode, not one record per point.
TEST(Analyzer, LossThatJumpsAndStaysIsOneSpikeEpisode) {
    Analyzer a(default_rules());
    a.add_series(0, {"r", 0, "train/loss"}, kEvents);
    std::vector<double> v = noisy(400, 0.05, 34);
    for (int t = 300; t < 400; ++t) v[t] *= 60;
    for (int t = 0; t < 400; ++t) add(a, 0, t, v[t]);
    ASSERT_EQ(a.log().size(), 1u) << "one record per spiking point";
    EXPECT_EQ(a.log().records()[0].step, 300);
    EXPECT_GT(a.log().records()[0].count, 1u);
}

// ---- threshold ----

TEST(Analyzer, ThresholdAboveAndBelowFormEpisodes) {
    Analyzer a(rules(R"({"defaults": false, "rules": [
        {"rule": "threshold", "tags": "loss", "above": 10},
        {"rule": "threshold", "tags": "acc", "below": 0.2, "severity": "warn"}]})"));
    a.add_series(0, {"r", 0, "train/loss"}, kEvents);
    a.add_series(1, {"r", 0, "eval/accuracy"}, kEvents);
    a.add_series(2, {"r", 0, "train/grad_norm"}, kEvents);
    const std::vector<double> loss{5, 11, 12, 5, 13, kInf, 10};
    for (std::size_t s = 0; s < loss.size(); ++s) add(a, 0, s, loss[s]);
    const std::vector<double> acc{0.5, 0.1, 0.5, 0.2, 0.19};
    for (std::size_t s = 0; s < acc.size(); ++s) add(a, 1, s, acc[s]);
    add(a, 2, 0, 1e9);  // no threshold on it

    const auto& recs = a.log().records();  // in arrival order: the loss was fed first
    ASSERT_EQ(recs.size(), 4u);
    EXPECT_EQ(recs[0].tag, "train/loss");
    EXPECT_EQ(recs[0].message, "11 is above 10");
    EXPECT_EQ(recs[0].step, 1);
    EXPECT_EQ(recs[0].last_step, 2);
    EXPECT_EQ(recs[0].count, 2u);
    EXPECT_EQ(recs[0].severity, Severity::kAlert);
    EXPECT_EQ(recs[1].tag, "train/loss");  // 13 then +Inf: one episode; 10 is not above 10
    EXPECT_EQ(recs[1].step, 4);
    EXPECT_EQ(recs[1].last_step, 5);
    EXPECT_EQ(recs[1].count, 2u);
    EXPECT_EQ(recs[2].tag, "eval/accuracy");
    EXPECT_EQ(recs[2].message, "0.1 is below 0.2");
    EXPECT_EQ(recs[2].severity, Severity::kWarn);
    EXPECT_EQ(recs[2].step, 1);
    EXPECT_EQ(recs[2].count, 1u);
    EXPECT_EQ(recs[3].tag, "eval/accuracy");  // 0.2 is not below 0.2
    EXPECT_EQ(recs[3].step, 4);
    EXPECT_EQ(a.series_state(1).level, AlertLevel::kWarn);
    EXPECT_EQ(a.series_state(2).level, AlertLevel::kOk);
}

// ---- cross_rank ----

const std::string kCrossRank =
    R"({"defaults": false, "rules": [{"rule": "cross_rank", "tags": "grad_norm"}]})";

// Ranks a little apart (1.00 .. 1.07 times a decay), rank `odd` 10x at step `odd_step`.
double rank_value(int rank, std::int64_t step, int odd, std::int64_t odd_step) {
    const double v = (1 + 0.01 * rank) * (2 - step / 100.0);
    return rank == odd && step == odd_step ? 10 * v : v;
}

TEST(Analyzer, CrossRankFindsTheRankOffTheOthers) {
    Analyzer a(rules(kCrossRank));
    a.set_live();  // watching: judged as the ranks write
    for (int r = 0; r < 8; ++r) a.add_series(r, {"run", r, "train/grad_norm"}, kEvents);
    a.add_series(8, {"run", 0, "train/loss"}, kEvents);  // not in the rule
    for (std::int64_t s = 0; s < 100; ++s) {
        for (int r = 0; r < 8; ++r) add(a, r, s, rank_value(r, s, 5, 50));
        add(a, 8, s, s == 70 ? 1e6 : 1.0);
    }
    EXPECT_EQ(found(a), (Founds{{5, "train/grad_norm", 50, "cross_rank"}}));
    const AnomalyRecord& rec = a.log().records()[0];
    // Median of 1.5 x (1.00, 1.01, 1.02, 1.03, 1.04, 1.06, 1.07, 10.5): 1.5 x 1.035.
    EXPECT_NE(rec.message.find("median 1.5525"), std::string::npos) << rec.message;
    EXPECT_NE(rec.message.find("rank 5"), std::string::npos) << rec.message;
    EXPECT_EQ(rec.severity, Severity::kWarn);
    EXPECT_EQ(a.series_state(5).level, AlertLevel::kWarn);
    EXPECT_EQ(a.series_state(4).level, AlertLevel::kOk);
}

TEST(Analyzer, CrossRankJudgesALaggingRankLater) {
    Analyzer a(rules(kCrossRank));
    a.set_live();  // watching: judged as the ranks write
    for (int r = 0; r < 8; ++r) a.add_series(r, {"run", r, "train/grad_norm"}, kEvents);
    // Rank 7 writes nothing yet: step 3 waits until 16 newer steps wait behind it.
    for (std::int64_t s = 0; s <= 18; ++s)
        for (int r = 0; r < 7; ++r) add(a, r, s, rank_value(r, s, 5, 3));
    EXPECT_EQ(a.log().size(), 0u);
    add(a, 0, 19, rank_value(0, 19, 5, 3));
    EXPECT_EQ(found(a), (Founds{{5, "train/grad_norm", 3, "cross_rank"}}));
    EXPECT_NE(a.log().records()[0].message.find("of 7 ranks"), std::string::npos)
        << a.log().records()[0].message;
}

TEST(Analyzer, CrossRankFinishJudgesWhatIsStillWaiting) {
    Analyzer a(rules(kCrossRank));
    a.set_live();  // watching: judged as the ranks write
    for (int r = 0; r < 8; ++r) a.add_series(r, {"run", r, "train/grad_norm"}, kEvents);
    for (std::int64_t s = 0; s < 10; ++s)
        for (int r = 0; r < 7; ++r) add(a, r, s, rank_value(r, s, 5, 5));
    EXPECT_EQ(a.log().size(), 0u);
    a.finish();
    EXPECT_EQ(found(a), (Founds{{5, "train/grad_norm", 5, "cross_rank"}}));
}

// What was on disk arrives rank after rank (each file read whole): nothing can be judged until
// every rank is in, so the steps wait for set_live() (the dashboard's backfill is over) or
// finish() (check, snapshot), then every step is judged with all of its ranks.
TEST(Analyzer, CrossRankBackfillJudgesEveryStepWithEveryRank) {
    for (const bool live_after : {true, false}) {
        Analyzer a(rules(kCrossRank));
        for (int r = 0; r < 8; ++r) {
            a.add_series(r, {"run", r, "train/grad_norm"}, kEvents);
            for (std::int64_t s = 0; s < 400; ++s) {
                double v = rank_value(r, s, 5, 30);
                if (r == 2 && s == 390) v *= 10;
                add(a, r, s, v);
            }
        }
        EXPECT_EQ(a.log().size(), 0u);
        if (live_after) {
            a.set_live();
        } else {
            a.finish();
        }
        EXPECT_EQ(found(a), (Founds{{5, "train/grad_norm", 30, "cross_rank"},
                                    {2, "train/grad_norm", 390, "cross_rank"}}))
            << (live_after ? "set_live" : "finish");
        EXPECT_NE(a.log().records()[0].message.find("of 8 ranks"), std::string::npos)
            << a.log().records()[0].message;
    }
}

TEST(Analyzer, CrossRankNeedsMinRanksFiniteValues) {
    Analyzer a(rules(kCrossRank));
    for (int r = 0; r < 4; ++r) a.add_series(r, {"run", r, "train/grad_norm"}, kEvents);
    for (std::int64_t s = 0; s < 6; ++s) {
        for (int r = 0; r < 4; ++r) {
            double v = 1 + 0.01 * r;
            if (r == 2 && (s == 2 || s == 4)) v *= 10;
            if (r == 3 && s == 2) v = kNaN;  // three finite ranks at step 2
            add(a, r, s, v);
        }
    }
    a.finish();
    EXPECT_EQ(found(a), (Founds{{2, "train/grad_norm", 4, "cross_rank"}}));
}

// ---- msProbe's rules ----

const std::string kMsProbeRules = R"({"defaults": false, "rules": [
    {"rule_name": "AnomalyTurbulence", "args": {"threshold": 0.5}},
    {"rule_name": "AnomalyNan", "args": {"threshold": 1e10}}]})";

TEST(Analyzer, MsProbeRuleWritesMsProbesMessage) {
    Analyzer a(rules(kMsProbeRules));
    a.add_series(0, {"r", 0, "grad_reduced/fc1.weight/norm"}, kMsProbe);
    add(a, 0, 0, 1.0);
    add(a, 0, 1, 2.0);   // h = 1: 2 > 1.5
    add(a, 0, 2, kNaN);  // h = 0.99 + 0.01 * 2
    const auto& recs = a.log().records();
    ASSERT_EQ(recs.size(), 2u);
    EXPECT_EQ(recs[0].rule, "AnomalyTurbulence");
    EXPECT_EQ(recs[0].severity, Severity::kWarn);
    EXPECT_EQ(recs[0].step, 1);
    EXPECT_EQ(recs[0].message,
              "Rule AnomalyTurbulence reports anomaly signal in "
              "('0:fc1.weight/rank0/post_grad', 'norm') at step 1, current value 2.0, "
              "history mean 1.0.");
    EXPECT_EQ(recs[0].msprobe_tag_name, "0:fc1.weight/rank0/post_grad");
    EXPECT_EQ(recs[1].rule, "AnomalyNan");
    EXPECT_EQ(recs[1].severity, Severity::kAlert);
    EXPECT_EQ(recs[1].message,
              "Rule AnomalyNan reports anomaly signal in "
              "('0:fc1.weight/rank0/post_grad', 'norm') at step 2, current value nan, "
              "history mean 1.01.");
}

TEST(Analyzer, MsProbeRuleIsOnlyForMsProbeSeries) {
    Analyzer a(rules(kMsProbeRules));
    a.add_series(0, {"r", 0, "grad_reduced/fc1.weight/norm"}, kEvents);
    add(a, 0, 0, 1.0);
    add(a, 0, 1, 100.0);
    EXPECT_EQ(a.log().size(), 0u);
}

// Every firing msProbe itself would report, at every step (no episodes), on several ops.
TEST(Analyzer, MsProbeRuleMatchesMsProbeRuleSet) {
    const RuleSet set = rules(kMsProbeRules);
    MsProbeRuleSet reference(set.rules[0].msprobe.specs);
    Analyzer a(set);
    const std::vector<std::string> ops{"norm", "mean", "max", "min"};
    for (std::size_t i = 0; i < ops.size(); ++i)
        a.add_series(static_cast<SeriesId>(i), {"r", 0, "grad_reduced/fc1.weight/" + ops[i]},
                     kMsProbe);
    std::mt19937 rng(21);
    std::normal_distribution<double> noise(0, 0.3);
    std::uniform_int_distribution<int> pick(0, 99);
    Founds want;
    for (std::int64_t s = 0; s < 3000; ++s) {
        for (std::size_t i = 0; i < ops.size(); ++i) {
            double x = std::exp(noise(rng));
            const int p = pick(rng);
            if (p < 3) x *= 4;             // turbulence, twice in a row now and then
            if (p == 4 && i == 3) x = -x;  // min of a tensor crossing zero
            if ((s == 0 && i == 2) || s == 2500) x = 2e10;  // past AnomalyNan's threshold
            if (s == 2900 && i == 1) x = kNaN;              // then NaN for good on `mean`
            add(a, static_cast<SeriesId>(i), s, x);
            if (auto f = reference.evaluate("0:fc1.weight/rank0/post_grad", ops[i], x))
                want.push_back({0, "grad_reduced/fc1.weight/" + ops[i], s,
                                std::string(msprobe_rule_name(f->rule))});
        }
    }
    Founds got;
    for (const AnomalyRecord& r : a.log().records()) got.push_back({r.rank, r.tag, r.step, r.rule});
    EXPECT_GT(want.size(), 100u);
    EXPECT_GE(std::count_if(want.begin(), want.end(),
                            [](const Found& f) { return f.rule == "AnomalyNan"; }),
              2);
    EXPECT_EQ(got, want);
    for (const AnomalyRecord& r : a.log().records()) EXPECT_EQ(r.count, 1u);
}

TEST(Analyzer, MsProbeLegacyVariantReportsEveryOp) {
    Analyzer a(rules(R"({"defaults": false, "msprobe": {"variant": "legacy"},
        "rules": [{"rule_name": "AnomalyTurbulence", "args": {"threshold": 0.5}}]})"));
    a.add_series(0, {"r", 0, "actv/fc1.input:0/max"}, kMsProbe);
    add(a, 0, 0, 1.0);
    add(a, 0, 1, 2.0);
    EXPECT_EQ(found(a), (Founds{{0, "actv/fc1.input:0/max", 1, "AnomalyTurbulence"}}));
}

TEST(Analyzer, StepGoingBackRestartsMsProbeHistory) {
    Analyzer a(rules(kMsProbeRules));
    a.add_series(0, {"r", 0, "grad_reduced/fc1.weight/norm"}, kMsProbe);
    for (int s = 0; s < 10; ++s) add(a, 0, s, 1.0);
    // The writer restarted: 10 is its first value again, not 10x the history.
    add(a, 0, 0, 10.0);
    add(a, 0, 1, 10.0);
    add(a, 0, 2, 20.0);  // 20 > 1.5 x 10
    const auto& recs = a.log().records();
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].step, 2);
    EXPECT_EQ(recs[0].value, 20.0);
}

// ---- selection ----

TEST(Analyzer, SelectionLimitsJudgedSeries) {
    Result<SeriesFilter> filter = SeriesFilter::make("loss", "0-3");
    ASSERT_TRUE(filter.ok());
    Analyzer a(default_rules(), std::move(*filter));
    a.add_series(0, {"r", 0, "train/loss"}, kEvents);
    a.add_series(1, {"r", 0, "train/grad_norm"}, kEvents);
    a.add_series(2, {"r", 5, "train/loss"}, kEvents);
    for (SeriesId id = 0; id < 3; ++id) add(a, id, 7, kNaN);
    EXPECT_EQ(found(a), (Founds{{0, "train/loss", 7, "nonfinite"}}));
    EXPECT_EQ(a.series_state(1).level, AlertLevel::kOk);
    EXPECT_EQ(a.series_state(2).level, AlertLevel::kOk);
}

ImportedAnomaly imported(int rank, std::string tag_name, std::int64_t step) {
    ImportedAnomaly m;
    m.run = "r";
    m.rank = rank;
    m.key = tag_name + "_step_" + std::to_string(step) + "_call_0";
    m.tag = anomaly_series_tag(tag_name, "norm");
    m.raw_tag = std::move(tag_name);
    m.op = "norm";
    m.rule = "AnomalyTurbulence";
    m.step = step;
    m.call_id = 0;
    return m;
}

TEST(Analyzer, SelectionLimitsImportedAnomalies) {
    Result<SeriesFilter> ranks = SeriesFilter::make("", "0-3");
    ASSERT_TRUE(ranks.ok());
    Analyzer a(default_rules(), std::move(*ranks));
    a.import(imported(1, "0:fc1.weight/rank1/post_grad", 4));
    a.import(imported(5, "0:fc1.weight/rank5/post_grad", 4));
    EXPECT_EQ(found(a), (Founds{{1, "grad_reduced/fc1.weight/norm", 4, "AnomalyTurbulence"}}));
    ASSERT_NE(a.run("r"), nullptr);
    EXPECT_EQ(a.run("r")->state.level, AlertLevel::kWarn);
    EXPECT_EQ(a.run("r")->state.count, 1u);

    Result<SeriesFilter> tags = SeriesFilter::make("grad", "");
    ASSERT_TRUE(tags.ok());
    Analyzer b(default_rules(), std::move(*tags));
    b.import(imported(0, "0:fc1.weight/rank0/post_grad", 4));
    b.import(imported(0, "0:fc1.input:0/rank0/actv", 4));
    EXPECT_EQ(found(b), (Founds{{0, "grad_reduced/fc1.weight/norm", 4, "AnomalyTurbulence"}}));
}

// msProbe rewrites anomaly.json whole at every step with an anomaly, and the reader sends every
// entry again each time (readers/msprobe_anomaly_reader.h): the log keeps one per key, and the
// run's state must not count (or un-acknowledge) the same entry again.
TEST(Analyzer, ReimportedAnomalyIsCountedOnce) {
    Analyzer a(default_rules());
    const ImportedAnomaly first = imported(0, "0:fc1.weight/rank0/post_grad", 4);
    a.import(first);
    a.acknowledge_all();
    a.import(first);  // the file was rewritten
    EXPECT_TRUE(a.run("r")->state.acknowledged);
    a.import(imported(0, "0:fc2.weight/rank0/post_grad", 5));
    a.import(first);
    EXPECT_EQ(a.log().size(), 2u);
    EXPECT_EQ(a.run("r")->state.count, 2u);
    EXPECT_EQ(a.run("r")->state.last_step, 5);
}

TEST(Analyzer, RuntopFindingMergesIntoTheImportedOne) {
    Analyzer a(rules(kMsProbeRules));
    a.add_series(0, {"r", 1, "grad_reduced/fc1.weight/norm"}, kMsProbe);
    a.import(imported(1, "0:fc1.weight/rank1/post_grad", 1));
    add(a, 0, 0, 1.0);
    add(a, 0, 1, 2.0);
    ASSERT_EQ(a.log().size(), 2u);
    ASSERT_EQ(a.log().ordered().size(), 1u);
    EXPECT_EQ(a.log().records()[a.log().ordered()[0].index].source, AnomalySource::kMsProbe);
    EXPECT_TRUE(a.log().ordered()[0].also_runtop);
    EXPECT_EQ(a.log().merged_count(), 1u);
}

// ---- stall ----

class StallTest : public ::testing::Test {
  protected:
    StallTest() : a_(default_rules()) { a_.add_series(0, {"r", 0, "train/loss"}, kEvents); }
    // A point at `step`, written and seen at `now`.
    void point_at(std::int64_t step, double now) {
        a_.set_now(now);
        add(a_, 0, step, 2.0, now);
    }
    void tick_at(double now) {
        a_.set_now(now);
        a_.tick();
    }
    std::size_t stalls() const {
        std::size_t n = 0;
        for (const AnomalyRecord& r : a_.log().records()) n += r.rule == "stall";
        return n;
    }
    Analyzer a_;
};

TEST_F(StallTest, NeverJudgedBeforeSetLive) {
    for (int s = 0; s < 10; ++s) point_at(s, 990 + s);
    tick_at(1e6);
    EXPECT_EQ(a_.log().size(), 0u);
    EXPECT_FALSE(a_.run("r")->stalled);
}

TEST_F(StallTest, SilentLiveRunStallsOnce) {
    a_.set_live();
    for (int s = 0; s < 10; ++s) point_at(s, 990 + s);  // one step a second, last at 999
    EXPECT_TRUE(a_.run("r")->live);
    tick_at(1599);  // 600 s silent: not more than the limit
    EXPECT_EQ(a_.log().size(), 0u);
    tick_at(1600);
    ASSERT_EQ(a_.log().size(), 1u);
    const AnomalyRecord& rec = a_.log().records()[0];
    EXPECT_EQ(rec.rule, "stall");
    EXPECT_EQ(rec.run, "r");
    EXPECT_EQ(rec.rank, kNoRank);
    EXPECT_EQ(rec.tag, "");
    EXPECT_EQ(rec.step, 9);
    EXPECT_EQ(rec.severity, Severity::kWarn);
    EXPECT_NE(rec.message.find("no new data for 10m 01s"), std::string::npos) << rec.message;
    EXPECT_TRUE(a_.run("r")->stalled);
    EXPECT_TRUE(a_.run("r")->state.active);
    EXPECT_EQ(a_.run("r")->state.level, AlertLevel::kWarn);

    tick_at(1700);
    tick_at(5000);
    EXPECT_EQ(stalls(), 1u);

    point_at(10, 5001);  // it moves again
    EXPECT_FALSE(a_.run("r")->stalled);
    EXPECT_FALSE(a_.run("r")->state.active);
}

TEST_F(StallTest, RunCanStallAgainAfterRecovering) {
    a_.set_live();
    for (int s = 0; s < 10; ++s) point_at(s, 990 + s);
    tick_at(1600);
    EXPECT_EQ(stalls(), 1u);
    // Back at one step a second for a few minutes, then silent again.
    for (int s = 10; s < 200; ++s) point_at(s, 1800 + s);
    tick_at(1999 + 600);
    EXPECT_EQ(stalls(), 1u);
    tick_at(1999 + 601);
    EXPECT_EQ(stalls(), 2u);
    EXPECT_EQ(a_.log().records().back().step, 199);
}

// The silence of a stall is not the run's usual interval: a run that writes one point after a
// stall and hangs again is stalled again after the rule's 600 s, not after 20 x the first stall.
TEST_F(StallTest, SecondStallRightAfterOnePointIsReported) {
    a_.set_live();
    for (int s = 0; s < 10; ++s) point_at(s, 990 + s);
    tick_at(1600);
    EXPECT_EQ(stalls(), 1u);
    point_at(10, 1800);
    tick_at(1800 + 601);
    tick_at(1800 + 1200);
    EXPECT_EQ(stalls(), 2u);
}

TEST_F(StallTest, SlowRunGetsIntervalFactorTimesItsInterval) {
    a_.set_live();
    for (int s = 0; s <= 10; ++s) point_at(s, 100.0 * s);  // a step every 100 s, last at 1000
    // 20 of its intervals, 2000 s, is longer than the 600 s of the rule: that is the limit.
    tick_at(1000 + 1999);
    EXPECT_EQ(a_.log().size(), 0u);
    tick_at(1000 + 2001);
    ASSERT_EQ(a_.log().size(), 1u);
    EXPECT_NE(a_.log().records()[0].message.find("a step every 100 s"), std::string::npos)
        << a_.log().records()[0].message;
}

TEST(Analyzer, SetLiveWatchesRunsWithRecentPoints) {
    Analyzer a(default_rules());
    a.add_series(0, {"recent", 0, "train/loss"}, kEvents);
    a.add_series(1, {"old", 0, "train/loss"}, kEvents);
    const double now = 100000;
    a.set_now(now);  // the backfill reads both at once
    for (int s = 0; s < 50; ++s) {
        add(a, 0, s, 2.0, now - 10 - 10 * (49 - s));    // newest point 10 s old
        add(a, 1, s, 2.0, now - 7200 - 10 * (49 - s));  // newest point 2 hours old
    }
    a.set_live();
    EXPECT_TRUE(a.run("recent")->live);
    EXPECT_FALSE(a.run("old")->live);
    a.set_now(now + 590);  // 600 s since its newest point
    a.tick();
    EXPECT_EQ(a.log().size(), 0u);
    a.set_now(now + 591);
    a.tick();
    a.set_now(now + 1e5);
    a.tick();
    EXPECT_EQ(found(a), (Founds{{kNoRank, "", 49, "stall"}}));
    EXPECT_EQ(a.log().records()[0].run, "recent");
}

// ---- the default rules on a realistic run ----

constexpr int kRanks = 8;
constexpr int kSteps = 20000;
const std::vector<std::string> kTags{"train/loss",       "train/grad_norm", "train/lr",
                                     "train/loss_scale", "eval/accuracy",   "perf/step_time_ms",
                                     "train/epoch"};

SeriesId series_id(int rank, std::size_t tag) {
    return static_cast<SeriesId>(rank * kTags.size() + tag);
}

struct Injection {
    int rank;
    std::string tag;
    std::int64_t step;
    double factor;  // the value is multiplied by it (NaN and ±Inf replace it)
};

// An 8-rank language-model run as its event files would show it, fed step by step.
void synthetic_run(Analyzer& a, const std::vector<Injection>& injections = {}) {
    for (int r = 0; r < kRanks; ++r)
        for (std::size_t t = 0; t < kTags.size(); ++t)
            a.add_series(series_id(r, t), {"llm", r, kTags[t]}, kEvents);
    std::vector<std::mt19937> rng;
    for (int r = 0; r < kRanks; ++r) rng.emplace_back(1000 + r);
    std::normal_distribution<double> n01(0, 1);
    std::vector<double> loss_scale(kRanks, 65536);
    std::vector<int> clean_steps(kRanks, 0);
    for (std::int64_t s = 0; s < kSteps; ++s) {
        const double wall = 1.7e9 + 0.35 * s;
        for (int r = 0; r < kRanks; ++r) {
            std::mt19937& g = rng[r];
            const double loss = (2.5 * std::exp(-s / 3000.0) + 1.8) * std::exp(0.05 * n01(g));
            const double level = (0.9 + 0.3 * std::sin(2 * kPi * s / 7000.0)) *
                                 (1 + 3 * std::max(0.0, 1 - s / 500.0));
            const double grad_norm = level * std::exp(0.3 * n01(g));
            const double peak = 3e-4, floor = 3e-5;
            const double lr = s < 2000 ? peak * (s + 1) / 2000.0
                                       : floor + (peak - floor) * 0.5 *
                                                     (1 + std::cos(kPi * (s - 2000) / 18000.0));
            // fp16 dynamic loss scaling: an overflow halves it (about every 1500 steps), 500
            // clean steps double it.
            if ((s + 97 * r) % 1500 == 700) {
                loss_scale[r] /= 2, clean_steps[r] = 0;
            } else if (++clean_steps[r] == 500) {
                loss_scale[r] = std::min(loss_scale[r] * 2, 16777216.0), clean_steps[r] = 0;
            }
            double step_time = 350 * std::exp(0.05 * n01(g));
            if (s % 1000 == 999) step_time *= 10;  // a checkpoint is saved
            const double epoch = s / 2500.0;
            double values[] = {loss, grad_norm, lr, loss_scale[r], kNaN, step_time, epoch};
            if (s % 500 == 0)
                values[4] = 0.1 + 0.8 / (1 + std::exp(-(s - 8000) / 1500.0)) + 0.005 * n01(g);
            for (const Injection& in : injections) {
                if (in.rank != r || in.step != s) continue;
                for (std::size_t t = 0; t < kTags.size(); ++t)
                    if (kTags[t] == in.tag)
                        values[t] = std::isfinite(in.factor) ? values[t] * in.factor : in.factor;
            }
            for (std::size_t t = 0; t < kTags.size(); ++t) {
                if (t == 4 && s % 500 != 0) continue;
                a.add_point(series_id(r, t), Point{s, wall, values[t]});
            }
        }
    }
    a.finish();
}

TEST(Analyzer, HealthyRealisticRunHasNoAnomalies) {
    Analyzer a(default_rules());
    synthetic_run(a);
    EXPECT_EQ(found(a), Founds{});
    EXPECT_EQ(a.run("llm")->state.level, AlertLevel::kOk);
    EXPECT_EQ(a.run("llm")->furthest_step, kSteps - 1);
}

TEST(Analyzer, RealisticRunShowsExactlyTheInjectedFailures) {
    Analyzer a(default_rules());
    synthetic_run(a, {{3, "train/loss", 7000, kNaN},
                      {5, "train/grad_norm", 12000, 20},
                      {1, "train/loss", 15000, kInf},
                      {6, "train/loss", 18000, 10}});
    // The x20 grad norm is also 20 times the other ranks' median: the cross-rank rule finds it
    // too (the x10 loss is not: its ranks' median moves with it less than tenfold).
    EXPECT_EQ(found(a), (Founds{{3, "train/loss", 7000, "nonfinite"},
                                {5, "train/grad_norm", 12000, "spike"},
                                {5, "train/grad_norm", 12000, "cross_rank"},
                                {1, "train/loss", 15000, "nonfinite"},
                                {6, "train/loss", 18000, "spike"}}));
    EXPECT_EQ(a.run("llm")->state.level, AlertLevel::kAlert);
    EXPECT_EQ(a.run("llm")->state.count, 5u);
    EXPECT_EQ(a.series_state(series_id(3, 0)).level, AlertLevel::kAlert);
    EXPECT_FALSE(a.series_state(series_id(3, 0)).active);
    EXPECT_EQ(a.series_state(series_id(5, 1)).level, AlertLevel::kWarn);
}

// What keeps the healthy run quiet is the exclusions, not luck: without them the checkpoint
// steps of perf/step_time_ms (10x for one step) are spikes, and nothing else is.
TEST(Analyzer, RealisticRunWithoutExclusionsFlagsCheckpointSteps) {
    Analyzer a(rules(R"({"rules": [{"rule": "spike", "exclude_tags": ""}]})"));
    synthetic_run(a);
    std::size_t step_time = 0, at_the_end = 0;
    for (const AnomalyRecord& r : a.log().records()) {
        EXPECT_EQ(r.tag, "perf/step_time_ms") << r.rank << " " << r.tag << " " << r.step;
        EXPECT_EQ(r.step % 1000, 999) << r.step;
        step_time += r.tag == "perf/step_time_ms";
        // The last step's checkpoint never falls back: finish() reports it.
        if (r.step == kSteps - 1) {
            ++at_the_end;
            EXPECT_NE(r.message.find("the data ends"), std::string::npos) << r.message;
        }
    }
    EXPECT_EQ(step_time, static_cast<std::size_t>(kRanks * 20));  // steps 999, 1999, ... 19999
    EXPECT_EQ(at_the_end, static_cast<std::size_t>(kRanks));
}

}  // namespace
}  // namespace runtop
