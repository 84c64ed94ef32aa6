// Shell completion (app/completion.h): the generated bash script run by bash itself, as
// bash-completion would call it, and the zsh script in an interactive zsh in tmux, Tab pressed.
#include "app/completion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/cli.h"
#include "tests/test_support.h"
#include "tests/tmux_session.h"

namespace runtop {
namespace {

using testing::shell_quote;
using testing::TempDir;

const std::string kBash = std::string(RUNTOP_COMPLETION_DIR) + "/runtop";
const std::string kZshDir = RUNTOP_COMPLETION_DIR;

// What bash's completion offers for `words` with the cursor on word `cword`, run in `cwd` with
// XDG_CONFIG_HOME=`config`.
std::vector<std::string> bash_complete(const std::vector<std::string>& words, int cword,
                                       const std::string& cwd, const std::string& config) {
    std::string array;
    for (const std::string& w : words) array += " " + shell_quote(w);
    const std::string script = "cd " + shell_quote(cwd) +
                               " && XDG_CONFIG_HOME=" + shell_quote(config) + " && source " +
                               shell_quote(kBash) + " && COMP_WORDS=(" + array +
                               ") && COMP_CWORD=" + std::to_string(cword) +
                               " && { _runtop; printf '%s\\n' \"${COMPREPLY[@]}\"; }";
    const testing::ProcessOutput r = testing::run_process({"bash", "--norc", "-c", script});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> got = testing::split_lines(r.out);
    got.erase(std::remove(got.begin(), got.end(), ""), got.end());
    std::sort(got.begin(), got.end());
    return got;
}

class Completion : public ::testing::Test {
  protected:
    void SetUp() override {
        testing::make_dirs(dir_ / "runs/a");
        testing::make_dirs(config_ / "runtop/themes");
        testing::write_file(config_ / "runtop/themes/solarized.json", "{}");
    }
    std::vector<std::string> complete(const std::vector<std::string>& words) {
        return bash_complete(words, static_cast<int>(words.size()) - 1, dir_.path(),
                             config_.path());
    }
    TempDir dir_, config_;
};

using Words = std::vector<std::string>;

TEST_F(Completion, BashCompletesCommandsOptionsAndValues) {
    EXPECT_EQ(complete({"runtop", "d"}), (Words{"demo", "diff", "dump"}));
    EXPECT_EQ(complete({"runtop", "r"}), (Words{"runs"}));  // a path, for the dashboard
    EXPECT_EQ(complete({"runtop", "--pr"}), (Words{"--print-config"}));
    EXPECT_EQ(complete({"runtop", "ls", "--fo"}), (Words{"--format"}));
    EXPECT_EQ(complete({"runtop", "ls", "--format", ""}), (Words{"csv", "text"}));
    EXPECT_EQ(complete({"runtop", "snapshot", "--view=de"}), (Words{"detail"}));
    // bash splits "--align=" at '=' (COMP_WORDBREAKS): the value after it.
    EXPECT_EQ(complete({"runtop", "diff", "--align", "=", ""}), (Words{"step", "wall"}));
    EXPECT_EQ(complete({"runtop", "--theme", ""}),
              (Words{"cvd", "dark", "light", "mono", "solarized"}));
    EXPECT_EQ(complete({"runtop", "--filter", ""}), Words{});  // a regex: nothing to offer
    EXPECT_EQ(complete({"runtop", "check", "--rules", "ru"}), (Words{"runs"}));
    EXPECT_EQ(complete({"runtop", "ls", "ls"}), Words{});  // a subcommand is the first word only
}

// Every option of every command, straight from the table --help prints.
TEST_F(Completion, BashOffersEveryOptionOfEveryCommand) {
    for (const Command& c : commands()) {
        Words words = {"runtop"};
        if (!c.name.empty()) words.push_back(std::string(c.name));
        words.push_back("--");
        const Words got = complete(words);
        for (const OptionSpec& o : *c.options)
            EXPECT_NE(std::find(got.begin(), got.end(), "--" + std::string(o.name)), got.end())
                << "runtop " << c.name << " --" << o.name;
    }
}

// zsh -f's prompt alone on the last line (`host# `, trailing space trimmed by capture-pane):
// the line editor is back after a Ctrl-C, so what is typed next starts a new line (typed while
// zsh still ends a completion, it can land in the old one).
bool at_fresh_prompt(const std::string& screen) {
    std::size_t end = screen.find_last_not_of(" \n");
    if (end == std::string::npos) return false;
    const std::size_t start = screen.rfind('\n', end);
    const std::string last = screen.substr(start == std::string::npos ? 0 : start + 1,
                                           end + 1 - (start == std::string::npos ? 0 : start + 1));
    return (last.back() == '#' || last.back() == '%') && last.find(' ') == std::string::npos;
}

TEST_F(Completion, ZshScriptCompletesInARealZsh) {
    REQUIRE_TOOL("zsh");
    REQUIRE_TOOL("tmux");
    testing::TmuxSession s("exec zsh -f", testing::TmuxOptions(120, 30)
                                              .in_dir(dir_.path())
                                              .with_env("XDG_CONFIG_HOME", config_.path()));
    ASSERT_TRUE(s.started());
    ASSERT_TRUE(s.send_text("fpath=(" + shell_quote(kZshDir) +
                            " $fpath); autoload -U compinit; compinit -u -D; echo ready-$((6*7))"));
    ASSERT_TRUE(s.send_keys({"Enter"}));
    ASSERT_TRUE(s.wait_for("ready-42"));

    ASSERT_TRUE(s.send_text("runtop --theme "));
    ASSERT_TRUE(s.send_keys({"Tab"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& sc) {
            return sc.find("solarized") != std::string::npos &&
                   sc.find("mono") != std::string::npos && sc.find("cvd") != std::string::npos;
        },
        "the theme names, built-in and the user's"));
    ASSERT_TRUE(s.send_keys({"C-c"}));
    ASSERT_TRUE(s.wait_for(at_fresh_prompt, "a fresh prompt after Ctrl-C"));

    ASSERT_TRUE(s.send_text("runtop snapshot --view "));
    ASSERT_TRUE(s.send_keys({"Tab"}));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& sc) {
            return sc.find("heatmap") != std::string::npos &&
                   sc.find("anomalies") != std::string::npos;
        },
        "the views"));
    ASSERT_TRUE(s.send_keys({"C-c"}));
    ASSERT_TRUE(s.wait_for(at_fresh_prompt, "a fresh prompt after Ctrl-C"));

    ASSERT_TRUE(s.send_text("runtop dum"));
    ASSERT_TRUE(s.send_keys({"Tab"}));
    ASSERT_TRUE(s.wait_for("runtop dump"));  // (capture-pane drops the space after it)
    ASSERT_TRUE(s.send_text("--fol"));
    ASSERT_TRUE(s.send_keys({"Tab"}));
    ASSERT_TRUE(s.wait_for("runtop dump --follow"));
}

}  // namespace
}  // namespace runtop
