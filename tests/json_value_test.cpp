// The JSON parser: what Python's json writes (NaN, Infinity, escapes, surrogate pairs),
// exact number text, member order, and the line between "ends early" and "invalid".
#include "core/json/json_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace runtop {
namespace {

JsonValue root_of(const JsonParse& p) {
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().describe());
    return p.ok() ? p.document().root() : JsonValue();
}

TEST(JsonValue, Literals) {
    JsonParse t = parse_json("true"), f = parse_json(" false "), n = parse_json("null");
    EXPECT_TRUE(root_of(t).is_bool());
    EXPECT_TRUE(root_of(t).boolean());
    EXPECT_FALSE(root_of(f).boolean());
    EXPECT_EQ(root_of(f).raw(), "false");
    EXPECT_TRUE(root_of(n).is_null());
    EXPECT_TRUE(std::isnan(root_of(n).number()));
}

TEST(JsonValue, NumbersKeepTheirText) {
    JsonParse p = parse_json("[1e-05, -0.0, 0.1, 12, 12.0, 2.5E+3, 9007199254740993, -7]");
    JsonValue root = root_of(p);
    std::vector<std::string> raws;
    std::vector<double> values;
    for (JsonValue v : root.elements()) {
        raws.emplace_back(v.raw());
        values.push_back(v.number());
    }
    EXPECT_EQ(raws, (std::vector<std::string>{"1e-05", "-0.0", "0.1", "12", "12.0", "2.5E+3",
                                              "9007199254740993", "-7"}));
    EXPECT_EQ(values[0], 1e-05);
    EXPECT_TRUE(std::signbit(values[1]));
    EXPECT_EQ(values[2], 0.1);
    EXPECT_EQ(values[5], 2500.0);
    std::int64_t i = 0;
    auto it = root.elements().begin();
    EXPECT_FALSE((*it).integer(i));  // 1e-05
    ++it;
    ++it;
    EXPECT_FALSE((*it).integer(i));  // 0.1
    ++it;
    EXPECT_TRUE((*it).integer(i));
    EXPECT_EQ(i, 12);
    ++it;
    EXPECT_TRUE((*it).integer(i));  // "12.0": pandas-style integral float
    EXPECT_EQ(i, 12);
    ++it;
    ++it;
    EXPECT_TRUE((*it).integer(i));  // exact from the text, not via the double
    EXPECT_EQ(i, 9007199254740993);
}

TEST(JsonValue, PythonNonFiniteLiterals) {
    JsonParse parsed = parse_json("[NaN, Infinity, -Infinity]");
    JsonValue root = root_of(parsed);
    ASSERT_EQ(root.size(), 3u);
    auto it = root.elements().begin();
    EXPECT_TRUE((*it).is_number());
    EXPECT_TRUE(std::isnan((*it).number()));
    ++it;
    EXPECT_EQ((*it).number(), INFINITY);
    EXPECT_EQ((*it).raw(), "Infinity");
    ++it;
    EXPECT_EQ((*it).number(), -INFINITY);
    std::int64_t i;
    EXPECT_FALSE((*it).integer(i));
}

TEST(JsonValue, NumbersBeyondDoubleRangeAsPython) {
    JsonParse parsed = parse_json("[1e400, -1e400, 1e-400, 0.0000001e-320, 123456e-330]");
    JsonValue root = root_of(parsed);
    std::vector<double> v;
    for (JsonValue e : root.elements()) v.push_back(e.number());
    EXPECT_EQ(v[0], INFINITY);
    EXPECT_EQ(v[1], -INFINITY);
    EXPECT_EQ(v[2], 0.0);
    EXPECT_EQ(v[3], 0.0);
    EXPECT_EQ(v[4], 0.0);
}

TEST(JsonValue, StringEscapes) {
    JsonParse parsed = parse_json(
        R"(["plain", "q\"b\\s\/", "\b\f\n\r\t", "\u00e9\u20ac", "\ud83d\ude00", "caf\u00e9 ok"])");
    JsonValue root = root_of(parsed);
    std::vector<std::string> s;
    for (JsonValue e : root.elements()) s.emplace_back(e.string());
    EXPECT_EQ(s[0], "plain");
    EXPECT_EQ(s[1], "q\"b\\s/");
    EXPECT_EQ(s[2], "\b\f\n\r\t");
    EXPECT_EQ(s[3], "\xC3\xA9\xE2\x82\xAC");
    EXPECT_EQ(s[4], "\xF0\x9F\x98\x80");
    EXPECT_EQ(s[5], "caf\xC3\xA9 ok");
}

TEST(JsonValue, LoneSurrogatesBecomeReplacementCharacters) {
    JsonParse parsed =
        parse_json(R"(["\ud800", "\udc00x", "\ud800\u0041", "\ud800\ud83d\ude00", "\ud800\n"])");
    JsonValue root = root_of(parsed);
    std::vector<std::string> s;
    for (JsonValue e : root.elements()) s.emplace_back(e.string());
    const std::string fffd = "\xEF\xBF\xBD";
    EXPECT_EQ(s[0], fffd);
    EXPECT_EQ(s[1], fffd + "x");
    EXPECT_EQ(s[2], fffd + "A");
    EXPECT_EQ(s[3], fffd + "\xF0\x9F\x98\x80");  // the second high surrogate pairs
    EXPECT_EQ(s[4], fffd + "\n");
}

TEST(JsonValue, RawUtf8PassesThrough) {
    JsonParse parsed = parse_json("{\"\xE5\xAD\xA6\xE4\xB9\xA0\": \"\xCE\xBB\"}");
    JsonValue root = root_of(parsed);
    auto m = *root.members().begin();
    EXPECT_EQ(m.key, "\xE5\xAD\xA6\xE4\xB9\xA0");
    EXPECT_EQ(m.value.string(), "\xCE\xBB");
}

TEST(JsonValue, ObjectsKeepMemberOrderAndRawText) {
    JsonParse p =
        parse_json("{\n \"z\": 1,\n \"a\": [1, 2],\n \"m\\u0041\": {\"x\": null},\n \"a\": 3\n}");
    JsonValue root = root_of(p);
    ASSERT_TRUE(root.is_object());
    EXPECT_EQ(root.size(), 4u);
    std::vector<std::string> keys;
    for (const JsonMember& m : root.members()) keys.emplace_back(m.key);
    EXPECT_EQ(keys, (std::vector<std::string>{"z", "a", "mA", "a"}));
    EXPECT_EQ(root.get("a").raw(), "3");  // the last duplicate, as Python's json
    EXPECT_EQ(root.get("mA").raw(), "{\"x\": null}");
    EXPECT_TRUE(root.get("mA").get("x").is_null());
    EXPECT_FALSE(root.get("missing").exists());
    EXPECT_EQ(root.get("missing").type(), JsonType::kNull);
    EXPECT_FALSE(root.get("missing").is_null());
    EXPECT_EQ(root.get("missing").raw(), "");
    EXPECT_FALSE(root.get("missing").get("deeper").exists());
    EXPECT_EQ(root.get("missing").size(), 0u);
    EXPECT_EQ(root.get("z").elements().begin(), root.get("z").elements().end());
}

TEST(JsonValue, NestedArraysIterate) {
    JsonParse parsed = parse_json("[[], [1, [2, 3]], {}, [[[4]]]]");
    JsonValue root = root_of(parsed);
    std::vector<std::size_t> sizes;
    for (JsonValue e : root.elements()) sizes.push_back(e.size());
    EXPECT_EQ(sizes, (std::vector<std::size_t>{0, 2, 0, 1}));
    std::vector<std::string> raws;
    for (JsonValue e : (*std::next(root.elements().begin())).elements()) raws.emplace_back(e.raw());
    EXPECT_EQ(raws, (std::vector<std::string>{"1", "[2, 3]"}));
}

TEST(JsonValue, ByteOrderMarkIsSkipped) {
    JsonParse parsed = parse_json("\xEF\xBB\xBF{\"a\": 1}");
    JsonValue root = root_of(parsed);
    EXPECT_EQ(root.get("a").number(), 1.0);
}

TEST(JsonValue, TextEndingEarlyIsIncomplete) {
    for (const char* text : {"",
                             "  \n",
                             "{",
                             "{\"a\"",
                             "{\"a\":",
                             "{\"a\": 1",
                             "{\"a\": 1,",
                             "{\"a\": 1, ",
                             "[1, 2",
                             "[",
                             "tru",
                             "fals",
                             "n",
                             "-",
                             "1.",
                             "1e",
                             "1e+",
                             "-Inf",
                             "Na",
                             "\"abc",
                             "\"a\\",
                             "\"\\u12",
                             "[\"\\ud83d",
                             "[\"\\ud83d\\",
                             "[\"\\ud83d\\u",
                             "{\"k\\u00e",
                             "[NaN, Infin",
                             "\xEF",
                             "\xEF\xBB",
                             "\xEF\xBB\xBF"}) {
        JsonParse p = parse_json(text);
        ASSERT_FALSE(p.ok()) << text;
        EXPECT_TRUE(p.incomplete()) << "'" << text << "': " << p.error().describe();
        EXPECT_EQ(p.error().offset, std::string(text).size()) << text;
    }
}

TEST(JsonValue, InvalidTextNamesTheOffendingByte) {
    struct Case {
        const char* text;
        std::size_t offset;
    };
    for (const Case& c :
         {Case{"{\"a\" 1}", 5},   Case{"[1,]", 3},        Case{"01", 1},
          Case{"[1 2]", 3},       Case{"\"a\x01\"", 2},   Case{"nul1", 3},
          Case{"tx", 1},          Case{"{1: 2}", 1},      Case{"\"\\q\"", 2},
          Case{"-NaN", 1},        Case{"[1] x", 4},       Case{"+1", 0},
          Case{"\"\\u12G4\"", 5}, Case{"1.e5", 2},        Case{"[1, 2}", 5},
          Case{"{\"a\": 1]", 7},  Case{".5", 0},          Case{"nan", 1},
          Case{"inf", 0},         Case{"{\"a\": 1,}", 8}, Case{"[\"\\ud83d\\uZ\"]", 10}}) {
        JsonParse p = parse_json(c.text);
        ASSERT_FALSE(p.ok()) << c.text;
        EXPECT_FALSE(p.incomplete()) << c.text << ": " << p.error().describe();
        EXPECT_EQ(p.error().offset, c.offset) << c.text << ": " << p.error().describe();
    }
}

TEST(JsonValue, ErrorDescriptionsNameByteAndLine) {
    JsonParse bad = parse_json("{\n \"a\": 1\n \"b\": 2\n}");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().line, 3u);
    EXPECT_EQ(bad.error().describe(),
              "not valid JSON at byte 11 (line 3): expected ',' or '}' in an object, found '\"'");
    JsonParse cut = parse_json("{\n \"a\": [1,");
    ASSERT_FALSE(cut.ok());
    EXPECT_EQ(cut.error().describe(),
              "JSON ends early at byte 11 (line 2): the text ends where a value should be");
}

// The property the whole-file readers rely on: a file caught half-written never looks invalid.
TEST(JsonValue, EveryPrefixOfADocumentIsIncomplete) {
    const std::string doc =
        "{\n \"k\\\"ey\": [1, -2.5e-3, NaN, -Infinity, true, false, null, "
        "\"s\\u00e9\\ud83d\\ude00\"],"
        "\n \"o\": {\"x\": {}, \"y\": [], \"z\": 0}, \"n\": -0, \"e\": 1E+2\n}";
    ASSERT_TRUE(parse_json(doc).ok());
    for (std::size_t n = 0; n < doc.size(); ++n) {
        JsonParse p = parse_json(std::string_view(doc).substr(0, n));
        ASSERT_FALSE(p.ok()) << n;
        EXPECT_TRUE(p.incomplete()) << n << ": " << p.error().describe();
    }
}

TEST(JsonValue, DepthIsLimited) {
    auto nested = [](std::size_t depth) {
        return std::string(depth, '[') + std::string(depth, ']');
    };
    EXPECT_TRUE(parse_json(nested(256)).ok());
    JsonParse deep = parse_json(nested(257));
    ASSERT_FALSE(deep.ok());
    EXPECT_FALSE(deep.incomplete());
    EXPECT_EQ(deep.error().offset, 256u);
    EXPECT_NE(deep.error().reason.find("nested deeper than 256"), std::string::npos);
    // Far deeper than any stack would take, cut short: still no recursion past the limit.
    JsonParse huge = parse_json(std::string(1000000, '['));
    ASSERT_FALSE(huge.ok());
    EXPECT_FALSE(huge.incomplete());
    JsonLimits shallow;
    shallow.max_depth = 2;
    EXPECT_TRUE(parse_json("[[1]]", shallow).ok());
    EXPECT_FALSE(parse_json("[[[1]]]", shallow).ok());
}

TEST(JsonValue, SizeAndValueCountAreLimited) {
    JsonLimits limits;
    limits.max_values = 3;
    EXPECT_TRUE(parse_json("[1, 2]", limits).ok());
    JsonParse many = parse_json("[1, 2, 3]", limits);
    ASSERT_FALSE(many.ok());
    EXPECT_FALSE(many.incomplete());
    EXPECT_EQ(many.error().offset, 7u);
    limits = JsonLimits{};
    limits.max_bytes = 4;
    EXPECT_TRUE(parse_json("[12]", limits).ok());
    EXPECT_FALSE(parse_json("[123]", limits).ok());
}

TEST(JsonValue, CompactFormAndHashIgnoreLayoutOnly) {
    const std::string pretty = "{\n  \"a b\": [\n    1,\n    \"x  y\\\" \"\n  ]\n}";
    EXPECT_EQ(compact_json(pretty), "{\"a b\":[1,\"x  y\\\" \"]}");
    EXPECT_EQ(json_hash(pretty), json_hash("{\"a b\":[1,\"x  y\\\" \"]}"));
    EXPECT_NE(json_hash(pretty), json_hash("{\"a b\":[1,\"x y\\\" \"]}"));
    EXPECT_NE(json_hash("{\"loss\": 1.5, \"step\": 10}"),
              json_hash("{\"loss\": 1.5, \"step\": 11}"));
}

// A document the size of a long trainer_state.json parses in one pass with every value.
TEST(JsonValue, LargeDocument) {
    std::string doc = "{\"log_history\": [";
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
        if (i) doc += ",";
        doc += "\n    {\n      \"epoch\": " + std::to_string(i * 0.01) +
               ",\n      \"loss\": " + std::to_string(1.0 / (i + 1)) +
               ",\n      \"step\": " + std::to_string(i) + "\n    }";
    }
    doc += "]}";
    JsonParse p = parse_json(doc);
    JsonValue history = root_of(p).get("log_history");
    ASSERT_EQ(history.size(), static_cast<std::size_t>(n));
    std::int64_t expected = 0, step = -1;
    for (JsonValue e : history.elements()) {
        ASSERT_TRUE(e.get("step").integer(step));
        ASSERT_EQ(step, expected++);
    }
}

// runtop's own files (config, themes, rules) may carry comments; files tools write may not.
TEST(JsonValue, CommentsOnlyWhenAsked) {
    const std::string text =
        "// a theme\n{ /* the roles */ \"a\": 1, // one\n \"b\": [2 /* two */, 3]\n} // end";
    EXPECT_FALSE(parse_json(text).ok());
    JsonLimits limits;
    limits.comments = true;
    const JsonParse parsed = parse_json(text, limits);
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    EXPECT_EQ(parsed.document().root().get("b").size(), 2u);
    // A block comment that never closes: the text ends early; a lone '/' is invalid.
    EXPECT_TRUE(parse_json("{\"a\": 1 /* open", limits).incomplete());
    const JsonParse slash = parse_json("{\"a\": / 1}", limits);
    ASSERT_FALSE(slash.ok());
    EXPECT_FALSE(slash.incomplete());
    EXPECT_EQ(slash.error().describe_position(),
              "not valid JSON (line 1, column 7: expected a value, found '/')");
}

TEST(JsonValue, ErrorsNameLineAndColumn) {
    const JsonParse bad = parse_json("{\"roles\": {\n  \"text\": #fff}}");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().line, 2u);
    EXPECT_EQ(bad.error().column, 11u);
    EXPECT_EQ(bad.error().describe_position(),
              "not valid JSON (line 2, column 11: expected a value, found '#')");
}

// What a dict from Python's json.loads holds: each key once, where it first appears, with the
// value it was given last.
TEST(JsonValue, UniqueMembersKeepTheFirstPlaceAndTheLastValue) {
    const JsonParse parsed = parse_json(R"({"b": 1, "a": 2, "b": 3})");
    const std::vector<JsonMember> members = root_of(parsed).unique_members();
    ASSERT_EQ(members.size(), 2u);
    EXPECT_EQ(members[0].key, "b");
    EXPECT_EQ(members[0].value.raw(), "3");
    EXPECT_EQ(members[1].key, "a");
}

TEST(JsonValue, WholeNumbersAreWrittenAsIntegers) {
    const JsonParse parsed = parse_json("[8, -3, 8.0, 1e3, NaN, \"8\", 99999999999999999999]");
    std::vector<std::int64_t> got;
    std::vector<bool> whole;
    for (JsonValue v : root_of(parsed).elements()) {
        std::int64_t n = 0;
        whole.push_back(v.whole_number(n));
        got.push_back(n);
    }
    EXPECT_EQ(whole, (std::vector<bool>{true, true, false, false, false, false, true}));
    EXPECT_EQ(got[0], 8);
    EXPECT_EQ(got[1], -3);
    EXPECT_EQ(got[6], std::numeric_limits<std::int64_t>::max());  // saturated: out of any range
}

TEST(JsonValue, SpacedFormAsPythonWritesIt) {
    EXPECT_EQ(spaced_json("[0.9,\n 0.999]"), "[0.9, 0.999]");
    EXPECT_EQ(spaced_json("[{\"a,b\" :1},\"x: y\"]"), "[{\"a,b\": 1}, \"x: y\"]");
    EXPECT_EQ(spaced_json("\"a\\\", b\""), "\"a\\\", b\"");
}

}  // namespace
}  // namespace runtop
