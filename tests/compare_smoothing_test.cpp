// A run comparison with smoothing (CompareOptions::smoothing, `runtop diff --smooth W`): two runs
// of one trend with independent noise diverge at step 0 raw but follow each other smoothed, and
// a real departure is still found, at the step TensorBoard's smoothed curves part at; and the
// weights --smooth takes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/compare_options.h"
#include "core/analysis/smoothing.h"
#include "core/compare/run_compare.h"
#include "core/store/store.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

constexpr int kSteps = 400;
constexpr double kWeight = 0.9;
constexpr double kTolerance = 0.05;
constexpr int kDeparture = 250;  // where the departing run goes 15% above the trend

double trend(int s) {
    return 0.6 + 2.5 * std::exp(-s / 120.0);
}

// The trend with about 2% multiplicative noise (sd; at most 7%) of its own seed; from
// `departure` on, 15% higher.
std::vector<double> noisy_run(std::uint64_t seed, std::optional<int> departure = std::nullopt) {
    testing::FixtureNoise noise(seed);
    std::vector<double> v;
    for (int s = 0; s < kSteps; ++s)
        v.push_back(trend(s) * (1 + 0.035 * noise()) * (departure && s >= *departure ? 1.15 : 1));
    return v;
}

void add(Store& store, const std::string& run, int rank, const std::vector<double>& values) {
    const SeriesId id = store.series({run, rank, "train/loss"}, source_id({"tfevents"}));
    for (std::size_t s = 0; s < values.size(); ++s)
        store.append(id, {static_cast<std::int64_t>(s), 1.7e9 + static_cast<double>(s), values[s]});
}

SeriesComparison compare_one(const Store& store, const std::string& b, double tolerance,
                             double smoothing, CompareRanks ranks = CompareRanks::kPerRank) {
    CompareOptions options;
    options.tolerance = tolerance;
    options.smoothing = smoothing;
    options.ranks = ranks;
    const RunComparison c = compare_runs(store, "base", b, options);
    EXPECT_EQ(c.pairs.size(), 1u);
    return c.pairs.empty() ? SeriesComparison{} : c.pairs[0];
}

std::vector<double> smoothed(const std::vector<double>& v, double weight) {
    std::vector<double> out(v.size());
    classic_smooth(v, weight, out);
    return out;
}

// The first step where TensorBoard's curves (the batch smoothing of each whole series) are
// more than `tolerance` apart: what the walk must find, computed another way.
std::optional<int> first_apart(const std::vector<double>& a, const std::vector<double>& b,
                               double tolerance) {
    for (std::size_t s = 0; s < a.size(); ++s)
        if (values_diverge(a[s], b[s], tolerance)) return static_cast<int>(s);
    return std::nullopt;
}

class SmoothedCompare : public ::testing::Test {
  protected:
    void SetUp() override {
        add(store_, "base", 0, base_);
        add(store_, "seed2", 0, seed2_);
        add(store_, "departs", 0, departs_);
    }
    Store store_;
    const std::vector<double> base_ = noisy_run(1);
    const std::vector<double> seed2_ = noisy_run(2);
    const std::vector<double> departs_ = noisy_run(2, kDeparture);
};

TEST_F(SmoothedCompare, RawRunsOfOtherSeedsDivergeAtOnceSmoothedTheyFollowEachOther) {
    // Raw: step 0 already differs, and the noise alone exceeds 5% somewhere.
    const SeriesComparison raw = compare_one(store_, "seed2", 1e-6, 0);
    ASSERT_TRUE(raw.first_divergence);
    EXPECT_EQ(*raw.first_divergence, 0);
    EXPECT_TRUE(compare_one(store_, "seed2", kTolerance, 0).first_divergence);

    const SeriesComparison c = compare_one(store_, "seed2", kTolerance, kWeight);
    EXPECT_FALSE(c.first_divergence) << *c.first_divergence;
    EXPECT_EQ(c.common_steps, static_cast<std::uint64_t>(kSteps));
    EXPECT_LE(c.max_relative_difference, kTolerance);
    EXPECT_FALSE(first_apart(smoothed(base_, kWeight), smoothed(seed2_, kWeight), kTolerance));
    // Every value reported is the smoothed one, TensorBoard's to the bit at the last point.
    const std::vector<double> sa = smoothed(base_, kWeight), sb = smoothed(seed2_, kWeight);
    EXPECT_EQ(c.last_a, sa.back());
    EXPECT_EQ(c.last_b, sb.back());
    EXPECT_EQ(c.a, sa.back());
    EXPECT_EQ(c.b, sb.back());
    EXPECT_EQ(c.delta, sb.back() - sa.back());
    EXPECT_NE(c.last_a, base_.back());
}

TEST_F(SmoothedCompare, ARealDepartureIsFoundWhereTheSmoothedCurvesPart) {
    const std::optional<int> expected =
        first_apart(smoothed(base_, kWeight), smoothed(departs_, kWeight), kTolerance);
    ASSERT_TRUE(expected);
    // The EMA lags a step change by a few points, never leads it.
    EXPECT_GE(*expected, kDeparture);
    EXPECT_LT(*expected, kDeparture + 20);
    const SeriesComparison c = compare_one(store_, "departs", kTolerance, kWeight);
    ASSERT_TRUE(c.first_divergence);
    EXPECT_EQ(*c.first_divergence, *expected);
    EXPECT_GT(c.max_relative_difference, 0.1);
}

// The walk pushes every point of a side into its smoother, paired or not: B logged only every
// 5th step still smooths over its own points, A over all of its.
TEST_F(SmoothedCompare, PointsWithoutAPartnerAreSmoothedToo) {
    std::vector<double> sparse;
    for (int s = 0; s < kSteps; s += 5) sparse.push_back(seed2_[s]);
    const SeriesId id = store_.series({"sparse", 0, "train/loss"}, source_id({"tfevents"}));
    for (std::size_t i = 0; i < sparse.size(); ++i)
        store_.append(id, {static_cast<std::int64_t>(5 * i), 1.7e9 + 5.0 * i, sparse[i]});
    const SeriesComparison c = compare_one(store_, "sparse", 0, kWeight);
    ASSERT_TRUE(c.last_common_step);
    EXPECT_EQ(*c.last_common_step, kSteps - 5);
    EXPECT_EQ(c.a, smoothed(base_, kWeight)[kSteps - 5]);
    EXPECT_EQ(c.b, smoothed(sparse, kWeight).back());
}

// With --by mean each rank is smoothed on its own, then averaged: for ranks on one step grid,
// that is the smoothing of the mean (the EMA is linear) up to rounding.
TEST(SmoothedCompareMean, TheMeanOfTheSmoothedRanks) {
    Store store;
    const std::vector<double> r0 = noisy_run(3), r1 = noisy_run(4), other = noisy_run(5);
    add(store, "base", 0, r0);
    add(store, "base", 1, r1);
    add(store, "new", 0, other);
    CompareOptions options;
    options.ranks = CompareRanks::kMean;
    options.smoothing = kWeight;
    const RunComparison c = compare_runs(store, "base", "new", options);
    ASSERT_EQ(c.pairs.size(), 1u);
    const std::vector<double> s0 = smoothed(r0, kWeight), s1 = smoothed(r1, kWeight);
    EXPECT_EQ(c.pairs[0].a, (s0.back() + s1.back()) / 2);
    EXPECT_EQ(c.pairs[0].last_a, (s0.back() + s1.back()) / 2);
    std::vector<double> mean;
    for (int s = 0; s < kSteps; ++s) mean.push_back((r0[s] + r1[s]) / 2);
    EXPECT_NEAR(c.pairs[0].a, smoothed(mean, kWeight).back(), 1e-12);
}

// A NaN is not smoothed away: it is compared as a NaN where it is, and the smoothing carries on
// over the finite points around it (TensorBoard's rule).
TEST(SmoothedCompareNaN, ANaNStillDivergesAtItsStep) {
    Store store;
    std::vector<double> a = noisy_run(6), b = a;
    b[120] = std::numeric_limits<double>::quiet_NaN();
    add(store, "base", 0, a);
    add(store, "nan", 0, b);
    CompareOptions options;
    options.tolerance = kTolerance;
    options.smoothing = kWeight;
    const SeriesComparison c = compare_runs(store, "base", "nan", options).pairs.at(0);
    ASSERT_TRUE(c.first_divergence);
    EXPECT_EQ(*c.first_divergence, 120);
    EXPECT_EQ(c.max_relative_difference, std::numeric_limits<double>::infinity());
}

TEST(SmoothingOption, TensorBoardsWeightFromZeroToBelowOne) {
    EXPECT_EQ(*parse_smoothing("0"), 0);
    EXPECT_EQ(*parse_smoothing("0.9"), 0.9);
    EXPECT_EQ(*parse_smoothing("0.999"), 0.999);
    for (const char* text : {"1", "-0.1", "nan", "inf", "", "0.9x"}) {
        const Result<double> w = parse_smoothing(text);
        ASSERT_FALSE(w) << text;
        EXPECT_NE(w.error().message.find("--smooth needs"), std::string::npos);
        EXPECT_NE(w.error().message.find("'" + std::string(text) + "'"), std::string::npos);
    }
}

}  // namespace
}  // namespace runtop
