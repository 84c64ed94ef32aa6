// The ranks view (views/ranks_view.h): golden frames of `runtop snapshot --view ranks` on the
// shared fixture (tests/view_fixture.h), and in-process checks of what a text frame cannot show:
// the styles of off-median, outlier, NaN and missing cells, paging over hundreds of ranks,
// navigation, clicks and what Enter opens.
//
// Re-bless the golden frames after an intended change:
//     RUNTOP_BLESS=1 build/tests/runtop_tests --gtest_filter='RanksSnapshot.*'
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/store/store.h"
#include "tests/model_fixture.h"
#include "tests/view_fixture.h"
#include "views/canvas.h"
#include "views/model.h"
#include "views/ranks_view.h"

namespace runtop {
namespace {

using testing::run_runtop;

class RanksSnapshot : public testing::ViewFixture {};

TEST_F(RanksSnapshot, Braille) {
    expect_golden("ranks_100x30", {"--size", "100x30", "--view", "ranks"});
}

TEST_F(RanksSnapshot, Ascii) {
    expect_golden("ranks_100x30_ascii", {"--size", "100x30", "--view", "ranks", "--ascii"});
}

TEST_F(RanksSnapshot, SparklinesOfTheSelectedTag) {
    // `v` on the grad norm row: rank 1's spike stands out of the shared y range.
    expect_golden("ranks_100x20_sparklines",
                  {"--size", "100x20", "--view", "ranks", "--keys", "j v"});
}

TEST_F(RanksSnapshot, SparklinesAscii) {
    expect_golden("ranks_100x20_sparklines_ascii",
                  {"--size", "100x20", "--view", "ranks", "--keys", "v", "--ascii"});
}

TEST_F(RanksSnapshot, CellsOfEveryStep) {
    // `c`: rank 1's grad norm spike at step 200 is its worst moment; `c` again: the anomalies.
    expect_golden("ranks_100x20_worst", {"--size", "100x20", "--view", "ranks", "--keys", "c j"});
    expect_golden("ranks_100x20_anomalies",
                  {"--size", "100x20", "--view", "ranks", "--keys", "c c j"});
}

TEST_F(RanksSnapshot, NarrowAndShort) {
    // The statistics give way before the ranks; no legend nor readout on 7 rows.
    expect_golden("ranks_48x7", {"--size", "48x7", "--view", "ranks"});
}

TEST_F(RanksSnapshot, FrameFitsAndTooSmallShowsTheNotice) {
    expect_frames_fit("ranks", "19x5");
}

}  // namespace

namespace ui {
namespace {

class RanksView : public testing::ModelFixture {
  protected:
    // The style of the last cell of `text` (values are right-aligned in their cells).
    static Style style_at(const Canvas& c, const std::string& text, int from_y) {
        const auto [x, y] = find(c, text, from_y);
        EXPECT_GE(y, 0) << text;
        if (y < 0) return {};
        return c.at(x + static_cast<int>(text.size()) - 1, y).style;
    }
};

TEST_F(RanksView, DeviationLevelsFollowTheCrossRankLimit) {
    std::vector<RankValue> values;
    for (int r = 0; r < 8; ++r) values.push_back({r, 100.0 + r * 0.1});
    const CrossRankStats s = compute_cross_rank(values);
    // The limit is max(5 MAD, 5% of the median) = 5.0175 here.
    EXPECT_EQ(rank_deviation(100.3, s).level, CellLevel::kOk);
    EXPECT_EQ(rank_deviation(103.5, s).level, CellLevel::kOff);     // over half of it
    EXPECT_EQ(rank_deviation(80.0, s).level, CellLevel::kOutlier);  // beyond it
    EXPECT_EQ(rank_deviation(std::nan(""), s).level, CellLevel::kNonFinite);
    EXPECT_EQ(rank_deviation(-INFINITY, s).level, CellLevel::kNonFinite);
    EXPECT_NEAR(rank_deviation(105.35, s).ratio, 1.0, 0.01);
    // Two ranks: no majority, nothing stands out.
    const CrossRankStats two = compute_cross_rank(std::vector<RankValue>{{0, 1.0}, {1, 50.0}});
    EXPECT_EQ(rank_deviation(50.0, two).level, CellLevel::kOk);
    // Without colour the level still reads: bold+reverse, bold+underline, plain.
    EXPECT_TRUE(cell_style(CellLevel::kOutlier).reverse);
    EXPECT_TRUE(cell_style(CellLevel::kOutlier).bold);
    EXPECT_TRUE(cell_style(CellLevel::kOff).underline);
    EXPECT_EQ(cell_style(CellLevel::kOk), Style{Role::kOk});
}

TEST_F(RanksView, StragglerIsAnOutlierNaNAndMissingCellsHaveTheirOwnLook) {
    for (int rank = 0; rank < 8; ++rank) {
        add("job", rank, "train/throughput", 50,
            [rank](int s) { return (rank == 5 ? 1030.0 : 1260.0) + (s % 3) + rank; });
        add("job", rank, "train/loss", 50,
            [rank](int s) { return rank == 2 && s == 49 ? std::nan("") : 0.6 + 0.001 * rank; });
        if (rank != 6) add("job", rank, "train/grad_norm", 50, [](int) { return 1.0; });
    }
    ViewModel model(store_, analyzer_);
    Canvas canvas(120, 20);
    draw_ranks(canvas, model, {});

    const auto [tx, ty] = find(canvas, "train/throughput");
    ASSERT_GE(ty, 0);
    // The straggler: an outlier, bold and reversed in the alert role, named in OUTLIERS.
    EXPECT_EQ(style_at(canvas, "1036", ty), (Style{Role::kAlert, true, true}));
    EXPECT_NE(row(canvas, ty).find("1 r5"), std::string::npos) << row(canvas, ty);
    EXPECT_EQ(style_at(canvas, "1 r5", ty).role, Role::kAlert);
    EXPECT_EQ(style_at(canvas, "1261", ty).role, Role::kOk);
    // A NaN newest value: "nan" in the NaN role, counted apart from the outliers.
    const auto [lx, ly] = find(canvas, "train/loss");
    ASSERT_GE(ly, 0);
    EXPECT_EQ(style_at(canvas, "nan", ly).role, Role::kNan);
    EXPECT_NE(row(canvas, ly).find("1 nan r2"), std::string::npos) << row(canvas, ly);
    // A rank without the tag: a dim dot.
    const auto [gx, gy] = find(canvas, "train/grad_norm");
    ASSERT_GE(gy, 0);
    int dots = 0;
    for (int x = 0; x < canvas.width(); ++x)
        if (canvas.at(x, gy).ch == U'·') {
            ++dots;
            EXPECT_EQ(canvas.at(x, gy).style.role, Role::kDim);
        }
    EXPECT_EQ(dots, 1) << row(canvas, gy);
    // The header names the ranks; the status says what is shown.
    EXPECT_NE(row(canvas, 1).find("r7"), std::string::npos) << row(canvas, 1);
    EXPECT_NE(row(canvas, 19).find("8 ranks, tag 1/3"), std::string::npos) << row(canvas, 19);
}

TEST_F(RanksView, PagesThreeHundredRanks) {
    for (int rank = 0; rank < 300; ++rank)
        add("job", rank, "train/loss", 3, [rank](int) { return rank == 250 ? 9.0 : 1.0; });
    ViewModel model(store_, analyzer_);
    const int w = 100, h = 12;
    RanksState state;
    RanksLayout l = ranks_layout(state, model, w, h);
    ASSERT_EQ(l.columns.size(), 300u);
    ASSERT_GT(l.per_page, 3);
    ASSERT_LT(l.per_page, 30);
    Canvas canvas(w, h);
    draw_ranks(canvas, model, state);
    EXPECT_NE(row(canvas, h - 1).find(fmt::format("ranks 0-{} of 300", l.per_page - 1)),
              std::string::npos)
        << row(canvas, h - 1);
    // The outlier on a later page is named in the statistics already.
    EXPECT_NE(row(canvas, 2).find("1 r250"), std::string::npos) << row(canvas, 2);

    // Right past the page's last rank turns the page; a pan moves a page at once.
    state.column = l.per_page - 1;
    EXPECT_TRUE(ranks_handle(state, Action::kRight, model, w, h));
    l = ranks_layout(state, model, w, h);
    EXPECT_EQ(l.first_column, l.per_page);
    EXPECT_TRUE(ranks_handle(state, Action::kPanRight, model, w, h));
    EXPECT_EQ(state.column, 2 * l.per_page);
    state.column = 250;
    draw_ranks(canvas, model, state);
    l = ranks_layout(state, model, w, h);
    EXPECT_NE(row(canvas, h - 1).find(fmt::format("ranks {}-", l.first_column)), std::string::npos)
        << row(canvas, h - 1);
    EXPECT_EQ(style_at(canvas, "9", 2), (Style{Role::kAccent, true, true}));  // selected
    // Clamped at the ends; nothing changes past them.
    state.column = 299;
    EXPECT_FALSE(ranks_handle(state, Action::kRight, model, w, h));
    EXPECT_EQ(ranks_selection(state, model).series, model.groups()[0].series[299]);

    // Sparkline mode, binning off, pages the ranks vertically (bins: RanksView.SparklineBins*).
    state = {};
    state.binned = false;
    EXPECT_TRUE(ranks_handle(state, Action::kToggleRankSparklines, model, w, h));
    l = ranks_layout(state, model, w, h);
    EXPECT_TRUE(ranks_handle(state, Action::kPageDown, model, w, h));
    EXPECT_EQ(state.column, l.body_rows);
    draw_ranks(canvas, model, state);
    EXPECT_NE(row(canvas, h - 1).find(fmt::format("rows {}-", l.body_rows + 1)), std::string::npos)
        << row(canvas, h - 1);
    EXPECT_TRUE(ranks_handle(state, Action::kLast, model, w, h));
    EXPECT_EQ(state.column, 299);
}

TEST_F(RanksView, SparklineBinsKeepTheOutlierOnItsOwnRow) {
    // 300 ranks on 20 rows; rank 250 spikes at step 30 and is back by the newest step, rank 7
    // has a NaN: binned, each keeps a row of its own (the spike only the history shows).
    for (int rank = 0; rank < 300; ++rank)
        add("job", rank, "train/loss", 50, [rank](int s) {
            if (rank == 250 && s == 30) return 40.0;
            if (rank == 7 && s == 20) return std::nan("");
            return 1.0 + 0.001 * rank + 0.01 * std::sin(s + rank);
        });
    ViewModel model(store_, analyzer_);
    const int w = 100, h = 20;
    RanksState state;
    state.sparklines = true;
    RanksLayout l = ranks_layout(state, model, w, h);
    ASSERT_GT(l.binned, 0);
    EXPECT_LE(static_cast<int>(l.lines.size()), l.body_rows);  // one page
    EXPECT_EQ(l.outliers, 2);
    Canvas canvas(w, h);
    draw_ranks(canvas, model, state);
    const std::string text = canvas.to_text();
    EXPECT_NE(text.find(fmt::format("300 ranks in {} rows", l.lines.size())), std::string::npos)
        << text;
    EXPECT_NE(text.find("2 outliers apart"), std::string::npos) << text;
    EXPECT_NE(text.find("\nr250 "), std::string::npos) << text;
    EXPECT_NE(text.find("\nr7 "), std::string::npos) << text;
    EXPECT_NE(text.find("\nr0-"), std::string::npos) << text;  // a bin
    // o: the outliers on top, the NaN first; the selection (rank 0) stays on its bin.
    EXPECT_TRUE(ranks_handle(state, Action::kToggleOutliersFirst, model, w, h));
    l = ranks_layout(state, model, w, h);
    EXPECT_EQ(l.lines[0].members, std::vector<int>{7});
    EXPECT_EQ(l.lines[1].members, std::vector<int>{250});
    EXPECT_EQ(l.line, 2);
    EXPECT_NE(ranks_rows_note(state, model, w, h).find("2 outliers on top"), std::string::npos);
    // Up walks rows: the rank 250 row, and Enter opens rank 250.
    EXPECT_TRUE(ranks_handle(state, Action::kUp, model, w, h));
    EXPECT_EQ(state.column, 250);
    EXPECT_EQ(model.run_rank(ranks_selection(state, model).series), (RunRank{"job", 250}));
    // b: a row per rank, paged.
    EXPECT_TRUE(ranks_handle(state, Action::kToggleRankBins, model, w, h));
    l = ranks_layout(state, model, w, h);
    EXPECT_EQ(l.lines.size(), 300u);
    EXPECT_EQ(l.binned, 0);
}

TEST_F(RanksView, NavigationClicksAndSelection) {
    for (int rank = 0; rank < 4; ++rank) {
        add("job", rank, "train/loss", 20, [rank](int s) { return 2.0 - 0.05 * s + rank; });
        add("job", rank, "train/lr", 20, [](int) { return 1e-3; });
        add("job", rank, "eval/acc", 20, [](int s) { return 0.01 * s; });
    }
    ViewModel model(store_, analyzer_);
    const int w = 100, h = 16;
    RanksState state;
    EXPECT_FALSE(ranks_handle(state, Action::kUp, model, w, h));  // already at the top
    EXPECT_TRUE(ranks_handle(state, Action::kDown, model, w, h));
    EXPECT_EQ(state.row, 1);
    EXPECT_TRUE(ranks_handle(state, Action::kLast, model, w, h));
    EXPECT_EQ(state.row, 2);
    EXPECT_TRUE(ranks_handle(state, Action::kFirst, model, w, h));
    EXPECT_TRUE(ranks_handle(state, Action::kRight, model, w, h));
    EXPECT_EQ(state.column, 1);
    EXPECT_FALSE(ranks_handle(state, Action::kZoomIn, model, w, h));  // not the view's

    // A click on a cell selects its tag and rank; on a head, the rank; on a tag, the row.
    const RanksLayout l = ranks_layout(state, model, w, h);
    const int x3 = l.cell_x + 3 * l.pitch;
    EXPECT_TRUE(ranks_mouse(state, InputEvent::mouse(x3, l.body_y + 2, MouseButton::kLeft), model,
                            w, h) == Pointer::kChanged);
    EXPECT_EQ(state.row, 2);
    EXPECT_EQ(state.column, 3);
    RanksSelection s = ranks_selection(state, model);
    ASSERT_NE(s.group, nullptr);
    EXPECT_EQ(s.group->tag, model.groups()[2].tag);
    ASSERT_NE(s.series, kNoSeries);
    EXPECT_EQ(model.run_rank(s.series), (RunRank{"job", 3}));
    EXPECT_TRUE(ranks_mouse(state, InputEvent::mouse(l.cell_x, l.body_y - 1, MouseButton::kLeft),
                            model, w, h) == Pointer::kChanged);
    EXPECT_EQ(state.column, 0);
    EXPECT_EQ(state.row, 2);
    EXPECT_TRUE(ranks_mouse(state, InputEvent::mouse(1, l.body_y, MouseButton::kLeft), model, w,
                            h) == Pointer::kChanged);
    EXPECT_EQ(state.row, 0);
    EXPECT_FALSE(ranks_mouse(state, InputEvent::mouse(1, h - 1, MouseButton::kLeft), model, w, h) ==
                 Pointer::kChanged);  // the status line

    // Sparklines: Up/Down move the rank, Left/Right the tag; a click picks a rank's row.
    EXPECT_TRUE(ranks_handle(state, Action::kToggleRankSparklines, model, w, h));
    EXPECT_TRUE(ranks_handle(state, Action::kDown, model, w, h));
    EXPECT_EQ(state.column, 1);
    EXPECT_TRUE(ranks_handle(state, Action::kRight, model, w, h));
    EXPECT_EQ(state.row, 1);
    const RanksLayout sl = ranks_layout(state, model, w, h);
    EXPECT_TRUE(ranks_mouse(state,
                            InputEvent::mouse(sl.spark_x + 2, sl.body_y + 3, MouseButton::kLeft),
                            model, w, h) == Pointer::kChanged);
    EXPECT_EQ(state.column, 3);
    s = ranks_selection(state, model);
    EXPECT_EQ(s.group->tag, model.groups()[1].tag);
    EXPECT_EQ(model.run_rank(s.series), (RunRank{"job", 3}));
    Canvas canvas(w, h);
    draw_ranks(canvas, model, state);
    // The selected rank's label is reversed; a sparkline per rank, the last value after it.
    EXPECT_EQ(canvas.at(0, sl.body_y + 3).style, (Style{Role::kAccent, true, true}));
    EXPECT_NE(row(canvas, 1).find("LAST"), std::string::npos) << row(canvas, 1);

    // Too small: nothing to click.
    EXPECT_FALSE(ranks_mouse(state, InputEvent::mouse(1, 2, MouseButton::kLeft), model, 19, 5) ==
                 Pointer::kChanged);
}

TEST_F(RanksView, RunsWithTheSameRanksGetColumnsEachAndOtherwiseShareThem) {
    // Two experiments with the same tags and ranks: (run, rank) columns, run names above.
    for (const char* run : {"base", "new"})
        for (int rank = 0; rank < 2; ++rank)
            add(run, rank, "train/loss", 10, [rank](int) { return 1.0 + rank; });
    {
        ViewModel model(store_, analyzer_);
        bool by_rank = true;
        const std::vector<RunRank> columns = rank_columns(model, &by_rank);
        EXPECT_FALSE(by_rank);
        ASSERT_EQ(columns.size(), 4u);
        EXPECT_EQ(columns[2], (RunRank{"new", 0}));
        Canvas canvas(80, 10);
        draw_ranks(canvas, model, {});
        EXPECT_NE(row(canvas, 0).find("base"), std::string::npos) << row(canvas, 0);
        EXPECT_NE(row(canvas, 0).find("new"), std::string::npos) << row(canvas, 0);
        EXPECT_NE(row(canvas, 9).find("4 columns"), std::string::npos) << row(canvas, 9);
    }
    // One job read as two runs with different tags (msProbe CSVs beside event files): one
    // column per rank.
    Store store;
    Analyzer analyzer(default_rules());
    AnalyzingSink sink(analyzer, &store);
    for (int rank = 0; rank < 3; ++rank) {
        const SeriesId a = sink.series({"tb", rank, "train/loss"}, source_id({"tfevents"}));
        const SeriesId b = sink.series({"msprobe", rank, "grad/x/norm"}, source_id({"tfevents"}));
        sink.append(a, {0, 1.7e9, 1.0});
        sink.append(b, {0, 1.7e9, 2.0});
    }
    ViewModel model(store, analyzer);
    bool by_rank = false;
    const std::vector<RunRank> columns = rank_columns(model, &by_rank);
    EXPECT_TRUE(by_rank);
    ASSERT_EQ(columns.size(), 3u);
    EXPECT_EQ(columns[1].rank, 1);
    Canvas canvas(80, 10);
    draw_ranks(canvas, model, {});
    for (int y = 2; y < 4; ++y)  // the two tags' rows: no rank misses a tag
        for (int x = 0; x < canvas.width(); ++x) EXPECT_NE(canvas.at(x, y).ch, U'·') << y;
    EXPECT_NE(canvas.to_text().find("train/loss r0 (tb): 1"), std::string::npos)
        << canvas.to_text();
}

// A loss decaying from 2.3 to 0.056 over four ranks (a log y range), rank 2 spiking to 4.754.
class RanksLogScale : public RanksView {
  protected:
    RanksLogScale() {
        for (int rank = 0; rank < 4; ++rank)
            add("job", rank, "train/loss", 400, [rank](int s) {
                if (rank == 2 && s == 300) return 4.754;
                return 2.301 * std::exp(-s / 108.0) * (1 + 0.01 * rank);
            });
    }
    // The cells of the row labelled `label` that hold `glyph`.
    static int count_in_row(const Canvas& c, const std::string& label, char32_t glyph) {
        const auto [x, y] = find(c, label + " ");
        EXPECT_GE(y, 0) << label;
        int n = 0;
        for (int i = 0; y >= 0 && i < c.width(); ++i) n += c.at(i, y).ch == glyph;
        return n;
    }
};

TEST_F(RanksLogScale, ASpikeFarBeyondALogRangeIsMarked) {
    // The shared log range ends near 2.3; the spike, twice that, is clamped to the top, so only
    // the arrow tells it from the start of the decay. Before, the logs (a range of 3.7 in them)
    // called 4.754 near.
    ViewModel model(store_, analyzer_);
    Canvas canvas(120, 10);
    RanksState state;
    state.sparklines = true;
    draw_ranks(canvas, model, state);
    ASSERT_NE(row(canvas, 0).find("(log)"), std::string::npos) << canvas.to_text();
    EXPECT_EQ(count_in_row(canvas, "r2", U'↑'), 1) << canvas.to_text();
    EXPECT_EQ(count_in_row(canvas, "r1", U'↑'), 0) << canvas.to_text();
}

TEST_F(RanksLogScale, LFlipsTheScaleShownAndKeepsTheSpikeMarked) {
    ViewModel model(store_, analyzer_);
    Canvas canvas(120, 10);
    RanksState state;
    EXPECT_EQ(ranks_toggle_log(state, model, 120, 10),
              "log scale is for the sparklines: v shows them");
    EXPECT_FALSE(state.log.has_value());
    state.sparklines = true;
    EXPECT_EQ(ranks_toggle_log(state, model, 120, 10), "linear y scale (l: log)");
    draw_ranks(canvas, model, state);
    EXPECT_EQ(row(canvas, 0).find("(log)"), std::string::npos) << canvas.to_text();
    EXPECT_EQ(count_in_row(canvas, "r2", U'↑'), 1) << canvas.to_text();
    EXPECT_EQ(ranks_toggle_log(state, model, 120, 10), "log y scale (l: linear)");
    draw_ranks(canvas, model, state);
    EXPECT_NE(row(canvas, 0).find("(log)"), std::string::npos) << canvas.to_text();
}

TEST_F(RanksView, LogScaleNeedsPositiveValues) {
    for (int rank = 0; rank < 4; ++rank)
        add("job", rank, "train/delta", 100, [rank](int s) { return -1.0 - (s % 7) - rank; });
    ViewModel model(store_, analyzer_);
    RanksState state;
    state.sparklines = true;
    EXPECT_EQ(ranks_toggle_log(state, model, 120, 10),
              "log scale needs positive values: linear kept");
    EXPECT_FALSE(state.log.has_value());
}

TEST_F(RanksView, CellsShowAPassedSpikeAsTheWorstMomentAndAsAnAnomaly) {
    // Rank 1's loss spikes x20 at step 100 and is back with the others by the newest step.
    for (int rank = 0; rank < 4; ++rank)
        add("job", rank, "train/loss", 200, [rank](int s) {
            const double v = 2.0 - s * 0.005 + 0.001 * rank + 0.002 * (s % 3);
            return rank == 1 && s == 100 ? 20 * v : v;
        });
    analyzer_.finish();
    ViewModel model(store_, analyzer_);
    Canvas canvas(100, 14);
    RanksState state;
    draw_ranks(canvas, model, state);
    const int y = find(canvas, "train/loss").second;
    ASSERT_GE(y, 0);
    // Newest values: nothing stands out.
    EXPECT_EQ(style_at(canvas, "1.009", y).role, Role::kOk) << canvas.to_text();

    ASSERT_TRUE(ranks_handle(state, Action::kCycleRankCells, model, 100, 14));
    EXPECT_EQ(state.cells, RankCells::kWorst);
    draw_ranks(canvas, model, state);
    EXPECT_NE(row(canvas, 0).find("worst vs the median"), std::string::npos) << canvas.to_text();
    EXPECT_NE(row(canvas, y).find("20"), std::string::npos) << row(canvas, y);
    EXPECT_EQ(style_at(canvas, "20", y), cell_style(CellLevel::kOutlier)) << canvas.to_text();
    // The readout names where (rank 0 is selected: near the median).
    EXPECT_NE(canvas.to_text().find("worst"), std::string::npos);

    ranks_handle(state, Action::kCycleRankCells, model, 100, 14);
    EXPECT_EQ(state.cells, RankCells::kAnomalies);
    draw_ranks(canvas, model, state);
    const std::string r = row(canvas, y);
    // The spike, and the cross-rank rule's finding on it (20 times the other ranks).
    EXPECT_NE(r.find("0   2   0   0"), std::string::npos) << canvas.to_text();
    EXPECT_EQ(style_at(canvas, "2", y).role, Role::kWarn) << canvas.to_text();

    ranks_handle(state, Action::kCycleRankCells, model, 100, 14);
    EXPECT_EQ(state.cells, RankCells::kNewest);
}

TEST_F(RanksView, EmptyModelSaysSo) {
    ViewModel model(store_, analyzer_);
    Canvas canvas(60, 10);
    draw_ranks(canvas, model, {});
    EXPECT_NE(row(canvas, 1).find("no scalar series read yet"), std::string::npos);
    RanksState state;
    EXPECT_FALSE(ranks_handle(state, Action::kDown, model, 60, 10));
    EXPECT_EQ(ranks_selection(state, model).group, nullptr);
}

}  // namespace
}  // namespace ui
}  // namespace runtop
