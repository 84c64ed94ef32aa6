// The end-to-end infrastructure itself (tests/tmux_session.*, tests/ssh_localhost.*), proven on
// a stand-in for the dashboard: a full-screen bash script that redraws when resized,
// shows the keys it got and quits with status 7 on `q`.
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "tests/ssh_localhost.h"
#include "tests/test_support.h"
#include "tests/tmux_session.h"

namespace runtop::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kStandIn = R"SH(#!/bin/bash
# Stand-in for the dashboard: full screen, redraws on resize, shows keys, q quits with status 7.
keys= drawn=
draw() {
    local rows cols i
    drawn=$(stty size)
    rows=${drawn% *} cols=${drawn#* }
    local lines=("standin ${cols}x${rows}" "term=$TERM lang=$LANG tag=$E2E_TAG" "keys:$keys")
    printf '\033[H\033[2J'
    for ((i = 0; i < ${#lines[@]} && i < rows - 1; i++)); do
        printf '%s\r\n' "${lines[i]:0:cols}"
    done
    printf 'ready>'
}
# The size is polled, not trapped: a bash WINCH trap can deadlock in a storm of them. Input is
# polled too (`read -t 0` reads nothing), then read without a timeout: a `read -t 0.1` whose
# alarm fires as a key arrives can lose that key.
stty -echo -icanon
draw
while :; do
    if ! read -t 0; then
        sleep 0.05
        [[ $(stty size) != "$drawn" ]] && draw
        continue
    fi
    if IFS= read -rsn1 k; then
        case "$k" in
            q) printf '\033[H\033[2Jbye\r\n'; exit 7 ;;
            $'\f') ;;
            $'\e') keys+='<esc>' ;;
            '') keys+='<enter>' ;;
            *) keys+="$k" ;;
        esac
        draw
    fi
done
)SH";

std::string write_stand_in(const TempDir& dir) {
    std::string path = dir / "standin.sh";
    write_file(path, kStandIn);
    ::chmod(path.c_str(), 0755);
    return path;
}

// Lines of a capture (capture-pane prints one per row).
int screen_rows(const std::string& screen) {
    return static_cast<int>(split_lines(screen).size());
}

// The packages `make deps` installs (the Makefile's DEB_PACKAGES, continuation lines included).
std::vector<std::string> deb_packages() {
    std::istringstream makefile(read_file(std::string(RUNTOP_SOURCE_DIR) + "/Makefile"));
    std::vector<std::string> packages;
    bool in_list = false;
    for (std::string line; std::getline(makefile, line);) {
        if (line.rfind("DEB_PACKAGES", 0) == 0) {
            in_list = true;
            line = line.substr(line.find(":=") + 2);
        } else if (!in_list) {
            continue;
        }
        std::istringstream words(line);
        for (std::string w; words >> w;)
            if (w != "\\") packages.push_back(w);
        in_list = !line.empty() && line.back() == '\\';
    }
    return packages;
}

// A fresh machine passes `make test` the first time: `make deps` installs every program a test
// runs (openssh-server was installed by the ssh test itself, racing the tests beside it).
TEST(E2eInfra, MakeDepsInstallsEveryProgramTheTestsRun) {
    const std::vector<std::string> packages = deb_packages();
    ASSERT_GT(packages.size(), 10u);
    for (const TestTool& t : test_tools())
        EXPECT_NE(std::find(packages.begin(), packages.end(), t.package), packages.end())
            << t.program << ": " << t.package << " is not in the Makefile's DEB_PACKAGES";
}

// A missing program fails the test (a skip would pass unseen), naming `make deps`.
TEST(E2eInfra, AMissingProgramFailsTheTestNamingMakeDeps) {
    TempDir empty;
    const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", empty.path().c_str(), 1);
    const std::string tmux = missing_tool("tmux");
    ::setenv("PATH", path.c_str(), 1);
    EXPECT_NE(tmux.find("tmux is not installed (Debian package tmux): run `make deps`"),
              std::string::npos)
        << tmux;
    EXPECT_NE(missing_tool("no-such-program").find("is not in test_tools()"), std::string::npos);
    EXPECT_FATAL_FAILURE(REQUIRE_TOOL("no-such-program"), "add it with its package");
}

TEST(E2eInfra, TmuxDrivesAnInteractiveProgram) {
    REQUIRE_TOOL("tmux");
    TempDir dir;
    const std::string script = write_stand_in(dir);
    TmuxSession s(shell_quote(script),
                  TmuxOptions(120, 40).with_env("E2E_TAG", "tmux-ok").in_dir(dir.path()));
    ASSERT_TRUE(s.started()) << s.error();
    ASSERT_TRUE(s.wait_for("ready>"));
    std::string screen = s.capture();
    EXPECT_NE(screen.find("standin 120x40"), std::string::npos) << screen;
    EXPECT_NE(screen.find("term=" + tmux_pane_term() + " lang=C.UTF-8 tag=tmux-ok"),
              std::string::npos)
        << screen;
    EXPECT_EQ(screen_rows(screen), 40);

    ASSERT_TRUE(s.send_text("hello"));
    ASSERT_TRUE(s.send_keys({"Enter", "Escape", "C-l"}));
    ASSERT_TRUE(s.wait_for("keys:hello<enter><esc>"));

    // A resize storm down to 20x6 and back; every size must apply without an attached client.
    for (auto [w, h] : {std::pair{80, 24}, {40, 10}, {20, 6}, {100, 30}, {20, 6}})
        ASSERT_TRUE(s.resize(w, h)) << s.error();
    ASSERT_TRUE(s.wait_for("standin 20x6"));
    EXPECT_EQ(s.pane_size(), std::pair(20, 6));
    EXPECT_EQ(screen_rows(s.capture()), 6);
    ASSERT_TRUE(s.resize(120, 40));
    ASSERT_TRUE(s.wait_for(
        [](const std::string& text) {
            return text.find("standin 120x40") != std::string::npos && screen_rows(text) == 40;
        },
        "the redraw at 120x40"));
    // Escapes on request: the stand-in draws no colours, but the capture still works with -e.
    EXPECT_NE(s.capture(true).find("ready>"), std::string::npos);

    ASSERT_TRUE(s.send_keys({"q"}));
    int status = -1;
    ASSERT_TRUE(s.wait_exit(&status));
    EXPECT_EQ(status, 7);
    EXPECT_TRUE(s.pane_dead());
    EXPECT_NE(s.capture_dead().find("bye"), std::string::npos) << s.capture_history();
}

TEST(E2eInfra, WaitForTimesOutWithTheLastScreen) {
    REQUIRE_TOOL("tmux");
    TmuxSession s("printf 'nothing to see\\n'; exec sleep 30", TmuxOptions(40, 5));
    ASSERT_TRUE(s.started()) << s.error();
    ASSERT_TRUE(s.wait_for("nothing to see"));
    ::testing::AssertionResult r = s.wait_for("never shown", 150ms);
    EXPECT_FALSE(r);
    EXPECT_NE(std::string(r.message()).find("never shown"), std::string::npos) << r.message();
    EXPECT_NE(std::string(r.message()).find("nothing to see"), std::string::npos) << r.message();
    EXPECT_FALSE(s.pane_dead());
}

TEST(E2eInfra, WaitForFailsFastWhenTheProgramExits) {
    REQUIRE_TOOL("tmux");
    // (Not at once: tmux 3.3a may lose the output of a program that exits within milliseconds
    // of starting.)
    TmuxSession s("sleep 0.1; printf 'crashed\\n'; exit 2", TmuxOptions(40, 5));
    ASSERT_TRUE(s.started()) << s.error();
    const auto start = std::chrono::steady_clock::now();
    ::testing::AssertionResult r = s.wait_for("never shown", 10s);
    EXPECT_FALSE(r);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
    EXPECT_NE(std::string(r.message()).find("exited, status 2"), std::string::npos) << r.message();
    EXPECT_NE(std::string(r.message()).find("crashed"), std::string::npos) << r.message();
}

TEST(E2eInfra, TmuxRunsTheRuntopBinary) {
    REQUIRE_TOOL("tmux");
    TempDir dir;
    make_dirs(dir / "run1");
    write_file(dir / "run1/metrics.csv", "step,train_loss\n1,0.5\n2,0.25\n");
    TmuxSession s(shell_quote(testing::runtop_binary()) + " ls " + shell_quote(dir.path()),
                  TmuxOptions(160, 20));
    ASSERT_TRUE(s.started()) << s.error();
    int status = -1;
    ASSERT_TRUE(s.wait_exit(&status));
    EXPECT_EQ(status, 0) << s.capture();
    EXPECT_TRUE(s.wait_for("train_loss", 2s));
}

TEST(E2eInfra, ExitBySignalIsReported) {
    REQUIRE_TOOL("tmux");
    TmuxSession s("kill -TERM $$", TmuxOptions(40, 5));
    ASSERT_TRUE(s.started()) << s.error();
    int status = -1;
    ASSERT_TRUE(s.wait_exit(&status));
    EXPECT_EQ(status, 128 + 15);
}

class E2eInfraSsh : public SshLocalhostTest {};

TEST_F(E2eInfraSsh, StandInThroughSshInsideTmux) {
    REQUIRE_TOOL("tmux");
    TempDir dir;
    const std::string script = write_stand_in(dir);
    const std::string line = ssh().command_line(
        dir.path(), {{"LANG", "C.UTF-8"}, {"E2E_TAG", "via ssh"}}, shell_quote(script));
    TmuxSession s(line, TmuxOptions(120, 40));
    ASSERT_TRUE(s.started()) << s.error();
    ASSERT_TRUE(s.wait_for("ready>")) << "sshd log:\n" << ssh().log();
    std::string screen = s.capture();
    // TERM travels with ssh's pty request; the rest comes from the command line.
    EXPECT_NE(screen.find("term=" + tmux_pane_term() + " lang=C.UTF-8 tag=via ssh"),
              std::string::npos)
        << screen;
    EXPECT_NE(screen.find("standin 120x40"), std::string::npos) << screen;

    ASSERT_TRUE(s.send_text("x"));
    ASSERT_TRUE(s.wait_for("keys:x"));
    // The window change goes through ssh to the remote pty.
    ASSERT_TRUE(s.resize(30, 8));
    ASSERT_TRUE(s.wait_for("standin 30x8"));
    ASSERT_TRUE(s.resize(120, 40));
    ASSERT_TRUE(s.wait_for("standin 120x40"));

    ASSERT_TRUE(s.send_keys({"q"}));
    int status = -1;
    ASSERT_TRUE(s.wait_exit(&status));
    EXPECT_EQ(status, 7) << s.capture();  // ssh exits with the remote command's status
}

}  // namespace
}  // namespace runtop::testing
