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

std::string json(std::string_view raw) {
    std::string s;
    append_json_string(s, raw);
    return s;
}

// The string a JSON parser that keeps lone surrogates (Python, JavaScript) reads back, turned
// into bytes as Python's surrogateescape does: U+DC80..U+DCFF are the raw bytes 0x80..0xFF.
std::string decode_surrogateescape(std::string_view literal) {
    std::string out;
    EXPECT_GE(literal.size(), 2u);
    for (std::size_t i = 1; i + 1 < literal.size(); ++i) {
        if (literal[i] != '\\') {
            out += literal[i];
            continue;
        }
        const char e = literal[++i];
        if (e != 'u') {
            out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
            continue;
        }
        const auto cp = static_cast<std::uint32_t>(
            std::stoul(std::string(literal.substr(i + 1, 4)), nullptr, 16));
        i += 4;
        if (cp >= 0xdc80 && cp <= 0xdcff)
            out += static_cast<char>(cp - 0xdc00);
        else
            append_utf8(out, cp);
    }
    return out;
}

// No byte a terminal acts on: C0, DEL, and C1 as UTF-8 (C2 80..C2 9F).
bool has_control_byte(std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7f) return true;
        if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xa0)
            return true;
    }
    return false;
}

TEST(Format, JsonEscapesEveryControlCodePoint) {
    EXPECT_EQ(json("plain/tag"), "\"plain/tag\"");
    EXPECT_EQ(json(std::string("a\"\\\n\t\r\x01\x1b\x7f", 9)),
              "\"a\\\"\\\\\\n\\t\\r\\u0001\\u001b\\u007f\"");
    EXPECT_EQ(json(std::string("\0", 1)), "\"\\u0000\"");
    // C1 controls: U+009B is a one-byte CSI to some terminals.
    EXPECT_EQ(json("\xc2\x80|\xc2\x9b"
                   "2J|\xc2\x9f"),
              "\"\\u0080|\\u009b2J|\\u009f\"");
    // Printable non-ASCII stays as it is: NBSP (U+00A0, the first after C1), é, ▁, an emoji.
    EXPECT_EQ(json("\xc2\xa0\xc3\xa9\xe2\x96\x81\xf0\x9f\x98\x80"),
              "\"\xc2\xa0\xc3\xa9\xe2\x96\x81\xf0\x9f\x98\x80\"");
}

TEST(Format, JsonKeepsBytesThatAreNotUtf8DistinctAndReversible) {
    EXPECT_EQ(json("loss\xff"), "\"loss\\udcff\"");
    EXPECT_EQ(json("loss\xfe"), "\"loss\\udcfe\"");
    EXPECT_NE(json("loss\xff"), json("loss\xfe"));
    // Every byte of an ill-formed sequence: truncated, overlong, an encoded surrogate, beyond
    // U+10FFFF, a stray continuation byte.
    EXPECT_EQ(json("a\xc3"), "\"a\\udcc3\"");
    EXPECT_EQ(json("\xc0\x80"), "\"\\udcc0\\udc80\"");
    EXPECT_EQ(json("\xed\xa0\x80"), "\"\\udced\\udca0\\udc80\"");
    EXPECT_EQ(json("\xf4\x90\x80\x80"), "\"\\udcf4\\udc90\\udc80\\udc80\"");
    EXPECT_EQ(json("\x80x"), "\"\\udc80x\"");
    EXPECT_EQ(decode_surrogateescape(json("loss\xff")), "loss\xff");

    // Any bytes at all: no control byte out, and the same bytes back.
    std::uint64_t state = 42;
    const char alphabet[] = {'a',    '"',    '\\',   '\n',   '\x1b', '\x7f', '\0',   '\xc2', '\x9b',
                             '\xa0', '\xc3', '\xa9', '\xe2', '\x96', '\x81', '\xed', '\xf0', '\x9f',
                             '\x98', '\x80', '\xff', '\xfe', '\xf4', '\x90', '\xbf'};
    for (int n = 0; n < 20000; ++n) {
        std::string raw;
        const int length = n % 13;
        for (int k = 0; k < length; ++k) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            raw += alphabet[(state >> 33) % sizeof alphabet];
        }
        const std::string literal = json(raw);
        ASSERT_FALSE(has_control_byte(literal)) << literal;
        ASSERT_EQ(decode_surrogateescape(literal), raw) << literal;
    }
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
