// Sealed chunks: every point comes back bit for bit (a NaN may come back as the quiet NaN),
// whatever the steps, walls and values, and realistic series take well under 16 bytes a point.
#include "core/store/chunk_codec.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "core/store/store.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Columns {
    std::vector<std::int64_t> steps = std::vector<std::int64_t>(kChunk);
    std::vector<double> walls = std::vector<double>(kChunk);
    std::vector<double> values = std::vector<double>(kChunk);
};

void expect_round_trip(const Columns& in, const char* what) {
    PointArena arena;
    SegmentSummary summary;
    SealedChunk c = seal_chunk(in.steps.data(), in.walls.data(), in.values.data(), arena, summary);
    for (std::size_t i = 0; i < kChunk; ++i) {
        ASSERT_EQ(c.step(i), in.steps[i]) << what << " " << i;
        ASSERT_TRUE(testing::same_bits(c.wall(i), in.walls[i])) << what << " " << i;
        ASSERT_TRUE(testing::same_bits(c.value(i), in.values[i]))
            << what << " " << i << ": " << c.value(i) << " vs " << in.values[i];
    }
    Columns out;
    unseal_chunk(c, out.steps.data(), out.walls.data(), out.values.data());
    for (std::size_t i = 0; i < kChunk; ++i) {
        ASSERT_EQ(out.steps[i], in.steps[i]);
        ASSERT_TRUE(testing::same_bits(out.walls[i], in.walls[i]));
        ASSERT_TRUE(testing::same_bits(out.values[i], in.values[i]));
    }
    EXPECT_EQ(summary.count, kChunk);
    EXPECT_EQ(summary.first_step, in.steps.front());
    EXPECT_EQ(summary.last_step, in.steps.back());
    release_chunk(c, arena);
}

TEST(ChunkCodec, ConsecutiveStepsFloatValuesAndSteadyWallsPackSmall) {
    Columns in;
    for (std::size_t i = 0; i < kChunk; ++i) {
        in.steps[i] = 1000 + static_cast<std::int64_t>(i);
        in.walls[i] = 1.7e9 + static_cast<double>(i);
        in.values[i] = static_cast<float>(0.1 * static_cast<double>(i));
    }
    expect_round_trip(in, "steady");
    PointArena arena;
    SegmentSummary summary;
    SealedChunk c = seal_chunk(in.steps.data(), in.walls.data(), in.values.data(), arena, summary);
    EXPECT_EQ(c.step_width, 0);
    EXPECT_EQ(c.wall_width, 0);
    EXPECT_TRUE(c.float_values);
    EXPECT_EQ(c.bytes(), kChunk * 4);
}

TEST(ChunkCodec, EqualWallsAndStridedStepsNeedNoBits) {
    Columns in;
    for (std::size_t i = 0; i < kChunk; ++i) {
        in.steps[i] = -640 + 10 * static_cast<std::int64_t>(i);  // across zero
        in.walls[i] = 1712345678.25;
        in.values[i] = 0.1 * static_cast<double>(i);  // not floats
    }
    expect_round_trip(in, "strided");
    PointArena arena;
    SegmentSummary summary;
    SealedChunk c = seal_chunk(in.steps.data(), in.walls.data(), in.values.data(), arena, summary);
    EXPECT_EQ(c.step_width, 0);
    EXPECT_EQ(c.wall_width, 0);
    EXPECT_FALSE(c.float_values);
}

TEST(ChunkCodec, EveryAwkwardPointRoundTrips) {
    const double denormal = std::numeric_limits<double>::denorm_min();
    const double special[] = {kNaN,
                              -kNaN,
                              kInf,
                              -kInf,
                              -0.0,
                              0.0,
                              denormal,
                              -denormal,
                              std::numeric_limits<double>::max(),
                              std::numeric_limits<double>::lowest(),
                              static_cast<double>(std::numeric_limits<float>::denorm_min()),
                              static_cast<double>(std::numeric_limits<float>::max()),
                              1e300,
                              0.1,
                              1.5};
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 300; ++trial) {
        Columns in;
        std::int64_t step = static_cast<std::int64_t>(rng());
        const int kind = trial % 6;
        for (std::size_t i = 0; i < kChunk; ++i) {
            in.steps[i] = step;
            // Gaps from 1 to 2^62: huge ones wrap the frame of reference, negatives included.
            const std::uint64_t gap = 1 + (rng() >> (2 + rng() % 62));
            if (step >
                std::numeric_limits<std::int64_t>::max() - static_cast<std::int64_t>(gap) - 1)
                step = std::numeric_limits<std::int64_t>::min() + static_cast<std::int64_t>(i);
            step += static_cast<std::int64_t>(gap);
            switch (kind) {
                case 0:
                    in.walls[i] = 5.0;
                    break;  // equal
                case 1:
                    in.walls[i] = 2e9 - static_cast<double>(i) * 3.7;
                    break;  // decreasing
                case 2:
                    in.walls[i] = i % 7 ? -1.0 * static_cast<double>(i) : kNaN;
                    break;
                case 3:
                    in.walls[i] = std::bit_cast<double>(rng());
                    break;  // anything
                default:
                    in.walls[i] = 1.7e9 + static_cast<double>(i) + (rng() % 1000) * 1e-3;
            }
            if (kind == 4)
                in.values[i] = static_cast<float>(static_cast<double>(rng() % 100000) / 7);
            else if (rng() % 4 == 0)
                in.values[i] = special[rng() % std::size(special)];
            else
                in.values[i] = std::bit_cast<double>(rng());
        }
        // Steps strictly increasing is a Series invariant: build them so, then check.
        bool increasing = true;
        for (std::size_t i = 1; i < kChunk; ++i) increasing &= in.steps[i] > in.steps[i - 1];
        if (!increasing) std::sort(in.steps.begin(), in.steps.end());
        expect_round_trip(in, "awkward");
    }
}

TEST(ChunkCodec, FloatStorageKeepsSignsOfZeroAndInfinity) {
    Columns in;
    for (std::size_t i = 0; i < kChunk; ++i) {
        in.steps[i] = static_cast<std::int64_t>(i);
        const double pick[] = {
            -0.0, kInf,  -kInf,
            kNaN, 1.25f, static_cast<double>(std::numeric_limits<float>::denorm_min())};
        in.values[i] = pick[i % std::size(pick)];
    }
    PointArena arena;
    SegmentSummary s;
    SealedChunk c = seal_chunk(in.steps.data(), in.walls.data(), in.values.data(), arena, s);
    EXPECT_TRUE(c.float_values);
    expect_round_trip(in, "float specials");
    EXPECT_EQ(s.nan, 21u);
    EXPECT_EQ(s.pos_inf, 22u);
    EXPECT_EQ(s.neg_inf, 21u);
    EXPECT_EQ(s.max, 1.25);
    EXPECT_EQ(s.min, -0.0);
}

// Every point through a Series: appended, sealed, read back by index.
TEST(ChunkCodec, SeriesRoundTripsEveryPointAcrossSealing) {
    Store store(StoreLimits::unbounded());
    SeriesId id = store.series({"run", 0, "x"}, source_id({"tfevents"}));
    std::vector<Point> model;
    std::mt19937_64 rng(5);
    std::int64_t step = -1'000'000'000'000;
    for (int i = 0; i < 5000; ++i) {
        Point p;
        p.step = step;
        step += 1 + static_cast<std::int64_t>(rng() % (i % 500 == 0 ? 1'000'000'000'000 : 3));
        p.wall_time = i % 300 < 100 ? 7.0 : std::bit_cast<double>(rng() >> 1);
        p.value = i % 13 == 0 ? kNaN : i % 17 == 0 ? -kInf : std::bit_cast<double>(rng());
        store.append(id, p);
        model.push_back(p);
    }
    const Series& s = store.at(id);
    ASSERT_EQ(s.retained(), model.size());
    for (std::size_t i = 0; i < model.size(); ++i) {
        const Point p = s.point(i);
        ASSERT_EQ(p.step, model[i].step) << i;
        ASSERT_TRUE(testing::same_bits(p.wall_time, model[i].wall_time)) << i;
        ASSERT_TRUE(testing::same_bits(p.value, model[i].value)) << i;
    }
}

// --- bytes per point: deterministic series, so the figures cannot flake -----------------

double bytes_per_point(int series, int points, auto&& make) {
    Store store;  // default limits: nothing here comes near them
    std::vector<SeriesId> ids;
    for (int s = 0; s < series; ++s)
        ids.push_back(store.series({"run", s, "tag"}, source_id({"tfevents"})));
    for (int i = 0; i < points; ++i)
        for (int s = 0; s < series; ++s) store.append(ids[static_cast<std::size_t>(s)], make(s, i));
    EXPECT_EQ(store.total_points(), static_cast<std::uint64_t>(series) * points);
    const double per_point =
        static_cast<double>(store.memory_bytes()) / static_cast<double>(store.total_points());
    std::printf("  %d series x %d points: %.2f bytes/point\n", series, points, per_point);
    return per_point;
}

Point event_file_point(int s, int i) {
    // Consecutive steps, float32 values, walls about a second apart (jitter up to 50 ms).
    const double jitter = static_cast<double>((std::int64_t{i} * 7919 + s * 104729) % 50) * 1e-3;
    return {i, 1.7e9 + i * 1.0 + jitter,
            static_cast<float>(std::exp(-i * 1e-5) + 0.01 * std::sin(i * 0.1 + s))};
}
Point csv_point(int s, int i) {
    // msProbe-style CSV: consecutive steps, double values, every wall the file's mtime.
    return {i, 1712345678.0, std::exp(-i * 1e-5) * (1.0 + 0.01 * std::sin(i * 0.37 + s))};
}
Point random_step_point(int s, int i) {
    // Steps with irregular gaps (1..1000), double values, irregular walls.
    const std::int64_t step = std::int64_t{i} * 500 + (std::int64_t{i} * 7919 + s) % 499;
    return {step, 1.7e9 + i * 0.9 + ((i * 31) % 97) * 0.01, 1.0 / (1 + i + s)};
}

TEST(StoreBytesPerPoint, EventFileSeriesTakeUnderNineBytes) {
    const double one = bytes_per_point(1, 1'000'000, event_file_point);
    const double many = bytes_per_point(200, 5'000, event_file_point);
    EXPECT_LE(one, 9.0);
    EXPECT_LE(many, 9.5);  // each series' tail (plain points) weighs more here
}

TEST(StoreBytesPerPoint, CsvSeriesTakeUnderElevenBytes) {
    const double one = bytes_per_point(1, 1'000'000, csv_point);
    const double many = bytes_per_point(200, 5'000, csv_point);
    EXPECT_LE(one, 10.5);
    EXPECT_LE(many, 11.0);
}

TEST(StoreBytesPerPoint, RandomStepsStayUnderSixteenBytes) {
    EXPECT_LE(bytes_per_point(1, 1'000'000, random_step_point), 16.0);
    EXPECT_LE(bytes_per_point(200, 5'000, random_step_point), 16.0);
}

}  // namespace
}  // namespace runtop
