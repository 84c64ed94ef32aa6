// The dashboard's config file (app/config.h, docs/config.md): every documented key, errors that
// name the file and the key, a missing file being the defaults.
#include <gtest/gtest.h>

#include <cstdlib>
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

TEST(Config, ErrorsNameTheFileAndTheKey) {
    struct Case {
        const char* json;
        const char* says;
    } cases[] = {
        {R"({"them": "dark"})", "c.json: them: unknown key"},
        {R"({"color": "sometimes"})", "c.json: color: must be auto, never or always"},
        {R"({"ascii": "yes"})", "c.json: ascii: must be true or false"},
        {R"({"smoothing": 1})", "c.json: smoothing: must be at least 0 and below 1"},
        {R"({"poll_ms": 1.5})", "c.json: poll_ms: must be a whole number"},
        {R"({"refresh_ms": 1})", "c.json: refresh_ms: must be 10 to 3600000"},
        {R"([1])", "c.json: must be a JSON object"},
        {R"({)", "c.json: not valid JSON"},
    };
    for (const Case& k : cases) {
        auto c = parse_config(k.json, "c.json");
        ASSERT_FALSE(c) << k.json;
        EXPECT_NE(c.error().message.find(k.says), std::string::npos) << c.error().message;
    }
}

TEST(Config, MissingFileIsTheDefaultsButANamedOneMustExist) {
    testing::TempDir d;
    ::setenv("XDG_CONFIG_HOME", d.path().c_str(), 1);
    auto c = load_config();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->color, "auto");
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
