// runtop(1) (app/man_page.h): made from docs/runtop.1.in and the program's own tables, so every
// command, option and key is in it; the page the build wrote renders without a groff warning.
#include "app/man_page.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "app/cli.h"
#include "app/config.h"
#include "tests/test_support.h"
#include "tests/tmux_session.h"
#include "views/actions.h"

namespace runtop {
namespace {

std::string source() {
    return testing::read_file(std::string(RUNTOP_SOURCE_DIR) + "/docs/runtop.1.in");
}

TEST(ManPage, EveryCommandOptionAndKeyIsInIt) {
    const Result<std::string> page = man_page(source(), "9.9.9");
    ASSERT_TRUE(page) << page.error().message;
    EXPECT_NE(page->find(".TH RUNTOP 1 \"\" \"runtop 9.9.9\""), std::string::npos);
    for (const Command& c : commands()) {
        if (!c.name.empty()) {
            EXPECT_NE(page->find(".SS \"runtop " + roff_escape(c.name) + "\""), std::string::npos)
                << c.name;
        }
        EXPECT_NE(page->find(roff_escape(synopsis(c))), std::string::npos) << synopsis(c);
        for (const OptionSpec& o : *c.options)
            EXPECT_NE(page->find("\\fB\\-\\-" + roff_escape(o.name) + "\\fR"), std::string::npos)
                << c.name << " --" << o.name;
    }
    for (const ui::Binding& b : ui::bindings())
        for (std::string_view key : b.keys)
            EXPECT_NE(page->find("\\fB" + roff_escape(key) + "\\fR"), std::string::npos) << key;
    for (const ConfigKey& k : config_keys())
        EXPECT_NE(page->find(".TP\n\\fB" + roff_escape(k.name) + "\\fR: "), std::string::npos)
            << k.name;
    EXPECT_EQ(page->find('@'), std::string::npos) << "a placeholder was left in the page";
}

TEST(ManPage, PlaceholdersAreCheckedAndTextIsEscaped) {
    const std::string ok = "@SYNOPSIS@\n@COMMANDS@\n@KEYS@\n@CONFIG@\n";
    EXPECT_TRUE(man_page(ok, "1"));
    const Result<std::string> unknown = man_page(ok + "see @MANUAL@ here\n", "1");
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("line 5"), std::string::npos) << unknown.error().message;
    EXPECT_FALSE(man_page("@SYNOPSIS@\n@COMMANDS@\n@CONFIG@\n", "1"));  // no keys
    EXPECT_FALSE(man_page("@SYNOPSIS@\n@COMMANDS@\n@KEYS@\n", "1"));    // no config keys
    EXPECT_TRUE(man_page(ok + "mail user@example.com\n", "1"));         // one @ is text
    EXPECT_EQ(roff_escape(".x 'y\n.z"), "\\&.x 'y\n\\&.z");
    EXPECT_EQ(roff_escape("--a\\b"), "\\-\\-a\\eb");
}

// The page the build installs renders cleanly (groff's -ww: every warning).
TEST(ManPage, TheBuiltPageRendersWithoutWarnings) {
    ASSERT_TRUE(std::filesystem::exists(RUNTOP_MAN_PAGE)) << RUNTOP_MAN_PAGE;
    REQUIRE_TOOL("groff");
    const std::string err = testing::TempDir().path() + ".groff-err";
    const std::string cmd =
        std::string("groff -man -Tutf8 -ww -z '") + RUNTOP_MAN_PAGE + "' 2>'" + err + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    const std::string warnings = testing::read_file(err);
    std::filesystem::remove(err);
    EXPECT_EQ(warnings, "");
}

}  // namespace
}  // namespace runtop
