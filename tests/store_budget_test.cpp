// The bounded Store: per-series and global budgets fold old chunks into buckets and merge
// buckets, and through all of it every extreme, NaN and infinity survives.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "core/store/store.h"
#include "tests/store_model.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::ModelSeries;
using testing::Stats;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::same;

// `n` series of one run, `tags` a rank (tags t0, t1, ...), as a job's ranks write them.
std::vector<SeriesId> job_series(Store& store, int n, int tags) {
    std::vector<SeriesId> ids;
    for (int s = 0; s < n; ++s)
        ids.push_back(
            store.series({"r", s / tags, fmt::format("t{}", s % tags)}, source_id({"tfevents"})));
    return ids;
}

// The store's series against the model, point for point where it has them, bucket by bucket
// where it folded them: each bucket holds exactly the model's points between its first and
// last step (no restart cut into folded data in these tests).
void expect_matches(const Series& s, const ModelSeries& m) {
    ASSERT_EQ(s.count(), m.points.size());
    ASSERT_LE(s.retained(), m.points.size());
    const std::size_t folded = m.points.size() - s.retained();
    for (std::size_t i = 0; i < s.retained(); ++i) {
        const Point p = s.point(i);
        const Point& want = m.points[folded + i];
        ASSERT_EQ(p.step, want.step) << i;
        ASSERT_TRUE(same(p.wall_time, want.wall_time)) << i;
        ASSERT_TRUE(same(p.value, want.value)) << i;
    }
    std::uint64_t in_buckets = 0;
    std::int64_t previous_last = std::numeric_limits<std::int64_t>::min();
    for (const SegmentSummary& b : s.buckets()) {
        ASSERT_GT(b.first_step, previous_last);
        ASSERT_LE(b.first_step, b.last_step);
        previous_last = b.last_step;
        auto [from, to] = m.range(b.first_step, b.last_step);
        Stats want;
        for (std::size_t i = from; i < to; ++i) want.add(m.points[i].value);
        ASSERT_EQ(b.count, want.count);
        ASSERT_EQ(b.nan, want.nan);
        ASSERT_EQ(b.pos_inf, want.pos_inf);
        ASSERT_EQ(b.neg_inf, want.neg_inf);
        ASSERT_EQ(b.min, want.min);
        ASSERT_EQ(b.max, want.max);
        ASSERT_NEAR(b.sum, want.sum, 1e-9 * std::max(1.0, std::fabs(want.sum)) * b.count);
        ASSERT_EQ(m.points[from].step, b.first_step);
        ASSERT_EQ(m.points[to - 1].step, b.last_step);
        ASSERT_TRUE(same(b.first_value, m.points[from].value));
        ASSERT_TRUE(same(b.last_value, m.points[to - 1].value));
        in_buckets += b.count;
    }
    ASSERT_EQ(in_buckets, folded);
    if (!m.points.empty()) {
        EXPECT_EQ(s.first_step(), m.points.front().step);
        EXPECT_EQ(s.last_step(), m.points.back().step);
        EXPECT_TRUE(same(s.back().value, m.points.back().value));
    }
}

TEST(StoreBudget, PerSeriesBudgetFoldsTheOldestChunks) {
    StoreLimits limits;
    limits.series_points = 1000;
    Store store(limits);
    SeriesId id = store.series({"run", 0, "loss"}, source_id({"tfevents"}));
    ModelSeries model;
    for (int i = 0; i < 10000; ++i) {
        Point p{i, 1e9 + i, i % 1000 == 500 ? 1e6 : std::sin(i * 0.01)};
        store.append(id, p);
        model.append(p);
    }
    const Series& s = store.at(id);
    EXPECT_LE(s.retained(), 1000u + kChunk);
    EXPECT_GE(s.retained(), 1000u - kChunk);
    EXPECT_FALSE(s.buckets().empty());
    expect_matches(s, model);
}

// Restarts into sealed data: the chunk cut by the restart comes back to the tail.
TEST(StoreBudget, RestartIntoSealedChunksKeepsEveryEarlierPoint) {
    Store store;
    SeriesId id = store.series({"run", 0, "loss"}, source_id({"tfevents"}));
    ModelSeries model;
    auto add = [&](Point p) {
        store.append(id, p);
        model.append(p);
    };
    for (int i = 0; i < 1000; ++i) add({i, 1e9 + i, i * 0.5});
    add({300, 2e9, -1});  // inside the third sealed chunk
    ASSERT_EQ(store.at(id).restarts().size(), 1u);
    EXPECT_EQ(store.at(id).restarts()[0].dropped, 700u);
    expect_matches(store.at(id), model);
    for (int i = 301; i < 600; ++i) add({i, 2e9 + i, i * 0.25});
    add({256, 3e9, 7});  // exactly on a chunk boundary
    add({256, 3e9, 8});  // the same step again: replaces
    expect_matches(store.at(id), model);
    EXPECT_EQ(store.at(id).back().value, 8);
    store.session_start("run", 0, 100, 4e9);  // the whole of the tail and beyond
    model.points.resize(100);
    expect_matches(store.at(id), model);
    EXPECT_EQ(store.at(id).restarts().back().dropped, 157u);
}

// Restarts into folded data: whole buckets go; a bucket cut by the restart stays, clipped:
// evenly spaced steps say exactly which of its points went (count and last step exact), its
// values do not (extremes conservative: the spike of a dropped point is still there).
TEST(StoreBudget, RestartIntoFoldedDataClipsTheBucketItCuts) {
    StoreLimits limits;
    limits.series_points = 256;
    Store store(limits);
    SeriesId id = store.series({"run", 0, "loss"}, source_id({"tfevents"}));
    for (int i = 0; i < 2000; ++i) store.append(id, {i, 1e9 + i, i == 120 ? 1e6 : 1.0});
    const Series& s = store.at(id);
    ASSERT_GE(s.buckets().size(), 10u);
    ASSERT_EQ(s.buckets()[0].last_step, 127);
    ASSERT_TRUE(s.buckets()[0].even);

    store.append(id, {100, 2e9, 5.0});  // inside the first bucket [0, 127]
    EXPECT_EQ(s.restarts().back().dropped, 1900u);
    ASSERT_EQ(s.buckets().size(), 1u);
    EXPECT_EQ(s.buckets()[0].last_step, 99);
    EXPECT_EQ(s.buckets()[0].count, 100u);
    EXPECT_EQ(s.buckets()[0].max, 1e6);  // from step 120, dropped: kept, conservatively
    EXPECT_EQ(s.count(), 101u);
    EXPECT_EQ(s.first_step(), 0);
    EXPECT_EQ(s.last_step(), 100);
    EXPECT_EQ(s.retained(), 1u);
    EXPECT_EQ(s.back().value, 5.0);
    ColumnSummary all[1];
    s.query(0, 101, all);
    EXPECT_EQ(all[0].count, 101u);
    EXPECT_EQ(all[0].max, 1e6);

    // A job logging every 10 steps: evenly spaced too.
    Store strided(limits);
    SeriesId t = strided.series({"run", 0, "loss"}, source_id({"tfevents"}));
    for (int i = 0; i < 2000; ++i) strided.append(t, {10 * i, 0, std::nan("")});
    strided.append(t, {15, 0, 1.0});  // cuts [0, 1270] after its second point
    EXPECT_EQ(strided.at(t).count(), 3u);
    EXPECT_EQ(strided.at(t).buckets()[0].last_step, 10);
    EXPECT_EQ(strided.at(t).buckets()[0].nan, 2u);  // capped at the count
    EXPECT_EQ(strided.at(t).restarts().back().dropped, 1998u);

    // Irregular steps: the count of the cut bucket stays an upper bound.
    Store irregular(limits);
    SeriesId r = irregular.series({"run", 0, "loss"}, source_id({"tfevents"}));
    for (int i = 0; i < 2000; ++i) irregular.append(r, {3 * i + (i % 2), 0, 1.0});
    ASSERT_FALSE(irregular.at(r).buckets()[0].even);
    irregular.append(r, {200, 0, 2.0});
    EXPECT_EQ(irregular.at(r).buckets()[0].last_step, 199);
    EXPECT_EQ(irregular.at(r).buckets()[0].count, 128u);
    EXPECT_EQ(irregular.at(r).count(), 129u);

    // A restart on a bucket boundary keeps the bucket before it whole and exact.
    Store exact(limits);
    SeriesId e = exact.series({"run", 0, "loss"}, source_id({"tfevents"}));
    ModelSeries model;
    for (int i = 0; i < 2000; ++i) {
        exact.append(e, {i, 1e9 + i, i * 1.0});
        model.append({i, 1e9 + i, i * 1.0});
    }
    exact.append(e, {512, 3e9, -1.0});
    model.append({512, 3e9, -1.0});
    expect_matches(exact.at(e), model);

    // Everything after a restart into folded data: a session start with an empty tail, then
    // the bucket's last step written again (the later write wins, in the bucket).
    exact.session_start("run", 0, 128, 4e9);
    model.points.resize(128);
    expect_matches(exact.at(e), model);
    EXPECT_EQ(exact.at(e).retained(), 0u);
    EXPECT_EQ(exact.at(e).back().step, 127);
    exact.append(e, {127, 5e9, 1e9});
    model.append({127, 5e9, 1e9});
    EXPECT_EQ(exact.at(e).count(), 128u);
    EXPECT_EQ(exact.at(e).back().value, 1e9);
    EXPECT_EQ(exact.at(e).buckets()[0].max, 1e9);
    EXPECT_EQ(exact.at(e).buckets()[0].min, 0.0);
}

TEST(StoreBudget, RestartMarkersAreCappedAndCounted) {
    Store store;
    SeriesId id = store.series({"run", 0, "loss"}, source_id({"tfevents"}));
    store.append(id, {0, 0, 0});
    for (std::size_t i = 0; i < Series::kMaxRestarts + 10; ++i) {
        store.append(id, {2, 0, 0});
        store.append(id, {1, 0, 0});  // back: a restart
    }
    EXPECT_EQ(store.at(id).restarts().size(), Series::kMaxRestarts);
    EXPECT_EQ(store.at(id).restart_count(), Series::kMaxRestarts + 10);
    EXPECT_EQ(store.at(id).count(), 2u);
}

// Many series, a budget far below their full-resolution size and below even one bucket per
// chunk: chunks fold and buckets merge, memory_bytes() never passes the budget after an
// append returns, and every extreme, NaN and infinity is still there.
TEST(StoreBudget, TheStoreUnderBudgetPressureKeepsEveryExtreme) {
    constexpr int kSeries = 20;
    constexpr int kPoints = 100'000;
    StoreLimits limits;
    limits.memory_bytes = 512 << 10;
    Store store(limits);
    std::vector<SeriesId> ids;
    std::vector<ModelSeries> models(kSeries);
    for (int s = 0; s < kSeries; ++s)
        ids.push_back(store.series({"run", s, "grad_norm"}, source_id({"tfevents"})));
    std::mt19937_64 rng(99);
    std::uint64_t peak = 0;
    for (int i = 0; i < kPoints; ++i) {
        for (int s = 0; s < kSeries; ++s) {
            double v = std::uniform_real_distribution<double>(0, 1)(rng);
            const std::uint64_t r = rng() % 100000;
            if (r < 3)
                v = kNaN;
            else if (r < 5)
                v = kInf;
            else if (r < 7)
                v = -kInf;
            else if (r < 9)
                v = std::uniform_real_distribution<double>(-1e6, 1e6)(rng);  // spikes
            const Point p{i, 1.7e9 + i, v};
            store.append(ids[static_cast<std::size_t>(s)], p);
            models[static_cast<std::size_t>(s)].append(p);
            peak = std::max(peak, store.memory_bytes());
            ASSERT_LE(store.memory_bytes(), limits.memory_bytes) << "after point " << i;
        }
    }
    std::printf("  budget %llu, peak %llu, now %llu bytes; %llu points\n",
                static_cast<unsigned long long>(limits.memory_bytes),
                static_cast<unsigned long long>(peak),
                static_cast<unsigned long long>(store.memory_bytes()),
                static_cast<unsigned long long>(store.total_points()));
    std::size_t merged = 0;
    for (int s = 0; s < kSeries; ++s) {
        const Series& series = store.at(ids[static_cast<std::size_t>(s)]);
        const ModelSeries& model = models[static_cast<std::size_t>(s)];
        expect_matches(series, model);
        for (const SegmentSummary& b : series.buckets()) merged += b.level > 0;

        // The whole series in one column: its global extremes and every count.
        Stats want;
        for (const Point& p : model.points) want.add(p.value);
        ColumnSummary all[1];
        series.query(0, kPoints, all);
        EXPECT_EQ(all[0].count, want.count);
        EXPECT_EQ(all[0].nan, want.nan);
        EXPECT_EQ(all[0].pos_inf, want.pos_inf);
        EXPECT_EQ(all[0].neg_inf, want.neg_inf);
        EXPECT_EQ(all[0].min, want.min);
        EXPECT_EQ(all[0].max, want.max);
        EXPECT_GT(all[0].folded, want.count / 2);
    }
    EXPECT_GT(merged, 0u) << "the budget should have forced buckets to merge";

    // A restart into merged buckets: still evenly spaced, so the count stays exact.
    const Series& third = store.at(ids[3]);
    ASSERT_GT(third.buckets().back().last_step, 54321);
    ASSERT_GT(third.buckets().front().level, 0u);
    store.session_start("run", 3, 54321, 0);
    EXPECT_EQ(third.count(), 54321u);
    EXPECT_EQ(third.last_step(), 54320);
    EXPECT_EQ(third.restarts().back().dropped, static_cast<std::uint64_t>(kPoints - 54321));
}

// The FIFO of sealed chunks skips chunks already gone: per-series folds and restarts.
TEST(StoreBudget, GlobalAndPerSeriesBudgetsTogetherWithRestarts) {
    StoreLimits limits;
    limits.memory_bytes = 256 << 10;
    limits.series_points = 2048;
    Store store(limits);
    std::vector<ModelSeries> models(8);
    std::vector<SeriesId> ids;
    for (int s = 0; s < 8; ++s) ids.push_back(store.series({"r", s, "t"}, source_id({"tfevents"})));
    std::mt19937_64 rng(1);
    std::vector<std::int64_t> next(8, 0);
    for (int i = 0; i < 200'000; ++i) {
        const auto s = static_cast<std::size_t>(rng() % 8);
        std::int64_t step = next[s]++;
        const Series& series = store.at(ids[s]);
        if (rng() % 2000 == 0 && step > 300) {
            // Back a little, never into folded data (that would make counts approximate).
            const std::int64_t back = step - 1 - static_cast<std::int64_t>(rng() % 300);
            if (series.buckets().empty() || series.buckets().back().last_step < back) {
                step = back;
                next[s] = back + 1;
            }
        }
        const Point p{step, static_cast<double>(i), static_cast<double>(rng() % 1000)};
        store.append(ids[s], p);
        models[s].append(p);
        ASSERT_LE(store.memory_bytes(), limits.memory_bytes);
    }
    for (std::size_t s = 0; s < 8; ++s) expect_matches(store.at(ids[s]), models[s]);
}

// A budget below the floor (per series its object, key and one bucket, which holds its last
// point) is
// exceeded by the floor only, and the store does not try to enforce it on every append.
// Also when a check visits a slice of the series (StoreLimits::series_per_check, the
// dashboard's): the rounds that fold tails and merge buckets go on check after check, and still
// reach the floor.
TEST(StoreBudget, ABudgetBelowTheFloorIsExceededOnlyByTheFloor) {
#if defined(__SANITIZE_ADDRESS__)
    // A check rounds at every check here (the budget is far below the floor), and a sanitized
    // debug build does that about 30x slower: the many-series case is smaller there, its cycle
    // of rounds still spanning many checks.
    constexpr int kMany = 10000, kManySlice = 512;
#else
    constexpr int kMany = 40000, kManySlice = 2048;
#endif
    for (const auto& [n, slice] :
         {std::pair{1000, 0}, std::pair{1000, 256}, std::pair{kMany, kManySlice}}) {
        SCOPED_TRACE(::testing::Message() << n << " series, " << slice << " a check");
        const int steps = n > 1000 ? 80 : 300;
        StoreLimits limits;
        limits.memory_bytes = 64 << 10;
        limits.series_per_check = static_cast<std::size_t>(slice);
        Store store(limits);
        std::vector<SeriesId> ids;
        for (int s = 0; s < n; ++s)
            ids.push_back(store.series({"r", s, "t"}, source_id({"tfevents"})));
        for (int i = 0; i < steps; ++i)
            for (SeriesId id : ids) store.append(id, {i, 0, static_cast<double>(i)});
        // Series of a bucket and a point alone are over 300 KiB.
        EXPECT_GT(store.memory_bytes(), limits.memory_bytes);
        // A check that visits a slice of the series lags up to a cycle of rounds behind: a
        // series may hold the few points that arrived since the tail round passed it.
        const std::uint64_t floor = slice > 0 ? 540 : 400;
        EXPECT_LT(store.memory_bytes(),
                  static_cast<std::uint64_t>(n) * floor + limits.memory_bytes / 16 + 16 * 1024);
        // Given time (as the dashboard gives it between keys), the owed rounds finish.
        store.keep_budget(std::chrono::steady_clock::now() + std::chrono::seconds(30));
        EXPECT_FALSE(store.rounds_owed());
        std::printf("  %.0f bytes a series at the floor\n",
                    static_cast<double>(store.memory_bytes()) / n);
        EXPECT_LT(store.memory_bytes(),
                  static_cast<std::uint64_t>(n) * 330 + limits.memory_bytes / 16 + 16 * 1024);
        int whole = 0;  // series whose tail the budget folded whole, its block gone
        for (SeriesId id : ids) {
            const Series& s = store.at(id);
            ASSERT_EQ(s.count(), static_cast<std::uint64_t>(steps));
            ASSERT_LE(s.buckets().size(), 2u);
            // Points that came after the last tail round passed the series are in its tail.
            ASSERT_LE(s.retained(), 2u);
            whole += s.retained() == 0;
            ASSERT_EQ(s.back().step, steps - 1);
            ASSERT_EQ(s.back().value, steps - 1);
            // Folded or not, every value is still in the summaries: min 0, max steps - 1.
            std::array<ColumnSummary, 1> all;
            s.query(0, steps, all);
            ASSERT_EQ(all[0].count, static_cast<std::uint64_t>(steps));
            ASSERT_EQ(all[0].min, 0);
            ASSERT_EQ(all[0].max, steps - 1);
        }
        EXPECT_GT(whole, n / 2);
    }
}

// A check that visits a slice of the series folds less than a burst of appends adds: a feeder
// that waits while the Store is behind its budget (rounds owed, over the budget), giving the
// rounds time instead, and gives them a slice between bursts (the dashboard's loop), keeps what
// is charged within a step of the budget. A slice of 64 series and bursts of 5,000 appends make
// a cycle of rounds span many bursts, as 2 M series' do in the dashboard: the series a cycle
// passed early grow again before it ends, and one that ends over the budget but still folded
// memory away rounds again at once rather than waiting for a step more. Every point counted.
TEST(StoreBudget, AFeederThatWaitsWhileBehindKeepsTheStoreWithinItsBudget) {
    const int n = 50000, steps = 60;
    // A deadline already past: keep_budget() goes one slice, so the run does not hang on time.
    const std::chrono::steady_clock::time_point kOneSlice{};
    StoreLimits limits;
    limits.memory_bytes = 20 << 20;  // the floor (about 270 bytes a series) fits
    limits.series_per_check = 64;
    Store store(limits);
    const std::vector<SeriesId> ids = job_series(store, n, 400);
    std::uint64_t peak = 0;
    int waits = 0;
    std::uint64_t appended = 0;
    for (int i = 0; i < steps; ++i) {
        for (SeriesId id : ids) {
            while (store.behind_budget()) {
                ++waits;
                store.keep_budget(kOneSlice);
            }
            store.append(id, {i, 0, static_cast<double>(i % 13)});
            peak = std::max(peak, store.memory_bytes());
            // Between bursts of appends, a slice of the rounds owed (the dashboard's loop).
            if (++appended % 5000 == 0 && store.rounds_owed()) store.keep_budget(kOneSlice);
        }
    }
    std::printf("  peak %.2f MiB of a %.0f MiB budget, %d waits\n",
                static_cast<double>(peak) / (1 << 20),
                static_cast<double>(limits.memory_bytes) / (1 << 20), waits);
    EXPECT_GT(waits, 0);  // the budget was reached and the slices fell behind
    // Past the budget, a check is due once memory grew a thousandth of it: the feeder stops at
    // the next append, which grows one tail block at most.
    EXPECT_LE(peak, limits.memory_bytes + limits.memory_bytes / 512 + 4096);
    EXPECT_EQ(store.total_points(), static_cast<std::uint64_t>(n) * steps);
    for (SeriesId id : ids) ASSERT_EQ(store.at(id).count(), static_cast<std::uint64_t>(steps));
}

// Over the budget at the floor, the next check waits for a step more of memory (rounds over
// every series for each new point would cost more than the folding). Once what is charged from
// outside falls back under the budget (the rules shed their windows), the budget is the check
// again: the Store does not grow a step past it into the room the outside left.
TEST(StoreBudget, WhenTheOutsideShrinksTheBudgetIsTheCheckAgain) {
    StoreLimits limits;
    limits.memory_bytes = 4 << 20;
    Store store(limits);
    const std::vector<SeriesId> ids = job_series(store, 2000, 100);
    for (int i = 0; i < 50; ++i)
        for (SeriesId id : ids) store.append(id, {i, 0, static_cast<double>(i)});
    store.set_outside_bytes(limits.memory_bytes);  // alone the whole budget: the floor is over
    EXPECT_GT(store.over_floor_bytes(), 0u);
    store.set_outside_bytes(0);  // shed
    std::uint64_t peak = 0;
    for (int i = 50; i < 120; ++i) {
        for (SeriesId id : ids) {
            store.append(id, {i, 0, static_cast<double>(i)});
            peak = std::max(peak, store.memory_bytes());
        }
    }
    std::printf("  peak %.2f MiB of a %.0f MiB budget\n", static_cast<double>(peak) / (1 << 20),
                static_cast<double>(limits.memory_bytes) / (1 << 20));
    EXPECT_LE(peak, limits.memory_bytes + 4096);
    EXPECT_EQ(store.total_points(), 2000u * 120);
}

// At the floor a series' last point is its last bucket's: a repeated step still replaces it
// (the bucket's extremes keep the old value too: they cannot forget), and the next step starts
// a tail again (which the next budget check may fold at once).
TEST(StoreBudget, AtTheFloorARepeatedStepReplacesTheBucketsLastValue) {
    StoreLimits limits;
    limits.memory_bytes = 1;
    Store store(limits);
    std::vector<SeriesId> ids;
    for (int s = 0; s < 200; ++s)
        ids.push_back(store.series({"r", s, "t"}, source_id({"tfevents"})));
    for (int i = 0; i < 300; ++i)
        for (SeriesId id : ids) store.append(id, {i, 0, static_cast<double>(i % 7)});
    const auto folded = std::find_if(ids.begin(), ids.end(),
                                     [&](SeriesId id) { return store.at(id).retained() == 0; });
    ASSERT_NE(folded, ids.end());
    const SeriesId id = *folded;
    ASSERT_EQ(store.at(id).back().value, 299 % 7);
    store.append(id, {299, 5, -40.0});
    const Series& s = store.at(id);
    EXPECT_EQ(s.count(), 300u);
    EXPECT_TRUE(s.restarts().empty());
    EXPECT_EQ(s.back().step, 299);
    EXPECT_EQ(s.back().value, -40.0);
    std::array<ColumnSummary, 1> all;
    s.query(0, 300, all);
    EXPECT_EQ(all[0].count, 300u);
    EXPECT_EQ(all[0].min, -40.0);
    EXPECT_EQ(all[0].max, 6.0);
    EXPECT_EQ(all[0].last, -40.0);
    store.append(id, {300, 6, 3.0});
    EXPECT_EQ(s.count(), 301u);
    EXPECT_EQ(s.back().step, 300);
    EXPECT_EQ(s.back().value, 3.0);
}

// With a probe of the process' resident memory, what it holds beyond everything counted (and
// the reserve left for it) is charged too: the points fold as if it were counted.
TEST(StoreBudget, WhatTheProcessHoldsUncountedFoldsPointsToo) {
    constexpr std::uint64_t kBudget = 8 << 20, kUncounted = 3 << 20, kReserve = 1 << 20;
    auto load = [](Store& store) {
        std::vector<SeriesId> ids;
        for (int s = 0; s < 16; ++s)
            ids.push_back(store.series({"r", s, "t"}, source_id({"tfevents"})));
        for (int i = 0; i < 200000; ++i)
            for (SeriesId id : ids) store.append(id, {i, 0, std::sin(i * 0.01 + id)});
    };
    StoreLimits limits;
    limits.memory_bytes = kBudget;
    Store counted_only(limits);
    load(counted_only);
    EXPECT_EQ(counted_only.unaccounted_bytes(), 0u);
    EXPECT_FALSE(counted_only.at(0).buckets().empty());  // the budget folds without a probe too

    Store whole(limits);
    // A process that holds 3 MiB beside what the Store counts, 1 MiB of it allowed.
    whole.set_resident_probe(
        [&] { return whole.memory_bytes() + whole.kept_empty_bytes() + kUncounted; }, kReserve);
    load(whole);
    // The empty slabs kept resident count in the excess too (there is no room for them).
    EXPECT_GE(whole.unaccounted_bytes(), kUncounted - kReserve);
    EXPECT_LE(whole.unaccounted_bytes(), kUncounted - kReserve + (2 << 20));
    EXPECT_LE(whole.memory_bytes() + whole.unaccounted_bytes(), kBudget);
    EXPECT_LT(whole.memory_bytes() + (kUncounted - kReserve) / 2, counted_only.memory_bytes());
    for (SeriesId id = 0; id < 16; ++id)
        ASSERT_EQ(whole.at(id).count(), counted_only.at(id).count());  // folded, not lost

    // A probe that cannot tell (0) leaves the budget as it was.
    Store unknown(limits);
    unknown.set_resident_probe([] { return std::uint64_t{0}; }, kReserve);
    load(unknown);
    EXPECT_EQ(unknown.unaccounted_bytes(), 0u);
    EXPECT_EQ(unknown.memory_bytes(), counted_only.memory_bytes());
}

// An excess measured past a step (a 64th of the budget) is compared with what is charged, as
// the check is: once it was compared with what is counted alone, and then every append was a
// check while the Store had room (2 M series: keys waited 140 ms).
TEST(StoreBudget, AnExcessPastAStepDoesNotMakeEveryAppendACheck) {
    StoreLimits limits;
    limits.memory_bytes = 64 << 20;  // a step is 1 MiB
    Store store(limits);
    store.set_resident_probe(
        [&] { return store.memory_bytes() + store.kept_empty_bytes() + (8 << 20); }, 0);
    ASSERT_EQ(store.unaccounted_bytes(), std::uint64_t{8} << 20);
    const std::vector<SeriesId> ids = job_series(store, 200, 50);
    const std::uint64_t checks_before = store.budget_checks();
    for (int i = 0; i < 2000; ++i)
        for (SeriesId id : ids) store.append(id, {i, 0, std::sin(i * 0.1 + id)});
    const std::uint64_t checks = store.budget_checks() - checks_before;
    std::printf("  %llu checks for 400,000 appends of %.1f MiB\n",
                static_cast<unsigned long long>(checks),
                static_cast<double>(store.memory_bytes()) / (1 << 20));
    ASSERT_LT(store.memory_bytes() + store.unaccounted_bytes(), limits.memory_bytes);
    // A reading for each step of growth, not a check for each append.
    EXPECT_LE(checks, store.memory_bytes() / (1 << 20) + 4);
}

// At the floor, each check folds what came since the last and what is counted holds still,
// while what is allocated and freed again may leave the process holding more (what the
// allocator keeps): once a step has been allocated the resident set is read again, whether or
// not the count moved (2 M series: 50 MiB past the last reading).
TEST(StoreBudget, WhatCreepsWhileTheCountHoldsStillIsReadAgain) {
    StoreLimits limits;
    limits.memory_bytes = 1 << 20;  // below the floor of 5,000 series: the count holds still
    Store store(limits);
    std::uint64_t creep = 0;  // what the process holds beyond what is counted
    store.set_resident_probe(
        [&] {
            return store.memory_bytes() + store.outside_bytes() + store.kept_empty_bytes() + creep;
        },
        0);
    const std::vector<SeriesId> ids = job_series(store, 5000, 100);
    auto feed = [&](int from, int to) {
        for (int i = from; i < to; ++i)
            for (SeriesId id : ids) store.append(id, {i, 0, static_cast<double>(i % 11)});
    };
    feed(0, 40);
    ASSERT_GT(store.memory_bytes(), limits.memory_bytes);  // at the floor
    const std::uint64_t before = store.unaccounted_bytes();
    creep = 2 << 20;
    feed(40, 80);
    EXPECT_GE(store.unaccounted_bytes(), before + creep - limits.memory_bytes / 64);
    for (SeriesId id : ids) ASSERT_EQ(store.at(id).count(), 80u);
}

// What a series costs besides its points, key and index entry included, at the size of a
// large job: a million series must fit a login node.
TEST(StoreBudget, ASeriesOfOnePointCostsAtMost256Bytes) {
    Store store(StoreLimits::unbounded());
    const std::uint64_t empty = store.memory_bytes();
    constexpr int kRanks = 64, kTags = 2000;
    for (int r = 0; r < kRanks; ++r)
        for (int t = 0; t < kTags; ++t) {
            const SeriesId id = store.series(
                {"job", r, fmt::format("grad_unreduced/layers.{}.mlp.w3.weight/norm", t)},
                source_id({"tfevents"}));
            store.append(id, {1, 0, 1.0});
        }
    const double per_series = static_cast<double>(store.memory_bytes() - empty) / (kRanks * kTags);
    std::printf("  %.0f bytes a series of one point\n", per_series);
    EXPECT_LE(per_series, 256);
}

TEST(StoreBudget, UnboundedFoldsNothing) {
    Store store(StoreLimits::unbounded());
    SeriesId id = store.series({"r", 0, "t"}, source_id({"tfevents"}));
    for (int i = 0; i < 3'000'000; ++i) store.append(id, {i, 0, static_cast<double>(i)});
    EXPECT_EQ(store.at(id).retained(), 3'000'000u);
    EXPECT_TRUE(store.at(id).buckets().empty());
}

}  // namespace
}  // namespace runtop
