// The anomaly list through `runtop snapshot` (views/anomaly_view.h): columns decided from the
// whole list, so paging keeps them; widths from what the columns hold; the readout of the
// selected row, every field and the message whole, at 80x24 and 120x40.
//
// The fixture, written by the test: one root "fx" with two runs. tensorboard: rank 0's
// train/loss is NaN every 10th step from 20 to 200 (19 records of a short tag, a short message).
// monitor_output: msProbe's statistics of rank 1 (grad_reduced/layers.<l>.<weight|bias>/norm,
// steps 0-299, smooth) and its anomaly.json calling step 250 AnomalyTurbulence on all eight and
// step 280 AnomalyNan on two: long tags and long messages, on the list's later pages.
//
// Golden files: tests/golden/anomalies_*.txt; re-bless with
//
//     RUNTOP_BLESS=1 build/tests/runtop_tests --gtest_filter='AnomalySnapshot.*'
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "tests/test_support.h"
#include "tests/view_fixture.h"
#include "views/canvas.h"
#include "writers/event_writer.h"
#include "writers/msprobe_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using nlohmann::json;
using testing::run_runtop;
using testing::split_lines;
using testing::TempDir;

constexpr int kParams = 8;

std::string param_name(int p) {
    return "layers." + std::to_string(p / 2) + (p % 2 == 0 ? ".weight" : ".bias");
}

void write_tensorboard(const std::string& root) {
    const std::string dir = root + "/tensorboard/rank_0";
    testing::make_dirs(dir);
    testing::FixtureNoise noise(11);
    std::string bytes;
    for (int s = 0; s < 300; ++s) {
        double loss = (0.6 + 2.0 * std::exp(-s / 100.0)) * std::exp(0.01 * noise());
        if (s >= 20 && s <= 200 && s % 10 == 0) loss = std::nan("");
        const double grad = 1.2 * std::exp(0.05 * noise());
        bytes += frame_record(
            events::simple_scalar("train/loss", static_cast<float>(loss), s, 1.7e9 + s));
        bytes += frame_record(
            events::simple_scalar("train/grad_norm", static_cast<float>(grad), s, 1.7e9 + s));
    }
    testing::write_file(dir + "/events.out.tfevents.1", bytes);
}

void write_msprobe(const std::string& root) {
    const std::string run_dir =
        root + "/monitor_output/" + msprobe::run_dir_name(1.7e9, 1, 0x2a7c11e5u);
    testing::make_dirs(run_dir);
    msprobe::MonitorCsvWriter csv(run_dir, {"norm"}, 100);
    for (int step = 0; step < 300; ++step) {
        std::vector<msprobe::Row> rows;
        for (int p = 0; p < kParams; ++p)
            rows.push_back({0, param_name(p), -1, {0.3 + 0.05 * p + 0.0001 * step}, "[1024]"});
        ASSERT_TRUE(csv.write_step("grad_reduced", false, step, rows));
    }
    std::vector<msprobe::Anomaly> anomalies;
    auto add = [&](int p, int step, const char* rule, double value) {
        msprobe::Anomaly a;
        a.rank = 1;
        a.step = step;
        a.call_id = p;
        a.tag_name = "0:" + param_name(p) + "/rank1/post_grad";
        a.rule = rule;
        a.op = "norm";
        a.value = value;
        a.history_mean = 0.3 + 0.05 * p + 0.0001 * (step - 50);
        a.group_mates = {1};
        anomalies.push_back(std::move(a));
    };
    for (int p = 0; p < kParams; ++p) add(p, 250, "AnomalyTurbulence", 4.25 + 0.5 * p);
    for (int p = 0; p < 2; ++p) add(p, 280, "AnomalyNan", std::nan(""));
    const std::string anomaly_dir = root + "/monitor_output/anomaly_detected/rank1";
    testing::make_dirs(anomaly_dir);
    testing::write_file(anomaly_dir + "/anomaly.json", msprobe::anomaly_json(anomalies));
}

class AnomalySnapshot : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir();
        write_tensorboard(dir_->path());
        write_msprobe(dir_->path());
    }
    static void TearDownTestSuite() { delete dir_; }
    void SetUp() override {
        // Never pick up the rules of whoever runs the tests.
        ::setenv("XDG_CONFIG_HOME", (config_ / "config").c_str(), 1);
    }
    static std::string root() { return "fx=" + dir_->path(); }

    // The anomaly list at `size` after `keys`.
    static std::vector<std::string> frame(const std::string& size, const std::string& keys = "") {
        auto r =
            run_runtop({"snapshot", "--size", size, "--view", "anomalies", "--keys", keys, root()});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return split_lines(r.out);
    }
    static void expect_golden(const std::string& name, const std::string& size,
                              const std::string& keys) {
        testing::expect_golden_output(name, run_runtop({"snapshot", "--size", size, "--view",
                                                        "anomalies", "--keys", keys, root()}));
    }

    static inline TempDir* dir_ = nullptr;
    TempDir config_;
};

// The same columns on every page: the page with the long msProbe tags used to drop the source
// column and the first one to widen the rule.
TEST_F(AnomalySnapshot, ColumnsDoNotChangeFromPageToPage) {
    for (const char* size : {"80x24", "120x22"}) {
        const std::vector<std::string> first = frame(size);
        ASSERT_FALSE(first.empty());
        EXPECT_NE(first.back().find("page 1/2"), std::string::npos) << size << ": " << first.back();
        for (const char* keys : {"PgDn", "End"}) {
            const std::vector<std::string> paged = frame(size, keys);
            ASSERT_FALSE(paged.empty());
            EXPECT_NE(paged.back().find("page 2/2"), std::string::npos) << paged.back();
            EXPECT_EQ(paged.front(), first.front()) << size << " after " << keys;
        }
    }
}

// A column is as wide as the longest cell it holds over the list; the message takes the rest.
TEST_F(AnomalySnapshot, ColumnsAreAsWideAsWhatTheyHold) {
    const std::vector<std::string> lines = frame("200x40");
    ASSERT_FALSE(lines.empty());
    const std::string& head = lines.front();
    const std::size_t tag = head.find("TAG"), rule = head.find("RULE"), run = head.find("RUN"),
                      rank = head.find("RANK");
    ASSERT_NE(rule, std::string::npos) << head;
    // "grad_reduced/layers.0.weight/norm" and the gap after it.
    EXPECT_EQ(rule - tag, std::string("grad_reduced/layers.0.weight/norm").size() + 2) << head;
    // The runs without the root they share: "monitor_output".
    EXPECT_EQ(rank - run, std::string("monitor_output").size() + 2) << head;
    // "msprobe" under SOURCE, then the message.
    EXPECT_EQ(head.find("MESSAGE") - head.find("SOURCE"), std::string("msprobe").size() + 2)
        << head;
}

// At 80 columns the run, severity and value stay: the message column goes first (the readout
// below holds it whole).
TEST_F(AnomalySnapshot, NarrowTerminalsKeepRunSeverityAndValue) {
    const std::vector<std::string> lines = frame("80x24", "End");
    ASSERT_FALSE(lines.empty());
    for (const char* column : {"STEP", "RUN", "RANK", "TAG", "RULE", "SEV", "VALUE"})
        EXPECT_NE(lines.front().find(column), std::string::npos) << column << ": " << lines.front();
    for (const std::string& line : lines) EXPECT_LE(ui::display_width(line), 80) << line;
}

std::string squeezed(const std::string& text) {
    return std::regex_replace(text, std::regex("\\s+"), " ");
}

// The readout holds the selected row whole: its message, run, rank, tag, rule, at 80x24 and
// 120x40, whatever the table cut.
TEST_F(AnomalySnapshot, TheSelectedRowsWholeMessageIsInTheFrame) {
    auto r = run_runtop({"check", "--format", "json", root()});
    ASSERT_EQ(r.exit_code, 1) << r.err;
    const json all = json::parse(r.out).at("anomalies");
    ASSERT_EQ(all.size(), 29u) << r.out;
    // The first row (a NaN loss), the roots of the last two incidents (msProbe's turbulence on
    // eight parameters at step 250, its NaN on two at 280) and the last member, unfolded.
    ASSERT_EQ(all.size(), 29u);
    const std::vector<std::pair<std::string, std::size_t>> picks = {
        {"", 0}, {"End Up", 19}, {"End", 27}, {"End Right Down", 28}};
    for (const char* size : {"80x24", "120x40"}) {
        for (const auto& [keys, index] : picks) {
            const json& a = all[index];
            std::string text;
            for (const std::string& line : frame(size, keys)) text += line + "\n";
            const std::string frame_text = squeezed(text);
            const std::string message = a.at("message").get<std::string>();
            ASSERT_GT(message.size(), 10u);
            EXPECT_NE(frame_text.find(squeezed(message)), std::string::npos)
                << size << " " << keys << ": " << message << "\n"
                << text;
            for (const char* key : {"run", "tag", "rule"}) {
                const std::string value = a.at(key).get<std::string>();
                EXPECT_NE(text.find(" " + value), std::string::npos) << key << " " << value;
            }
            EXPECT_NE(text.find("rank " + std::to_string(a.at("rank").get<int>())),
                      std::string::npos)
                << text;
            EXPECT_NE(text.find("step " + std::to_string(a.at("step").get<int>())),
                      std::string::npos)
                << text;
        }
    }
}

TEST_F(AnomalySnapshot, Golden80x24) {
    expect_golden("anomalies_80x24", "80x24", "");
}

TEST_F(AnomalySnapshot, Golden80x24OnAnMsProbeEntry) {
    expect_golden("anomalies_80x24_msprobe", "80x24", "End");
}

TEST_F(AnomalySnapshot, Golden120x40OnAnMsProbeEntry) {
    expect_golden("anomalies_120x40_msprobe", "120x40", "End");
}

}  // namespace
}  // namespace runtop
