// The formats a process reads logs with: a user's directory of format files (lnav's habit),
// their errors one line each naming the file and line, and --log-format.
#include "readers/log_format_catalog.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::TempDir;
using testing::write_file;

std::vector<std::string> names(const LogFormatCatalog& c) {
    std::vector<std::string> out;
    for (const LogFormat& f : c.formats) out.push_back(f.name());
    return out;
}

TEST(LogFormatCatalog, BuiltInsWithoutAUserDirectory) {
    const LogFormatCatalog c = load_log_formats((TempDir() / "absent"));
    EXPECT_TRUE(c.errors.empty());
    EXPECT_FALSE(c.forced);
    ASSERT_EQ(c.formats.size(), builtin_log_formats().size());
    for (std::size_t i = 0; i < c.formats.size(); ++i)
        EXPECT_EQ(c.formats[i].name(), builtin_log_formats()[i].name());
}

TEST(LogFormatCatalog, UserFormatsComeFirstAndReplaceBuiltInsOfTheirName) {
    TempDir dir;
    write_file(dir / "b_mine.json",
               R"json({"name": "mine", "description": "my loop", "require": ["epoch "],
                   "line": "^epoch \\d+ batch (?P<step>\\d+):",
                   "metrics": [{"pairs": "(?P<name>[a-z_]+)=(?P<value>{NUM})"}]})json");
    write_file(dir / "a_nanogpt.json",
               R"json({"name": "nanogpt", "description": "mine instead", "require": ["it "],
                   "line": "^it (?P<step>\\d+) ",
                   "metrics": [{"name": "loss", "value": "loss=(?P<value>{NUM})"}]})json");
    write_file(dir / "c_broken.json", "{\"name\": \"broken\",\n \"line\": \"(unclosed\"}");
    write_file(dir / "d_twice.json",
               R"json({"name": "mine", "line": "^x (?P<step>\\d+)",
                   "metrics": [{"name": "a", "value": "a=(?P<value>{NUM})"}]})json");
    write_file(dir / "notes.md", "not a format");
    const LogFormatCatalog c = load_log_formats(dir.path());
    const std::vector<std::string> got = names(c);
    ASSERT_GE(got.size(), 2u);
    EXPECT_EQ(got[0], "nanogpt");
    EXPECT_EQ(got[1], "mine");
    EXPECT_EQ(std::count(got.begin(), got.end(), "nanogpt"), 1);
    EXPECT_EQ(c.formats[0].description(), "mine instead");
    EXPECT_EQ(got.size(), builtin_log_formats().size() + 1);
    ASSERT_EQ(c.errors.size(), 2u);
    EXPECT_EQ(c.errors[0].rfind(dir / "c_broken.json:2: 'line' is not a valid RE2 pattern", 0), 0u)
        << c.errors[0];
    EXPECT_EQ(c.errors[1], dir / "d_twice.json" + ": a format named 'mine' is defined twice");

    LogRecord r;
    ASSERT_TRUE(c.formats[1].match("epoch 2 batch 17: loss=0.5 acc=0.75", 0, r));
    EXPECT_EQ(r.step, 17);
    EXPECT_EQ(r.metrics.size(), 2u);
}

TEST(LogFormatCatalog, ForcingAFormatKeepsOnlyIt) {
    LogFormatCatalog c = load_log_formats("");
    ASSERT_TRUE(force_log_format(c, "megatron"));
    EXPECT_TRUE(c.forced);
    EXPECT_EQ(names(c), std::vector<std::string>{"megatron"});

    LogFormatCatalog d = load_log_formats("");
    const Status unknown = force_log_format(d, "megatorn");
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("no format named 'megatorn'"), std::string::npos);
    EXPECT_NE(unknown.error().message.find("megatron"), std::string::npos);
    EXPECT_FALSE(d.forced);
}

}  // namespace
}  // namespace runtop
