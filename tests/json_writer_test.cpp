// The JSON writer: structure (commas, keys, nesting, line breaks), every number form the
// outputs use, and the escaping of every string: C0, DEL and C1 controls as \u00XX, bytes that
// are not UTF-8 (encoded surrogates included) as \udcXX, distinct and reversible.
#include "core/json/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/format.h"
#include "core/json/json_value.h"

namespace runtop {
namespace {

TEST(JsonWriter, PlacesCommasAndKeys) {
    std::string out;
    JsonWriter w(out);
    w.begin_object().key("a").integer(1).key("b").begin_array();
    w.integer(2).string("x").null().boolean(true).boolean(false);
    w.begin_object().end_object().begin_array().end_array();
    w.end_array().key("c").begin_object().key("d").null().end_object().end_object();
    EXPECT_EQ(out, R"({"a":1,"b":[2,"x",null,true,false,{},[]],"c":{"d":null}})");
}

TEST(JsonWriter, NextLineBreaksAfterTheComma) {
    std::string out;
    JsonWriter w(out);
    w.begin_object().key("rows").begin_array();
    w.next_line().integer(1).next_line().integer(2).newline().end_array().end_object();
    EXPECT_EQ(out, "{\"rows\":[\n1,\n2\n]}");
    // What is written reads back.
    const JsonParse parsed = parse_json(out);
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(parsed.document().root().get("rows").size(), 2u);
}

TEST(JsonWriter, NumberForms) {
    auto text = [](auto write) {
        std::string out;
        JsonWriter w(out);
        write(w);
        return out;
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    // %.9g, non-finite values as strings.
    EXPECT_EQ(text([](JsonWriter& w) { w.number(0.1); }), "0.1");
    EXPECT_EQ(text([](JsonWriter& w) { w.number(1.0 / 3); }), "0.333333333");
    EXPECT_EQ(text([&](JsonWriter& w) { w.begin_array().number(nan).number(inf).number(-inf); }),
              R"(["nan","inf","-inf")");
    // The shortest round trip: wall times keep their microseconds.
    EXPECT_EQ(text([](JsonWriter& w) { w.number_shortest(1700000000.123456); }),
              "1700000000.123456");
    // Integers of every width.
    EXPECT_EQ(text([](JsonWriter& w) {
                  w.begin_array()
                      .integer(std::int64_t{-9223372036854775807LL - 1})
                      .integer(std::uint64_t{18446744073709551615ULL})
                      .integer(0);
              }),
              "[-9223372036854775808,18446744073709551615,0");
    // Floats that read back as floats: '.0' when integral, exponents outside 1e-4..1e15.
    const std::pair<double, const char*> reals[] = {
        {0.0, "0.0"},    {-0.0, "-0.0"},     {0.6, "0.6"},      {0.99, "0.99"},
        {2.0, "2.0"},    {1e-4, "0.0001"},   {1e-5, "1e-05"},   {1.5e-7, "1.5e-07"},
        {1e15, "1e+15"}, {123.25, "123.25"}, {1e100, "1e+100"}, {nan, "null"},
    };
    for (const auto& [v, want] : reals) EXPECT_EQ(text([&](JsonWriter& w) { w.real(v); }), want);
}

TEST(JsonWriter, KeysAreEscapedLikeStrings) {
    std::string out;
    JsonWriter(out).begin_object().key("a\"\x1b").integer(1).end_object();
    EXPECT_EQ(out, "{\"a\\\"\\u001b\":1}");
}

// A string as the writer writes it: the one escaping function every JSON output goes through.
std::string json(std::string_view raw) {
    std::string s;
    JsonWriter(s).string(raw);
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

TEST(JsonWriter, EscapesEveryControlCodePoint) {
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

TEST(JsonWriter, KeepsBytesThatAreNotUtf8DistinctAndReversible) {
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

// Valid UTF-8 with controls in it reads back through runtop's parser as it was written.
TEST(JsonWriter, StringsReadBackThroughTheParser) {
    const std::string raw = std::string("tab\there \"q\" \\ \x01\x7f \xc2\x9b \xc3\xa9 ") +
                            "\xf0\x9f\x98\x80" + std::string("\0", 1);
    std::string out;
    JsonWriter(out).begin_array().string(raw).end_array();
    const JsonParse parsed = parse_json(out);
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    EXPECT_EQ(parsed.document().root().elements().begin().operator*().string(), raw);
}

}  // namespace
}  // namespace runtop
