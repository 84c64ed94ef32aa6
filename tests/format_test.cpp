#include "core/format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "core/series_filter.h"

namespace runtop {
namespace {

TEST(Format, ValuesAsPercentNineG) {
    EXPECT_EQ(format_value(0.1f), "0.100000001");
    EXPECT_EQ(format_value(2.5), "2.5");
    EXPECT_EQ(format_value(1e-30), "1e-30");
    EXPECT_EQ(format_value(NAN), "nan");
    EXPECT_EQ(format_value(-NAN), "nan");
    EXPECT_EQ(format_value(INFINITY), "inf");
    EXPECT_EQ(format_value(-INFINITY), "-inf");
    EXPECT_EQ(format_value(-0.0), "-0");
}

TEST(Format, ShortestRoundTrip) {
    std::string s;
    append_shortest(s, 1599759606.859727);
    EXPECT_EQ(s, "1599759606.859727");
}

TEST(Format, CsvQuotesOnlyWhenNeeded) {
    std::string s;
    append_csv_field(s, "plain/tag");
    s += '|';
    append_csv_field(s, "a,b");
    s += '|';
    append_csv_field(s, "say \"hi\"");
    EXPECT_EQ(s, "plain/tag|\"a,b\"|\"say \"\"hi\"\"\"");
}

TEST(Format, VisibleEscapesTerminalControls) {
    EXPECT_EQ(visible("ok/tag"), "ok/tag");
    EXPECT_EQ(visible("\x1b[31mred"), "\\x1b[31mred");
    EXPECT_EQ(visible("del\x7f"), "del\\x7f");
    EXPECT_EQ(visible("\xc2\x9b"
                      "2J"),
              "\\xc2\\x9b2J");                                 // C1 CSI
    EXPECT_EQ(visible("\xe2\x96\x81 ok"), "\xe2\x96\x81 ok");  // ▁ stays
    EXPECT_EQ(visible("\xff"), "\\xff");
}

TEST(SeriesFilter, RegexIsCaseInsensitiveAndPartial) {
    SeriesFilter f = std::move(*SeriesFilter::make("LOSS", "0-3"));
    EXPECT_TRUE(f.selects({"r", 0, "train/loss"}));
    EXPECT_FALSE(f.selects({"r", 4, "train/loss"}));
    EXPECT_FALSE(f.selects({"r", 0, "train/lr"}));
    EXPECT_FALSE(SeriesFilter::make("(", "").ok());
    EXPECT_TRUE(SeriesFilter::make("", "")->selects({"r", kNoRank, "x"}));
}

}  // namespace
}  // namespace runtop
