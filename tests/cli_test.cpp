// The real binary: `runtop demo`, `ls` and `dump` as scripts use them (DESIGN.md §4).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "app/cli.h"
#include "tests/test_support.h"
#include "writers/demo_run.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::run_runtop;
using testing::TempDir;

class Cli : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir();
        auto r = run_runtop({"demo", "--no-ui", "--dir", dir_->path() + "/demo", "--ranks", "4",
                             "--steps", "300", "--rate", "0"});
        demo_error_ = new std::string(r.exit_code == 0 ? "" : "runtop demo: " + r.err);
    }
    static void TearDownTestSuite() {
        delete dir_;
        delete demo_error_;
    }
    // Each test fails (never skips) when the shared demo run could not be written: a fatal
    // failure in SetUpTestSuite would only mark the tests skipped.
    void SetUp() override { ASSERT_EQ(*demo_error_, ""); }
    static std::string demo() { return dir_->path() + "/demo"; }
    static TempDir* dir_;
    static std::string* demo_error_;
};
TempDir* Cli::dir_ = nullptr;
std::string* Cli::demo_error_ = nullptr;

// The demo's TensorBoard half: tags under train/, eval/, gpu/ and weights/.
const char* const kTensorBoardTags = "^(train|eval|gpu|weights)/";

TEST_F(Cli, LsCsvListsEverySeries) {
    auto r = run_runtop({"ls", "--format", "csv", "--filter", kTensorBoardTags, demo()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> rows = testing::split_lines(r.out);
    ASSERT_EQ(rows.size(), 1u + 4 * 12);
    EXPECT_EQ(rows[0], "run,rank,tag,points,first_step,last_step,last_value,source");
    EXPECT_EQ(rows[1].substr(0, 34), "demo/tensorboard,0,eval/loss,6,49,");
    EXPECT_NE(r.err.find("48 series"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("4 config entries"), std::string::npos) << r.err;
}

TEST_F(Cli, LsTextIsAnAlignedTable) {
    auto r = run_runtop({"ls", "--filter", "^train/loss$", demo()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> rows = testing::split_lines(r.out);
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0].find("RUN"), 0u);
    for (const std::string& row : rows) EXPECT_EQ(row.size(), rows[0].size()) << row;
}

TEST_F(Cli, DumpCsvHasEveryPointAndTheInjectedNaN) {
    auto r = run_runtop({"dump", "--filter", kTensorBoardTags, demo()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> rows = testing::split_lines(r.out);
    EXPECT_EQ(rows[0], "run,rank,tag,step,wall_time,value");
    // 11 tags every step, eval/loss every 50th, 4 ranks.
    EXPECT_EQ(rows.size(), 1u + 4 * (300 * 11 + 6));
    DemoOptions o;
    o.ranks = 4;
    o.steps = 300;
    DemoTrouble t = DemoRun::trouble_for(o);
    std::string nan_prefix = "demo/tensorboard," + std::to_string(t.nan_rank) + ",train/loss," +
                             std::to_string(t.nan_step) + ",";
    bool found = false;
    for (const std::string& row : rows)
        if (row.rfind(nan_prefix, 0) == 0) found = row.substr(row.size() - 4) == ",nan";
    EXPECT_TRUE(found) << nan_prefix;
}

TEST_F(Cli, DemoWritesMsProbeMonitorOutputWithItsNaN) {
    auto r = run_runtop({"ls", "--format", "csv", demo() + "/monitor_output"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> rows = testing::split_lines(r.out);
    // 4 ranks x 8 parameters x (grad_reduced, exp_avg, exp_avg_sq, param_updated) x 5 ops.
    ASSERT_EQ(rows.size(), 1u + 4 * 8 * 4 * 5);
    EXPECT_NE(r.err.find("0 bad rows"), std::string::npos) << r.err;
    DemoOptions o;
    o.ranks = 4;
    o.steps = 300;
    DemoTrouble t = DemoRun::trouble_for(o);
    auto dump = run_runtop({"dump", "--filter", "^grad_reduced/layers\\.0\\.weight/norm$",
                            "--ranks", std::to_string(t.nan_rank), demo() + "/monitor_output"});
    ASSERT_EQ(dump.exit_code, 0) << dump.err;
    std::vector<std::string> points = testing::split_lines(dump.out);
    ASSERT_EQ(points.size(), 1u + 300);
    std::string nan_row = points.at(1 + static_cast<std::size_t>(t.nan_step));
    EXPECT_EQ(
        nan_row.rfind("monitor_output," + std::to_string(t.nan_rank) +
                          ",grad_reduced/layers.0.weight/norm," + std::to_string(t.nan_step) + ",",
                      0),
        0u)
        << nan_row;
    EXPECT_EQ(nan_row.substr(nan_row.size() - 4), ",nan");
}

// Filters act at ingest (core/filtering_sink.h): the rows listed are exactly the unfiltered
// listing's rows of that tag and ranks, and the summary counts what it lists.
TEST_F(Cli, LsFilterListsWhatTheUnfilteredLsListsForItsSeries) {
    auto all = run_runtop({"ls", "--format", "csv", demo()});
    ASSERT_EQ(all.exit_code, 0) << all.err;
    struct Case {
        std::vector<std::string> args;
        std::string tag_prefix;  // ",<tag>," of the rows expected
        std::vector<std::string> ranks;
    };
    for (const Case& c :
         {Case{{"--filter", "^grad_reduced/layers\\.0\\.weight/norm$"},
               ",grad_reduced/layers.0.weight/norm,",
               {"0", "1", "2", "3"}},
          Case{{"--filter", "^train/loss$", "--ranks", "1,3"}, ",train/loss,", {"1", "3"}},
          // Node 1 of two ranks a node: ranks 2 and 3.
          Case{{"--filter", "^train/loss$", "--ranks", "n1", "--ranks-per-node", "2"},
               ",train/loss,",
               {"2", "3"}}}) {
        std::vector<std::string> want;
        for (const std::string& row : testing::split_lines(all.out)) {
            if (row.find(c.tag_prefix) == std::string::npos) continue;
            for (const std::string& rank : c.ranks)
                if (row.find("," + rank + c.tag_prefix) != std::string::npos) want.push_back(row);
        }
        ASSERT_EQ(want.size(), c.ranks.size());
        std::vector<std::string> args = {"ls", "--format", "csv"};
        args.insert(args.end(), c.args.begin(), c.args.end());
        args.push_back(demo());
        auto filtered = run_runtop(args);
        ASSERT_EQ(filtered.exit_code, 0) << filtered.err;
        std::vector<std::string> got = testing::split_lines(filtered.out);
        ASSERT_FALSE(got.empty());
        got.erase(got.begin());  // the header
        EXPECT_EQ(got, want);
        EXPECT_NE(filtered.err.find(std::to_string(want.size()) + " series, "), std::string::npos)
            << filtered.err;
    }
}

TEST_F(Cli, DumpJsonlFilteredByTagAndRank) {
    auto r = run_runtop({"dump", "--format", "jsonl", "--filter", "GRAD_NORM", "--ranks", "1-2,!2",
                         "named=" + demo()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> rows = testing::split_lines(r.out);
    ASSERT_EQ(rows.size(), 300u);
    std::int64_t previous = -1;
    for (const std::string& row : rows) {
        nlohmann::json j = nlohmann::json::parse(row);
        EXPECT_EQ(j["run"], "named/tensorboard");
        EXPECT_EQ(j["rank"], 1);
        EXPECT_EQ(j["tag"], "train/grad_norm");
        EXPECT_GT(j["step"].get<std::int64_t>(), previous);
        previous = j["step"].get<std::int64_t>();
        EXPECT_TRUE(j["value"].is_number());
    }
}

TEST(CliErrors, MissingPathIsOneLineNamingItAndNotFatalForOthers) {
    TempDir dir;
    testing::write_file(dir / "events.out.tfevents.1",
                        frame_record(events::simple_scalar("loss", 1, 1, 1)));
    auto r = run_runtop({"ls", "--format", "csv", dir / "nope", dir.path()});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.err.find(dir / "nope"), std::string::npos);
    EXPECT_EQ(testing::split_lines(r.out).size(), 2u);
    auto only_missing = run_runtop({"dump", dir / "nope"});
    EXPECT_EQ(only_missing.exit_code, 2);
}

TEST(CliErrors, UsageErrorsExitTwo) {
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{},
                                               {"ls"},
                                               {"ls", "--format", "xml", "."},
                                               {"ls", "--bogus", "."},
                                               {"dump", "--filter", "(", "."},
                                               {"dump", "--ranks", "x", "."},
                                               {"ls", "--ranks-per-node", "0", "."},
                                               {"demo", "--ranks", "0"},
                                               {"nonsense"}}) {
        auto r = run_runtop(args);
        EXPECT_EQ(r.exit_code, 2) << ::testing::PrintToString(args);
        EXPECT_FALSE(r.err.empty());
        if (!args.empty()) {  // bare `runtop` prints the usage instead
            EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
        }
    }
}

std::string_view version_prefix() {
    return "0.1.0";  // CMakeLists.txt: project(runtop VERSION 0.1.0)
}

TEST(CliErrors, HelpAndVersion) {
    auto help = run_runtop({"--help"});
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_NE(help.out.find("runtop dump"), std::string::npos);
    auto ls_help = run_runtop({"ls", "--help"});
    EXPECT_EQ(ls_help.exit_code, 0);
    EXPECT_NE(ls_help.out.find("--ranks SPEC"), std::string::npos);
    auto version = run_runtop({"--version"});
    EXPECT_EQ(version.exit_code, 0);
    // The project version, then (from a git checkout) the commit it was configured from.
    EXPECT_TRUE(version.out.starts_with("runtop " + std::string(version_prefix()))) << version.out;
}

// `SOURCE_DATE_EPOCH=... runtop demo --rate 0`: the same event files every time, dated from the
// epoch (what makes the README's screenshots reproducible).
TEST(CliErrors, DemoWrittenAtOnceHonoursSourceDateEpoch) {
    TempDir d;
    ::setenv("SOURCE_DATE_EPOCH", "1768467600", 1);  // 2026-01-15 09:00:00 UTC
    for (const char* run : {"/a", "/b"})
        ASSERT_EQ(run_runtop({"demo", "--no-ui", "--rate", "0", "--ranks", "2", "--steps", "50",
                              "--dir", d.path() + run})
                      .exit_code,
                  0);
    ::unsetenv("SOURCE_DATE_EPOCH");
    const auto a = run_runtop({"dump", d.path() + "/a/tensorboard"});
    const auto b = run_runtop({"dump", d.path() + "/b/tensorboard"});
    ASSERT_EQ(a.exit_code, 0) << a.err;
    EXPECT_EQ(a.out, b.out);
    EXPECT_NE(a.out.find(",1768467600"), std::string::npos) << a.out.substr(0, 300);
}

// Every command's --help is its row of the command table: the synopsis made from its options,
// and each option with its help; `runtop --help` lists every synopsis and the dashboard's options.
TEST(CliErrors, EveryHelpComesFromTheCommandTable) {
    const auto top = run_runtop({"--help"});
    ASSERT_EQ(top.exit_code, 0);
    for (const Command& c : commands()) {
        EXPECT_NE(top.out.find("  " + synopsis(c) + "\n"), std::string::npos) << synopsis(c);
        std::vector<std::string> args;
        // The dashboard's own help: `runtop PATH --help` (`runtop --help` is the overview).
        args.push_back(c.name.empty() ? "." : std::string(c.name));
        args.push_back("--help");
        const auto help = run_runtop(args);
        EXPECT_EQ(help.exit_code, 0) << c.name;
        EXPECT_EQ(help.out.rfind("usage: " + synopsis(c) + "\n", 0), 0u) << help.out;
        for (const OptionSpec& o : *c.options) {
            EXPECT_NE(help.out.find("--" + std::string(o.name)), std::string::npos)
                << c.name << " --" << o.name;
            EXPECT_NE(help.out.find(std::string(o.help)), std::string::npos) << o.help;
            if (c.name.empty()) {
                EXPECT_NE(top.out.find(std::string(o.help)), std::string::npos);
            }
        }
    }
}

TEST(CliErrors, ControlCharactersInTagsAreNeverWrittenRaw) {
    TempDir dir;
    testing::write_file(dir / "events.out.tfevents.1",
                        frame_record(events::simple_scalar("evil\x1b[2J\x07tag", 1, 1, 1)));
    auto ls = run_runtop({"ls", dir.path()});
    EXPECT_EQ(ls.out.find('\x1b'), std::string::npos);
    EXPECT_NE(ls.out.find("evil\\x1b[2J\\x07tag"), std::string::npos) << ls.out;
    auto jsonl = run_runtop({"dump", "--format", "jsonl", dir.path()});
    EXPECT_EQ(nlohmann::json::parse(testing::split_lines(jsonl.out).at(0))["tag"],
              "evil\x1b[2J\x07tag");
}

}  // namespace
}  // namespace runtop
