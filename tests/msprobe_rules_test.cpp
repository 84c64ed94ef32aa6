// msProbe's anomaly rules: every consequence listed in reference/FORMATS.md §1.5, the legacy
// running-mean variant, and the history update bit for bit against msProbe's own messages.
#include "core/analysis/msprobe_rules.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <regex>
#include <string>
#include <tuple>
#include <vector>

#include "core/json/json_value.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using Specs = std::vector<MsProbeRuleSpec>;
using Kind = MsProbeRuleKind;

const Specs kTurbThenNan{{"AnomalyTurbulence", 0.5}, {"AnomalyNan", 1e10}};

// The firing's rule, or "" when nothing is reported.
std::string fired(MsProbeRuleSet& set, std::string_view op, double x, std::string_view tag = "t") {
    const auto f = set.evaluate(tag, op, x);
    return f ? std::string(msprobe_rule_name(f->rule)) : std::string();
}

TEST(MsProbeRules, HistoryIsAnEmaOfAbsoluteValues) {
    EXPECT_EQ(msprobe_ema_update(2, -4), 0.99 * 2 + (1 - 0.99) * 4);
    EXPECT_NE(1 - 0.99, 0.01);  // why the formula is spelled as msProbe spells it
    EXPECT_TRUE(std::isinf(msprobe_ema_update(1, kInf)));
    EXPECT_TRUE(std::isnan(msprobe_ema_update(1, kNaN)));
}

TEST(MsProbeRules, TurbulenceComparesWithTheHistoryBeforeTheUpdate) {
    MsProbeRuleSet set(kTurbThenNan);
    EXPECT_EQ(fired(set, "norm", 2), "");  // first value: h = 2, 2 > 3 is false
    EXPECT_EQ(fired(set, "norm", 2), "");
    const double h = msprobe_ema_update(msprobe_ema_update(2, 2), 2);  // 2 up to rounding
    EXPECT_NEAR(h, 2, 1e-12);
    EXPECT_EQ(fired(set, "norm", 2.9), "");          // 2.9 <= h * 1.5
    const double h2 = msprobe_ema_update(h, 2.9);    // 2.009
    const auto f = set.evaluate("t", "norm", -3.1);  // |-3.1| > 1.5 * 2.009
    ASSERT_TRUE(f);
    EXPECT_EQ(f->rule, Kind::kTurbulence);
    EXPECT_EQ(f->value, -3.1);
    EXPECT_EQ(f->history_mean, h2);
    EXPECT_NEAR(f->history_mean, 2.009, 1e-12);
}

TEST(MsProbeRules, FirstValueNeverFiresTurbulence) {
    MsProbeRuleSet set(kTurbThenNan);
    EXPECT_EQ(fired(set, "norm", 1e9), "");
    EXPECT_EQ(fired(set, "mean", -5), "");
    EXPECT_EQ(fired(set, "norm", 0, "zero"), "");  // 0 > 0 is false
    MsProbeRuleSet turbulence_only(Specs{{"AnomalyTurbulence", 0.5}});
    EXPECT_EQ(fired(turbulence_only, "norm", kInf), "");  // inf > inf is false
}

TEST(MsProbeRules, TurbulenceIsReportedOnlyForNormAndMean) {
    for (const char* op : {"norm", "mean", "min", "max", "zeros", "nans"}) {
        MsProbeRuleSet set(kTurbThenNan);
        set.evaluate("t", op, 1);
        const bool reported = std::string(op) == "norm" || std::string(op) == "mean";
        EXPECT_EQ(fired(set, op, 10), reported ? "AnomalyTurbulence" : "") << op;
    }
}

TEST(MsProbeRules, ADroppedTurbulenceHitStillEndsTheScan) {
    // On op max, 1e11 fires turbulence first; msProbe drops it and never tries AnomalyNan.
    MsProbeRuleSet set(kTurbThenNan);
    set.evaluate("t", "max", 1);
    EXPECT_EQ(fired(set, "max", 1e11), "");
    // With AnomalyNan listed first, the same value is reported by it.
    MsProbeRuleSet nan_first(Specs{{"AnomalyNan", 1e10}, {"AnomalyTurbulence", 0.5}});
    nan_first.evaluate("t", "max", 1);
    EXPECT_EQ(fired(nan_first, "max", 1e11), "AnomalyNan");
    // A NaN does not fire turbulence, so AnomalyNan reports it on any op.
    EXPECT_EQ(fired(set, "max", kNaN), "AnomalyNan");
}

TEST(MsProbeRules, FirstHitWinsInListOrder) {
    MsProbeRuleSet turb_first(kTurbThenNan);
    turb_first.evaluate("t", "norm", 1);
    EXPECT_EQ(fired(turb_first, "norm", 1e11), "AnomalyTurbulence");
    MsProbeRuleSet nan_first(Specs{{"AnomalyNan", 1e10}, {"AnomalyTurbulence", 0.5}});
    nan_first.evaluate("t", "norm", 1);
    EXPECT_EQ(fired(nan_first, "norm", 1e11), "AnomalyNan");
}

TEST(MsProbeRules, InfFiresTurbulenceOnceThenNever) {
    MsProbeRuleSet set(Specs{{"AnomalyTurbulence", 0.5}, {"AnomalyNan", std::nullopt}});
    set.evaluate("t", "norm", 1);
    const auto f = set.evaluate("t", "norm", -kInf);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->rule, Kind::kTurbulence);
    EXPECT_EQ(f->history_mean, 1);
    EXPECT_EQ(fired(set, "norm", kInf), "");  // h is inf now
    EXPECT_EQ(fired(set, "norm", 1e300), "");
    const auto g = set.evaluate("t", "norm", kNaN);
    ASSERT_TRUE(g);
    EXPECT_EQ(g->rule, Kind::kNan);
    EXPECT_TRUE(std::isinf(g->history_mean));
}

TEST(MsProbeRules, InfFiresAnomalyNanOnlyWithAThreshold) {
    MsProbeRuleSet without(Specs{{"AnomalyNan", std::nullopt}});
    EXPECT_EQ(fired(without, "min", kInf), "");
    EXPECT_EQ(fired(without, "min", -kInf), "");
    MsProbeRuleSet with(Specs{{"AnomalyNan", 1e10}});
    EXPECT_EQ(fired(with, "min", -kInf), "AnomalyNan");  // first value too: no history needed
    EXPECT_EQ(fired(with, "min", 1e10), "");             // strictly above
    EXPECT_EQ(fired(with, "min", -2e10), "AnomalyNan");
}

TEST(MsProbeRules, NaNPoisonsTheHistoryForever) {
    MsProbeRuleSet set(kTurbThenNan);
    set.evaluate("t", "norm", 1);
    const auto f = set.evaluate("t", "norm", kNaN);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->rule, Kind::kNan);
    EXPECT_EQ(f->history_mean, 1);
    for (int i = 0; i < 200; ++i) EXPECT_EQ(fired(set, "norm", 1e6), "") << i;  // h is NaN
    const auto g = set.evaluate("t", "norm", kNaN);  // AnomalyNan keeps firing
    ASSERT_TRUE(g);
    EXPECT_TRUE(std::isnan(g->history_mean));
    // A NaN first value: reported at once with history mean nan (the sample's actv_grad nans).
    MsProbeRuleSet fresh(kTurbThenNan);
    const auto h = fresh.evaluate("0:.input:0/rank0/actv_grad", "nans", kNaN);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->rule, Kind::kNan);
    EXPECT_TRUE(std::isnan(h->history_mean));
}

TEST(MsProbeRules, ShapeAndDtypeAreNeverLookedAt) {
    MsProbeRuleSet set(kTurbThenNan);
    EXPECT_EQ(fired(set, "shape", kNaN), "");
    EXPECT_EQ(fired(set, "dtype", kNaN), "");
    EXPECT_EQ(set.key_count(), 0u);
}

TEST(MsProbeRules, StateIsPerTagAndOp) {
    MsProbeRuleSet set(kTurbThenNan);
    set.evaluate("a", "norm", 1);
    EXPECT_EQ(fired(set, "mean", 10, "a"), "");  // a new key: its first value
    EXPECT_EQ(fired(set, "norm", 10, "b"), "");
    EXPECT_EQ(fired(set, "norm", 10, "a"), "AnomalyTurbulence");
    EXPECT_EQ(set.key_count(), 3u);
}

TEST(MsProbeRules, ResetForgetsHistoriesAsARestartDoes) {
    MsProbeRuleSet set(kTurbThenNan);
    set.evaluate("t", "norm", 1);
    set.evaluate("t", "norm", kNaN);
    set.reset();
    EXPECT_EQ(set.key_count(), 0u);
    EXPECT_EQ(fired(set, "norm", 100), "");                    // first value again
    EXPECT_EQ(fired(set, "norm", 1000), "AnomalyTurbulence");  // the NaN no longer blocks it
}

TEST(MsProbeRules, SpecsMsProbeRefusesAreSkipped) {
    MsProbeRuleSet set(Specs{
        {"AnomalyTurbulence", std::nullopt}, {"AnomalyFoo", 1.0}, {"AnomalyNan", std::nullopt}});
    ASSERT_EQ(set.rules().size(), 1u);
    EXPECT_EQ(set.rules()[0].kind, Kind::kNan);
    EXPECT_EQ(set.skipped().size(), 2u);
    // No rules: nothing fires and no state is kept, as msProbe returns before updating.
    MsProbeRuleSet none(Specs{});
    EXPECT_EQ(fired(none, "norm", kNaN), "");
    EXPECT_EQ(none.key_count(), 0u);
}

// Legacy (up to 2025-05-21): h = running mean of the signed values, up = h + h*thr.
TEST(MsProbeRulesLegacy, RunningMeanOfSignedValues) {
    MsProbeRuleSet set(Specs{{"AnomalyTurbulence", 0.5}}, MsProbeVariant::kLegacy);
    EXPECT_EQ(fired(set, "max", 2), "");           // h = 2, up = 3
    EXPECT_EQ(fired(set, "max", 2.9), "");         // h = 2: 2.9 < 3
    const auto f = set.evaluate("t", "max", 3.7);  // h = 2.45, up = 3.675; on any op
    ASSERT_TRUE(f);
    EXPECT_EQ(f->history_mean, (2.0 * 1 + 2.9) / 2);
    EXPECT_DOUBLE_EQ(f->history_mean, 2.45);
    EXPECT_EQ(f->value, 3.7);
    // Negative history: up = h * 1.5 is below h, and a value below up fires.
    EXPECT_EQ(fired(set, "min", -2, "neg"), "");                     // first: -2 < -3 is false
    EXPECT_EQ(fired(set, "min", -2.9, "neg"), "");                   // h = -2, up = -3
    EXPECT_EQ(fired(set, "min", -3.8, "neg"), "AnomalyTurbulence");  // h = -2.45, up = -3.675
    // A large positive value after a negative history does not fire (x < up only).
    EXPECT_EQ(fired(set, "min", 1e9, "neg"), "");
}

TEST(MsProbeRulesLegacy, ZeroHistoryFiresOnAnyNegativeValueOnly) {
    MsProbeRuleSet set(Specs{{"AnomalyTurbulence", 0.5}}, MsProbeVariant::kLegacy);
    set.evaluate("z", "mean", 0);
    set.evaluate("y", "mean", 0);
    EXPECT_EQ(fired(set, "mean", 1e9, "z"), "");  // h <= 0: only x < 0 fires
    EXPECT_EQ(fired(set, "mean", -1e-9, "y"), "AnomalyTurbulence");
}

TEST(MsProbeRulesLegacy, AppliesToEveryOpAndKeepsNaN) {
    MsProbeRuleSet set(Specs{{"AnomalyTurbulence", 0.5}, {"AnomalyNan", std::nullopt}},
                       MsProbeVariant::kLegacy);
    set.evaluate("t", "shape", 2);
    EXPECT_EQ(fired(set, "shape", 10), "AnomalyTurbulence");
    set.evaluate("n", "norm", 1);
    EXPECT_EQ(fired(set, "norm", kNaN, "n"), "AnomalyNan");
    EXPECT_EQ(fired(set, "norm", 1e9, "n"), "");  // the mean is NaN from now on
    set.reset();
    EXPECT_EQ(set.key_count(), 0u);
}

// The history means in msProbe's own messages: for a key reported at steps s and s+1, the
// second history mean is the first updated with the first value. All of them, to the bit.
TEST(MsProbeRulesSample, HistoryMeansMatchMsProbeBitForBit) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent";
    const std::string dir =
        samples + "/generated/msprobe/trainermon_2rank_csv/monitor_output/anomaly_detected";
    const std::regex message(
        R"(reports anomaly signal in \('([^']*)', '([^']*)'\) at step (\d+), current value (\S+), history mean (\S+)\.)");
    std::map<std::tuple<std::string, std::string, long>, std::pair<double, double>> reported;
    for (const char* rank : {"rank0", "rank1"}) {
        const std::string text = testing::read_file(dir + "/" + rank + "/anomaly.json");
        const JsonParse parse = parse_json(text);
        ASSERT_TRUE(parse.ok()) << rank;
        for (const JsonMember& m : parse.document().root().members()) {
            const std::string msg(m.value.get("message").string());
            std::smatch g;
            ASSERT_TRUE(std::regex_search(msg, g, message)) << msg;
            reported[{g[1], g[2], std::stol(g[3])}] = {std::stod(g[4]), std::stod(g[5])};
        }
    }
    int checked = 0, differs_with_001 = 0;
    for (const auto& [key, vh] : reported) {
        const auto& [tag, op, step] = key;
        const auto next = reported.find({tag, op, step + 1});
        if (next == reported.end() || std::isnan(vh.second) || std::isnan(vh.first)) continue;
        EXPECT_EQ(msprobe_ema_update(vh.second, vh.first), next->second.second)
            << tag << " " << op << " step " << step;
        differs_with_001 += 0.99 * vh.second + 0.01 * std::fabs(vh.first) != next->second.second;
        ++checked;
    }
    EXPECT_GT(checked, 100);
    EXPECT_GT(differs_with_001, 0);  // the sample tells the two spellings apart
}

}  // namespace
}  // namespace runtop
