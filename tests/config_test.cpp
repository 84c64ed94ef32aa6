// The dashboard's config file (app/config.h, docs/config.md): every documented key, errors that
// name the file and the key, a missing file being the defaults.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "app/config.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

TEST(Config, EveryDocumentedKey) {
    auto c = parse_config(R"({"theme": "cvd", "color": "never", "ascii": true, "mouse": false,
        "smoothing": 0.9, "memory": "2G", "poll_ms": 250, "refresh_ms": 50})",
                          "c.json");
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(c->theme, "cvd");
    EXPECT_EQ(c->color, "never");
    EXPECT_TRUE(c->ascii);
    EXPECT_FALSE(c->mouse);
    EXPECT_DOUBLE_EQ(c->smoothing, 0.9);
    EXPECT_EQ(c->memory, "2G");
    EXPECT_EQ(c->poll_ms, 250);
    EXPECT_EQ(c->refresh_ms, 50);
}

TEST(Config, ErrorsNameTheFileTheLineAndTheKey) {
    struct Case {
        const char* json;
        const char* says;
    } cases[] = {
        {"{\n  \"color\": \"sometimes\"\n}", "c.json:2: color: must be auto, never or always"},
        {R"({"ascii": "yes"})", "c.json:1: ascii: must be true or false"},
        {"{\"theme\": \"cvd\",\n\n \"smoothing\": 1}",
         "c.json:3: smoothing: must be at least 0 and below 1"},
        {R"({"poll_ms": 1.5})", "c.json:1: poll_ms: must be a whole number"},
        {R"({"poll_ms": 5})", "c.json:1: poll_ms: must be 0, or 10 to 3600000"},
        {R"({"refresh_ms": 1})", "c.json:1: refresh_ms: must be 10 to 3600000"},
        {R"({"notify": "loud"})", "c.json:1: notify: must be off, bell or desktop, not \"loud\""},
        {R"({"memory": "lots"})", "c.json:1: memory: "},
        {R"({"theme": ""})", "c.json:1: theme: must not be empty"},
        {R"([1])", "c.json: must be a JSON object"},
        {R"({)", "c.json: not valid JSON"},
    };
    for (const Case& k : cases) {
        auto c = parse_config(k.json, "c.json");
        ASSERT_FALSE(c) << k.json;
        EXPECT_NE(c.error().message.find(k.says), std::string::npos) << c.error().message;
    }
}

// A typo must not pass silently, and a key from a newer runtop must not stop an older one: a
// warning with the file and line, and the rest of the file applies.
TEST(Config, UnknownKeysAreReportedWithTheirLineAndIgnored) {
    const std::string json =
        "{\n"
        "  // a comment with \"quotes\": {not a key}\n"
        "  \"theme\": \"light\",\n"
        "  \"them\": \"dark\",  /* \"mouse\": 1 */\n"
        "  \"nested\": {\"theme\": 1, \"x\": [{\"y\": 2}]},\n"
        "  \"ascii\": true\n"
        "}\n";
    auto c = parse_config(json, "c.json");
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(c->theme, "light");
    EXPECT_TRUE(c->ascii);
    ASSERT_EQ(c->warnings.size(), 2u);
    EXPECT_EQ(c->warnings[0], "c.json:4: unknown key \"them\" (ignored; did you mean \"theme\"?)");
    EXPECT_EQ(c->warnings[1],
              "c.json:5: unknown key \"nested\" (ignored; known: theme, color, ascii, mouse, "
              "smoothing, memory, poll_ms, refresh_ms, notify)");
}

TEST(Config, TopLevelKeyLinesSkipStringsCommentsAndNesting) {
    const auto lines = top_level_key_lines(
        "{\"a\": \"x:y\", \"b\"\n:\n{\"c\": 1},\n// \"d\": 2\n\"e\\\"f\": [\"g\", {\"h\": "
        "3}],\n\"i\": 4}");
    const std::vector<std::pair<std::string, int>> want = {
        {"a", 1}, {"b", 1}, {"e\\\"f", 5}, {"i", 6}};
    EXPECT_EQ(lines, want);
}

// --print-config writes a file parse_config reads back to the same configuration, with every
// key, its meaning and its default, and which values the file set.
TEST(Config, PrintedConfigurationReadsBackAndCommentsEveryKey) {
    auto c = parse_config(R"({"theme": "cvd", "smoothing": 0.9, "poll_ms": 250})", "my.json");
    ASSERT_TRUE(c);
    const std::string text = print_config(*c);
    for (const ConfigKey& k : config_keys()) {
        EXPECT_NE(text.find("\"" + std::string(k.name) + "\": "), std::string::npos) << k.name;
        EXPECT_NE(text.find(std::string(k.help)), std::string::npos) << k.name;
    }
    EXPECT_NE(text.find("\"theme\": \"cvd\",  // set in my.json"), std::string::npos) << text;
    EXPECT_NE(text.find("\"color\": \"auto\",\n"), std::string::npos) << text;
    auto back = parse_config(text, "printed");
    ASSERT_TRUE(back) << back.error().message << "\n" << text;
    EXPECT_TRUE(back->warnings.empty());
    EXPECT_EQ(back->theme, "cvd");
    EXPECT_DOUBLE_EQ(back->smoothing, 0.9);
    EXPECT_EQ(back->poll_ms, 250);
    EXPECT_EQ(back->color, "auto");
    EXPECT_EQ(back->memory, "1G");
}

// A value holding a C1 control (U+009B, a one-byte CSI) or an escape is printed escaped, and
// still reads back to the same value.
TEST(Config, PrintedConfigurationHasNoControlCharacters) {
    auto c = parse_config(R"({"theme": "a\u009b2Jb\u001bc"})", "odd\x1b.json");
    ASSERT_TRUE(c) << c.error().message;
    const std::string text = print_config(*c);
    EXPECT_NE(text.find(R"("theme": "a\u009b2Jb\u001bc",)"), std::string::npos) << text;
    EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos) << text;
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
    auto back = parse_config(text, "printed");
    ASSERT_TRUE(back) << back.error().message << "\n" << text;
    EXPECT_EQ(back->theme,
              "a\xc2\x9b"
              "2Jb\x1b"
              "c");
}

// docs/config.md has a row for every key, and no row for a key runtop does not know.
TEST(Config, DocsDescribeEveryKey) {
    const std::string doc = testing::read_file(std::string(RUNTOP_SOURCE_DIR) + "/docs/config.md");
    std::set<std::string> rows;
    std::size_t at = 0;
    while ((at = doc.find("\n| `", at)) != std::string::npos) {
        at += 4;
        rows.insert(doc.substr(at, doc.find('`', at) - at));
    }
    std::set<std::string> keys;
    for (const ConfigKey& k : config_keys()) keys.insert(std::string(k.name));
    EXPECT_EQ(rows, keys);
}

TEST(ConfigCli, PrintConfigShowsTheFileAndReportsUnknownKeys) {
    testing::TempDir d;
    testing::write_file(d / "c.json", "{\"color\": \"never\",\n \"colour\": 1}");
    auto r = testing::run_runtop({"--print-config", "--config", d / "c.json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\"color\": \"never\",  // set in " + (d / "c.json")), std::string::npos)
        << r.out;
    EXPECT_NE(r.err.find(d / "c.json" + ":2: unknown key \"colour\""), std::string::npos) << r.err;
    r = testing::run_runtop({"--print-config", "--config", d / "missing.json"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("missing.json: cannot be read"), std::string::npos) << r.err;
}

TEST(Config, MissingFileIsTheDefaultsButANamedOneMustExist) {
    testing::TempDir d;
    ::setenv("XDG_CONFIG_HOME", d.path().c_str(), 1);
    auto c = load_config();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->color, "auto");
    EXPECT_EQ(c->theme, "dark");
    EXPECT_TRUE(c->origin.empty());
    EXPECT_FALSE(load_config(d.path() + "/nope.json"));
    testing::make_dirs(d / "runtop");
    testing::write_file(d / "runtop/config.json", R"({"theme": "light"})");
    c = load_config();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->theme, "light");
    EXPECT_EQ(c->origin, d.path() + "/runtop/config.json");
    ::unsetenv("XDG_CONFIG_HOME");
}

}  // namespace
}  // namespace runtop
