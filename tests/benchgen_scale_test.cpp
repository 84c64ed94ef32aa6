// runtop_benchgen's scale generators (bench/events_scale.h, bench/msprobe_scale.h): what the
// scale bench measures must be what they say they wrote. Every point reads back through
// runtop's readers (exactly, for event files, whose values a test can recompute), and the one
// injected spike is where the generator's line says, and nowhere else.
#include "bench/events_scale.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "bench/msprobe_scale.h"
#include "readers/source_set.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using bench::EventsScaleShape;
using testing::TempDir;

// The points of each series (rank, tag) as read, in order.
using PointsBySeries = std::map<std::pair<int, std::string>, std::vector<Point>>;

PointsBySeries read_tree(const std::string& root, IngestTotals* totals = nullptr) {
    testing::RecordingSink sink;
    SourceSet sources(sink);
    sources.add_root(RootSpec{"scale", root});
    sources.rescan();
    sources.poll();
    EXPECT_TRUE(sources.take_messages().empty());
    if (totals) *totals = sources.totals();
    PointsBySeries out;
    for (const auto& s : sink.scalars) {
        EXPECT_EQ(s.key.run, "scale");
        out[{s.key.rank, s.key.tag}].push_back(s.point);
    }
    return out;
}

// The spikes found from the values alone, as "rank R, TAG, step N": the points over 100x
// their series' median magnitude (signed statistics such as min and mean taken by size).
std::vector<std::string> spikes_in(const PointsBySeries& series) {
    std::vector<std::string> found;
    for (const auto& [key, points] : series) {
        std::vector<double> sizes;
        for (const Point& p : points) sizes.push_back(std::fabs(p.value));
        const auto middle = sizes.begin() + static_cast<std::ptrdiff_t>(sizes.size() / 2);
        std::nth_element(sizes.begin(), middle, sizes.end());
        for (const Point& p : points)
            if (std::fabs(p.value) > 100 * *middle)
                found.push_back("rank " + std::to_string(key.first) + ", " + key.second +
                                ", step " + std::to_string(p.step));
    }
    return found;
}

TEST(EventsScaleGenerator, ParsesRanksTagsSteps) {
    EventsScaleShape shape;
    ASSERT_TRUE(bench::parse_events_scale_shape("8x2000x1000", shape));
    EXPECT_EQ(shape.ranks, 8);
    EXPECT_EQ(shape.tags, 2000);
    EXPECT_EQ(shape.steps, 1000);
    for (const char* bad :
         {"8x2000", "8x2000x1000x5", "0x1x1", "8x-1x3", "8x2x3 ", " 8x2x3", "8xx3"})
        EXPECT_FALSE(bench::parse_events_scale_shape(bad, shape)) << bad;
}

TEST(EventsScaleGenerator, TagsArePerParameterSummaries) {
    EXPECT_EQ(bench::events_scale_tag(0), "grad_norm/layers.0.input_layernorm.weight");
    EXPECT_EQ(bench::events_scale_tag(1), "param_norm/layers.0.input_layernorm.weight");
    EXPECT_EQ(bench::events_scale_tag(4 * (17 * 9 + 8)), "grad_norm/layers.17.mlp.w3.weight");
}

TEST(EventsScaleGenerator, EveryPointReadsBackExactlyAndTheSpikeIsWhereItSaid) {
    TempDir dir;
    const EventsScaleShape shape{3, 50, 20};
    const std::string root = dir / "scale";
    const auto written = bench::write_events_scale(root, shape);
    ASSERT_TRUE(written) << written.error().message;
    EXPECT_EQ(written->files, 3u);
    EXPECT_EQ(written->series, 150u);
    EXPECT_EQ(written->points, 3000u);
    EXPECT_EQ(bench::describe_events_scale(root, shape, *written),
              "runtop_benchgen: 3 TensorBoard event files, " + std::to_string(written->bytes) +
                  " bytes, 150 series, 3000 points in " + root +
                  "; spike: rank 1, grad_norm/layers.0.mlp.w1.weight, step 13");

    IngestTotals totals;
    const PointsBySeries got = read_tree(root, &totals);
    EXPECT_EQ(totals.files, 3u);
    EXPECT_EQ(totals.bytes, written->bytes);
    EXPECT_EQ(totals.scalars, 3000u);
    EXPECT_EQ(totals.bad_data_crc + totals.resyncs + totals.undecodable, 0u);

    // Every series (rank, tag) has steps 0..S-1 in order, each value and wall time the one
    // written.
    std::map<std::string, int> tag_index;
    for (int t = 0; t < shape.tags; ++t) tag_index[bench::events_scale_tag(t)] = t;
    ASSERT_EQ(got.size(), 150u);
    for (const auto& [series, points] : got) {
        const int rank = series.first;
        ASSERT_GE(rank, 0);
        ASSERT_LT(rank, shape.ranks);
        ASSERT_TRUE(tag_index.contains(series.second)) << series.second;
        const int tag = tag_index[series.second];
        ASSERT_EQ(points.size(), 20u);
        for (long long step = 0; step < shape.steps; ++step) {
            const Point& p = points[static_cast<std::size_t>(step)];
            EXPECT_EQ(p.step, step);
            EXPECT_EQ(p.value,
                      static_cast<double>(bench::events_scale_value(shape, rank, tag, step)))
                << "rank " << rank << " " << series.second << " step " << step;
            EXPECT_EQ(p.wall_time, bench::events_scale_wall_time(rank, tag, step));
        }
    }
    EXPECT_EQ(spikes_in(got),
              std::vector<std::string>{"rank 1, grad_norm/layers.0.mlp.w1.weight, step 13"});
}

TEST(EventsScaleGenerator, SameBytesEveryTime) {
    TempDir dir;
    const EventsScaleShape shape{2, 9, 4};
    ASSERT_TRUE(bench::write_events_scale(dir / "a", shape));
    ASSERT_TRUE(bench::write_events_scale(dir / "b", shape));
    // Every file of "a" (names relative to it) with its bytes, the same for "b".
    auto tree = [](const std::string& root) {
        std::map<std::string, std::string> files;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
            if (entry.is_regular_file())
                files[std::filesystem::relative(entry.path(), root).string()] =
                    testing::read_file(entry.path().string());
        return files;
    };
    const auto a = tree(dir / "a");
    EXPECT_EQ(a.size(), 2u);
    EXPECT_EQ(a, tree(dir / "b"));
}

// --msprobe-scale draws its values from a generator's stream, so only their count, steps and
// the spike are checked, in both layouts (5 steps a file and one file per step).
TEST(MsprobeScaleGenerator, EverySeriesHasEveryStepAndTheSpikeIsWhereItSaid) {
    for (const bench::ScaleShape shape :
         {bench::ScaleShape{4, 6, 12, 5}, bench::ScaleShape{3, 2, 9, 1}}) {
        TempDir dir;
        const std::string root = dir / "scale";
        ::testing::internal::CaptureStdout();
        ASSERT_EQ(bench::write_msprobe_scale(root, shape), 0);
        const std::string line = ::testing::internal::GetCapturedStdout();
        const std::size_t files = static_cast<std::size_t>(
            shape.ranks * ((shape.steps + shape.per_file - 1) / shape.per_file));
        const std::size_t series = static_cast<std::size_t>(shape.ranks * shape.params * 5);
        EXPECT_TRUE(
            line.starts_with("runtop_benchgen: " + std::to_string(files) + " msProbe CSV files, "))
            << line;
        EXPECT_NE(line.find(" bytes, " + std::to_string(series) + " series, " +
                            std::to_string(series * static_cast<std::size_t>(shape.steps)) +
                            " points in " + root + "; "),
                  std::string::npos)
            << line;

        IngestTotals totals;
        const PointsBySeries got = read_tree(root, &totals);
        EXPECT_EQ(totals.files, files);
        EXPECT_EQ(got.size(), series);
        for (const auto& [key, points] : got) {
            ASSERT_EQ(points.size(), static_cast<std::size_t>(shape.steps)) << key.second;
            for (std::size_t i = 0; i < points.size(); ++i)
                EXPECT_EQ(points[i].step, static_cast<std::int64_t>(i));
        }
        const std::size_t spike = line.find("spike: ");
        ASSERT_NE(spike, std::string::npos);
        EXPECT_EQ(spikes_in(got),
                  std::vector<std::string>{line.substr(spike + 7, line.size() - spike - 8)});
    }
}

}  // namespace
}  // namespace runtop
