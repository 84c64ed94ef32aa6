// The overview with several runs (views/overview_runs.h): golden frames of 2 and 5 runs from
// `runtop snapshot` (without colour: what a mono terminal shows; with --color always: the run
// colours as SGR), and in-process checks of what text cannot show: each run's line in its stable
// colour, the front run bold, NaN marks, spikes under occlusion, the legend's "+N", Tab.
//
// Re-bless the goldens after an intended change and review the diff:
//
//     RUNTOP_BLESS=1 build/tests/runtop_tests --gtest_filter='OverviewRunsSnapshot.*'
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/model_fixture.h"
#include "tests/test_support.h"
#include "tests/view_fixture.h"
#include "views/canvas.h"
#include "views/model.h"
#include "views/overview_runs.h"
#include "views/overview_view.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::run_runtop;
using testing::TempDir;

// One rank of one run: a decaying loss whose floor and speed depend on the run, a grad norm, a
// learning rate and an eval accuracy every 50 steps; optionally a NaN loss at `nan_at`.
std::string run_events(int run, int rank, int steps, int nan_at = -1) {
    std::string bytes;
    testing::FixtureNoise noise(1000 * static_cast<std::uint64_t>(run + 1) + 17 * rank);
    const double floor = 0.4 + 0.15 * run, speed = 80.0 + 40.0 * run;
    for (int s = 0; s < steps; ++s) {
        double loss = (floor + 2.5 * std::exp(-s / speed)) * std::exp(0.03 * noise());
        if (s == nan_at) loss = std::nan("");
        const double grad = (1.0 + 0.2 * run) * std::exp(0.15 * noise());
        const double lr = 1e-3 * (1 + run) * (1 - static_cast<double>(s) / steps);
        bytes += testing::training_step_records(s, loss, grad, lr);
        if (s % 50 == 49) {
            const double wall = 1.7e9 + s;
            const double acc =
                0.5 + (0.35 - 0.03 * run) * (1 - std::exp(-s / 150.0)) + 0.01 * noise();
            bytes += frame_record(
                events::simple_scalar("eval/accuracy", static_cast<float>(acc), s, wall));
        }
    }
    return bytes;
}

class OverviewRunsSnapshot : public ::testing::Test {
  protected:
    // base/ and new/ (2 ranks, 400 steps; new's rank 1 has a NaN loss at step 300), and a sweep
    // of 5 runs (sweep/lr_a .. lr_e, 2 ranks, 300 steps).
    static void SetUpTestSuite() {
        dir_ = new TempDir();
        for (int run = 0; run < 2; ++run)
            for (int rank = 0; rank < 2; ++rank) {
                const std::string d =
                    dir_->path() + (run == 0 ? "/base" : "/new") + "/rank_" + std::to_string(rank);
                testing::make_dirs(d);
                testing::write_file(d + "/events.out.tfevents.1",
                                    run_events(run, rank, 400, run == 1 && rank == 1 ? 300 : -1));
            }
        for (int run = 0; run < 5; ++run)
            for (int rank = 0; rank < 2; ++rank) {
                const std::string d = dir_->path() + "/sweep/lr_" +
                                      std::string(1, static_cast<char>('a' + run)) + "/rank_" +
                                      std::to_string(rank);
                testing::make_dirs(d);
                testing::write_file(d + "/events.out.tfevents.1", run_events(run, rank, 300));
            }
    }
    static void TearDownTestSuite() { delete dir_; }
    void SetUp() override { ::setenv("XDG_CONFIG_HOME", (config_ / "config").c_str(), 1); }

    static std::vector<std::string> two_runs() {
        return {"base=" + dir_->path() + "/base", "new=" + dir_->path() + "/new"};
    }
    static std::vector<std::string> five_runs() { return {"sweep=" + dir_->path() + "/sweep"}; }

    // Renders `args` then `roots` and compares with (RUNTOP_BLESS=1: rewrites) golden/<name>.txt.
    static void expect_golden(const std::string& name, std::vector<std::string> args,
                              const std::vector<std::string>& roots) {
        // Two roots open the compare view by default: the overview is asked for.
        args.insert(args.begin(), {"snapshot", "--view", "overview"});
        args.insert(args.end(), roots.begin(), roots.end());
        testing::expect_golden_output(name, run_runtop(args));
    }

    static inline TempDir* dir_ = nullptr;
    TempDir config_;
};

TEST_F(OverviewRunsSnapshot, TwoRunsMono) {
    expect_golden("overview_runs2_100x30", {"--size", "100x30"}, two_runs());
}

TEST_F(OverviewRunsSnapshot, TwoRunsColour) {
    expect_golden("overview_runs2_100x30_color", {"--size", "100x30", "--color", "always"},
                  two_runs());
}

TEST_F(OverviewRunsSnapshot, FiveRunsMono) {
    expect_golden("overview_runs5_100x30", {"--size", "100x30"}, five_runs());
}

TEST_F(OverviewRunsSnapshot, FiveRunsAsciiSmall) {
    expect_golden("overview_runs5_80x16_ascii", {"--size", "80x16", "--ascii"}, five_runs());
}

TEST_F(OverviewRunsSnapshot, FiveRunsColour) {
    expect_golden("overview_runs5_100x30_color", {"--size", "100x30", "--color", "always"},
                  five_runs());
}

// What the goldens show, said in words: the legend names both runs, the NaN of one run is
// marked, the values name their runs; every frame fits its canvas.
TEST_F(OverviewRunsSnapshot, TwoRunsFrameSaysWhatItShows) {
    for (const char* size : {"20x6", "33x9", "100x30", "160x50"}) {
        auto r = run_runtop(
            {"snapshot", "--view", "overview", "--size", size, two_runs()[0], two_runs()[1]});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const std::string text = size;
        const int w = std::stoi(text), h = std::stoi(text.substr(text.find('x') + 1));
        const auto lines = testing::split_lines(r.out);
        ASSERT_EQ(static_cast<int>(lines.size()), h) << size;
        for (const std::string& line : lines) EXPECT_LE(ui::display_width(line), w) << line;
    }
    auto r = run_runtop(
        {"snapshot", "--view", "overview", "--size", "100x30", two_runs()[0], two_runs()[1]});
    const auto lines = testing::split_lines(r.out);
    EXPECT_NE(lines[0].find("━ base  ━ new"), std::string::npos) << lines[0];
    // The loss card (the first): its NaN column and new's value row both carry the mark.
    EXPECT_NE(lines[1].find("train/loss"), std::string::npos) << lines[1];
    EXPECT_NE(r.out.find("×"), std::string::npos);
    EXPECT_NE(r.out.find("base "), std::string::npos);
    EXPECT_NE(r.out.find("2 runs, 4 series"), std::string::npos) << r.out;
    // The colour frame is the mono frame with SGR.
    auto c = run_runtop({"snapshot", "--view", "overview", "--size", "100x30", "--color", "always",
                         two_runs()[0], two_runs()[1]});
    const std::string stripped = std::regex_replace(c.out, std::regex("\x1b\\[[0-9;]*m"), "");
    auto a = testing::split_lines(r.out), b = testing::split_lines(stripped);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        while (!b[i].empty() && b[i].back() == ' ') b[i].pop_back();
        EXPECT_EQ(a[i], b[i]) << "line " << i;
    }
}

}  // namespace
}  // namespace runtop

namespace runtop::ui {
namespace {

class OverviewRuns : public testing::ModelFixture {
  protected:
    // The cells of rows [y0, y1) and columns [x0, x1) drawn in `role`.
    static int cells_in(const Canvas& c, Role role, int x0, int x1, int y0, int y1,
                        bool bold_only = false) {
        int n = 0;
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) {
                const Cell& cell = c.at(x, y);
                if (cell.ch != U' ' && cell.style.role == role && (!bold_only || cell.style.bold))
                    ++n;
            }
        return n;
    }
    // Where the legend draws `name` on row 0 (its first column), -1 when absent.
    static int legend_x(const Canvas& c, const std::string& name) {
        const std::string r = row(c, 0);
        const std::size_t at = r.find(" " + name);
        return at == std::string::npos ? -1 : static_cast<int>(at) + 1;
    }
};

// Two runs of two ranks: a card overlays one line per run in the run's colour; the legend
// names them above the cards; the value row gives each run's cross-rank mean, named.
TEST_F(OverviewRuns, EachRunIsOneLineInItsColourWithItsValue) {
    for (int rank = 0; rank < 2; ++rank) {
        add("base", rank, "train/loss", 200, [rank](int s) { return 3.0 - s * 0.01 + rank; });
        add("new", rank, "train/loss", 200, [rank](int s) { return 1.0 - s * 0.001 + rank; });
    }
    ViewModel model(store_, analyzer_);
    ASSERT_TRUE(overview_by_run(model));
    const OverviewLayout l = overview_layout(60, 14, model);
    EXPECT_EQ(l.top, 1);
    Canvas canvas(60, 14);
    OverviewState state;
    draw_overview(canvas, model, state);
    // The legend, then the card under it.
    EXPECT_NE(row(canvas, 0).find("? base  ? new"), std::string::npos) << row(canvas, 0);
    EXPECT_NE(row(canvas, 1).find("train/loss"), std::string::npos) << row(canvas, 1);
    const Role base = series_role(model.run_colour("base"));
    const Role fresh = series_role(model.run_colour("new"));
    ASSERT_NE(base, fresh);
    EXPECT_EQ(canvas.at(legend_x(canvas, "base"), 0).style.role, base);
    EXPECT_EQ(canvas.at(legend_x(canvas, "new"), 0).style.role, fresh);
    // Both lines in the chart rows (the card's inside, above its two text rows).
    EXPECT_GT(cells_in(canvas, base, 1, 29, 2, 10), 0);
    EXPECT_GT(cells_in(canvas, fresh, 1, 29, 2, 10), 0);
    // base ends at 1.01 and 2.01 (mean 1.51), new at 0.801 and 1.801 (mean 1.301).
    const auto [vx, vy] = find(canvas, "base 1.51");
    ASSERT_NE(vy, -1) << canvas.to_text();
    EXPECT_EQ(canvas.at(vx, vy).style.role, base);
    const auto [nx, ny] = find(canvas, "new 1.301");
    ASSERT_EQ(ny, vy) << canvas.to_text();
    EXPECT_EQ(canvas.at(nx, ny).style.role, fresh);
    EXPECT_NE(find(canvas, "2 runs, 4 series").second, -1) << canvas.to_text();
    // Nothing in alert: the first run is in front, bold; the other is not.
    EXPECT_TRUE(canvas.at(vx, vy).style.bold);
    EXPECT_FALSE(canvas.at(nx, ny).style.bold);
    EXPECT_GT(cells_in(canvas, base, 1, 29, 2, 10, true), 0);
    EXPECT_EQ(cells_in(canvas, fresh, 1, 29, 2, 10, true), 0);
}

// A NaN in one run only: its column is the NaN mark in every chart row (nothing draws over
// it), and that run's value carries the mark; the other run's does not.
TEST_F(OverviewRuns, ANaNInOneRunOnlyIsMarkedAndNamed) {
    for (int rank = 0; rank < 2; ++rank) {
        add("a", rank, "train/loss", 200,
            [rank](int s) { return rank == 1 && s == 120 ? std::nan("") : 2.0 - s * 0.005; });
        add("b", rank, "train/loss", 200, [](int s) { return 1.5 - s * 0.002; });
    }
    analyzer_.finish();
    ViewModel model(store_, analyzer_);
    Canvas canvas(60, 14);
    OverviewState state;
    draw_overview(canvas, model, state);
    std::set<int> nan_columns;
    for (int y = 2; y < 12; ++y)
        for (int x = 1; x < 29; ++x)
            if (canvas.at(x, y).style.role == Role::kNan && canvas.at(x, y).ch == U'×')
                nan_columns.insert(x);
    ASSERT_EQ(nan_columns.size(), 2u) << canvas.to_text();  // the chart's column and a's value
    // The value row: "a 1.005 ×" (the mean of its finite last values, and the mark), "b 1.102".
    const auto [ax, ay] = find(canvas, "a 1.005 ");
    ASSERT_NE(ay, -1) << canvas.to_text();
    EXPECT_EQ(canvas.at(ax + 8, ay).ch, U'×');
    EXPECT_EQ(canvas.at(ax + 8, ay).style.role, Role::kNan);
    // a alerts (the NaN rule): its value in the alert role, bold; a is in front (the alert).
    EXPECT_EQ(canvas.at(ax + 2, ay).style.role, Role::kAlert);
    EXPECT_TRUE(canvas.at(ax, ay).style.bold);
    const auto [bx, by] = find(canvas, "b 1.102");
    ASSERT_EQ(by, ay) << canvas.to_text();
    EXPECT_NE(canvas.at(bx + 8, by).ch, U'×');
    // The chart's NaN column runs through every chart row (the rows above the value row).
    nan_columns.erase(ax + 8);
    ASSERT_EQ(nan_columns.size(), 1u);
    const int chart_column = *nan_columns.begin();
    for (int y = 2; y < ay; ++y)
        EXPECT_EQ(canvas.at(chart_column, y).ch, U'×') << y << "\n" << canvas.to_text();
}

// One rank's spike in a run that is not in front is still drawn: per column each run spans
// the min..max over its ranks, and the front run only occludes the cells it draws in.
TEST_F(OverviewRuns, ASpikeBehindTheFrontRunIsNeverDropped) {
    for (int rank = 0; rank < 4; ++rank)
        add("a", rank, "train/loss", 1000,
            [rank](int s) { return rank == 3 && s == 613 ? 50.0 : 1.0 + 0.001 * (s % 7); });
    add("b", 0, "train/loss", 1000, [](int s) { return 1.0 + 0.001 * (s % 5); });
    ViewModel model(store_, analyzer_);
    OverviewState state;
    state.focus = RunRank{"b", 0};  // b in front
    Canvas canvas(60, 14);
    draw_overview(canvas, model, state);
    const Role a = series_role(model.run_colour("a"));
    // The top chart row holds only the spike: a's colour, not bold (b is in front).
    EXPECT_EQ(cells_in(canvas, a, 1, 29, 2, 3), 1) << canvas.to_text();
    EXPECT_EQ(cells_in(canvas, a, 1, 29, 2, 3, true), 0);
    // b is bold wherever it is drawn, and it is.
    const Role b = series_role(model.run_colour("b"));
    EXPECT_GT(cells_in(canvas, b, 1, 29, 2, 11, true), 0);
    EXPECT_EQ(cells_in(canvas, b, 1, 29, 2, 11), cells_in(canvas, b, 1, 29, 2, 11, true));
}

// Colours belong to runs for the life of the model: a run that appears later (even one sorting
// first) takes the next colour and the others keep theirs, in the legend and on the cards.
TEST_F(OverviewRuns, ARunKeepsItsColourWhenAThirdRunAppears) {
    add("job/b", 0, "train/loss", 100, [](int s) { return 2.0 - s * 0.01; });
    add("job/c", 0, "train/loss", 100, [](int s) { return 1.0 - s * 0.001; });
    ViewModel model(store_, analyzer_);
    OverviewState state;
    Canvas canvas(80, 14);
    draw_overview(canvas, model, state);
    const Role b = canvas.at(legend_x(canvas, "b"), 0).style.role;
    const Role c = canvas.at(legend_x(canvas, "c"), 0).style.role;
    EXPECT_EQ(b, series_role(0));
    EXPECT_EQ(c, series_role(1));
    EXPECT_EQ(cells_in(canvas, series_role(2), 0, 80, 1, 14), 0);

    add("job/a", 0, "train/loss", 100, [](int s) { return 3.0 - s * 0.02; });
    model.update();
    draw_overview(canvas, model, state);
    EXPECT_NE(row(canvas, 0).find("? a  ? b  ? c"), std::string::npos) << row(canvas, 0);
    EXPECT_EQ(canvas.at(legend_x(canvas, "b"), 0).style.role, b);
    EXPECT_EQ(canvas.at(legend_x(canvas, "c"), 0).style.role, c);
    EXPECT_EQ(canvas.at(legend_x(canvas, "a"), 0).style.role, series_role(2));
    // On the card too: each value named in its run's colour.
    for (const char* run : {"a", "b", "c"}) {
        const auto [x, y] = find(canvas, std::string(run) + " ", 2);
        ASSERT_NE(y, -1) << run << "\n" << canvas.to_text();
        EXPECT_EQ(canvas.at(x, y).style.role,
                  series_role(model.run_colour(std::string("job/") + run)))
            << run;
    }
    EXPECT_GT(cells_in(canvas, series_role(2), 1, 39, 2, 10), 0);  // a's line
}

// More runs than the legend row holds: as many as fit, then "+N" for the rest; the value rows
// do the same on a card too narrow for them.
TEST_F(OverviewRuns, LegendAndValuesEndWithPlusN) {
    const int runs = 12;
    for (int r = 0; r < runs; ++r)
        add("sweep/run_" + std::to_string(10 + r), 0, "train/loss", 50,
            [r](int s) { return 1.0 + r - s * 0.01; });
    ViewModel model(store_, analyzer_);
    Canvas canvas(60, 10);
    OverviewState state;
    draw_overview(canvas, model, state);
    const std::string legend = row(canvas, 0);
    int shown = 0;
    for (int r = 0; r < runs; ++r)
        shown += legend.find("run_" + std::to_string(10 + r)) != std::string::npos;
    const std::smatch m = [&] {
        std::smatch out;
        std::regex_search(legend, out, std::regex("\\+(\\d+)\\s*$"));
        return out;
    }();
    ASSERT_FALSE(m.empty()) << legend;
    EXPECT_GT(shown, 1);
    EXPECT_EQ(shown + std::stoi(m[1]), runs) << legend;
    EXPECT_LE(static_cast<int>(legend.size()), 60);
    // The card's value rows: some runs, then "+N" for the others.
    const std::string text = canvas.to_text();
    EXPECT_NE(text.find("run_10 0.51"), std::string::npos) << text;
    std::string card;
    for (int y = 2; y < 9; ++y) card += row(canvas, y) + "\n";
    std::smatch v;
    ASSERT_TRUE(std::regex_search(card, v, std::regex("\\+(\\d+)"))) << text;
    int values = 0;
    for (int r = 0; r < runs; ++r)
        values += card.find("run_" + std::to_string(10 + r) + " ") != std::string::npos;
    EXPECT_EQ(values + std::stoi(v[1]), runs) << text;
}

// Tab / BackTab: through the runs (each card's front run), then back to none; with one run,
// through its ranks.
TEST_F(OverviewRuns, TabCyclesTheFrontRun) {
    for (const char* run : {"a", "b", "c"})
        for (int rank = 0; rank < 2; ++rank)
            add(run, rank, "train/loss", 50, [](int s) { return 1.0 + s; });
    ViewModel model(store_, analyzer_);
    OverviewState state;
    ASSERT_TRUE(overview_handle(state, Action::kNextSeries, model, 60, 14));
    EXPECT_EQ(state.focus, (RunRank{"a", 0}));
    overview_handle(state, Action::kNextSeries, model, 60, 14);
    EXPECT_EQ(state.focus, (RunRank{"b", 0}));
    Canvas canvas(60, 14);
    draw_overview(canvas, model, state);
    // b's name in the legend is reversed; on the card b's value is bold, a's and c's are not.
    EXPECT_TRUE(canvas.at(legend_x(canvas, "b"), 0).style.reverse) << row(canvas, 0);
    EXPECT_FALSE(canvas.at(legend_x(canvas, "a"), 0).style.reverse);
    const auto [vx, vy] = find(canvas, "b 50", 2);
    ASSERT_NE(vy, -1) << canvas.to_text();
    EXPECT_TRUE(canvas.at(vx, vy).style.bold);
    EXPECT_FALSE(canvas.at(find(canvas, "a 50", 2).first, vy).style.bold);
    overview_handle(state, Action::kNextSeries, model, 60, 14);
    EXPECT_EQ(state.focus, (RunRank{"c", 0}));
    overview_handle(state, Action::kNextSeries, model, 60, 14);
    EXPECT_FALSE(state.focus);
    overview_handle(state, Action::kPreviousSeries, model, 60, 14);
    EXPECT_EQ(state.focus, (RunRank{"c", 0}));

    // One run: the (run, rank)s.
    Store one;
    Analyzer analyzer(default_rules());
    AnalyzingSink sink(analyzer, &one);
    for (int rank = 0; rank < 2; ++rank) {
        const SeriesId id = sink.series({"job", rank, "train/loss"}, source_id({"tfevents"}));
        for (int s = 0; s < 10; ++s) sink.append(id, {s, 1.7e9 + s, 1.0});
    }
    ViewModel single(one, analyzer);
    OverviewState s1;
    overview_handle(s1, Action::kNextSeries, single, 60, 14);
    EXPECT_EQ(s1.focus, (RunRank{"job", 0}));
    overview_handle(s1, Action::kNextSeries, single, 60, 14);
    EXPECT_EQ(s1.focus, (RunRank{"job", 1}));
    overview_handle(s1, Action::kNextSeries, single, 60, 14);
    EXPECT_FALSE(s1.focus);
}

// The legend row moves the cards down one row: clicks and pages follow it.
TEST_F(OverviewRuns, CardsUnderTheLegendAreHitWhereTheyAreDrawn) {
    for (int t = 0; t < 3; ++t)
        for (const char* run : {"a", "b"})
            add(run, 0, "m/tag" + std::to_string(t), 20, [](int s) { return s; });
    ViewModel model(store_, analyzer_);
    OverviewState state;
    Canvas canvas(60, 14);  // 2 cards a row, 2 rows of 6 under the legend
    draw_overview(canvas, model, state);
    EXPECT_EQ(find(canvas, "m/tag0").second, 1);
    EXPECT_EQ(find(canvas, "m/tag2").second, 7);
    EXPECT_EQ(overview_card_at(state, 5, 0, model, 60, 14), -1);  // the legend
    EXPECT_EQ(overview_card_at(state, 5, 1, model, 60, 14), 0);
    EXPECT_EQ(overview_card_at(state, 5, 7, model, 60, 14), 2);
    EXPECT_EQ(overview_card_at(state, 35, 12, model, 60, 14), -1);  // an empty slot
    // Too short for a card under the legend: the legend gives way.
    EXPECT_EQ(overview_layout(60, 6, model).top, 0);
}

// The multi-run card is cached like the others, and a second run arriving switches the card
// from the rank envelope to run lines (never a stale single-run card).
TEST_F(OverviewRuns, CachedCardsFollowRunsArriving) {
    add("a", 0, "train/loss", 100, [](int s) { return 2.0 - s * 0.01; });
    add("a", 1, "train/loss", 100, [](int s) { return 2.1 - s * 0.01; });
    ViewModel model(store_, analyzer_);
    OverviewState state;
    Canvas canvas(60, 14);
    draw_overview(canvas, model, state);
    EXPECT_NE(canvas.to_text().find("2 ranks"), std::string::npos) << canvas.to_text();
    add("b", 0, "train/loss", 100, [](int) { return 1.0; });
    model.update();
    model.ingest.key_frame = true;  // even in a key's frame
    draw_overview(canvas, model, state);
    const std::string with_b = canvas.to_text();
    EXPECT_NE(with_b.find("b 1 "), std::string::npos) << with_b;
    EXPECT_NE(with_b.find("2 runs, 3 series"), std::string::npos) << with_b;
    model.ingest.key_frame = false;
    draw_overview(canvas, model, state);
    EXPECT_EQ(canvas.to_text(), with_b);  // from the cache
    // A new point is shown.
    sink_.append(2, {100, 1.7e9 + 100, 42.0});
    draw_overview(canvas, model, state);
    EXPECT_NE(canvas.to_text().find("b 42"), std::string::npos) << canvas.to_text();
    OverviewState fresh;
    Canvas again(60, 14);
    draw_overview(again, model, fresh);
    EXPECT_EQ(again.to_text(), canvas.to_text());
}

// A key's frame may show a card's earlier query while ranks join it (a backfill), but never
// series a new filter left out: the filter changing makes the card query again.
TEST_F(OverviewRuns, AKeyFrameAfterAFilterChangeShowsOnlyWhatItSelects) {
    add("a", 0, "train/loss", 100, [](int s) { return 2.0 - s * 0.01; });
    add("a", 1, "train/loss", 100, [](int) { return 50.0; });
    ViewModel model(store_, analyzer_);
    OverviewState state;
    Canvas canvas(60, 14);
    draw_overview(canvas, model, state);
    ASSERT_NE(canvas.to_text().find("2 ranks"), std::string::npos) << canvas.to_text();
    Result<SeriesFilter> filter = SeriesFilter::make("", "0");
    ASSERT_TRUE(filter);
    model.set_filter(std::move(*filter), "", "0");
    model.ingest.key_frame = true;
    draw_overview(canvas, model, state);
    const std::string text = canvas.to_text();
    EXPECT_EQ(text.find("2 ranks"), std::string::npos) << text;
    EXPECT_NE(text.find("rank 0"), std::string::npos) << text;
    EXPECT_EQ(text.find("50"), std::string::npos) << text;  // rank 1's value is gone
}

// A key's frame out of query time draws cards it never queried as "…" and says a frame is
// owed; the next (data) frame draws them. Cards it queried before keep showing that query.
TEST_F(OverviewRuns, AKeyFrameOutOfTimeLeavesNewCardsForTheNextFrame) {
    for (int t = 0; t < 12; ++t)
        add("a", 0, "m/tag" + std::to_string(t), 20, [t](int s) { return s + t; });
    ViewModel model(store_, analyzer_);
    OverviewState state;
    state.key_frame_queries = std::chrono::microseconds(0);
    Canvas canvas(60, 14);                // 2 cards a row, 2 rows: 4 a page
    draw_overview(canvas, model, state);  // a data frame: queries whatever it shows
    EXPECT_FALSE(overview_incomplete(state));
    EXPECT_NE(canvas.to_text().find("m/tag0"), std::string::npos) << canvas.to_text();
    EXPECT_EQ(canvas.to_text().find("…"), std::string::npos) << canvas.to_text();
    const std::string first_page = canvas.to_text();

    model.ingest.key_frame = true;
    state.page = 1;
    draw_overview(canvas, model, state);
    EXPECT_TRUE(overview_incomplete(state));
    EXPECT_NE(canvas.to_text().find("m/tag4"), std::string::npos) << canvas.to_text();
    EXPECT_NE(canvas.to_text().find("…"), std::string::npos) << canvas.to_text();

    model.ingest.key_frame = false;
    draw_overview(canvas, model, state);
    EXPECT_FALSE(overview_incomplete(state));
    EXPECT_EQ(canvas.to_text().find("…"), std::string::npos) << canvas.to_text();
    Canvas again(60, 14);
    OverviewState fresh;
    fresh.page = 1;
    draw_overview(again, model, fresh);
    EXPECT_EQ(canvas.to_text(), again.to_text());

    // Back on the first page in a key's frame: its cards were not drawn last frame, so they
    // are not cached either: "…" again, until a data frame.
    model.ingest.key_frame = true;
    state.page = 0;
    draw_overview(canvas, model, state);
    EXPECT_TRUE(overview_incomplete(state));
    model.ingest.key_frame = false;
    draw_overview(canvas, model, state);
    EXPECT_EQ(canvas.to_text(), first_page);
}

}  // namespace
}  // namespace runtop::ui
