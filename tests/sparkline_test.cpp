#include "views/sparkline.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/format.h"
#include "core/store/store.h"

namespace runtop::ui {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

ColumnSummary column(double min, double max) {
    ColumnSummary c;
    c.count = 1;
    c.min = min;
    c.max = max;
    c.mean = c.last = (min + max) / 2;
    return c;
}
ColumnSummary value(double v) {
    return column(v, v);
}
ColumnSummary empty() {
    return ColumnSummary{};
}
ColumnSummary nan_column() {
    ColumnSummary c;
    c.count = 1;
    c.nan = 1;
    c.min = c.max = c.mean = c.last = kNaN;
    return c;
}

std::string text(const std::vector<SparkCell>& cells) {
    std::string out;
    for (const SparkCell& c : cells) append_utf8(out, c.ch);
    return out;
}

// The dot rows (0 bottom .. 3 top) set in one dot column (0 left, 1 right) of a braille cell.
std::vector<int> dot_rows(char32_t ch, int side) {
    static const unsigned dot[2][4] = {{0x40, 0x04, 0x02, 0x01}, {0x80, 0x20, 0x10, 0x08}};
    std::vector<int> rows;
    if (ch < 0x2800 || ch > 0x28ff) return rows;
    for (int r = 0; r < 4; ++r)
        if ((ch - 0x2800) & dot[side][r]) rows.push_back(r);
    return rows;
}

TEST(Sparkline, SparkColumns) {
    EXPECT_EQ(spark_columns(20, GlyphTier::kBraille), 40);
    EXPECT_EQ(spark_columns(20, GlyphTier::kBlocks), 20);
    EXPECT_EQ(spark_columns(20, GlyphTier::kAscii), 20);
    EXPECT_EQ(spark_columns(0, GlyphTier::kBraille), 0);
    EXPECT_EQ(spark_columns(-4, GlyphTier::kBlocks), 0);
}

TEST(Sparkline, RangeOfFiniteValues) {
    std::vector<ColumnSummary> cols = {value(3), column(-2, 5), empty(), nan_column(), value(1)};
    SparkRange r = spark_range(cols);
    EXPECT_EQ(r.lo, -2);
    EXPECT_EQ(r.hi, 5);
    EXPECT_FALSE(r.log);
    // Nothing finite: a unit range.
    std::vector<ColumnSummary> none = {empty(), nan_column()};
    r = spark_range(none);
    EXPECT_EQ(r.lo, 0);
    EXPECT_EQ(r.hi, 1);
    r = spark_range({});
    EXPECT_EQ(r.lo, 0);
    EXPECT_EQ(r.hi, 1);
}

TEST(Sparkline, ConstantSeriesDrawsMidHeight) {
    std::vector<ColumnSummary> cols(6, value(2.5));
    SparkRange r = spark_range(cols);
    EXPECT_LT(r.lo, 2.5);
    EXPECT_GT(r.hi, 2.5);
    EXPECT_EQ(text(sparkline(cols, r, GlyphTier::kBlocks)), "▅▅▅▅▅▅");
    EXPECT_EQ(text(sparkline(cols, r, GlyphTier::kAscii)), "======");
    // Braille: both dot columns on dot row 2 of 4.
    std::vector<SparkCell> cells = sparkline(cols, r, GlyphTier::kBraille);
    ASSERT_EQ(cells.size(), 3u);
    for (const SparkCell& c : cells) {
        EXPECT_EQ(dot_rows(c.ch, 0), std::vector<int>{2});
        EXPECT_EQ(dot_rows(c.ch, 1), std::vector<int>{2});
    }
    // Zero and huge constants too.
    for (double v : {0.0, -7.0, 1e-300, 1.7e308, -1.7e308}) {
        std::vector<ColumnSummary> c(2, value(v));
        SparkRange range = spark_range(c);
        EXPECT_LT(range.lo, v) << v;
        EXPECT_GT(range.hi, v) << v;
        EXPECT_TRUE(std::isfinite(range.lo) && std::isfinite(range.hi)) << v;
        std::string blocks = text(sparkline(c, range, GlyphTier::kBlocks));
        EXPECT_TRUE(blocks == "▄▄" || blocks == "▅▅") << v << " " << blocks;
    }
}

TEST(Sparkline, BlocksAndAsciiRamps) {
    std::vector<ColumnSummary> cols;
    for (int i = 0; i < 8; ++i) cols.push_back(value(i));
    SparkRange r = spark_range(cols);
    EXPECT_EQ(text(sparkline(cols, r, GlyphTier::kBlocks)), "▁▂▃▄▅▆▇█");
    cols.resize(6);
    r = spark_range(cols);
    EXPECT_EQ(text(sparkline(cols, r, GlyphTier::kAscii)), "_.-=^#");
    // Values past the range clamp to its edges.
    std::vector<ColumnSummary> out = {value(-100), value(100)};
    EXPECT_EQ(text(sparkline(out, SparkRange{0, 1}, GlyphTier::kBlocks)), "▁█");
}

TEST(Sparkline, BlocksShowTheColumnMax) {
    std::vector<ColumnSummary> cols = {value(0), column(0, 10), value(0)};
    EXPECT_EQ(text(sparkline(cols, spark_range(cols), GlyphTier::kBlocks)), "▁█▁");
    EXPECT_EQ(text(sparkline(cols, spark_range(cols), GlyphTier::kAscii)), "_#_");
}

TEST(Sparkline, BrailleDrawsEachColumnsEnvelope) {
    // Left column 0..10 (every dot row), right column a point at 10 (top only).
    std::vector<ColumnSummary> cols = {column(0, 10), value(10), value(0), empty()};
    std::vector<SparkCell> cells = sparkline(cols, spark_range(cols), GlyphTier::kBraille);
    ASSERT_EQ(cells.size(), 2u);
    EXPECT_EQ(dot_rows(cells[0].ch, 0), (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(dot_rows(cells[0].ch, 1), std::vector<int>{3});
    EXPECT_EQ(dot_rows(cells[1].ch, 0), std::vector<int>{0});  // at the bottom: still a dot
    EXPECT_EQ(dot_rows(cells[1].ch, 1), std::vector<int>{});   // empty: no dot
    EXPECT_EQ(cells[0].ch, U'\u284f');                         // ⡏
    EXPECT_EQ(cells[1].ch, U'\u2840');                         // ⡀
    // Both empty: a blank, not an empty braille cell.
    std::vector<ColumnSummary> blank = {empty(), empty(), empty()};
    std::vector<SparkCell> b = sparkline(blank, SparkRange{}, GlyphTier::kBraille);
    ASSERT_EQ(b.size(), 2u);  // an odd last column fills a left half
    EXPECT_EQ(text(b), "  ");
}

TEST(Sparkline, OneSpikeAmongAThousandPointsIsVisible) {
    // Through the Store: 1000 points, one spike, queried into 20 braille cells (40 columns of
    // 25 points each).
    Store store(StoreLimits::unbounded());
    SeriesId id = store.series({"r", 0, "loss"}, source_id({"tfevents"}));
    const int spike_step = 613;
    for (int step = 0; step < 1000; ++step) {
        double v = 1.0 + 0.01 * std::sin(step * 0.1);
        if (step == spike_step) v = 50;
        store.append(id, Point{step, 1000.0 + step, v});
    }
    const int cells = 20;
    std::vector<ColumnSummary> cols(spark_columns(cells, GlyphTier::kBraille));
    store.at(id).query(0, 1000, cols);
    SparkRange range = spark_range(cols);
    EXPECT_EQ(range.hi, 50);
    std::vector<SparkCell> line = sparkline(cols, range, GlyphTier::kBraille);
    ASSERT_EQ(line.size(), static_cast<std::size_t>(cells));
    const int spike_column = spike_step / 25;  // 24: the left half of cell 12
    for (int k = 0; k < cells; ++k) {
        for (int side = 0; side < 2; ++side) {
            std::vector<int> rows = dot_rows(line[k].ch, side);
            bool is_spike = 2 * k + side == spike_column;
            EXPECT_EQ(!rows.empty() && rows.back() == 3, is_spike) << k << " " << side;
            EXPECT_EQ(rows.front(), 0) << k << " " << side;  // every column has its low points
            if (is_spike) {
                EXPECT_EQ(rows, (std::vector<int>{0, 1, 2, 3}));
            }
        }
    }
    // Blocks and ascii show it too, as the column's max.
    std::vector<ColumnSummary> narrow(cells);
    store.at(id).query(0, 1000, narrow);
    std::string blocks = text(sparkline(narrow, spark_range(narrow), GlyphTier::kBlocks));
    EXPECT_EQ(blocks, "▁▁▁▁▁▁▁▁▁▁▁▁█▁▁▁▁▁▁▁");
}

TEST(Sparkline, NonFiniteColumnsAreFlagged) {
    ColumnSummary inf = value(3);
    inf.count = 2;
    inf.pos_inf = 1;
    ColumnSummary neg = value(3);
    neg.count = 2;
    neg.neg_inf = 1;
    std::vector<ColumnSummary> cols = {value(1), nan_column(), value(2), value(3), inf, neg};
    SparkRange r = spark_range(cols);
    EXPECT_EQ(r.lo, 1);
    EXPECT_EQ(r.hi, 3);
    std::vector<SparkCell> blocks = sparkline(cols, r, GlyphTier::kBlocks);
    ASSERT_EQ(blocks.size(), 6u);
    const bool want_nan[] = {false, true, false, false, true, true};
    for (std::size_t i = 0; i < blocks.size(); ++i) EXPECT_EQ(blocks[i].nan, want_nan[i]) << i;
    EXPECT_EQ(text(blocks), "▁×▅█××");
    EXPECT_EQ(text(sparkline(cols, r, GlyphTier::kAscii)), "_!=#!!");
    // Braille: a cell with a NaN in either column is the NaN mark.
    std::vector<SparkCell> braille = sparkline(cols, r, GlyphTier::kBraille);
    ASSERT_EQ(braille.size(), 3u);
    EXPECT_TRUE(braille[0].nan);
    EXPECT_EQ(braille[0].ch, U'×');
    EXPECT_FALSE(braille[1].nan);
    EXPECT_TRUE(braille[2].nan);
}

TEST(Sparkline, LogRange) {
    std::vector<ColumnSummary> cols = {value(1), value(10), value(100), value(1000)};
    SparkRange r = spark_range(cols, true);
    EXPECT_TRUE(r.log);
    EXPECT_EQ(r.lo, 1);
    EXPECT_EQ(r.hi, 1000);
    // Evenly spaced in log: 0, 1/3, 2/3, 1 of the height.
    EXPECT_EQ(text(sparkline(cols, r, GlyphTier::kBlocks)), "▁▃▆█");
    // In linear, the small ones are indistinguishable.
    EXPECT_EQ(text(sparkline(cols, spark_range(cols), GlyphTier::kBlocks)), "▁▁▁█");
    // Non-positive values take no part in a log range and draw at the bottom.
    std::vector<ColumnSummary> mixed = {value(-5), column(0, 10), value(100)};
    r = spark_range(mixed, true);
    EXPECT_TRUE(r.log);
    EXPECT_EQ(r.lo, 10);
    EXPECT_EQ(r.hi, 100);
    EXPECT_EQ(text(sparkline(mixed, r, GlyphTier::kBlocks)), "▁▁█");
    // Nothing positive: linear.
    std::vector<ColumnSummary> negative = {value(-5), value(-1)};
    r = spark_range(negative, true);
    EXPECT_FALSE(r.log);
    EXPECT_EQ(r.lo, -5);
    EXPECT_EQ(r.hi, -1);
    // A positive constant: around it, mid-height.
    std::vector<ColumnSummary> constant(3, value(0.001));
    r = spark_range(constant, true);
    EXPECT_TRUE(r.log);
    EXPECT_LT(r.lo, 0.001);
    EXPECT_GT(r.hi, 0.001);
    EXPECT_EQ(text(sparkline(constant, r, GlyphTier::kBlocks)), "▅▅▅");
}

TEST(Sparkline, ExtremeRangesStayFinite) {
    std::vector<ColumnSummary> cols = {value(-1.7e308), value(0), value(1.7e308)};
    SparkRange r = spark_range(cols);
    EXPECT_EQ(text(sparkline(cols, r, GlyphTier::kBlocks)), "▁▅█");
}

}  // namespace
}  // namespace runtop::ui
