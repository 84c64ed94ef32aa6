// Every scalar point TensorBoard's own Python loader reads from the public corpus
// (../shared/samples/tfevents-public/EXPECTED) must come out of our reader with the same tag,
// step, wall time and value, bit for bit, in the same order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "readers/event_file_reader.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::RecordingSink;

std::vector<std::string> split_csv_line(const std::string& line) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cells.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cells.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            cells.emplace_back();
        } else {
            cells.back() += c;
        }
    }
    return cells;
}

double parse_python_float(const std::string& s) {
    if (s == "nan") return NAN;
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    return std::strtod(s.c_str(), nullptr);
}

TEST(Conformance, EveryPublicSampleMatchesTensorBoardsLoader) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent: conformance corpus skipped";
    const std::string root = samples + "/tfevents-public";
    std::vector<std::string> summary =
        testing::split_lines(testing::read_file(root + "/EXPECTED/SUMMARY.csv"));
    ASSERT_GT(summary.size(), 1u) << "EXPECTED/SUMMARY.csv missing or empty";

    std::size_t files = 0, points = 0, files_with_points = 0;
    for (std::size_t row = 1; row < summary.size(); ++row) {
        std::vector<std::string> cells = split_csv_line(summary[row]);
        ASSERT_GE(cells.size(), 3u) << summary[row];
        const std::string& rel = cells[0];
        SCOPED_TRACE(rel);
        std::vector<std::string> expected =
            testing::split_lines(testing::read_file(root + "/EXPECTED/" + rel + ".scalars.csv"));
        ASSERT_FALSE(expected.empty()) << "no EXPECTED csv for " << rel;
        ASSERT_EQ(expected[0], "tag,step,wall_time,value");

        RecordingSink sink;
        EventFileReader reader(SourceFile{root + "/" + rel, "run", kNoRank}, sink);
        ASSERT_TRUE(reader.poll().ok());
        EXPECT_TRUE(reader.take_warnings().empty());
        EXPECT_EQ(reader.pending(), "");
        EXPECT_EQ(reader.stats().bad_data_crc + reader.stats().resyncs, 0u);

        ASSERT_EQ(sink.scalars.size(), expected.size() - 1) << "scalar count";
        EXPECT_EQ(std::to_string(sink.scalars.size()), cells[2]);
        for (std::size_t i = 0; i + 1 < expected.size(); ++i) {
            std::vector<std::string> e = split_csv_line(expected[i + 1]);
            ASSERT_EQ(e.size(), 4u) << expected[i + 1];
            const auto& got = sink.scalars[i];
            // Our reader moves a "/rankN/" tag segment into the rank; none occurs here.
            ASSERT_EQ(got.key.rank, kNoRank);
            ASSERT_EQ(got.key.tag, e[0]) << "point " << i;
            ASSERT_EQ(got.point.step, std::stoll(e[1])) << "point " << i;
            ASSERT_TRUE(testing::same_bits(got.point.wall_time, parse_python_float(e[2])))
                << "point " << i << " wall_time " << e[2];
            ASSERT_TRUE(testing::same_bits(got.point.value, parse_python_float(e[3])))
                << "point " << i << " value " << e[3] << " got " << got.point.value;
        }
        ++files;
        points += sink.scalars.size();
        if (!sink.scalars.empty()) ++files_with_points;
    }
    std::printf("conformance: %zu files (%zu with scalars), %zu scalar points match EXPECTED\n",
                files, files_with_points, points);
    EXPECT_EQ(files, 123u);
    EXPECT_EQ(points, 682407u);
}

}  // namespace
}  // namespace runtop
