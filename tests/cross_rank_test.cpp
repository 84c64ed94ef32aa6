// Cross-rank statistics against hand-computed values, and against a sort-based reference.
#include "core/analysis/cross_rank.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace runtop {
namespace {

using Ranks = std::vector<RankValue>;
using Ints = std::vector<int>;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(CrossRank, OddCountWithOneFarRank) {
    const CrossRankStats s = compute_cross_rank(Ranks{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 100}});
    EXPECT_EQ(s.count, 5);
    EXPECT_EQ(s.finite, 5);
    EXPECT_EQ(s.non_finite, 0);
    EXPECT_DOUBLE_EQ(s.mean, 22);  // 110 / 5
    // Deviations -21 -20 -19 -18 78: squares sum to 7610, / 5 = 1522.
    EXPECT_DOUBLE_EQ(s.std, std::sqrt(1522.0));
    EXPECT_EQ(s.min, 1);
    EXPECT_EQ(s.max, 100);
    EXPECT_EQ(s.argmin_rank, 0);
    EXPECT_EQ(s.argmax_rank, 4);
    EXPECT_EQ(s.median, 3);
    EXPECT_EQ(s.mad, 1);  // |dev| = 2 1 0 1 97 -> 0 1 1 2 97
    EXPECT_DOUBLE_EQ(s.mad_scaled, 1.4826);
    EXPECT_EQ(s.outlier_ranks, Ints{4});  // 97 > max(5 * 1, 0.05 * 3); 2 is not
    EXPECT_TRUE(s.non_finite_ranks.empty());
}

TEST(CrossRank, EvenCountTakesTheMeanOfTheMiddleTwo) {
    const CrossRankStats s = compute_cross_rank(Ranks{{3, 40}, {0, 10}, {2, 30}, {1, 20}});
    EXPECT_EQ(s.median, 25);
    EXPECT_EQ(s.mad, 10);  // |dev| = 15 5 5 15 -> (5 + 15) / 2
    EXPECT_EQ(s.argmin_rank, 0);
    EXPECT_EQ(s.argmax_rank, 3);
    EXPECT_TRUE(s.outlier_ranks.empty());

    // Six ranks: middle values 3 and 5 -> 4; |dev| 3 2 1 1 2 96, sorted 1 1 2 2 3 96: middle
    // 2 and 2 -> 2. 100 is 96 away > 5 * 2.
    const CrossRankStats t =
        compute_cross_rank(Ranks{{0, 1}, {1, 2}, {2, 3}, {3, 5}, {4, 6}, {5, 100}});
    EXPECT_EQ(t.median, 4);
    EXPECT_EQ(t.mad, 2);
    EXPECT_EQ(t.outlier_ranks, Ints{5});
}

TEST(CrossRank, IdenticalRanksGiveNoOutliers) {
    Ranks same, zeros;
    for (int r = 0; r < 8; ++r) same.push_back({r, 3.5}), zeros.push_back({r, 0.0});
    const CrossRankStats s = compute_cross_rank(same);
    EXPECT_EQ(s.median, 3.5);
    EXPECT_EQ(s.mad, 0);
    EXPECT_EQ(s.std, 0);
    EXPECT_EQ(s.mean, 3.5);
    EXPECT_TRUE(s.outlier_ranks.empty());
    const CrossRankStats z = compute_cross_rank(zeros);
    EXPECT_EQ(z.mean, 0);
    EXPECT_EQ(z.std, 0);
    EXPECT_TRUE(z.outlier_ranks.empty());
}

TEST(CrossRank, ZeroMadFallsBackOnTheRelativeFloor) {
    Ranks ranks;
    for (int r = 0; r < 7; ++r) ranks.push_back({r, 1.0});
    ranks.push_back({7, 1.01});  // 1 % off: within 5 % of the median
    EXPECT_EQ(compute_cross_rank(ranks).mad, 0);
    EXPECT_TRUE(compute_cross_rank(ranks).outlier_ranks.empty());
    ranks.back().value = 1.2;  // 20 % off
    EXPECT_EQ(compute_cross_rank(ranks).outlier_ranks, Ints{7});
    ranks.back().value = 0.8;
    EXPECT_EQ(compute_cross_rank(ranks).outlier_ranks, Ints{7});

    // A median of 0 leaves only abs_floor: 0 by default, so any other value stands out.
    Ranks zeros{{0, 0}, {1, 0}, {2, 0}, {3, 1e-3}};
    EXPECT_EQ(compute_cross_rank(zeros).outlier_ranks, Ints{3});
    EXPECT_TRUE(compute_cross_rank(zeros, {.abs_floor = 1e-2}).outlier_ranks.empty());
}

TEST(CrossRank, KIsConfigurable) {
    const Ranks ranks{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 9}};  // median 3, MAD 1, 9 is 6 away
    EXPECT_EQ(compute_cross_rank(ranks).outlier_ranks, Ints{4});
    EXPECT_TRUE(compute_cross_rank(ranks, {.k = 6}).outlier_ranks.empty());  // strictly beyond
    EXPECT_EQ(compute_cross_rank(ranks, {.k = 1.5}).outlier_ranks, (Ints{0, 4}));
}

TEST(CrossRank, NonFiniteRanksAreReportedApart) {
    const CrossRankStats s =
        compute_cross_rank(Ranks{{4, 1}, {3, kInf}, {2, 1}, {1, kNaN}, {0, 1}, {5, -kInf}});
    EXPECT_EQ(s.count, 6);
    EXPECT_EQ(s.finite, 3);
    EXPECT_EQ(s.non_finite, 3);
    EXPECT_EQ(s.non_finite_ranks, (Ints{1, 3, 5}));
    EXPECT_TRUE(s.outlier_ranks.empty());
    EXPECT_EQ(s.mean, 1);
    EXPECT_EQ(s.std, 0);
    EXPECT_EQ(s.median, 1);
    EXPECT_EQ(s.max, 1);
    EXPECT_EQ(s.argmax_rank, 0);  // lowest of the equal maxima, whatever the input order
    EXPECT_EQ(s.argmin_rank, 0);
}

TEST(CrossRank, NoFiniteRankGivesNaNStatistics) {
    const CrossRankStats s = compute_cross_rank(Ranks{{0, kNaN}, {1, kInf}});
    EXPECT_EQ(s.finite, 0);
    EXPECT_EQ(s.non_finite_ranks, (Ints{0, 1}));
    EXPECT_TRUE(std::isnan(s.mean) && std::isnan(s.median) && std::isnan(s.mad));
    EXPECT_EQ(s.argmin_rank, -1);
    EXPECT_EQ(s.argmax_rank, -1);

    const CrossRankStats e = compute_cross_rank(Ranks{});
    EXPECT_EQ(e.count, 0);
    EXPECT_TRUE(std::isnan(e.std));
}

TEST(CrossRank, OneOrTwoRanksHaveNoOutliers) {
    const CrossRankStats two = compute_cross_rank(Ranks{{0, 1}, {1, 1000}}, {.k = 0.5});
    EXPECT_EQ(two.median, 500.5);
    EXPECT_EQ(two.mad, 499.5);
    EXPECT_TRUE(two.outlier_ranks.empty());
    const CrossRankStats one = compute_cross_rank(Ranks{{7, -2}});
    EXPECT_EQ(one.median, -2);
    EXPECT_EQ(one.mad, 0);
    EXPECT_EQ(one.argmin_rank, 7);
    EXPECT_TRUE(one.outlier_ranks.empty());
}

TEST(CrossRank, HugeValuesKeepAFiniteMeanAndStd) {
    const double big = std::numeric_limits<double>::max() / 2;
    const CrossRankStats s = compute_cross_rank(Ranks{{0, big}, {1, big}, {2, big}});
    EXPECT_DOUBLE_EQ(s.mean, big);
    EXPECT_EQ(s.std, 0);
    const CrossRankStats t = compute_cross_rank(Ranks{{0, big}, {1, -big}});
    EXPECT_EQ(t.mean, 0);
    EXPECT_DOUBLE_EQ(t.std, big);
    EXPECT_EQ(t.median, 0);
}

// Median and MAD by full sorting, the obvious way.
double sorted_median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

TEST(CrossRank, MatchesASortingReferenceWithReusedScratch) {
    std::mt19937 gen(42);
    std::normal_distribution<double> noise(10.0, 2.0);
    CrossRankScratch scratch;
    CrossRankStats s;
    for (int n : {4096, 4095, 3, 64, 1000}) {
        Ranks ranks;
        std::vector<double> values;
        for (int r = 0; r < n; ++r) {
            // Rounded so that duplicates (and equal middle values) occur.
            const double v = std::round(noise(gen) * 10) / 10;
            ranks.push_back({r, v});
            values.push_back(v);
        }
        compute_cross_rank(ranks, {}, scratch, s);
        const double median = sorted_median(values);
        std::vector<double> dev;
        for (double v : values) dev.push_back(std::fabs(v - median));
        const double mad = sorted_median(dev);
        EXPECT_EQ(s.median, median) << n;
        EXPECT_EQ(s.mad, mad) << n;
        Ints outliers;
        const double limit = std::max(5 * mad, 0.05 * std::fabs(median));
        for (const RankValue& r : ranks) {
            if (std::fabs(r.value - median) > limit) outliers.push_back(r.rank);
        }
        EXPECT_EQ(s.outlier_ranks, outliers) << n;
        EXPECT_EQ(s.min, *std::min_element(values.begin(), values.end()));
    }
}

}  // namespace
}  // namespace runtop
