// The shared CSV tokenizer and number parsing: quoting, line ends, partial records.
#include "readers/csv_tokenizer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "readers/number_text.h"

namespace runtop {
namespace {

struct Split {
    std::vector<std::vector<std::string>> records;
    std::size_t consumed;
};

Split split_all(std::string_view text) {
    CsvTokenizer tokenizer;
    Split out;
    out.consumed = tokenizer.split(text.data(), text.size(),
                                   [&](std::span<const std::string_view> fields, std::size_t) {
                                       out.records.emplace_back(fields.begin(), fields.end());
                                   });
    return out;
}

using Rows = std::vector<std::vector<std::string>>;

TEST(CsvTokenizer, PlainLinesLfAndCrlf) {
    Split s = split_all("a,b,c\n1,2,3\r\n,,\n");
    EXPECT_EQ(s.records, (Rows{{"a", "b", "c"}, {"1", "2", "3"}, {"", "", ""}}));
    EXPECT_EQ(s.consumed, 16u);
}

TEST(CsvTokenizer, QuotedFieldsWithCommasQuotesAndNewlines) {
    std::string text = "0,fc1,0,\"[4, 8]\",torch.float32\n\"say \"\"hi\"\"\",\"two\nlines\"\r\n";
    Split s = split_all(text);
    EXPECT_EQ(s.records,
              (Rows{{"0", "fc1", "0", "[4, 8]", "torch.float32"}, {"say \"hi\"", "two\nlines"}}));
    EXPECT_EQ(s.consumed, text.size());
}

TEST(CsvTokenizer, StopsBeforeAnIncompleteRecord) {
    EXPECT_EQ(split_all("a,b\n1,2").consumed, 4u);        // no newline yet
    EXPECT_EQ(split_all("a,b\n1,\"x\n").consumed, 4u);    // quote still open
    EXPECT_EQ(split_all("a,b\n1,\"x\"").consumed, 4u);    // closing quote or "" escape?
    EXPECT_EQ(split_all("a,b\n1,\"x\"\r").consumed, 4u);  // CR without its LF
    EXPECT_EQ(split_all("").consumed, 0u);
    Split whole = split_all("a,b\n1,\"x\"\n");
    EXPECT_EQ(whole.consumed, 10u);
    EXPECT_EQ(whole.records.back(), (std::vector<std::string>{"1", "x"}));
}

TEST(CsvTokenizer, BlankLinesAreSkipped) {
    Split s = split_all("\n\r\na\n\n");
    EXPECT_EQ(s.records, (Rows{{"a"}}));
    EXPECT_EQ(s.consumed, 6u);
}

TEST(CsvTokenizer, ResumesWhereItStopped) {
    // Feeding a growing text byte by byte yields the same records as one pass.
    std::string text = "h1,h2\r\n1,\"a,b\"\r\n2,\"c\"\"d\"\r\n3,e\n";
    CsvTokenizer tokenizer;
    Rows got;
    std::size_t offset = 0;
    for (std::size_t end = 0; end <= text.size(); ++end) {
        offset += tokenizer.split(text.data() + offset, end - offset,
                                  [&](std::span<const std::string_view> f, std::size_t) {
                                      got.emplace_back(f.begin(), f.end());
                                  });
    }
    EXPECT_EQ(offset, text.size());
    EXPECT_EQ(got, split_all(text).records);
    EXPECT_EQ(got.size(), 4u);
}

TEST(NumberText, PythonFloatSpellings) {
    double v;
    ASSERT_TRUE(parse_value("2.524771754354597", v));
    EXPECT_EQ(v, 2.524771754354597);
    ASSERT_TRUE(parse_value("1e-06", v));
    EXPECT_EQ(v, 1e-06);
    ASSERT_TRUE(parse_value("1.5e+20", v));
    EXPECT_EQ(v, 1.5e20);
    ASSERT_TRUE(parse_value("-0.0", v));
    EXPECT_TRUE(v == 0 && std::signbit(v));
    ASSERT_TRUE(parse_value("nan", v));
    EXPECT_TRUE(std::isnan(v));
    ASSERT_TRUE(parse_value("NaN", v));
    EXPECT_TRUE(std::isnan(v));
    ASSERT_TRUE(parse_value("inf", v));
    EXPECT_TRUE(std::isinf(v) && v > 0);
    ASSERT_TRUE(parse_value("-inf", v));
    EXPECT_TRUE(std::isinf(v) && v < 0);
    ASSERT_TRUE(parse_value("+inf", v));
    EXPECT_TRUE(std::isinf(v) && v > 0);
    ASSERT_TRUE(parse_value(" 3 ", v));
    EXPECT_EQ(v, 3);
    ASSERT_TRUE(parse_value("1e999", v));
    EXPECT_TRUE(std::isinf(v));
    ASSERT_TRUE(parse_value("-1e-999", v));
    EXPECT_TRUE(v == 0 && std::signbit(v));
    for (const char* bad : {"", "x", "1.5x", "torch.float32", "[4, 8]", "++1", "1 2"})
        EXPECT_FALSE(parse_value(bad, v)) << bad;
}

TEST(NumberText, Steps) {
    std::int64_t s;
    ASSERT_TRUE(parse_step("12", s));
    EXPECT_EQ(s, 12);
    ASSERT_TRUE(parse_step("12.0", s));
    EXPECT_EQ(s, 12);
    ASSERT_TRUE(parse_step("-3", s));
    EXPECT_EQ(s, -3);
    for (const char* bad : {"", "1.5", "nan", "inf", "step", "1e30"})
        EXPECT_FALSE(parse_step(bad, s)) << bad;
}

}  // namespace
}  // namespace runtop
