// Series::query against brute force over a plain model, and its cost on a huge series.
#include <gtest/gtest.h>

#include <cmath>
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

// The columns a brute force gives: every model point in its own column, except points the
// series folded, which count with their bucket, in the column of the bucket's last step (the
// last column when that is past the range), whole, as soon as the bucket overlaps the range.
std::vector<ColumnSummary> brute_force(const Series& s, const ModelSeries& m, std::int64_t lo,
                                       std::int64_t hi, std::size_t n) {
    const auto width = static_cast<unsigned __int128>(static_cast<std::uint64_t>(hi) -
                                                      static_cast<std::uint64_t>(lo));
    auto column_of = [&](std::int64_t step) {
        const auto offset =
            static_cast<std::uint64_t>(step) - static_cast<std::uint64_t>(lo);  // < width
        // The largest c with edge(c) <= step.
        std::size_t c =
            static_cast<std::size_t>(offset * static_cast<unsigned __int128>(n) / width);
        auto edge = [&](std::size_t k) { return static_cast<std::uint64_t>(width * k / n); };
        while (c + 1 < n && edge(c + 1) <= offset) ++c;
        while (c > 0 && edge(c) > offset) --c;
        return c;
    };
    struct Col {
        Stats stats;
        std::uint64_t folded = 0;
        std::int64_t last_step = std::numeric_limits<std::int64_t>::min();
        double last = kNaN;
    };
    std::vector<Col> cols(n);
    auto contribute = [&](std::size_t c, const Point& p, bool folded, std::int64_t at) {
        cols[c].stats.add(p.value);
        cols[c].folded += folded;
        if (at >= cols[c].last_step) {
            cols[c].last_step = at;
            cols[c].last = p.value;
        }
    };
    std::int64_t covered_to = std::numeric_limits<std::int64_t>::min();  // folded up to here
    for (const SegmentSummary& b : s.buckets()) {
        covered_to = b.last_step;
        if (b.first_step >= hi || b.last_step < lo) continue;
        const std::size_t c = column_of(std::min(b.last_step, hi - 1));
        auto [from, to] = m.range(b.first_step, b.last_step);
        for (std::size_t i = from; i < to; ++i) contribute(c, m.points[i], true, b.last_step);
    }
    for (const Point& p : m.points)
        if (p.step > covered_to && p.step >= lo && p.step < hi)
            contribute(column_of(p.step), p, false, p.step);
    std::vector<ColumnSummary> out(n);
    for (std::size_t c = 0; c < n; ++c) {
        const Stats& st = cols[c].stats;
        ColumnSummary& o = out[c];
        o.count = st.count;
        o.nan = st.nan;
        o.pos_inf = st.pos_inf;
        o.neg_inf = st.neg_inf;
        o.folded = cols[c].folded;
        const std::uint64_t finite = st.count - st.nan - st.pos_inf - st.neg_inf;
        o.min = finite ? st.min : kNaN;
        o.max = finite ? st.max : kNaN;
        o.mean = finite ? st.sum / static_cast<double>(finite) : kNaN;
        o.last = st.count ? cols[c].last : kNaN;
        o.last_step = st.count ? cols[c].last_step : 0;
    }
    return out;
}

// Both ways of answering (per column from the summaries, one linear pass) give the brute force's
// columns.
void expect_query_matches(const Series& s, const ModelSeries& m, std::int64_t lo, std::int64_t hi,
                          std::size_t n) {
    const std::vector<ColumnSummary> want = brute_force(s, m, lo, hi, n);
    for (Series::QueryPath path : {Series::QueryPath::kSummaries, Series::QueryPath::kLinear}) {
        std::vector<ColumnSummary> got(n);
        s.query(lo, hi, got, nullptr, false, path);
        SCOPED_TRACE(path == Series::QueryPath::kLinear ? "linear" : "summaries");
        for (std::size_t c = 0; c < n; ++c) {
            const ColumnSummary& g = got[c];
            const ColumnSummary& w = want[c];
            SCOPED_TRACE(::testing::Message()
                         << "[" << lo << ", " << hi << ") / " << n << " column " << c);
            ASSERT_EQ(g.count, w.count);
            ASSERT_EQ(g.empty(), w.count == 0);
            if (g.empty()) continue;
            ASSERT_EQ(g.nan, w.nan);
            ASSERT_EQ(g.pos_inf, w.pos_inf);
            ASSERT_EQ(g.neg_inf, w.neg_inf);
            ASSERT_EQ(g.folded, w.folded);
            ASSERT_TRUE(same(g.min, w.min)) << g.min << " " << w.min;
            ASSERT_TRUE(same(g.max, w.max)) << g.max << " " << w.max;
            if (std::isnan(w.mean))
                ASSERT_TRUE(std::isnan(g.mean));
            else
                ASSERT_NEAR(g.mean, w.mean,
                            1e-9 * std::max({1.0, std::fabs(w.min), std::fabs(w.max)}));
            ASSERT_TRUE(same(g.last, w.last)) << g.last << " " << w.last;
            ASSERT_EQ(g.last_step, w.last_step);
        }
    }
}

Point random_point(std::mt19937_64& rng, std::int64_t step) {
    double v = std::uniform_real_distribution<double>(-10, 10)(rng);
    switch (rng() % 50) {
        case 0:
            v = kNaN;
            break;
        case 1:
            v = kInf;
            break;
        case 2:
            v = -kInf;
            break;
        case 3:
            v *= 1e5;
            break;
        default:
            break;
    }
    return {step, static_cast<double>(step) * 0.5, v};
}

void random_queries(const Series& s, const ModelSeries& m, std::mt19937_64& rng, int count) {
    if (m.points.empty()) return;
    const std::int64_t first = m.points.front().step, last = m.points.back().step;
    for (int q = 0; q < count; ++q) {
        const std::int64_t span = last - first + 1;
        std::int64_t lo =
            first - 20 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(span + 40));
        std::int64_t hi =
            lo + 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(span + 40));
        const std::size_t n = 1 + rng() % (q % 3 == 0 ? 3 : 300);
        expect_query_matches(s, m, lo, hi, n);
    }
    expect_query_matches(s, m, first, last + 1, 1);
    expect_query_matches(s, m, first, last + 1, 97);
}

// Full resolution: every column exact, through restarts across chunks.
TEST(SeriesQuery, MatchesBruteForceThroughRestarts) {
    Store store(StoreLimits::unbounded());
    SeriesId id = store.series({"r", 0, "t"}, source_id({"tfevents"}));
    ModelSeries model;
    std::mt19937_64 rng(17);
    std::int64_t step = 0;
    for (int i = 0; i < 30000; ++i) {
        const auto r = rng() % 1000;
        if (r < 3 && step > 10)
            step -= 1 + static_cast<std::int64_t>(
                            rng() % static_cast<std::uint64_t>(std::min<std::int64_t>(step, 3000)));
        const Point p = random_point(rng, step);
        store.append(id, p);
        model.append(p);
        step += 1 + static_cast<std::int64_t>(rng() % (r < 500 ? 1 : 20));
        if (i % 5000 == 4999) random_queries(store.at(id), model, rng, 40);
    }
    EXPECT_GT(store.at(id).restarts().size(), 10u);
    random_queries(store.at(id), model, rng, 200);
}

// Folded under pressure (per-series and global budgets): buckets answer whole, every count
// exact, the extremes of every bucket inside the columns' min and max.
TEST(SeriesQuery, MatchesBruteForceWithFoldedBuckets) {
    StoreLimits limits;
    limits.memory_bytes = 192 << 10;
    limits.series_points = 3000;
    Store store(limits);
    std::vector<SeriesId> ids;
    std::vector<ModelSeries> models(6);
    for (int s = 0; s < 6; ++s) ids.push_back(store.series({"r", s, "t"}, source_id({"tfevents"})));
    std::mt19937_64 rng(23);
    std::vector<std::int64_t> step(6, 0);
    for (int i = 0; i < 240000; ++i) {
        const auto s = static_cast<std::size_t>(rng() % 6);
        const Series& series = store.at(ids[s]);
        if (rng() % 3000 == 0 && step[s] > 200) {  // restarts, never into folded data
            const std::int64_t back = step[s] - 1 - static_cast<std::int64_t>(rng() % 200);
            if (series.buckets().empty() || series.buckets().back().last_step < back)
                step[s] = back;
        }
        const Point p = random_point(rng, step[s]);
        store.append(ids[s], p);
        models[s].append(p);
        step[s] += 1 + static_cast<std::int64_t>(rng() % 3);
    }
    for (std::size_t s = 0; s < 6; ++s) {
        ASSERT_FALSE(store.at(ids[s]).buckets().empty());
        random_queries(store.at(ids[s]), models[s], rng, 100);
    }
}

TEST(SeriesQuery, EdgeCases) {
    Store store;
    SeriesId id = store.series({"r", 0, "t"}, source_id({"tfevents"}));
    ColumnSummary cols[4];
    store.at(id).query(0, 100, cols);  // empty series
    for (const ColumnSummary& c : cols) EXPECT_TRUE(c.empty());
    ModelSeries model;
    for (std::int64_t s :
         {std::numeric_limits<std::int64_t>::min() + 1, std::int64_t{-5}, std::int64_t{0},
          std::int64_t{7}, std::numeric_limits<std::int64_t>::max() - 1}) {
        store.append(id, {s, 0, static_cast<double>(s % 100)});
        model.append({s, 0, static_cast<double>(s % 100)});
    }
    // The widest range there is, without overflow.
    expect_query_matches(store.at(id), model, std::numeric_limits<std::int64_t>::min(),
                         std::numeric_limits<std::int64_t>::max(), 4);
    expect_query_matches(store.at(id), model, std::numeric_limits<std::int64_t>::min(),
                         std::numeric_limits<std::int64_t>::max(), 1000);
    // More columns than steps: some columns are empty.
    expect_query_matches(store.at(id), model, -5, 8, 100);
    store.at(id).query(5, 5, cols);  // an empty range
    for (const ColumnSummary& c : cols) EXPECT_TRUE(c.empty());
    ColumnSummary nan_only[1];
    SeriesId n = store.series({"r", 0, "n"}, source_id({"tfevents"}));
    store.append(n, {1, 0, kNaN});
    store.at(n).query(0, 10, nan_only);
    EXPECT_EQ(nan_only[0].count, 1u);
    EXPECT_EQ(nan_only[0].nan, 1u);
    EXPECT_TRUE(std::isnan(nan_only[0].min));
    EXPECT_TRUE(std::isnan(nan_only[0].mean));
    EXPECT_EQ(nan_only[0].last_step, 1);
}

// A huge series: a column costs O(log) summaries and at most two partial chunks of points,
// never O(points).
TEST(SeriesQuery, AHugeSeriesAnswersFromSummaries) {
    Store store(StoreLimits::unbounded());
    SeriesId id = store.series({"r", 0, "t"}, source_id({"tfevents"}));
    constexpr std::int64_t kPoints = 4'000'000;
    ModelSeries model;
    model.points.reserve(kPoints);
    for (std::int64_t i = 0; i < kPoints; ++i) {
        double v = static_cast<double>(i % 1000) - 0.5 * static_cast<double>(i % 7);
        if (i == 1'234'567) v = 1e9;
        if (i % 999'983 == 5) v = kNaN;
        if (i % 1'299'827 == 11) v = -kInf;
        const Point p{i, 0, v};
        store.append(id, p);
        model.points.push_back(p);
    }
    const Series& s = store.at(id);

    QueryWork one;
    ColumnSummary all[1];
    s.query(3, kPoints - 5, all, &one);
    EXPECT_EQ(all[0].count, static_cast<std::uint64_t>(kPoints - 8));
    EXPECT_EQ(all[0].max, 1e9);
    EXPECT_LE(one.summaries, 16u * 2 * 5);  // at most 2 x 15 items a level, ~4 levels
    EXPECT_LE(one.points, 2 * kChunk + kChunk);

    std::vector<ColumnSummary> cols(1000);
    QueryWork many;
    s.query(0, kPoints, cols, &many);
    std::uint64_t total = 0;
    for (const ColumnSummary& c : cols) total += c.count;
    EXPECT_EQ(total, static_cast<std::uint64_t>(kPoints));
    EXPECT_LE(many.points, 1000 * (2 * kChunk));
    EXPECT_LE(many.summaries, 1000u * 2 * 16 * 2);
    EXPECT_LT(many.points + many.summaries, static_cast<std::uint64_t>(kPoints) / 10);
    std::printf(
        "  1 column: %llu summaries, %llu points; 1000 columns: %llu summaries, %llu "
        "points (of %lld)\n",
        static_cast<unsigned long long>(one.summaries), static_cast<unsigned long long>(one.points),
        static_cast<unsigned long long>(many.summaries),
        static_cast<unsigned long long>(many.points), static_cast<long long>(kPoints));
}

TEST(SeriesQuery, SnappedColumnsCountEveryPointOnceAndDecodeNone) {
    Store store(StoreLimits::unbounded());
    const SeriesId id = store.series({"r", 0, "t"}, source_id({"tfevents"}));
    constexpr std::int64_t kPoints = 10'000;
    for (std::int64_t i = 0; i < kPoints; ++i)
        store.append(id, {i, 0, i == 4321 ? 1e6 : (i == 777 ? kNaN : 1.0)});
    const Series& s = store.at(id);
    for (std::size_t n : {10u, 56u, 78u, 200u}) {
        std::vector<ColumnSummary> exact(n), snapped(n);
        QueryWork exact_work, snapped_work;
        s.query(0, kPoints, exact, &exact_work);
        s.query(0, kPoints, snapped, &snapped_work, /*snap=*/true);
        std::uint64_t total = 0, nan = 0;
        double max = 0;
        std::size_t spike_exact = 0, spike_snapped = 0;
        for (std::size_t c = 0; c < n; ++c) {
            total += snapped[c].count;
            nan += snapped[c].nan;
            if (snapped[c].max == 1e6) spike_snapped = c;
            if (exact[c].max == 1e6) spike_exact = c;
            max = std::max(max, snapped[c].max);
        }
        EXPECT_EQ(total, static_cast<std::uint64_t>(kPoints)) << n;
        EXPECT_EQ(nan, 1u) << n;
        EXPECT_EQ(max, 1e6) << n;  // the spike is in one column, at most one away
        EXPECT_LE(
            spike_snapped > spike_exact ? spike_snapped - spike_exact : spike_exact - spike_snapped,
            1u);
        if (kPoints / static_cast<std::int64_t>(n) >= static_cast<std::int64_t>(kChunk)) {
            // Columns as wide as a chunk: only the open tail is decoded.
            EXPECT_LE(snapped_work.points, kChunk) << n;
            EXPECT_GT(exact_work.points, snapped_work.points * 4) << n;
        } else {
            EXPECT_EQ(snapped_work.points, exact_work.points) << n;  // narrower: exact
        }
    }
}

}  // namespace
}  // namespace runtop
