// Command-line parsing (app/args.h): values after a space or an '=', flags, "--", and the
// optional value that only follows an '=' (--poll[=MS]).
#include "app/args.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/test_support.h"

namespace runtop {
namespace {

const std::vector<OptionSpec> kSpecs = {
    {"format", "FMT", "a value"},
    {"ascii", "", "a flag"},
    {"poll", "MS", "an optional value", true},
};

TEST(Args, ValuesFlagsAndPositionals) {
    auto a = parse_args({"--format", "csv", "--ascii", "dir", "--poll=250", "--", "--x"}, kSpecs);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_EQ(a->get("format"), "csv");
    EXPECT_TRUE(a->has("ascii"));
    EXPECT_EQ(a->get("poll"), "250");
    EXPECT_EQ(a->positional, (std::vector<std::string>{"dir", "--x"}));
    auto b = parse_args({"--format=json", "--poll", "dir"}, kSpecs);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->get("format"), "json");
    EXPECT_TRUE(b->has("poll"));
    EXPECT_EQ(b->get("poll"), "");
    EXPECT_EQ(b->positional, (std::vector<std::string>{"dir"}));
}

TEST(Args, MistakesAreOneLineErrors) {
    EXPECT_NE(parse_args({"--nope"}, kSpecs).error().message.find("unknown option '--nope'"),
              std::string::npos);
    EXPECT_NE(parse_args({"--ascii=1"}, kSpecs).error().message.find("takes no value"),
              std::string::npos);
    EXPECT_NE(parse_args({"--format"}, kSpecs).error().message.find("needs a value (FMT)"),
              std::string::npos);
}

// "--poll 2000" would wait for a root named 2000: a number that is no path is the value meant.
TEST(Args, AnOptionalValueAfterASpaceIsCaught) {
    auto a = parse_args({"--poll", "2000", "logs"}, kSpecs);
    ASSERT_FALSE(a);
    EXPECT_NE(a.error().message.find("--poll=2000"), std::string::npos) << a.error().message;
    // A directory that is named by digits is still a path.
    testing::TempDir d;
    testing::make_dirs(d / "2024");
    const std::filesystem::path cwd = std::filesystem::current_path();
    std::filesystem::current_path(d.path());
    auto b = parse_args({"--poll", "2024"}, kSpecs);
    std::filesystem::current_path(cwd);
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b->positional, (std::vector<std::string>{"2024"}));
}

}  // namespace
}  // namespace runtop
