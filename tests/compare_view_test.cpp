// The compare view (views/compare/compare_view.h): golden frames of `runtop snapshot --view
// compare` on two runs written by runtop's own event writer, and in-process checks of the rows'
// order, the overlaid sparkline's glyphs (symmetric where the runs agree, NaN visible), the notice
// with fewer than two runs, that only the rows on screen query sparklines, and that a key's frame
// reuses the comparison while a data frame takes in new points.
//
// The golden fixture: runs "base" and "new" of two ranks, 400 steps, from the same seeded noise,
// so they are equal but where the new run is made to differ:
//   train/loss       new rank 1 is 1% higher from step 137, rank 0 0.2% higher from step 200
//   train/grad_norm  new rank 0 is NaN at step 300
//   train/lr         the same
//   eval/accuracy    base every 50th step, new every 25th (different grids, equal where shared)
//   perf/samples_per_s only in base; train/aux_loss only in new
// and a configuration text (add_text("config", JSON): tag config/text_summary) on rank 0 of each:
// lr changed, warmup added, batch_size removed. "base2" is a copy of base (a run against an
// identical one).
//
// Re-bless the golden frames after an intended change:
//     RUNTOP_BLESS=1 build/tests/runtop_tests --gtest_filter='CompareSnapshot.*'
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/series_filter.h"
#include "core/store/store.h"
#include "tests/model_fixture.h"
#include "tests/test_support.h"
#include "tests/view_fixture.h"
#include "views/canvas.h"
#include "views/compare/compare_cache.h"
#include "views/compare/compare_view.h"
#include "views/glyphs.h"
#include "views/model.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::run_runtop;

constexpr const char* kConfigBase =
    R"({"lr": 0.001, "seed": 42, "batch_size": 32, "optimizer": {"name": "adam"}})";
constexpr const char* kConfigNew =
    R"({"lr": 0.002, "seed": 42, "warmup": 100, "optimizer": {"name": "adam"}})";

// One rank of one run. The noise is drawn the same way in every run, so what differs is only
// what is made to.
std::string run_events(bool is_new, int rank) {
    std::string bytes;
    testing::FixtureNoise noise(42 + 7919 * static_cast<std::uint64_t>(rank));
    const double start = is_new ? 1.8e9 : 1.7e9;
    if (rank == 0)
        bytes += frame_record(events::text("config", is_new ? kConfigNew : kConfigBase, 0, start));
    for (int s = 0; s < 400; ++s) {
        double loss = (0.6 + 2.5 * std::exp(-s / 120.0)) * std::exp(0.04 * noise());
        double grad = 1.2 * std::exp(0.2 * noise());
        const double lr = s < 40 ? 1e-3 * s / 40 : 1e-3 * (1 - (s - 40.0) / 400);
        if (is_new && rank == 1 && s >= 137) loss *= 1.01;
        if (is_new && rank == 0 && s >= 200) loss *= 1.002;
        if (is_new && rank == 0 && s == 300) grad = std::nan("");
        const double wall = start + s;
        auto add = [&](const char* tag, double v) {
            bytes += frame_record(events::simple_scalar(tag, static_cast<float>(v), s, wall));
        };
        add("train/loss", loss);
        add("train/grad_norm", grad);
        add("train/lr", lr);
        if (is_new)
            add("train/aux_loss", 0.1 * std::exp(-s / 200.0));
        else
            add("perf/samples_per_s", 1000 + 10 * std::sin(s / 7.0));
        if (s % (is_new ? 25 : 50) == (is_new ? 24 : 49))
            add("eval/accuracy", 0.5 + 0.4 * (1 - std::exp(-s / 150.0)));
    }
    return bytes;
}

class CompareSnapshot : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new testing::TempDir();
        for (const char* run : {"base", "new", "base2"}) {
            for (int rank = 0; rank < 2; ++rank) {
                const std::string d = dir_->path() + "/" + run + "/rank_" + std::to_string(rank);
                testing::make_dirs(d);
                testing::write_file(d + "/events.out.tfevents.1",
                                    run_events(std::string(run) == "new", rank));
            }
        }
    }
    static void TearDownTestSuite() { delete dir_; }
    void SetUp() override { ::setenv("XDG_CONFIG_HOME", (config_ / "config").c_str(), 1); }

    static std::string root(const std::string& name, const std::string& dir) {
        return name + "=" + dir_->path() + "/" + dir;
    }
    static std::vector<std::string> two_runs() {
        return {root("base", "base"), root("new", "new")};
    }

    static testing::CommandResult snapshot(std::vector<std::string> args,
                                           const std::vector<std::string>& roots) {
        args.insert(args.begin(), "snapshot");
        args.insert(args.end(), roots.begin(), roots.end());
        return run_runtop(args);
    }

    // Renders and compares with (or, RUNTOP_BLESS=1, rewrites) golden/<name>.txt.
    static void expect_golden(const std::string& name, std::vector<std::string> args,
                              const std::vector<std::string>& roots = two_runs()) {
        testing::expect_golden_output(name, snapshot(std::move(args), roots));
    }

    static inline testing::TempDir* dir_ = nullptr;
    testing::TempDir config_;
};

TEST_F(CompareSnapshot, DivergingRuns) {
    // Two roots: compare is the first view without --view.
    expect_golden("compare_120x30", {"--size", "120x30"});
}

TEST_F(CompareSnapshot, Ascii) {
    expect_golden("compare_120x30_ascii", {"--size", "120x30", "--view", "compare", "--ascii"});
}

TEST_F(CompareSnapshot, Narrow) {
    expect_golden("compare_80x24", {"--size", "80x24", "--view", "compare"});
}

TEST_F(CompareSnapshot, Wide) {
    expect_golden("compare_200x50", {"--size", "200x50", "--view", "compare"});
}

TEST_F(CompareSnapshot, ConfigPanel) {
    expect_golden("compare_120x30_config",
                  {"--size", "120x30", "--view", "compare", "--keys", "c"});
}

// Issue 18: a configuration that came as one string ("... lr=0.003 batch=6 seed=1 ...") was one
// key whose value the panel cut before the seed. Split into keys, the seed is the one change,
// listed first and whole; a long note that differs at its end is wrapped over rows, not cut.
TEST_F(CompareSnapshot, ConfigPanelShowsAOneStringConfigsSeedChangeInFull) {
    testing::TempDir dir;
    for (const char* run : {"seed1", "seed2"}) {
        const bool two = std::string(run) == "seed2";
        testing::make_dirs(dir / run);
        std::string bytes = frame_record(events::file_version(1.7e9));
        bytes += frame_record(events::text(
            "config",
            fmt::format("model=gpt2-medium data=/datasets/openwebtext/train lr=0.003 batch=6 "
                        "warmup=2000 weight_decay=0.1 grad_clip=1.0 seed={}",
                        two ? 2 : 1),
            0, 1.7e9));
        bytes += frame_record(events::text(
            "notes",
            fmt::format("the baseline for the learning-rate sweep, on the cleaned shards, the same "
                        "tokenizer and the same data order as the ablations of last week, {}",
                        two ? "second seed" : "first seed"),
            0, 1.7e9));
        if (!two) bytes += frame_record(events::text("owner", "jo", 0, 1.7e9));
        for (int s = 0; s < 20; ++s)
            bytes += frame_record(events::simple_scalar(
                "train/loss", static_cast<float>(2.0 - 0.01 * s), s, 1.7e9 + s));
        testing::write_file(dir / run + "/events.out.tfevents.1", bytes);
    }
    expect_golden("compare_80x20_config_seed",
                  {"--size", "80x20", "--view", "compare", "--keys", "c"},
                  {"seed1=" + (dir / "seed1"), "seed2=" + (dir / "seed2")});
}

TEST_F(CompareSnapshot, SortedByDeltaAndByName) {
    expect_golden("compare_120x24_by_delta",
                  {"--size", "120x24", "--view", "compare", "--keys", "o"});
    expect_golden("compare_120x24_by_name",
                  {"--size", "120x24", "--view", "compare", "--keys", "o o"});
}

TEST_F(CompareSnapshot, MeanOfRanksAndWallAlignment) {
    expect_golden("compare_120x24_mean", {"--size", "120x24", "--view", "compare", "--by", "mean"});
    // Both runs keep one step a second from their own start: by wall time since the start
    // they pair up as by step.
    expect_golden("compare_120x24_wall",
                  {"--size", "120x24", "--view", "compare", "--align", "wall"});
}

TEST_F(CompareSnapshot, ARunAgainstAnIdenticalOne) {
    expect_golden("compare_100x20_same", {"--size", "100x20", "--view", "compare"},
                  {root("base", "base"), root("again", "base2")});
}

TEST_F(CompareSnapshot, OneRunSaysHowToGiveTwo) {
    expect_golden("compare_80x12_one_run", {"--size", "80x12", "--view", "compare"},
                  {root("base", "base")});
}

TEST_F(CompareSnapshot, ToleranceDecidesWhatDiverges) {
    // 1% and 0.2% are under 5%: only the NaN is left.
    auto r = snapshot({"--size", "150x20", "--view", "compare", "--tolerance", "0.05"}, two_runs());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("1 of 4 tags diverge, first at step 300 (train/grad_norm r0)"),
              std::string::npos)
        << r.out;
    auto bad = snapshot({"--view", "compare", "--tolerance", "-1"}, two_runs());
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--tolerance"), std::string::npos) << bad.err;
}

TEST_F(CompareSnapshot, RootOrderNamesRunA) {
    // The command line decides which run is A, not the names.
    auto r = snapshot({"--size", "150x20", "--view", "compare"},
                      {root("zeta", "new"), root("alpha", "base")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("A zeta vs B alpha"), std::string::npos) << r.out;
}

TEST_F(CompareSnapshot, EnterOpensTheDetailChartInCompareMode) {
    // The first row (train/loss, diverging first at step 137 on rank 1).
    auto r = snapshot({"--size", "120x30", "--view", "compare", "--keys", "Enter"}, two_runs());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("train/loss"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("FIRST DIV"), std::string::npos) << r.out;  // not the table any more
    auto back =
        snapshot({"--size", "120x30", "--view", "compare", "--keys", "Enter Esc"}, two_runs());
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_NE(back.out.find("FIRST DIV"), std::string::npos) << back.out;
}

// Runs that log at different steps (an epoch metric: A every 8 steps, B only at step 5): the
// cursor at the newest step reads the run that has a point there, and names the step of the
// other run's value (its last before the cursor), never a far-away point of the front run.
TEST_F(CompareSnapshot, TheCursorReadsTheRunWithAPointUnderIt) {
    testing::TempDir dir;
    for (const char* run : {"a", "b"}) {
        testing::make_dirs(dir / run);
        std::string bytes = frame_record(events::file_version(1.7e9));
        const std::vector<std::pair<int, double>> points =
            std::string(run) == "a"
                ? std::vector<std::pair<int, double>>{{7, 1.8}, {15, 1.0}, {23, 0.5}}
                : std::vector<std::pair<int, double>>{{5, 1.8}};
        for (const auto& [step, v] : points)
            bytes += frame_record(
                events::simple_scalar("loss_epoch", static_cast<float>(v), step, 1.7e9 + step));
        testing::write_file(dir / run + "/events.out.tfevents.1", bytes);
    }
    auto r = snapshot({"--size", "100x24", "--view", "compare", "--keys", "Enter"},
                      {"a=" + (dir / "a"), "b=" + (dir / "b")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(step +23\b)"))) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\ba +0\.5\b)"))) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\bb @5 +1\.8\b)"))) << r.out;
}

TEST_F(CompareSnapshot, FrameFitsAndTooSmallShowsTheNotice) {
    for (const char* size : {"20x6", "33x9", "80x24", "100x30", "160x50"}) {
        for (const char* keys : {"", "c"}) {
            auto r = snapshot({"--size", size, "--view", "compare", "--keys", keys}, two_runs());
            ASSERT_EQ(r.exit_code, 0) << r.err;
            const std::string text = size;
            const int w = std::stoi(text), h = std::stoi(text.substr(text.find('x') + 1));
            const auto lines = testing::split_lines(r.out);
            EXPECT_EQ(static_cast<int>(lines.size()), h) << size;
            for (const std::string& line : lines)
                EXPECT_LE(ui::display_width(line), w) << size << " " << line;
            EXPECT_EQ(r.out.find("too small"), std::string::npos) << r.out;
        }
    }
    auto small = snapshot({"--size", "30x5", "--view", "compare"}, two_runs());
    ASSERT_EQ(small.exit_code, 0) << small.err;
    EXPECT_NE(small.out.find("too small"), std::string::npos) << small.out;
    EXPECT_NE(small.out.find("compare needs"), std::string::npos) << small.out;
}

}  // namespace

namespace ui {
namespace {

class CompareView : public testing::ModelFixture {
  protected:
    std::string draw(ViewModel& model, CompareState& state, int w = 120, int h = 30) {
        model.update();
        Canvas c(w, h);
        draw_compare(c, model, state);
        canvas_ = c;
        return c.to_text();
    }
    Canvas canvas_{1, 1};
};

TEST_F(CompareView, RowsSortByDivergenceByDeltaAndByName) {
    // a: 1% apart from step 30; b: 0.1% apart from step 10; c: the same; d: 50% apart at its
    // newest step only (the largest relative |Δ| there).
    for (const char* run : {"base", "new"}) {
        const bool n = std::string(run) == "new";
        add(run, 0, "a", 50, [n](int s) { return 1.0 * (n && s >= 30 ? 1.01 : 1); });
        add(run, 0, "b", 50, [n](int s) { return 2.0 * (n && s >= 10 ? 1.001 : 1); });
        add(run, 0, "c", 50, [](int) { return 3.0; });
        add(run, 0, "d", 50, [n](int s) { return 4.0 * (n && s == 49 ? 1.5 : 1); });
    }
    ViewModel model(store_, analyzer_);
    model.update();
    CompareState state;
    const CompareRows& rows = compare_rows(state, model);
    ASSERT_TRUE(rows.two_runs());
    EXPECT_EQ(rows.run_a, "base");
    EXPECT_EQ(rows.run_b, "new");
    auto order = [&] {
        std::string out;
        const CompareRows& r = compare_rows(state, model);
        for (int i = 0; i < r.rows(); ++i) out += r.row(i).tag;
        return out;
    };
    EXPECT_EQ(order(), "badc");  // diverging by first step (10, 30, 49), then the rest
    EXPECT_EQ(rows.diverging, 3u);
    EXPECT_EQ(rows.tags[rows.first].tag, "b");
    state.sort = CompareSort::kDelta;
    EXPECT_EQ(order(), "dabc");  // 33%, 1%, 0.1%, 0
    state.sort = CompareSort::kName;
    EXPECT_EQ(order(), "abcd");
}

TEST_F(CompareView, DivergingRowsAreMarkedAndTheOnlyInTagsListedApart) {
    for (const char* run : {"base", "new"}) {
        const bool n = std::string(run) == "new";
        add(run, 0, "train/loss", 100, [n](int s) { return 1.0 + (n && s >= 60 ? 0.5 : 0); });
        add(run, 0, n ? "only/new" : "only/base", 10, [](int) { return 1.0; });
    }
    ViewModel model(store_, analyzer_);
    CompareState state;
    const std::string f = draw(model, state);
    EXPECT_NE(f.find("▲ train/loss"), std::string::npos) << f;
    EXPECT_NE(f.find("1 of 1 tag diverge, first at step 60 (train/loss)"), std::string::npos) << f;
    EXPECT_NE(f.find("only in A base (1): only/base"), std::string::npos) << f;
    EXPECT_NE(f.find("only in B new (1): only/new"), std::string::npos) << f;
    EXPECT_NE(f.find("diverges first at step 60"), std::string::npos) << f;
}

// The sparkline's cells of the first table row.
std::vector<Cell> spark_cells(const Canvas& c, int y) {
    // The sparkline is the last thing on the row: from the head's "A|B" to the edge.
    int x0 = -1;
    for (int x = 0; x + 2 < c.width(); ++x)
        if (c.at(x, 1).ch == U'A' && c.at(x + 1, 1).ch == U'|' && c.at(x + 2, 1).ch == U'B') {
            x0 = x;
            break;
        }
    std::vector<Cell> out;
    if (x0 < 0) return out;
    for (int x = x0; x < c.width(); ++x) out.push_back(c.at(x, y));
    return out;
}

TEST_F(CompareView, TheSparklineIsSymmetricWhereTheRunsAgreeAndNotWhereTheyPart) {
    // The same ramp until step 100, then B climbs away; one NaN in B at step 150.
    for (const char* run : {"base", "new"}) {
        const bool n = std::string(run) == "new";
        add(run, 0, "x", 200, [n](int s) {
            if (n && s == 150) return std::nan("");
            return s / 200.0 + (n && s >= 100 ? 0.5 : 0);
        });
    }
    ViewModel model(store_, analyzer_);
    CompareState state;
    draw(model, state, 120, 12);
    const std::vector<Cell> cells = spark_cells(canvas_, 2);
    ASSERT_GT(cells.size(), 20u);
    // Braille: left dots (A) mirror the right dots (B) in the first half, not in the second.
    auto symmetric = [](char32_t ch) {
        const unsigned bits = static_cast<unsigned>(ch - 0x2800);
        const unsigned left[4] = {0x40, 0x04, 0x02, 0x01}, right[4] = {0x80, 0x20, 0x10, 0x08};
        for (int r = 0; r < 4; ++r)
            if (((bits & left[r]) != 0) != ((bits & right[r]) != 0)) return false;
        return true;
    };
    const std::size_t n = cells.size();
    int nan_cells = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const Cell& cell = cells[k];
        if (cell.ch == marks(GlyphTier::kBraille).nan) {
            ++nan_cells;
            EXPECT_EQ(cell.style.role, Role::kNan);
            continue;
        }
        ASSERT_GE(cell.ch, 0x2800u) << k;
        if (k < n / 2 - 1) {
            EXPECT_TRUE(symmetric(cell.ch)) << k;
            EXPECT_EQ(cell.style.role, series_role(model.run_colour("base"))) << k;
        }
        if (k > n / 2 + 1) {
            EXPECT_FALSE(symmetric(cell.ch)) << k;
            EXPECT_EQ(cell.style.role, series_role(model.run_colour("new"))) << k;
        }
    }
    EXPECT_EQ(nan_cells, 1);
    // The first divergence's cell is reversed.
    int reversed = 0;
    for (const Cell& cell : cells) reversed += cell.style.reverse;
    EXPECT_EQ(reversed, 1);
}

TEST_F(CompareView, BlocksAndAsciiDrawTheRunsInPairsOfCells) {
    for (const char* run : {"base", "new"}) {
        const bool n = std::string(run) == "new";
        add(run, 0, "x", 100, [n](int s) { return s < 50 ? 1.0 + s % 7 : (n ? 9.0 : 1.0); });
    }
    for (GlyphTier tier : {GlyphTier::kBlocks, GlyphTier::kAscii}) {
        ViewModel model(store_, analyzer_);
        model.set_glyphs(tier);
        CompareState state;
        draw(model, state, 100, 12);
        const std::vector<Cell> cells = spark_cells(canvas_, 2);
        ASSERT_GT(cells.size(), 20u);
        const std::size_t pairs = cells.size() / 2;
        for (std::size_t k = 0; k < pairs; ++k) {
            const Cell& a = cells[2 * k];
            const Cell& b = cells[2 * k + 1];
            if (a.ch == U' ' && b.ch == U' ') continue;
            EXPECT_EQ(a.style.role, series_role(model.run_colour("base")));
            EXPECT_EQ(b.style.role, series_role(model.run_colour("new")));
            if (k < pairs / 2 - 1) {
                EXPECT_EQ(a.ch, b.ch) << k;  // they agree
            }
            if (k > pairs / 2 + 1) {
                EXPECT_NE(a.ch, b.ch) << k;  // B at the top, A low
            }
        }
    }
}

TEST_F(CompareView, FewerThanTwoRunsSayHowToGiveTwo) {
    add("job", 0, "train/loss", 10, [](int s) { return s; });
    ViewModel model(store_, analyzer_);
    CompareState state;
    const std::string f = draw(model, state, 100, 12);
    EXPECT_NE(f.find("compare needs two runs"), std::string::npos) << f;
    EXPECT_NE(f.find("runtop base=PATH new=PATH"), std::string::npos) << f;
    EXPECT_NE(f.find("runs read: job"), std::string::npos) << f;
    EXPECT_FALSE(compare_selection(state, model));
}

TEST_F(CompareView, OnlyTheRowsOnScreenQuerySparklines) {
    for (const char* run : {"base", "new"})
        for (int t = 0; t < 200; ++t)
            add(run, 0, fmt::format("tag{:03}", t), 50, [t](int s) { return t + s; });
    ViewModel model(store_, analyzer_);
    CompareState state;
    draw(model, state, 120, 20);
    const CompareLayout l = compare_layout(state, model, 120, 20);
    EXPECT_LT(l.body_rows, 20);
    EXPECT_EQ(static_cast<int>(state.cache->sparks.size()), l.body_rows);
    // Paging down queries the next page's rows and forgets the first page's.
    compare_handle(state, Action::kPageDown, model, 120, 20);
    draw(model, state, 120, 20);
    EXPECT_EQ(static_cast<int>(state.cache->sparks.size()), l.body_rows);
    EXPECT_EQ(state.cache->sparks.front().tag,
              compare_rows(state, model).row(compare_layout(state, model, 120, 20).first).tag);
}

TEST_F(CompareView, AKeysFrameReusesTheComparisonAndADataFrameTakesInNewPoints) {
    const SeriesId a = sink_.series({"base", 0, "x"}, source_id({"tfevents"}));
    const SeriesId b = sink_.series({"new", 0, "x"}, source_id({"tfevents"}));
    for (int s = 0; s < 20; ++s) {
        sink_.append(a, {s, 1.7e9 + s, 1.0});
        sink_.append(b, {s, 1.7e9 + s, 1.0});
    }
    ViewModel model(store_, analyzer_);
    CompareState state;
    draw(model, state);
    EXPECT_EQ(compare_rows(state, model).diverging, 0u);
    for (int s = 20; s < 30; ++s) {
        sink_.append(a, {s, 1.7e9 + s, 1.0});
        sink_.append(b, {s, 1.7e9 + s, s == 25 ? 2.0 : 1.0});
    }
    model.ingest.key_frame = true;
    draw(model, state);
    EXPECT_EQ(compare_rows(state, model).diverging, 0u);  // not yet: the data frame follows
    model.ingest.key_frame = false;
    const std::string f = draw(model, state);
    ASSERT_EQ(compare_rows(state, model).diverging, 1u);
    EXPECT_EQ(*compare_rows(state, model).row(0).head.first_divergence, 25);
    EXPECT_NE(f.find("first at step 25"), std::string::npos) << f;
}

TEST_F(CompareView, TheFilterAppliesToTheComparison) {
    for (const char* run : {"base", "new"}) {
        const bool n = std::string(run) == "new";
        add(run, 0, "train/loss", 10, [n](int s) { return s + (n ? 1 : 0); });
        add(run, 0, "train/lr", 10, [](int s) { return s; });
    }
    ViewModel model(store_, analyzer_);
    CompareState state;
    EXPECT_EQ(compare_rows(state, model).rows(), 2);
    Result<SeriesFilter> lr = SeriesFilter::make("lr", "");
    ASSERT_TRUE(lr);
    model.set_filter(std::move(*lr), "lr", "");
    EXPECT_EQ(compare_rows(state, model).rows(), 1);
    EXPECT_EQ(compare_rows(state, model).diverging, 0u);
}

// Issue 18: with more changes than the panel has rows for in full, a change keeps one row and
// its values are cut around where they differ: the shared start and end go, the difference
// stays. Changed keys come before added and removed ones.
TEST_F(CompareView, TheConfigPanelCutsValuesAroundTheirDifference) {
    const std::string lead(120, 'x');
    const std::string tail(120, 'y');
    for (const char* run : {"base", "new"}) {
        const bool n = std::string(run) == "new";
        add(run, 0, "train/loss", 10, [](int s) { return s; });
        sink_.config_text({run, 0, "notes", 0, lead + (n ? " seed 8 " : " seed 7 ") + tail});
        for (const char* key : {"k1", "k2", "k3", "k4", "k5", "k6"})
            sink_.config_text({run, 0, key, 0, lead + (n ? "B" : "A") + tail});
    }
    sink_.config_text({"base", 0, "aa_removed", 0, "gone"});
    ViewModel model(store_, analyzer_);
    CompareState state;
    state.config = true;
    const std::string text = draw(model, state, 70, 20);
    const auto [x, y] = find(canvas_, "~ notes");
    ASSERT_GE(y, 0) << text;
    const std::string line = row(canvas_, y);
    EXPECT_NE(line.find("seed 7"), std::string::npos) << text;
    EXPECT_NE(line.find("seed 8"), std::string::npos) << text;
    // Each k-line shows its A and B.
    const auto [kx, ky] = find(canvas_, "~ k6");
    ASSERT_GE(ky, 0) << text;
    EXPECT_TRUE(std::regex_search(row(canvas_, ky), std::regex("xA.*yy.*xB"))) << text;
    // The removed key, first by name, comes after every changed one.
    const auto [rx, ry] = find(canvas_, "- aa_removed");
    ASSERT_GE(ry, 0) << text;
    EXPECT_GT(ry, ky) << text;
}

TEST_F(CompareView, EnterOpensTheHeadRankAtItsFirstDivergence) {
    for (const char* run : {"base", "new"}) {
        const bool n = std::string(run) == "new";
        for (int rank = 0; rank < 4; ++rank)
            add(run, rank, "train/loss", 100,
                [n, rank](int s) { return 1.0 + (n && rank == 2 && s >= 42 ? 0.1 : 0); });
    }
    ViewModel model(store_, analyzer_);
    CompareState state;
    const std::string f = draw(model, state);
    EXPECT_NE(f.find("42 r2"), std::string::npos) << f;
    const std::optional<CompareSelection> s = compare_selection(state, model);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->tag, "train/loss");
    EXPECT_EQ(s->detail, (CompareDetail{"base", "new", 2, false, CompareAlign::kStep, 1e-6}));
    EXPECT_EQ(s->step, 42);
    // Means: no rank.
    state.options.ranks = CompareRanks::kMean;
    const std::optional<CompareSelection> m = compare_selection(state, model);
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->detail.mean);
    EXPECT_EQ(m->detail.rank, kNoRank);
    EXPECT_EQ(m->step, 42);
}

}  // namespace
}  // namespace ui
}  // namespace runtop
