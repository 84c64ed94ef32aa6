// `runtop snapshot` (DESIGN.md §4): golden text frames of the views on a fixed fixture, the
// sanitising of hostile tags, a too-small canvas, usage errors.
//
// Golden files: tests/golden/<name>.txt hold the expected frames. After an intended change to a
// view, re-bless them with one command and review the diff:
//
//     RUNTOP_BLESS=1 build/tests/runtop_tests --gtest_filter='Snapshot.*'
//
// The fixture and the golden comparison are tests/view_fixture.h's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "tests/test_support.h"
#include "tests/view_fixture.h"
#include "views/canvas.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::rank_events;
using testing::run_runtop;
using testing::TempDir;

class Snapshot : public testing::ViewFixture {};

TEST_F(Snapshot, OverviewBraille) {
    expect_golden("overview_100x30", {"--size", "100x30"});
}

TEST_F(Snapshot, OverviewAscii) {
    expect_golden("overview_100x30_ascii", {"--size", "100x30", "--ascii"});
}

TEST_F(Snapshot, AnomaliesBraille) {
    expect_golden("anomalies_100x30", {"--size", "100x30", "--view", "anomalies"});
}

TEST_F(Snapshot, AnomaliesAscii) {
    expect_golden("anomalies_100x30_ascii", {"--size", "100x30", "--view", "anomalies", "--ascii"});
}

TEST_F(Snapshot, OverviewFilteredToTwoRanks) {
    expect_golden("overview_80x16_filtered",
                  {"--size", "80x16", "--filter", "^train/", "--ranks", "0-1"});
}

TEST_F(Snapshot, FrameIsTheCanvasSize) {
    auto r = run_runtop({"snapshot", "--size", "100x30", fixture()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = testing::split_lines(r.out);
    ASSERT_EQ(lines.size(), 30u);
    for (const std::string& line : lines) EXPECT_LE(ui::display_width(line), 100) << line;
    // What a first-time user looks for: loss first, the alerting ranks named, the counts.
    EXPECT_NE(lines[0].find("train/loss"), std::string::npos) << lines[0];
    EXPECT_NE(r.out.find("r2 "), std::string::npos);
    // The NaN alerts, the spike warns (the default spike rule's severity).
    EXPECT_NE(lines[29].find("1 alert"), std::string::npos) << lines[29];
    EXPECT_NE(lines[29].find("1 warn"), std::string::npos) << lines[29];
    EXPECT_NE(lines[29].find("16 series"), std::string::npos) << lines[29];
}

TEST_F(Snapshot, OutputDoesNotDependOnTheLocale) {
    const char* saved = std::getenv("LC_ALL");
    const std::string old = saved ? saved : "";
    ::setenv("LC_ALL", "C", 1);
    auto c = run_runtop({"snapshot", "--size", "90x20", fixture()});
    ::setenv("LC_ALL", "C.UTF-8", 1);
    auto utf8 = run_runtop({"snapshot", "--size", "90x20", fixture()});
    if (saved)
        ::setenv("LC_ALL", old.c_str(), 1);
    else
        ::unsetenv("LC_ALL");
    ASSERT_EQ(c.exit_code, 0) << c.err;
    EXPECT_EQ(c.out, utf8.out);
    EXPECT_NE(c.out.find("⣀"), std::string::npos);  // braille either way
}

TEST_F(Snapshot, TooSmallCanvas) {
    // The smallest size that draws: one card, the status line. One card a page: the training
    // loss first, then train/'s tags in a group card and eval/accuracy.
    auto r = run_runtop({"snapshot", "--size", "20x6", fixture()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto lines = testing::split_lines(r.out);
    ASSERT_EQ(lines.size(), 6u) << r.out;
    for (const std::string& line : lines) EXPECT_LE(ui::display_width(line), 20) << line;
    EXPECT_NE(lines[0].find("train/"), std::string::npos) << r.out;
    EXPECT_NE(lines[0].find("train/loss"), std::string::npos) << r.out;
    EXPECT_NE(lines[5].find("page 1/3"), std::string::npos) << r.out;
    auto a = run_runtop({"snapshot", "--size", "20x6", "--view", "anomalies", fixture()});
    ASSERT_EQ(a.exit_code, 0) << a.err;
    lines = testing::split_lines(a.out);
    ASSERT_EQ(lines.size(), 6u) << a.out;
    for (const std::string& line : lines) EXPECT_LE(ui::display_width(line), 20) << line;
    EXPECT_EQ(lines[0].rfind("INCIDENT", 0), 0u) << a.out;

    // Below it: a short notice, never a garbled frame.
    for (const char* view : {"overview", "anomalies"}) {
        auto small = run_runtop({"snapshot", "--size", "19x5", "--view", view, fixture()});
        ASSERT_EQ(small.exit_code, 0) << small.err;
        lines = testing::split_lines(small.out);
        ASSERT_EQ(lines.size(), 5u) << small.out;
        EXPECT_NE(small.out.find("too small"), std::string::npos) << small.out;
        for (const std::string& line : lines) EXPECT_LE(ui::display_width(line), 19) << line;
    }
    auto tiny = run_runtop({"snapshot", "--size", "1x1", fixture()});
    ASSERT_EQ(tiny.exit_code, 0) << tiny.err;
    EXPECT_EQ(testing::split_lines(tiny.out).size(), 1u);
}

TEST_F(Snapshot, HealthyRunHasACalmEmptyAnomalyList) {
    TempDir d;
    testing::make_dirs(d / "run");
    testing::write_file(d / "run/events.out.tfevents.1", rank_events(0, 300));
    auto r = run_runtop({"snapshot", "--size", "100x10", "--view", "anomalies", d.path()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = testing::split_lines(r.out);
    ASSERT_EQ(lines.size(), 10u);
    EXPECT_NE(lines[1].find("no anomalies"), std::string::npos) << r.out;
    EXPECT_NE(lines[1].find("4 series watched by nonfinite, spike"), std::string::npos) << r.out;
    EXPECT_NE(lines[9].find("no alerts"), std::string::npos) << r.out;
}

TEST_F(Snapshot, HostileTagsAreDrawnVisiblyNeverRaw) {
    TempDir d;
    testing::make_dirs(d / "run");
    // Clear the screen, set the title, ring the bell, move the cursor: all inside a tag.
    const std::string evil = "evil\x1b[2J\x1b]0;pwned\x07\r\x1b[10;10H/loss";
    std::string bytes;
    for (int s = 0; s < 100; ++s)
        bytes += frame_record(
            events::simple_scalar(evil, s == 80 ? std::nanf("") : 1.0f + 0.01f * s, s, 1.7e9 + s));
    testing::write_file(d / "run/events.out.tfevents.1", bytes);
    for (const char* view : {"overview", "anomalies"}) {
        for (bool ascii : {false, true}) {
            std::vector<std::string> args = {"snapshot", "--size", "120x12", "--view", view};
            if (ascii) args.push_back("--ascii");
            args.push_back(d.path());
            auto r = run_runtop(args);
            ASSERT_EQ(r.exit_code, 0) << r.err;
            for (char c : r.out) {
                const unsigned char u = static_cast<unsigned char>(c);
                ASSERT_TRUE(u == '\n' || u >= 0x20) << view << ": raw control byte " << int(u);
                ASSERT_NE(u, 0x7f);
            }
            EXPECT_NE(r.out.find("evil\\x1b[2J"), std::string::npos) << r.out;
            for (const std::string& line : testing::split_lines(r.out))
                EXPECT_LE(ui::display_width(line), 120) << line;
        }
    }
    // With colour, the only escapes are runtop's own SGR sequences.
    auto r = run_runtop(
        {"snapshot", "--size", "120x12", "--view", "anomalies", "--color", "always", d.path()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\x1b["), std::string::npos);
    const std::string stripped = std::regex_replace(r.out, std::regex("\x1b\\[[0-9;]*m"), "");
    EXPECT_EQ(stripped.find('\x1b'), std::string::npos) << stripped;
    EXPECT_EQ(stripped.find('\x07'), std::string::npos);
    EXPECT_NE(stripped.find("evil\\x1b[2J"), std::string::npos) << stripped;
}

TEST_F(Snapshot, ColorAlwaysIsThePlainFrameWithSgr) {
    auto plain = run_runtop({"snapshot", "--size", "100x30", fixture()});
    auto color = run_runtop({"snapshot", "--size", "100x30", "--color", "always", fixture()});
    ASSERT_EQ(color.exit_code, 0) << color.err;
    const std::string stripped = std::regex_replace(color.out, std::regex("\x1b\\[[0-9;]*m"), "");
    auto a = testing::split_lines(plain.out), b = testing::split_lines(stripped);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        while (!b[i].empty() && b[i].back() == ' ') b[i].pop_back();
        EXPECT_EQ(a[i], b[i]) << "line " << i;
    }
}

TEST_F(Snapshot, UsageErrorsExitTwo) {
    auto view = run_runtop({"snapshot", "--view", "bogus", fixture()});
    EXPECT_EQ(view.exit_code, 2);
    EXPECT_NE(
        view.err.find("overview, ranks, heatmap, anomalies, compare, modules, detail, not 'bogus'"),
        std::string::npos)
        << view.err;
    for (const char* size : {"100", "0x10", "10x0", "axb", "100x", "2000x10"}) {
        auto r = run_runtop({"snapshot", "--size", size, fixture()});
        EXPECT_EQ(r.exit_code, 2) << size;
        EXPECT_NE(r.err.find("COLSxROWS"), std::string::npos) << r.err;
    }
    EXPECT_EQ(run_runtop({"snapshot", "--color", "auto", fixture()}).exit_code, 2);
    EXPECT_EQ(run_runtop({"snapshot", "--filter", "(", fixture()}).exit_code, 2);
    EXPECT_EQ(run_runtop({"snapshot", "--ranks", "x", fixture()}).exit_code, 2);
    EXPECT_EQ(run_runtop({"snapshot"}).exit_code, 2);
    EXPECT_EQ(run_runtop({"snapshot", "/nonexistent/runtop-snapshot"}).exit_code, 2);
    auto help = run_runtop({"snapshot", "--help"});
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_NE(help.out.find("--size COLSxROWS"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace runtop
