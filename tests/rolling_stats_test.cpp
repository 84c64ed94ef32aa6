#include "core/analysis/rolling_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <random>

namespace runtop {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The window recomputed from scratch, in long double with two passes.
struct Naive {
    std::size_t count = 0, finite = 0, nans = 0, infs = 0;
    double mean = kNaN, std = kNaN, min = kNaN, max = kNaN;
};

Naive naive(const std::deque<double>& values) {
    Naive r;
    r.count = values.size();
    long double sum = 0;
    for (double v : values) {
        if (std::isnan(v)) {
            ++r.nans;
        } else if (std::isinf(v)) {
            ++r.infs;
        } else {
            ++r.finite;
            sum += v;
            r.min = std::isnan(r.min) ? v : std::min(r.min, v);
            r.max = std::isnan(r.max) ? v : std::max(r.max, v);
        }
    }
    if (r.finite == 0) return r;
    const long double mean = sum / r.finite;
    long double ss = 0;
    for (double v : values) {
        if (std::isfinite(v)) ss += (v - mean) * (v - mean);
    }
    r.mean = static_cast<double>(mean);
    r.std = static_cast<double>(std::sqrt(ss / r.finite));
    return r;
}

TEST(RollingStats, LastNPointsHandComputed) {
    auto s = RollingStats::last_points(3);
    s.push(0, 1);
    s.push(1, 2);
    s.push(2, 3);
    EXPECT_EQ(s.count(), 3u);
    EXPECT_DOUBLE_EQ(s.mean(), 2.0);
    s.push(3, 4);  // 1 leaves: {2, 3, 4}
    EXPECT_EQ(s.count(), 3u);
    EXPECT_DOUBLE_EQ(s.mean(), 3.0);
    // Population: ((2-3)^2 + 0 + (4-3)^2) / 3 = 2/3.
    EXPECT_DOUBLE_EQ(s.variance(), 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(s.stddev(), std::sqrt(2.0 / 3.0));
    EXPECT_EQ(s.min(), 2.0);
    EXPECT_EQ(s.max(), 4.0);
    EXPECT_EQ(s.last(), 4.0);
    EXPECT_EQ(s.last_wall_time(), 3.0);
}

TEST(RollingStats, EvictsOldestFirst) {
    // A falling then rising series: the min must follow the points as they leave in order.
    auto s = RollingStats::last_points(3);
    const double values[] = {5, 1, 4, 3, 9, 8, 7, 2};
    const double mins[] = {5, 1, 1, 1, 3, 3, 7, 2};
    const double maxs[] = {5, 5, 5, 4, 9, 9, 9, 8};
    for (int i = 0; i < 8; ++i) {
        s.push(i, values[i]);
        EXPECT_EQ(s.min(), mins[i]) << i;
        EXPECT_EQ(s.max(), maxs[i]) << i;
        EXPECT_EQ(s.last(), values[i]);
    }
    EXPECT_DOUBLE_EQ(s.mean(), (8 + 7 + 2) / 3.0);
}

TEST(RollingStats, NonFiniteCountedButExcluded) {
    auto s = RollingStats::last_points(4);
    s.push(0, 1);
    s.push(1, kNaN);
    s.push(2, kInf);
    s.push(3, 3);
    EXPECT_EQ(s.count(), 4u);
    EXPECT_EQ(s.finite_count(), 2u);
    EXPECT_EQ(s.nan_count(), 1u);
    EXPECT_EQ(s.inf_count(), 1u);
    EXPECT_DOUBLE_EQ(s.mean(), 2.0);
    EXPECT_DOUBLE_EQ(s.variance(), 1.0);
    EXPECT_EQ(s.min(), 1.0);
    EXPECT_EQ(s.max(), 3.0);
    s.push(4, -kInf);  // 1 leaves
    EXPECT_EQ(s.inf_count(), 2u);
    EXPECT_EQ(s.mean(), 3.0);
    EXPECT_EQ(s.stddev(), 0.0);
    s.push(5, 5);  // the NaN leaves
    EXPECT_EQ(s.nan_count(), 0u);
    s.push(6, 6);     // +Inf leaves
    s.push(7, kNaN);  // 3 leaves; -Inf still in
    EXPECT_EQ(s.inf_count(), 1u);
    EXPECT_EQ(s.nan_count(), 1u);
    EXPECT_DOUBLE_EQ(s.mean(), 5.5);
    EXPECT_TRUE(std::isnan(s.last()));
}

TEST(RollingStats, EmptyAndAllNonFinite) {
    auto s = RollingStats::last_points(2);
    EXPECT_EQ(s.count(), 0u);
    EXPECT_TRUE(std::isnan(s.last()));
    EXPECT_TRUE(std::isnan(s.mean()));
    EXPECT_TRUE(std::isnan(s.stddev()));
    s.push(0, kNaN);
    s.push(1, -kInf);
    EXPECT_EQ(s.count(), 2u);
    EXPECT_EQ(s.finite_count(), 0u);
    EXPECT_TRUE(std::isnan(s.mean()));
    EXPECT_TRUE(std::isnan(s.min()));
    EXPECT_TRUE(std::isnan(s.max()));
    EXPECT_TRUE(std::isnan(s.variance()));
    s.push(2, 7);
    EXPECT_EQ(s.mean(), 7.0);
    EXPECT_EQ(s.stddev(), 0.0);  // one point: population std is 0
    s.clear();
    EXPECT_EQ(s.count(), 0u);
    EXPECT_EQ(s.inf_count(), 0u);
    EXPECT_TRUE(std::isnan(s.mean()));
}

TEST(RollingStats, LastTSecondsIsInclusiveAndAnchoredAtTheNewestPoint) {
    auto s = RollingStats::last_seconds(10);
    s.push(0, 1);
    s.push(5, 2);
    s.push(10, 3);  // 0 is exactly 10 s old: kept
    EXPECT_EQ(s.count(), 3u);
    EXPECT_DOUBLE_EQ(s.mean(), 2.0);
    s.push(15, 4);  // 0 leaves
    EXPECT_EQ(s.count(), 3u);
    EXPECT_EQ(s.min(), 2.0);
    s.push(30.5, 5);  // everything before 20.5 leaves
    EXPECT_EQ(s.count(), 1u);
    EXPECT_EQ(s.mean(), 5.0);
}

TEST(RollingStats, OutOfOrderWallTimesLeaveInArrivalOrder) {
    auto s = RollingStats::last_seconds(10);
    s.push(100, 1);
    s.push(95, 2);  // stamped earlier; within 10 s of the newest (100)
    s.push(105, 3);
    EXPECT_EQ(s.count(), 3u);
    s.push(112, 4);  // 100 and then 95 are at the front and too old
    EXPECT_EQ(s.count(), 2u);
    EXPECT_DOUBLE_EQ(s.mean(), 3.5);
    s.push(kNaN, 5);  // no wall time: taken as the newest (112)
    EXPECT_EQ(s.count(), 3u);
    EXPECT_EQ(s.last_wall_time(), 112.0);
}

TEST(RollingStats, CountAndTimeLimitsTogether) {
    RollingStats s(3, 10);
    for (int i = 0; i < 5; ++i) s.push(i, i);  // the count limit binds
    EXPECT_EQ(s.count(), 3u);
    EXPECT_DOUBLE_EQ(s.mean(), 3.0);
    s.push(20, 20);  // the time limit binds
    EXPECT_EQ(s.count(), 1u);
}

TEST(RollingStats, MatchesNaiveRecomputationOnRandomWindows) {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-100, 100);
    std::exponential_distribution<double> gap(1.0);
    std::uniform_int_distribution<int> kind(0, 49);
    RollingStats by_count = RollingStats::last_points(37);
    RollingStats by_time = RollingStats::last_seconds(25);
    std::deque<double> count_values, time_values, time_walls;
    double wall = 0;
    for (int i = 0; i < 20000; ++i) {
        wall += (i % 500 < 20) ? 10 * gap(rng) : gap(rng);  // bursts of long gaps empty windows
        const int k = kind(rng);
        const double v = k == 0 ? kNaN : k == 1 ? kInf : k == 2 ? -kInf : u(rng);
        by_count.push(wall, v);
        by_time.push(wall, v);
        count_values.push_back(v);
        if (count_values.size() > 37) count_values.pop_front();
        time_values.push_back(v);
        time_walls.push_back(wall);
        while (time_walls.front() < wall - 25) {
            time_walls.pop_front();
            time_values.pop_front();
        }
        for (auto [stats, values] :
             {std::pair{&by_count, &count_values}, std::pair{&by_time, &time_values}}) {
            const Naive want = naive(*values);
            ASSERT_EQ(stats->count(), want.count) << i;
            ASSERT_EQ(stats->finite_count(), want.finite);
            ASSERT_EQ(stats->nan_count(), want.nans);
            ASSERT_EQ(stats->inf_count(), want.infs);
            if (want.finite == 0) {
                ASSERT_TRUE(std::isnan(stats->mean()));
                continue;
            }
            ASSERT_EQ(stats->min(), want.min) << i;
            ASSERT_EQ(stats->max(), want.max) << i;
            ASSERT_NEAR(stats->mean(), want.mean, 1e-12) << i;
            ASSERT_NEAR(stats->stddev(), want.std, 1e-10) << i;
        }
    }
}

// 1e6 values at an offset of 1e9 with unit noise, where a running sum of squares loses every
// digit (1e18 * 1000 against a variance of 1), plus spikes of 1e12 that must leave no trace once
// they leave the window (subtracting one back out of a sum of squares would leave eps * 1e24).
TEST(RollingStats, PrecisionAtLargeOffsetAgainstNaive) {
    std::mt19937_64 rng(2024);
    std::normal_distribution<double> noise(0, 1);
    auto by_count = RollingStats::last_points(1000);
    auto by_time = RollingStats::last_seconds(500);  // two points per second: 1001 points
    std::deque<double> count_values, time_values, time_walls;
    // Relative errors of mean and std, for windows without and with a spike.
    double mean_err[2] = {0, 0}, std_err[2] = {0, 0};
    int checks[2] = {0, 0};
    for (int i = 0; i < 1000000; ++i) {
        const double wall = i * 0.5;
        double v = 1e9 + noise(rng);
        if (i % 100000 == 50000) v = 1e12;
        by_count.push(wall, v);
        by_time.push(wall, v);
        count_values.push_back(v);
        if (count_values.size() > 1000) count_values.pop_front();
        time_values.push_back(v);
        time_walls.push_back(wall);
        while (time_walls.front() < wall - 500) {
            time_walls.pop_front();
            time_values.pop_front();
        }
        // Every 997 pushes, and every push around the one where a spike leaves.
        const bool spike_leaves = i % 100000 >= 50995 && i % 100000 < 51010;
        if (i % 997 != 0 && !spike_leaves) continue;
        for (auto [stats, values] :
             {std::pair{&by_count, &count_values}, std::pair{&by_time, &time_values}}) {
            const Naive want = naive(*values);
            const int spiked = want.max > 1e11;
            ++checks[spiked];
            mean_err[spiked] =
                std::max(mean_err[spiked], std::abs(stats->mean() - want.mean) / want.mean);
            std_err[spiked] =
                std::max(std_err[spiked], std::abs(stats->stddev() - want.std) / want.std);
            ASSERT_EQ(stats->min(), want.min);
            ASSERT_EQ(stats->max(), want.max);
        }
    }
    EXPECT_GT(checks[0], 1500);
    EXPECT_GT(checks[1], 20);
    // Without a spike: the mean within 2 ulps of 1e9 (2.4e-16 relative), the std (about 1) to
    // twelve digits. A sum of squares gets no digit right; Welford without the shift gets seven.
    EXPECT_LT(mean_err[0], 2.5e-16);
    EXPECT_LT(std_err[0], 1e-12);
    // With a 1e12 spike among 1e9s (mean 2e9, std 3e10), a few ulps of the spike.
    EXPECT_LT(mean_err[1], 1e-14);
    EXPECT_LT(std_err[1], 1e-12);
    RecordProperty("mean_rel_error", std::to_string(mean_err[0]));
    RecordProperty("std_rel_error", std::to_string(std_err[0]));
}

TEST(RateMeter, SteadyRunWithSeveralSeriesPerStep) {
    RateMeter m(10);
    for (int step = 0; step <= 100; ++step) {
        for (int tag = 0; tag < 3; ++tag) m.record(step, 1000 + step);  // one step per second
    }
    EXPECT_DOUBLE_EQ(m.steps_per_second(), 1.0);
    EXPECT_DOUBLE_EQ(m.points_per_second(), 3.0);
    EXPECT_EQ(m.points(), 303u);
    EXPECT_DOUBLE_EQ(m.seconds_since_last(1107.5), 7.5);
}

TEST(RateMeter, RatesFollowAChangeOfPace) {
    RateMeter m(10);
    double wall = 0;
    std::int64_t step = 0;
    for (int i = 0; i < 100; ++i) m.record(step += 2, wall += 1);  // 2 steps/s
    EXPECT_DOUBLE_EQ(m.steps_per_second(), 2.0);
    for (int i = 0; i < 100; ++i) m.record(step += 1, wall += 4);  // slows to 0.25 steps/s
    EXPECT_DOUBLE_EQ(m.steps_per_second(), 0.25);
    EXPECT_DOUBLE_EQ(m.points_per_second(), 0.25);
}

TEST(RateMeter, PointsSparserThanTheWindow) {
    RateMeter m(10);
    m.record(0, 0);
    m.record(5, 30);
    m.record(10, 60);  // measured from the point at 30, the newest one at or before 50
    EXPECT_DOUBLE_EQ(m.points_per_second(), 1.0 / 30);
    EXPECT_DOUBLE_EQ(m.steps_per_second(), 5.0 / 30);
}

TEST(RateMeter, UnknownUntilTwoWallTimes) {
    RateMeter m(10);
    EXPECT_TRUE(std::isnan(m.steps_per_second()));
    EXPECT_TRUE(std::isnan(m.seconds_since_last(5)));
    m.record(1, 100);
    m.record(1, 100);
    EXPECT_TRUE(std::isnan(m.points_per_second()));
    EXPECT_DOUBLE_EQ(m.seconds_since_last(103), 3.0);
    m.record(2, 102);
    EXPECT_DOUBLE_EQ(m.points_per_second(), 0.5);
}

TEST(RateMeter, InterleavedRanksDoNotInflateTheStepRate) {
    // Rank 1 trails rank 0 by one step: steps go 1, 0, 2, 1, 3, 2... The furthest step still
    // advances one per second.
    RateMeter m(20);
    for (int s = 1; s <= 60; ++s) {
        m.record(s, s);
        m.record(s - 1, s + 0.5);
    }
    EXPECT_NEAR(m.steps_per_second(), 1.0, 0.03);
    EXPECT_NEAR(m.points_per_second(), 2.0, 0.06);
}

TEST(RateMeter, RestartFromACheckpoint) {
    RateMeter without(10), with(10);
    for (int s = 0; s <= 50; ++s) {
        without.record(s, s);
        with.record(s, s);
    }
    with.restart(20);
    for (int s = 20; s <= 40; ++s) {
        without.record(s, 51 + (s - 20));
        with.record(s, 51 + (s - 20));
    }
    EXPECT_DOUBLE_EQ(with.steps_per_second(), 1.0);
    // Unannounced, redone steps are not progress beyond step 50.
    EXPECT_DOUBLE_EQ(without.steps_per_second(), 0.0);
    EXPECT_DOUBLE_EQ(without.points_per_second(), 1.0);
}

}  // namespace
}  // namespace runtop
