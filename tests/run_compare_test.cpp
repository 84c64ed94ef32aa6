// Run comparison (core/run_compare.h): alignment by step, Δ and ratio at the newest common step,
// the first divergence, tags in one run only, different step grids, restarts, NaN and infinities.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "core/run_compare.h"
#include "core/store.h"

namespace runtop {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// `steps` of f(step) for (run, rank, tag), every `stride` steps from `first`.
void add(Store& store, const std::string& run, int rank, const std::string& tag, int steps,
         const std::function<double(int)>& f, int first = 0, int stride = 1) {
    const SeriesId id = store.series({run, rank, tag}, SourceKind::kTfEvents);
    for (int i = 0; i < steps; ++i) {
        const int s = first + i * stride;
        store.append(id, {s, 1.7e9 + s, f(s)});
    }
}

double loss(int s) {
    return 0.6 + 2.5 * std::exp(-s / 120.0) + 0.01 * std::sin(s * 0.7);
}

TEST(ValuesDiverge, RelativeToleranceAndNonFiniteKinds) {
    EXPECT_FALSE(values_diverge(1.0, 1.0, 1e-6));
    EXPECT_FALSE(values_diverge(1.0, 1.0 + 1e-7, 1e-6));
    EXPECT_TRUE(values_diverge(1.0, 1.0 + 1e-5, 1e-6));
    EXPECT_FALSE(values_diverge(0.0, 0.0, 0));
    EXPECT_TRUE(values_diverge(0.0, 1e-30, 1e-6));  // relative: any difference from 0 is all of it
    EXPECT_FALSE(values_diverge(kNaN, kNaN, 1e-6));
    EXPECT_TRUE(values_diverge(kNaN, 1.0, 1e-6));
    EXPECT_TRUE(values_diverge(2.0, kNaN, 1e-6));
    EXPECT_FALSE(values_diverge(kInf, kInf, 1e-6));
    EXPECT_TRUE(values_diverge(kInf, -kInf, 1e-6));
    EXPECT_TRUE(values_diverge(kInf, 1e308, 1e-6));
    EXPECT_DOUBLE_EQ(relative_difference(2.0, 3.0), 1.0 / 3.0);
    EXPECT_EQ(relative_difference(kNaN, 0.0), kInf);
}

TEST(RunCompare, ARunAgainstItselfNeverDiverges) {
    Store store;
    for (int rank = 0; rank < 4; ++rank) {
        add(store, "base", rank, "train/loss", 500, loss);
        add(store, "base", rank, "train/lr", 500, [](int s) { return 1e-3 * (1 - s / 500.0); });
    }
    const RunComparison c = compare_runs(store, "base", "base", {});
    ASSERT_EQ(c.pairs.size(), 8u);
    EXPECT_EQ(c.diverging(), 0u);
    EXPECT_TRUE(c.only_a.empty());
    EXPECT_TRUE(c.only_b.empty());
    for (const SeriesComparison& p : c.pairs) {
        EXPECT_EQ(p.common_steps, 500u);
        EXPECT_FALSE(p.first_divergence);
        EXPECT_EQ(p.max_relative_difference, 0);
        EXPECT_EQ(p.delta, 0);
        EXPECT_EQ(p.ratio, 1);
        EXPECT_EQ(*p.last_common_step, 499);
    }
}

TEST(RunCompare, SameSeedRunsDivergeAtTheKnownStep) {
    Store store;
    add(store, "base", 0, "train/loss", 400, loss);
    // The new run is the same until step 137, then 1% higher.
    add(store, "new", 0, "train/loss", 400, [](int s) { return loss(s) * (s < 137 ? 1 : 1.01); });
    const RunComparison c = compare_runs(store, "base", "new", {});
    ASSERT_EQ(c.pairs.size(), 1u);
    const SeriesComparison& p = c.pairs[0];
    EXPECT_EQ(p.tag, "train/loss");
    EXPECT_EQ(p.rank, 0);
    ASSERT_TRUE(p.first_divergence);
    EXPECT_EQ(*p.first_divergence, 137);
    EXPECT_EQ(p.common_steps, 400u);
    EXPECT_NEAR(p.ratio, 1.01, 1e-12);
    EXPECT_NEAR(p.delta, loss(399) * 0.01, 1e-12);
    EXPECT_NEAR(p.max_relative_difference, 0.01 / 1.01, 1e-12);
    EXPECT_EQ(c.diverging(), 1u);
    // Under a 2% tolerance they do not diverge.
    EXPECT_FALSE(compare_runs(store, "base", "new", {0.02}).pairs[0].first_divergence);
}

TEST(RunCompare, TagsAndRanksInOneRunOnlyAreListedApart) {
    Store store;
    add(store, "a", 0, "train/loss", 10, loss);
    add(store, "a", 0, "eval/acc", 10, loss);
    add(store, "a", 1, "train/loss", 10, loss);
    add(store, "b", 0, "train/loss", 10, loss);
    add(store, "b", 0, "train/grad_norm", 10, loss);
    const RunComparison c = compare_runs(store, "a", "b", {});
    ASSERT_EQ(c.pairs.size(), 1u);
    EXPECT_EQ(c.pairs[0].tag, "train/loss");
    EXPECT_EQ(c.only_a,
              (std::vector<std::pair<std::string, int>>{{"eval/acc", 0}, {"train/loss", 1}}));
    EXPECT_EQ(c.only_b, (std::vector<std::pair<std::string, int>>{{"train/grad_norm", 0}}));
}

TEST(RunCompare, DifferentStepGridsCompareTheStepsInCommon) {
    Store store;
    add(store, "a", 0, "eval/loss", 100, loss);        // 0..99
    add(store, "b", 0, "eval/loss", 60, loss, 10, 3);  // 10, 13, ..., 187
    const SeriesComparison p = compare_runs(store, "a", "b", {}).pairs.at(0);
    EXPECT_EQ(p.common_steps, 30u);  // 10, 13, ..., 97
    EXPECT_EQ(*p.last_common_step, 97);
    EXPECT_FALSE(p.first_divergence);
    EXPECT_EQ(p.last_step_a, 99);
    EXPECT_EQ(p.last_step_b, 187);
    EXPECT_DOUBLE_EQ(p.last_b, loss(187));
    // No step in common: nothing to say but the last values.
    Store apart;
    add(apart, "a", 0, "t", 10, loss, 0, 2);  // even steps
    add(apart, "b", 0, "t", 10, loss, 1, 2);  // odd steps
    const SeriesComparison q = compare_runs(apart, "a", "b", {}).pairs.at(0);
    EXPECT_EQ(q.common_steps, 0u);
    EXPECT_FALSE(q.last_common_step);
    EXPECT_TRUE(std::isnan(q.delta));
    EXPECT_FALSE(q.first_divergence);
}

TEST(RunCompare, ARestartedRunComparesWhatItKeptAfterTheRestart) {
    Store store;
    add(store, "base", 0, "train/loss", 100, loss);
    // The new run wrote 0..79, restarted from a checkpoint at 50 and rewrote 50..99 with other
    // values: its chart (and the comparison) holds 0..49 as first written, 50..99 as rewritten.
    add(store, "new", 0, "train/loss", 80, loss);
    add(
        store, "new", 0, "train/loss", 50, [](int s) { return loss(s) + 0.5; }, 50);
    ASSERT_EQ(store.at(1).restarts().size(), 1u);
    const SeriesComparison p = compare_runs(store, "base", "new", {}).pairs.at(0);
    EXPECT_EQ(p.common_steps, 100u);
    ASSERT_TRUE(p.first_divergence);
    EXPECT_EQ(*p.first_divergence, 50);
}

TEST(RunCompare, NaNOnOneSideIsADivergenceOnBothIsNot) {
    Store store;
    add(store, "a", 0, "t", 20, [](int s) { return s >= 15 ? kNaN : 1.0; });
    add(store, "b", 0, "t", 20, [](int s) { return s >= 12 ? kNaN : 1.0; });
    const SeriesComparison p = compare_runs(store, "a", "b", {}).pairs.at(0);
    ASSERT_TRUE(p.first_divergence);
    EXPECT_EQ(*p.first_divergence, 12);
    EXPECT_EQ(p.max_relative_difference, kInf);
    EXPECT_TRUE(std::isnan(p.delta));  // at step 19 both are NaN
}

TEST(RunCompare, PointsFoldedIntoBucketsAreCountedNotCompared) {
    StoreLimits limits;
    limits.series_points = 1000;
    Store store(limits);
    add(store, "a", 0, "t", 5000, loss);
    add(store, "b", 0, "t", 5000, loss);
    const SeriesComparison p = compare_runs(store, "a", "b", {}).pairs.at(0);
    EXPECT_GT(p.folded, 0u);
    EXPECT_EQ(p.common_steps + p.folded / 2, 5000u);
    EXPECT_FALSE(p.first_divergence);
}

}  // namespace
}  // namespace runtop
