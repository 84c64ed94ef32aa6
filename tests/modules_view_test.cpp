// The module x step heatmap (views/modules_view.h, `6`, `snapshot --view modules`): the
// aggregation over ranks, golden frames of an msProbe fixture (a NaN, the earliest anomaly
// marked, rows zoomed to groups of layers, the spread), the one line with no family, and the
// earliest anomalous cell of msProbe's public sample where msProbe's injection is.
//
// Re-bless after an intended change: RUNTOP_BLESS=1 build/tests/runtop_tests
// --gtest_filter='ModulesSnapshot.*' and review `git diff tests/golden/`.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/store/store.h"
#include "tests/model_fixture.h"
#include "tests/test_support.h"
#include "tests/view_fixture.h"
#include "views/canvas.h"
#include "views/model.h"
#include "views/modules_view.h"
#include "writers/msprobe_writer.h"

namespace runtop {
namespace {

using testing::run_runtop;
using testing::split_lines;
using testing::TempDir;

// The readout of the selected cell: the line that names the earliest anomaly.
std::string readout_line(const std::vector<std::string>& lines) {
    for (const std::string& l : lines)
        if (l.find("earliest ") != std::string::npos && l.find(" (e)") != std::string::npos)
            return l;
    return "<no readout>";
}

// ---- the aggregation, in process

class ModulesAggregation : public testing::ModelFixture {
  protected:
    // The readout line (the selected cell, under the legend) of a 80x12 frame.
    std::string readout(const ui::ModulesState& state) {
        ui::ViewModel model(store_, analyzer_);
        model.update();
        ui::Canvas canvas(80, 12);
        ui::draw_modules(canvas, model, state);
        const int y = find(canvas, " step 0:").second;
        return y < 0 ? std::string("<no readout>") : row(canvas, y);
    }
    std::string title(const ui::ModulesState& state) {
        ui::ViewModel model(store_, analyzer_);
        model.update();
        ui::Canvas canvas(100, 12);
        ui::draw_modules(canvas, model, state);
        return row(canvas, 0);
    }
};

// Two ranks of one module at one step: 2 and 8. Max over ranks 8, rank 0 alone 2, rank 1 8,
// the spread 8/2 = 4; a second module (layer 1: 3 and 3) grouped with it by the zoom adds its
// own spread (1), and the group shows the larger.
TEST_F(ModulesAggregation, MaxRankAndSpreadOverRanks) {
    add("job", 0, "grad_unreduced/layers.0.mlp/norm", 1, [](int) { return 2.0; });
    add("job", 1, "grad_unreduced/layers.0.mlp/norm", 1, [](int) { return 8.0; });
    add("job", 0, "grad_unreduced/layers.1.mlp/norm", 1, [](int) { return 3.0; });
    add("job", 1, "grad_unreduced/layers.1.mlp/norm", 1, [](int) { return 3.0; });
    ui::ModulesState s;
    EXPECT_EQ(readout(s).rfind("layers.0.mlp step 0: 8", 0), 0u) << readout(s);
    EXPECT_NE(title(s).find("max over ranks"), std::string::npos) << title(s);
    s.aggregation = ui::ModuleAggregation::kRank;
    EXPECT_EQ(readout(s).rfind("layers.0.mlp step 0: 2", 0), 0u) << readout(s);
    EXPECT_NE(title(s).find("rank 0"), std::string::npos) << title(s);
    s.rank = 1;
    EXPECT_EQ(readout(s).rfind("layers.0.mlp step 0: 8", 0), 0u) << readout(s);
    EXPECT_NE(title(s).find("rank 1"), std::string::npos) << title(s);
    s.aggregation = ui::ModuleAggregation::kSpread;
    EXPECT_EQ(readout(s).rfind("layers.0.mlp step 0: ?4", 0), 0u) << readout(s);
    s.row = 1;
    EXPECT_EQ(readout(s).rfind("layers.1.mlp step 0: ?1", 0), 0u) << readout(s);
    s.zoom = 2;  // two layers a row: one row, the larger spread of its modules
    s.row = 0;
    EXPECT_EQ(readout(s).rfind("layers 0-1 step 0: ?4", 0), 0u) << readout(s);
    s.aggregation = ui::ModuleAggregation::kMax;
    EXPECT_EQ(readout(s).rfind("layers 0-1 step 0: 8", 0), 0u) << readout(s);
}

// Live: a NaN that arrives after the first frame is found on the next (the family's members are
// looked at only where they grew), and so is one that replaces the last point (an equal step).
// No rules: the NaN/Inf are found in the points, not in a nonfinite rule's records.
class ModulesLive : public ::testing::Test {
  protected:
    template <class F>
    void add(const std::string& run, int rank, const std::string& tag, int steps, F f) {
        const SeriesId id = sink_.series({run, rank, tag}, source_id({"tfevents"}));
        for (int s = 0; s < steps; ++s) sink_.append(id, {s, 1.7e9 + s, static_cast<double>(f(s))});
    }
    static std::string row(const ui::Canvas& c, int y) {
        std::string out;
        for (int x = 0; x < c.width(); ++x) {
            const char32_t ch = c.at(x, y).ch;
            if (ch != 0) out += ch < 0x80 ? static_cast<char>(ch) : '?';
        }
        return out;
    }
    Store store_;
    Analyzer analyzer_{RuleSet{}};
    AnalyzingSink sink_{analyzer_, &store_};
};

TEST_F(ModulesLive, ANanArrivingLaterIsTheEarliestAlert) {
    for (int rank = 0; rank < 2; ++rank)
        for (int layer = 0; layer < 3; ++layer)
            add("job", rank, "grad_unreduced/layers." + std::to_string(layer) + ".mlp/norm", 20,
                [](int s) { return 1.0 + 0.01 * s; });
    ui::ViewModel model(store_, analyzer_);
    model.update();
    ui::ModulesState state;
    ui::Canvas canvas(80, 12);
    auto text = [&] {
        model.update();
        ui::draw_modules(canvas, model, state);
        std::string all;
        for (int y = 0; y < canvas.height(); ++y) all += row(canvas, y) + "\n";
        return all;
    };
    EXPECT_EQ(text().find("earliest alert"), std::string::npos) << text();
    const SourceId source = source_id({"tfevents"});
    const SeriesId l2 = sink_.series({"job", 1, "grad_unreduced/layers.2.mlp/norm"}, source);
    sink_.append(l2, {19, 1.7e9 + 19, std::nan("")});  // replaces step 19
    EXPECT_NE(text().find("earliest alert: step 19"), std::string::npos) << text();
    const SeriesId l1 = sink_.series({"job", 0, "grad_unreduced/layers.1.mlp/norm"}, source);
    for (int s = 20; s < 25; ++s) sink_.append(l1, {s, 1.7e9 + s, s == 22 ? INFINITY : 1.2});
    // Both alerts: the earliest is still step 19; the Inf at 22 is on its own row.
    EXPECT_NE(text().find("earliest alert: step 19"), std::string::npos) << text();
    state.row = 1;
    state.column = 22;
    EXPECT_NE(text().find("layers.1.mlp step 22: "), std::string::npos) << text();
    EXPECT_NE(text().find(" inf "), std::string::npos) << text();
}

// ---- golden frames of an msProbe fixture

constexpr int kLayers = 10;
constexpr int kSteps = 60;

std::vector<std::string> module_names() {
    std::vector<std::string> out = {"embedding.weight"};
    for (int l = 0; l < kLayers; ++l) {
        out.push_back("layers." + std::to_string(l) + ".attn.weight");
        out.push_back("layers." + std::to_string(l) + ".mlp.weight");
    }
    out.push_back("final_norm.weight");
    return out;
}

// Two ranks, grad_unreduced and actv, ops norm and max, steps 0-59. Rank 1's layers.3.mlp
// gradient is NaN from step 40; layers.6.attn's gradient on rank 0 is 4x rank 1's from step 30
// (a spread); msProbe recorded a turbulence (a warning) on rank 0's layers.1.attn at step 25.
void write_fixture(const std::string& root) {
    const std::vector<std::string> names = module_names();
    for (int rank = 0; rank < 2; ++rank) {
        const std::string run_dir =
            root + "/monitor_output/" + msprobe::run_dir_name(1.7e9, rank, 0x2a7c11e5u + rank);
        testing::make_dirs(run_dir);
        msprobe::MonitorCsvWriter csv(run_dir, {"norm", "max"}, 20);
        testing::FixtureNoise noise(5 + rank);
        for (int step = 0; step < kSteps; ++step) {
            std::vector<msprobe::Row> grads, actv;
            for (std::size_t m = 0; m < names.size(); ++m) {
                double g = (0.2 + 0.1 * m) * std::exp(0.05 * noise()) * std::exp(-step / 200.0);
                if (rank == 1 && names[m] == "layers.3.mlp.weight" && step >= 40) g = std::nan("");
                if (rank == 0 && names[m] == "layers.6.attn.weight" && step >= 30) g *= 4;
                if (rank == 0 && names[m] == "layers.1.attn.weight" && step == 25) g *= 3;
                grads.push_back({0, names[m], -1, {g, g / 10}, "[64]"});
                const double a = 1.0 + 0.01 * m + 0.01 * noise();
                actv.push_back({0, names[m], -1, {a, a / 3}, "[64]"});
            }
            ASSERT_TRUE(csv.write_step("grad_unreduced", false, step, grads));
            ASSERT_TRUE(csv.write_step("actv", false, step, actv));
        }
    }
    msprobe::Anomaly a;
    a.rank = 0;
    a.step = 25;
    a.tag_name = "0:layers.1.attn.weight/rank0/acc_grad";
    a.rule = "AnomalyTurbulence";
    a.op = "norm";
    a.value = 1.2;
    a.history_mean = 0.4;
    a.group_mates = {0, 1};
    const std::string anomaly_dir = root + "/monitor_output/anomaly_detected/rank0";
    testing::make_dirs(anomaly_dir);
    testing::write_file(anomaly_dir + "/anomaly.json", msprobe::anomaly_json({a}));
}

class ModulesSnapshot : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir();
        write_fixture(dir_->path());
    }
    static void TearDownTestSuite() { delete dir_; }
    void SetUp() override { ::setenv("XDG_CONFIG_HOME", (config_ / "config").c_str(), 1); }
    static std::string root() { return "fx=" + dir_->path(); }

    static testing::CommandResult frame(const std::string& size, const std::string& keys,
                                        std::vector<std::string> more = {}) {
        std::vector<std::string> args = {"snapshot", "--size", size, "--view", "modules"};
        if (!keys.empty()) {
            args.push_back("--keys");
            args.push_back(keys);
        }
        args.insert(args.end(), more.begin(), more.end());
        args.push_back(root());
        return run_runtop(args);
    }
    static void expect_golden(const std::string& name, const std::string& size,
                              const std::string& keys, std::vector<std::string> more = {}) {
        testing::expect_golden_output(name, frame(size, keys, std::move(more)));
    }

    static inline TempDir* dir_ = nullptr;
    TempDir config_;
};

// grad_unreduced norm, max over ranks: modules in model order (the embedding first, the final
// norm last), the NaN from step 40, the earliest alert marked where the NaN starts.
TEST_F(ModulesSnapshot, Default100x30) {
    expect_golden("modules_100x30", "100x30", "");
}

TEST_F(ModulesSnapshot, EarliestAnomalyAscii) {
    expect_golden("modules_100x30_earliest_ascii", "100x30", "e", {"--ascii"});
}

// Two layers a row: 7 rows (embedding, 5 groups, final norm); the NaN group still shows it.
TEST_F(ModulesSnapshot, ZoomedToTwoLayersARow) {
    expect_golden("modules_100x20_zoom", "100x20", "- -");
}

// The spread, max/min across ranks: layers.6.attn stands out from step 30.
TEST_F(ModulesSnapshot, Spread) {
    expect_golden("modules_100x30_spread", "100x30", "a a");
}

// Each cell by its distance from its row's median: layers.6.attn from step 30 (4x) at the top
// of the ramp, the rows' small noise at its foot.
TEST_F(ModulesSnapshot, DeviationFromTheRowMedian) {
    expect_golden("modules_100x14_deviation", "100x14", "c PgDn");
}

// PgDn shows the next page of rows; the status line says which.
TEST_F(ModulesSnapshot, RowsPage) {
    auto r = frame("100x14", "PgDn");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    EXPECT_EQ(lines[1].rfind("layers.4.attn.weight", 0), 0u) << r.out;
    EXPECT_NE(lines.back().find("rows 10-18 of 22"), std::string::npos) << r.out;
}

TEST_F(ModulesSnapshot, EarliestIsTheAlertNotTheEarlierWarning) {
    auto r = frame("100x30", "e");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    // The readout: the selected cell is where rank 1's NaN starts.
    const std::string readout = readout_line(lines);
    EXPECT_EQ(readout.rfind("layers.3.mlp.weight step 40: ", 0), 0u) << r.out;
    EXPECT_NE(readout.find(" nan "), std::string::npos) << r.out;
    EXPECT_NE(readout.find("earliest alert: step 40"), std::string::npos) << r.out;
    // The warning msProbe recorded at step 25 is marked on its own row.
    bool warn = false;
    for (const std::string& l : lines)
        if (l.rfind("layers.1.attn.weight ", 0) == 0 && l.find("△") != std::string::npos)
            warn = true;
    EXPECT_TRUE(warn) << r.out;
}

// Enter opens the module's detail chart at the NaN's first step, on the rank that has it.
TEST_F(ModulesSnapshot, EnterOpensTheModulesChartAtTheStep) {
    auto r = frame("100x30", "e Enter");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("grad_unreduced/layers.3.mlp.weight/norm"), std::string::npos) << r.out;
    // The cursor's readout: "step   40", on rank 1 in front.
    EXPECT_TRUE(std::regex_search(r.out, std::regex("step +40\n"))) << r.out;
    EXPECT_NE(r.out.find("front r1"), std::string::npos) << r.out;
}

// `6` shows the view; from an overview where no card was picked, at grad_unreduced norm.
TEST_F(ModulesSnapshot, SixShowsIt) {
    auto r =
        run_runtop({"snapshot", "--size", "100x30", "--view", "overview", "--keys", "6", root()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(split_lines(r.out)[0].rfind("grad_unreduced norm  22 modules", 0), 0u) << r.out;
}

// The module the user was looking at goes along: from its heatmap, its family at its row.
TEST_F(ModulesSnapshot, TakesTheModuleOfTheViewLeft) {
    auto r = run_runtop({"snapshot", "--size", "100x30", "--view", "heatmap", "--tag",
                         "actv/layers.6.mlp.weight/max", "--keys", "6", root()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    EXPECT_EQ(lines[0].rfind("actv max", 0), 0u) << r.out;
    bool selected = false;  // the selection's mark on layers.6.mlp's row
    for (const std::string& l : lines)
        if (l.rfind("layers.6.mlp.weight ", 0) == 0 && l.find("◆") != std::string::npos)
            selected = true;
    EXPECT_TRUE(selected) << r.out;
}

TEST_F(ModulesSnapshot, TaskAndOpCycle) {
    auto r = frame("100x30", "t");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(split_lines(r.out)[0].rfind("actv norm", 0), 0u) << r.out;
    r = frame("100x30", "o");
    EXPECT_EQ(split_lines(r.out)[0].rfind("grad_unreduced max", 0), 0u) << r.out;
}

// No family: one clear line, not an empty screen.
class ModulesNoFamily : public testing::ViewFixture {};

TEST_F(ModulesNoFamily, SaysSoInOneLine) {
    auto r = run_runtop({"snapshot", "--size", "100x20", "--view", "modules", fixture()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    EXPECT_NE(lines[1].find("no module family"), std::string::npos) << r.out;
}

// msProbe's public sample: inputs x100 at step 7 (a turbulence), Inf on rank 1 at step 10, NaN
// on rank 0 at step 11. The toy model's gradients are turbulent at every step (warnings from
// step 1); the earliest alert of grad_unreduced norm is rank 1's Inf at step 10.
TEST(ModulesSample, EarliestAnomalousCellIsMsProbesInjection) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent";
    const std::string root = samples + "/generated/msprobe/trainermon_2rank_csv";
    if (!std::filesystem::exists(root)) GTEST_SKIP() << root << " is absent";
    auto r = run_runtop({"snapshot", "--size", "100x20", "--view", "modules", "--keys", "e", root});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    ASSERT_EQ(lines.size(), 20u);
    EXPECT_EQ(lines[0].rfind("grad_unreduced norm", 0), 0u) << r.out;
    const std::string readout = readout_line(lines);
    EXPECT_NE(readout.find("step 10:"), std::string::npos) << r.out;
    EXPECT_NE(readout.find("earliest alert: step 10"), std::string::npos) << r.out;
    // Rank 1 alone has it at step 10; rank 0's own earliest alert is its NaN at 11.
    r = run_runtop({"snapshot", "--size", "100x20", "--view", "modules", "--keys", "a e", root});
    EXPECT_NE(r.out.find("earliest alert: step 11"), std::string::npos) << r.out;
    r = run_runtop(
        {"snapshot", "--size", "100x20", "--view", "modules", "--keys", "a Tab e", root});
    EXPECT_NE(r.out.find("earliest alert: step 10"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace runtop
