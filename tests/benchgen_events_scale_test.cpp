// runtop_benchgen --events-scale (bench/events_scale.h): what the scale bench measures must be
// what it says it wrote. Every point reads back exactly through runtop's readers, and the one
// injected spike is where the generator's line says, and nowhere else.
#include "bench/events_scale.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "readers/source_set.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using bench::EventsScaleShape;
using testing::TempDir;

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

    testing::RecordingSink sink;
    SourceSet sources(sink);
    sources.add_root(RootSpec{"scale", root});
    sources.rescan();
    sources.poll();
    EXPECT_TRUE(sources.take_messages().empty());
    const IngestTotals totals = sources.totals();
    EXPECT_EQ(totals.files, 3u);
    EXPECT_EQ(totals.bytes, written->bytes);
    EXPECT_EQ(totals.scalars, 3000u);
    EXPECT_EQ(totals.bad_data_crc + totals.resyncs + totals.undecodable, 0u);

    std::map<std::string, int> tag_index;
    for (int t = 0; t < shape.tags; ++t) tag_index[bench::events_scale_tag(t)] = t;
    // Per series (rank, tag), its points in the order read: steps 0..S-1, each value and wall
    // time the one written.
    std::map<std::pair<int, int>, std::vector<Point>> got;
    for (const auto& s : sink.scalars) {
        ASSERT_EQ(s.key.run, "scale");
        ASSERT_TRUE(tag_index.contains(s.key.tag)) << s.key.tag;
        got[{s.key.rank, tag_index[s.key.tag]}].push_back(s.point);
    }
    ASSERT_EQ(got.size(), 150u);
    for (const auto& [series, points] : got) {
        const auto [rank, tag] = series;
        ASSERT_GE(rank, 0);
        ASSERT_LT(rank, shape.ranks);
        ASSERT_EQ(points.size(), 20u);
        for (long long step = 0; step < shape.steps; ++step) {
            const Point& p = points[static_cast<std::size_t>(step)];
            EXPECT_EQ(p.step, step);
            EXPECT_EQ(p.value,
                      static_cast<double>(bench::events_scale_value(shape, rank, tag, step)))
                << "rank " << rank << " tag " << tag << " step " << step;
            EXPECT_EQ(p.wall_time, bench::events_scale_wall_time(rank, tag, step));
        }
    }

    // The spike, found from the values alone: the one point over 100x its series' median.
    std::vector<std::string> spikes;
    for (const auto& [series, points] : got) {
        std::vector<double> values;
        for (const Point& p : points) values.push_back(p.value);
        std::nth_element(values.begin(), values.begin() + 10, values.end());
        const double median = values[10];
        for (const Point& p : points)
            if (p.value > 100 * median)
                spikes.push_back("rank " + std::to_string(series.first) + ", " +
                                 bench::events_scale_tag(series.second) + ", step " +
                                 std::to_string(p.step));
    }
    EXPECT_EQ(spikes,
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

}  // namespace
}  // namespace runtop
