// Run comparison (core/compare/run_compare.h): alignment by step and by relative wall time, Δ and
// ratio at the newest common step, the first divergence, tags in one run only, different step
// grids, restarts, NaN and infinities, cross-rank means, the filter, and the rows per tag.
// tests/run_comparer_test.cpp checks compare_runs against a plain model on random runs and the
// incremental RunComparer against compare_runs.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "core/compare/run_compare.h"
#include "core/series_filter.h"
#include "core/store/store.h"

namespace runtop {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// `steps` of f(step) for (run, rank, tag), every `stride` steps from `first`, at wall times
// `start` + `seconds_per_step` * step.
void add(Store& store, const std::string& run, int rank, const std::string& tag, int steps,
         const std::function<double(int)>& f, int first = 0, int stride = 1, double start = 1.7e9,
         double seconds_per_step = 1) {
    const SeriesId id = store.series({run, rank, tag}, source_id({"tfevents"}));
    for (int i = 0; i < steps; ++i) {
        const int s = first + i * stride;
        store.append(id, {s, start + seconds_per_step * s, f(s)});
    }
}

using Keys = std::vector<std::pair<std::string, int>>;

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
    EXPECT_EQ(c.only_a, (Keys{{"eval/acc", 0}, {"train/loss", 1}}));
    EXPECT_EQ(c.only_b, (Keys{{"train/grad_norm", 0}}));
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

TEST(RunCompare, OptionNames) {
    EXPECT_EQ(compare_align_name(CompareAlign::kStep), "step");
    EXPECT_EQ(compare_align_name(CompareAlign::kRelativeWall), "wall");
    EXPECT_EQ(compare_ranks_name(CompareRanks::kPerRank), "rank");
    EXPECT_EQ(compare_ranks_name(CompareRanks::kMean), "mean");
}

TEST(RunCompare, TheFilterPicksTagsAndRanks) {
    Store store;
    for (const std::string run : {"a", "b"})
        for (int rank = 0; rank < 4; ++rank) {
            add(store, run, rank, "train/loss", 10, loss);
            add(store, run, rank, "train/lr", 10, loss);
        }
    add(store, "a", 0, "eval/loss", 10, loss);
    Result<SeriesFilter> filter = SeriesFilter::make("loss", "0-1");
    ASSERT_TRUE(filter);
    const RunComparison c = compare_runs(store, "a", "b", {}, &*filter);
    ASSERT_EQ(c.pairs.size(), 2u);
    EXPECT_EQ(c.pairs[0].tag, "train/loss");
    EXPECT_EQ(c.pairs[0].rank, 0);
    EXPECT_EQ(c.pairs[1].rank, 1);
    EXPECT_EQ(c.only_a, (Keys{{"eval/loss", 0}}));
    EXPECT_TRUE(c.only_b.empty());
    // The mean takes only the ranks the filter selects.
    const RunComparison m =
        compare_runs(store, "a", "b", {1e-6, CompareAlign::kStep, CompareRanks::kMean}, &*filter);
    ASSERT_EQ(m.pairs.size(), 1u);
    EXPECT_EQ(m.pairs[0].ranks_a, 2u);
    EXPECT_EQ(m.pairs[0].ranks_b, 2u);
    EXPECT_EQ(m.only_a, (Keys{{"eval/loss", 0}}));
}

constexpr CompareOptions kMean{1e-6, CompareAlign::kStep, CompareRanks::kMean};

TEST(RunCompareMean, EachRunsMeanOverItsRanksIsCompared) {
    Store store;
    // Run a: 4 ranks at rank + s (mean s + 1.5); run b: 2 ranks at s + 1, s + 2 (the same mean).
    for (int rank = 0; rank < 4; ++rank)
        add(store, "a", rank, "loss", 20, [rank](int s) { return rank + s; });
    for (int rank = 0; rank < 2; ++rank)
        add(store, "b", rank, "loss", 20, [rank](int s) { return rank + 1 + s; });
    add(store, "a", 0, "only/a", 5, loss);
    add(store, "a", 3, "only/a", 5, loss);
    const RunComparison c = compare_runs(store, "a", "b", kMean);
    ASSERT_EQ(c.pairs.size(), 1u);
    const SeriesComparison& p = c.pairs[0];
    EXPECT_EQ(p.rank, kNoRank);
    EXPECT_EQ(p.ranks_a, 4u);
    EXPECT_EQ(p.ranks_b, 2u);
    EXPECT_EQ(p.common_steps, 20u);
    EXPECT_FALSE(p.first_divergence);
    EXPECT_EQ(p.last_a, 20.5);
    EXPECT_EQ(p.last_b, 20.5);
    EXPECT_EQ(p.last_step_a, 19);
    EXPECT_EQ(p.delta, 0);
    // A tag only one run has lists its every series.
    EXPECT_EQ(c.only_a, (Keys{{"only/a", 0}, {"only/a", 3}}));
    // Per rank, ranks 0 and 1 differ and ranks 2 and 3 are run a's only.
    const RunComparison r = compare_runs(store, "a", "b", {});
    EXPECT_EQ(r.diverging(), 2u);
    EXPECT_EQ(r.only_a.size(), 4u);
}

TEST(RunCompareMean, RanksWithDifferentStepsCountWhereTheyHaveAPoint) {
    Store store;
    // Rank 0 logs every step at s, rank 1 every other step at s + 2: the mean is s + 1 at even
    // steps, s at odd ones.
    add(store, "a", 0, "loss", 20, [](int s) { return s; });
    add(
        store, "a", 1, "loss", 10, [](int s) { return s + 2; }, 0, 2);
    add(store, "b", 5, "loss", 20, [](int s) { return s % 2 == 0 ? s + 1 : s; });
    const SeriesComparison p = compare_runs(store, "a", "b", kMean).pairs.at(0);
    EXPECT_EQ(p.common_steps, 20u);
    EXPECT_FALSE(p.first_divergence);
    EXPECT_EQ(p.last_a, 19);  // step 19: rank 0 only
    EXPECT_EQ(*p.last_common_step, 19);
    // Rank 1 of run a alone goes on to step 30: the mean there is its value.
    add(
        store, "a", 1, "loss", 5, [](int s) { return s + 2; }, 22, 2);
    const SeriesComparison q = compare_runs(store, "a", "b", kMean).pairs.at(0);
    EXPECT_EQ(q.last_step_a, 30);
    EXPECT_EQ(q.last_a, 32);
    EXPECT_EQ(q.common_steps, 20u);
}

TEST(RunCompareMean, ANaNInOneRankIsNeverAveragedAway) {
    Store store;
    for (int rank = 0; rank < 4; ++rank) {
        add(store, "a", rank, "loss", 20, [](int s) { return s; });
        // Run b: rank 2 is NaN at step 7; rank 1 is +inf at step 19.
        add(store, "b", rank, "loss", 20, [rank](int s) {
            if (rank == 2 && s == 7) return kNaN;
            if (rank == 1 && s == 19) return kInf;
            return static_cast<double>(s);
        });
    }
    const SeriesComparison p = compare_runs(store, "a", "b", kMean).pairs.at(0);
    ASSERT_TRUE(p.first_divergence);
    EXPECT_EQ(*p.first_divergence, 7);
    EXPECT_EQ(p.max_relative_difference, kInf);
    EXPECT_EQ(p.b, kInf);  // the mean at step 19 carries the infinity
    EXPECT_EQ(p.last_b, kInf);
    // Against itself, NaN meets NaN: no divergence.
    EXPECT_FALSE(compare_runs(store, "b", "b", kMean).pairs.at(0).first_divergence);
    // +inf and -inf at one step: the mean is NaN.
    add(store, "c", 0, "loss", 1, [](int) { return kInf; });
    add(store, "c", 1, "loss", 1, [](int) { return -kInf; });
    EXPECT_TRUE(std::isnan(compare_runs(store, "c", "c", kMean).pairs.at(0).last_a));
}

TEST(RunCompareMean, StepsARankFoldedAreLeftOut) {
    StoreLimits limits;
    limits.series_points = 256;
    Store store(limits);
    add(store, "a", 0, "loss", 1000, loss);  // folds its oldest chunks
    add(store, "a", 1, "loss", 200, loss);   // keeps everything
    add(store, "b", 0, "loss", 1000, loss);
    const SeriesComparison p = compare_runs(store, "a", "b", kMean).pairs.at(0);
    const std::int64_t folded_until = store.at(0).buckets().back().last_step;
    ASSERT_GT(folded_until, 199);
    EXPECT_EQ(p.folded, (store.at(0).count() - store.at(0).retained()) +
                            (store.at(2).count() - store.at(2).retained()));
    // The mean starts after step folded_until: rank 1's points are all left out.
    EXPECT_EQ(p.common_steps, static_cast<std::uint64_t>(999 - folded_until));
    EXPECT_FALSE(p.first_divergence);
}

constexpr CompareOptions kWall{1e-6, CompareAlign::kRelativeWall, CompareRanks::kPerRank};

TEST(RunCompareWall, RunsWithOtherStartsAndSpeedsPairByTimeSinceTheirStart) {
    Store store;
    // The same curve over time: 1 + floor(t / 10) for t seconds since the start. Run a logs a
    // step a second from wall 1000; run b a step every 2 s from wall 5000, and from 50 s on
    // its values are 1 higher.
    auto curve = [](double t) { return 1 + std::floor(t / 10); };
    add(
        store, "a", 0, "loss", 150, [&](int s) { return curve(s); }, 0, 1, 1000, 1);
    add(
        store, "b", 0, "loss", 60, [&](int s) { return curve(2 * s) + (2 * s >= 50); }, 0, 1, 5000,
        2);
    const SeriesComparison p = compare_runs(store, "a", "b", kWall).pairs.at(0);
    // A's points at 0..118 s pair with b's (at 0..118 s); after b's last point nothing does.
    EXPECT_EQ(p.common_steps, 119u);
    EXPECT_EQ(*p.last_common_step, 118);
    ASSERT_TRUE(p.first_divergence);
    EXPECT_EQ(*p.first_divergence, 50);  // a's step
    ASSERT_TRUE(p.first_divergence_time);
    EXPECT_EQ(*p.first_divergence_time, 50.0);
    EXPECT_EQ(p.a, curve(118));
    EXPECT_EQ(p.b, curve(118) + 1);
    EXPECT_EQ(p.last_step_b, 59);
    // By step the same runs diverge at step 5 (a's value at 5 s against b's at 10 s).
    EXPECT_EQ(*compare_runs(store, "a", "b", {}).pairs.at(0).first_divergence, 5);
    EXPECT_FALSE(compare_runs(store, "a", "b", {}).pairs.at(0).first_divergence_time);

    // A run starts with its earliest series: a tag of b logged from 4990 moves b's start, so
    // b's loss begins 10 s in (a's first 10 points have nothing at or before them), its curve
    // 10 s late: the first pair already differs.
    add(store, "b", 0, "lr", 3, loss, 0, 1, 4990, 1);
    const RunComparison c = compare_runs(store, "a", "b", kWall);
    const SeriesComparison q = c.pairs.at(0);
    EXPECT_EQ(q.tag, "loss");
    EXPECT_EQ(q.common_steps, 119u);  // a's 10..128 s against b's 10..128 s
    EXPECT_EQ(*q.last_common_step, 128);
    EXPECT_EQ(*q.first_divergence, 10);
    EXPECT_EQ(*q.first_divergence_time, 10.0);
    // The filter decides which series set the start.
    Result<SeriesFilter> filter = SeriesFilter::make("loss", "");
    ASSERT_TRUE(filter);
    EXPECT_EQ(compare_runs(store, "a", "b", kWall, &*filter).pairs.at(0).common_steps, 119u);
    EXPECT_EQ(*compare_runs(store, "a", "b", kWall, &*filter).pairs.at(0).first_divergence, 50);
}

TEST(RunCompareWall, ARunAgainstItselfAndMeansByTime) {
    Store store;
    for (int rank = 0; rank < 3; ++rank) add(store, "a", rank, "loss", 300, loss, 0, 1, 1e9, 0.5);
    for (const CompareRanks ranks : {CompareRanks::kPerRank, CompareRanks::kMean}) {
        const RunComparison c =
            compare_runs(store, "a", "a", {1e-6, CompareAlign::kRelativeWall, ranks});
        for (const SeriesComparison& p : c.pairs) {
            EXPECT_EQ(p.common_steps, 300u);
            EXPECT_FALSE(p.first_divergence);
            EXPECT_EQ(*p.last_common_step, 299);
        }
    }
}

TEST(TagRows, OneRowPerTagHeadedByItsEarliestDivergence) {
    Store store;
    for (int rank = 0; rank < 4; ++rank) {
        add(store, "a", rank, "x", 100, [](int) { return 1.0; });
        add(store, "a", rank, "y", 100, [](int) { return 1.0; });
    }
    // x: rank 0 equal; rank 1 off by 1% from step 50, rank 2 by 10% from 50, rank 3 from 30
    // but only at step 30 (and only by 0.1%).
    add(store, "b", 0, "x", 100, [](int) { return 1.0; });
    add(store, "b", 1, "x", 100, [](int s) { return s >= 50 ? 1.01 : 1.0; });
    add(store, "b", 2, "x", 100, [](int s) { return s >= 50 ? 1.1 : 1.0; });
    add(store, "b", 3, "x", 100, [](int s) { return s == 30 ? 1.001 : 1.0; });
    // y: no divergence; rank 1 ends 1e-7 off (within the tolerance), rank 2 2e-7 off.
    add(store, "b", 0, "y", 100, [](int) { return 1.0; });
    add(store, "b", 1, "y", 100, [](int s) { return s == 99 ? 1 + 1e-7 : 1.0; });
    add(store, "b", 2, "y", 100, [](int s) { return s == 99 ? 1 + 2e-7 : 1.0; });
    add(store, "a", 0, "z", 10, loss);
    add(store, "a", 1, "z", 10, loss);
    add(store, "b", 0, "w", 10, loss);
    const std::vector<TagComparison> rows = tag_rows(compare_runs(store, "a", "b", {}));
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0].tag, "w");
    EXPECT_TRUE(rows[0].only_b());
    EXPECT_EQ(rows[0].ranks_b, 1u);
    EXPECT_EQ(rows[0].compared, 0u);

    EXPECT_EQ(rows[1].tag, "x");
    EXPECT_EQ(rows[1].ranks_a, 4u);
    EXPECT_EQ(rows[1].ranks_b, 4u);
    EXPECT_EQ(rows[1].compared, 4u);
    EXPECT_EQ(rows[1].diverging, 3u);
    EXPECT_EQ(rows[1].head.rank, 3);  // the earliest divergence, however small
    EXPECT_EQ(*rows[1].head.first_divergence, 30);

    EXPECT_EQ(rows[2].tag, "y");
    EXPECT_EQ(rows[2].ranks_a, 4u);  // rank 3 only in a
    EXPECT_EQ(rows[2].ranks_b, 3u);
    EXPECT_EQ(rows[2].compared, 3u);
    EXPECT_EQ(rows[2].diverging, 0u);
    EXPECT_EQ(rows[2].head.rank, 2);  // the largest relative Δ at the newest common step

    EXPECT_EQ(rows[3].tag, "z");
    EXPECT_TRUE(rows[3].only_a());
    EXPECT_EQ(rows[3].ranks_a, 2u);

    // Without rank 3, x's ranks 1 and 2 diverge at the same step: the larger difference heads.
    Result<SeriesFilter> filter = SeriesFilter::make("", "0-2");
    ASSERT_TRUE(filter);
    const std::vector<TagComparison> some = tag_rows(compare_runs(store, "a", "b", {}, &*filter));
    EXPECT_EQ(some.at(1).head.rank, 2);
    // With means, one pair per tag, its ranks counted.
    const std::vector<TagComparison> means = tag_rows(compare_runs(store, "a", "b", kMean));
    ASSERT_EQ(means.size(), 4u);
    EXPECT_EQ(means[1].compared, 1u);
    EXPECT_EQ(means[1].ranks_a, 4u);
    EXPECT_EQ(means[2].ranks_b, 3u);
    EXPECT_EQ(means[3].ranks_a, 2u);
    EXPECT_EQ(*means[1].head.first_divergence, 30);
}

}  // namespace
}  // namespace runtop
