// The heatmap view (views/heatmap_view.h): golden frames of `runtop snapshot --view heatmap` on
// the shared fixture (tests/view_fixture.h), and in-process checks of the colour mapping (ramp
// levels, NaN columns, spikes a column's mean would hide, the log scale), paging over hundreds
// of ranks, navigation, clicks and the step Enter opens.
//
// Re-bless the golden frames after an intended change:
//     RUNTOP_BLESS=1 build/tests/runtop_tests --gtest_filter='HeatmapSnapshot.*'
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
#include "views/heatmap_view.h"
#include "views/model.h"

namespace runtop {
namespace {

using testing::run_runtop;

class HeatmapSnapshot : public testing::ViewFixture {};

TEST_F(HeatmapSnapshot, Braille) {
    // The first card: train/loss, rank 2's NaN at step 300.
    expect_golden("heatmap_100x30", {"--size", "100x30", "--view", "heatmap"});
}

TEST_F(HeatmapSnapshot, Ascii) {
    expect_golden("heatmap_100x30_ascii", {"--size", "100x30", "--view", "heatmap", "--ascii"});
}

TEST_F(HeatmapSnapshot, GradNormSpike) {
    // Rank 1's spike at step 200 shares its column with other steps: it stays visible.
    expect_golden("heatmap_100x14_grad_norm", {"--size", "100x14", "--view", "heatmap", "--tag",
                                               "train/grad_norm", "--filter", "grad_norm"});
}

TEST_F(HeatmapSnapshot, NarrowAndShort) {
    expect_golden("heatmap_40x7", {"--size", "40x7", "--view", "heatmap"});
}

TEST_F(HeatmapSnapshot, FrameFitsAndTooSmallShowsTheNotice) {
    expect_frames_fit("heatmap", "30x5");
}

}  // namespace

namespace ui {
namespace {

class HeatmapView : public testing::ModelFixture {
  protected:
    // The map cells of row r of the page.
    static std::vector<Cell> cells(const Canvas& c, const HeatmapLayout& l, int r) {
        std::vector<Cell> out;
        for (int x = l.map_x; x < l.map_x + l.columns; ++x) out.push_back(c.at(x, l.body_y + r));
        return out;
    }
};

TEST_F(HeatmapView, LevelsRampWithTheMeanAndNaNColumnsAreMarked) {
    // Rank r sits at level r: the ramp spans them, low to high.
    for (int rank = 0; rank < 4; ++rank)
        add("job", rank, "train/x", 40,
            [rank](int s) { return rank == 3 && s == 17 ? std::nan("") : 1.0 + rank; });
    ViewModel model(store_, analyzer_);
    Canvas canvas(60, 14);
    HeatmapState state;
    draw_heatmap(canvas, model, state);
    const HeatmapLayout l = heatmap_layout(state, model, 60, 14);
    ASSERT_EQ(l.rows, 4);
    ASSERT_EQ(l.columns, 40);  // fewer steps than room: one step a column
    const std::vector<Cell> low = cells(canvas, l, 0), high = cells(canvas, l, 2);
    EXPECT_EQ(low[0].style.role, Role::kHeat0);
    EXPECT_EQ(low[0].ch, U'░');
    EXPECT_GT(static_cast<int>(high[0].style.role), static_cast<int>(Role::kHeat5));
    const std::vector<Cell> nan_row = cells(canvas, l, 3);
    EXPECT_EQ(nan_row[17].ch, U'×');
    EXPECT_EQ(nan_row[17].style.role, Role::kNan);
    EXPECT_EQ(nan_row[16].style.role, Role::kHeat9);
    EXPECT_EQ(nan_row[16].ch, U'█');
    // The newest column is selected (a diamond), its rank's label reversed, the step marked.
    EXPECT_EQ(canvas.at(l.map_x + 39, l.body_y).ch, U'◆');
    EXPECT_TRUE(canvas.at(0, l.body_y).style.reverse);
    EXPECT_EQ(canvas.at(l.map_x + 39, l.axis_y).ch, U'▲');
    // The legend shows the ramp and its ends; the readout the selected cell.
    EXPECT_NE(row(canvas, l.legend_y).find("mean of a column: 1 "), std::string::npos)
        << row(canvas, l.legend_y);
    EXPECT_NE(row(canvas, l.readout_y).find("r0 step 39: value 1 (1 point)"), std::string::npos)
        << row(canvas, l.readout_y);

    // The glyphs carry the level without colour.
    EXPECT_EQ(heat_glyph(0, GlyphTier::kAscii), U'.');
    EXPECT_EQ(heat_glyph(9, GlyphTier::kAscii), U'@');
    EXPECT_EQ(heat_glyph(12, GlyphTier::kBlocks), U'█');
}

TEST_F(HeatmapView, ASpikeAveragedAwayInItsColumnStillShows) {
    // 10,000 steps on 60 columns: ~170 points a column. One point 30x the noise level.
    for (int rank = 0; rank < 4; ++rank)
        add("job", rank, "train/grad_norm", 10000, [rank](int s) {
            const double v = 1.2 + 0.1 * std::sin(s * 0.7 + rank);
            return rank == 1 && s == 5000 ? 36.0 : v;
        });
    ViewModel model(store_, analyzer_);
    const int w = 80, h = 12;
    Canvas canvas(w, h);
    HeatmapState state;
    draw_heatmap(canvas, model, state);
    const HeatmapLayout l = heatmap_layout(state, model, w, h);
    ASSERT_LT(l.columns, 100);
    int spike_column = -1;
    for (int c = 0; c < l.columns; ++c)
        if (l.bucket_start(c) <= 5000 && 5000 < l.bucket_start(c + 1)) spike_column = c;
    ASSERT_GE(spike_column, 0);
    const std::vector<Cell> r1 = cells(canvas, l, 1);
    EXPECT_EQ(r1[spike_column].ch, U'↑') << row(canvas, l.body_y + 1);
    EXPECT_EQ(r1[spike_column].style, (Style{Role::kWarn, true}));
    // Nowhere else: noise is not a spike.
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < l.columns; ++c)
            if (r != 1 || c != spike_column) {
                EXPECT_NE(cells(canvas, l, r)[c].ch, U'↑') << r << c;
            }
    // Selected, the readout gives the column's max.
    state.row = 1;
    state.step = l.bucket_start(spike_column);
    draw_heatmap(canvas, model, state);
    const std::string readout = row(canvas, l.readout_y);
    EXPECT_NE(readout.find("max 36"), std::string::npos) << readout;
    EXPECT_NE(readout.find("a spike"), std::string::npos) << readout;
    // Enter opens the spike's column at the spike's own step, not the column's newest.
    const HeatmapSelection s = heatmap_selection(state, model, w, h);
    ASSERT_TRUE(s.step);
    EXPECT_EQ(*s.step, 5000);
    EXPECT_EQ(model.run_rank(s.series), (RunRank{"job", 1}));
}

TEST_F(HeatmapView, LogScaleWhenPositiveValuesSpanDecades) {
    for (int rank = 0; rank < 3; ++rank)
        add("job", rank, "train/lr", 300,
            [rank](int s) { return 1e-6 * std::pow(10.0, s / 60.0) * (rank + 1); });
    ViewModel model(store_, analyzer_);
    Canvas canvas(80, 10);
    draw_heatmap(canvas, model, {});
    const HeatmapLayout l = heatmap_layout({}, model, 80, 10);
    EXPECT_NE(row(canvas, l.legend_y).find("(log)"), std::string::npos) << row(canvas, l.legend_y);
    // In log scale the levels climb evenly along the row, not all at the end.
    const std::vector<Cell> r0 = cells(canvas, l, 0);
    const int mid = static_cast<int>(r0[l.columns / 2].style.role) - static_cast<int>(Role::kHeat0);
    EXPECT_GE(mid, 3);
    EXPECT_LE(mid, 6);
}

TEST_F(HeatmapView, LFlipsTheRampBetweenLogAndLinear) {
    for (int rank = 0; rank < 3; ++rank)
        add("job", rank, "train/lr", 300,
            [rank](int s) { return 1e-6 * std::pow(10.0, s / 60.0) * (rank + 1); });
    ViewModel model(store_, analyzer_);
    Canvas canvas(80, 10);
    HeatmapState state;
    const HeatmapLayout l = heatmap_layout(state, model, 80, 10);
    EXPECT_EQ(heatmap_toggle_log(state, model, 80, 10), "linear colour ramp (l: log)");
    draw_heatmap(canvas, model, state);
    EXPECT_EQ(row(canvas, l.legend_y).find("(log)"), std::string::npos) << row(canvas, l.legend_y);
    // Linear: the first half of a row, under a thousandth of the top, sits at the ramp's foot.
    const std::vector<Cell> r0 = cells(canvas, l, 0);
    EXPECT_EQ(r0[l.columns / 2].style.role, Role::kHeat0);
    EXPECT_EQ(heatmap_toggle_log(state, model, 80, 10), "log colour ramp (l: linear)");
    draw_heatmap(canvas, model, state);
    EXPECT_NE(row(canvas, l.legend_y).find("(log)"), std::string::npos) << row(canvas, l.legend_y);
}

TEST_F(HeatmapView, LogNeedsPositiveValues) {
    for (int rank = 0; rank < 3; ++rank)
        add("job", rank, "train/delta", 100, [](int s) { return -1.0 - (s % 9); });
    ViewModel model(store_, analyzer_);
    HeatmapState state;
    EXPECT_EQ(heatmap_toggle_log(state, model, 80, 10),
              "log scale needs positive values: linear kept");
    EXPECT_FALSE(state.log.has_value());
}

// Four ranks of 2,000 steps (about 21 steps a column at 100 columns): rank 0's grad norm
// spikes at step 1234 (the spike rule records it), rank 1's at step 30 (inside the rule's
// warm-up: no record), rank 3 turns NaN at steps 1500-1502.
class HeatmapSteps : public HeatmapView {
  protected:
    HeatmapSteps() {
        for (int rank = 0; rank < 4; ++rank)
            add("job", rank, "train/grad_norm", 2000, [rank](int s) {
                if (rank == 0 && s == 1234) return 500.0;
                if (rank == 1 && s == 30) return 700.0;
                if (rank == 3 && s >= 1500 && s <= 1502) return std::nan("");
                return 1.0 + 0.01 * ((s * 7 + rank) % 11);
            });
        analyzer_.finish();
    }
};

TEST_F(HeatmapSteps, EnterOpensTheStepThatTellsInTheColumn) {
    ViewModel model(store_, analyzer_);
    HeatmapState state;
    EXPECT_EQ(heatmap_go_to_step(state, 1234, model, 100, 14),
              "step 1234: the column of steps 1221-1241");
    EXPECT_EQ(heatmap_selection(state, model, 100, 14).step, 1234);  // the record's step
    state.row = 1;
    heatmap_go_to_step(state, 30, model, 100, 14);
    EXPECT_EQ(heatmap_selection(state, model, 100, 14).step, 30);  // the spike's own step
    state.row = 3;
    heatmap_go_to_step(state, 1510, model, 100, 14);
    EXPECT_EQ(heatmap_selection(state, model, 100, 14).step, 1500);  // the first NaN
    state.row = 2;
    heatmap_go_to_step(state, 1000, model, 100, 14);
    const HeatmapLayout l = heatmap_layout(state, model, 100, 14);
    EXPECT_EQ(heatmap_selection(state, model, 100, 14).step, l.bucket_start(l.column + 1) - 1);
    // Past the end: the last column, and the note says so.
    EXPECT_EQ(heatmap_go_to_step(state, 5000, model, 100, 14).rfind("step 5000 is outside", 0), 0u);
    EXPECT_FALSE(state.step);  // the newest column, following
}

TEST_F(HeatmapSteps, BracketsWalkTheMarkedCellsInStepOrder) {
    ViewModel model(store_, analyzer_);
    HeatmapState state;
    state.step = heatmap_layout(state, model, 100, 14).lo;
    auto at = [&] {
        const HeatmapSelection s = heatmap_selection(state, model, 100, 14);
        return std::make_pair(state.row, s.step.value_or(-1));
    };
    EXPECT_EQ(heatmap_next_mark(state, 1, model, 100, 14), "marked cell 1 of 3");
    EXPECT_EQ(at(), std::make_pair(1, std::int64_t{30}));
    heatmap_next_mark(state, 1, model, 100, 14);
    EXPECT_EQ(at(), std::make_pair(0, std::int64_t{1234}));
    heatmap_next_mark(state, 1, model, 100, 14);
    EXPECT_EQ(at(), std::make_pair(3, std::int64_t{1500}));
    EXPECT_EQ(heatmap_next_mark(state, 1, model, 100, 14),
              "no marked cell after this one (3 in this tag)");
    EXPECT_EQ(heatmap_next_mark(state, -1, model, 100, 14), "marked cell 2 of 3");
    EXPECT_EQ(at(), std::make_pair(0, std::int64_t{1234}));
}

TEST_F(HeatmapView, PagesThreeHundredRanksAndNavigates) {
    for (int rank = 0; rank < 300; ++rank)
        add("job", rank, "train/loss", 50, [rank](int s) { return 1.0 + 0.001 * rank + 0.01 * s; });
    add("job", 0, "train/lr", 50, [](int) { return 1e-3; });
    ViewModel model(store_, analyzer_);
    const int w = 80, h = 20;
    HeatmapState state;
    state.binned = false;  // paged: a row per rank (bins: HeatmapBins.*)
    HeatmapLayout l = heatmap_layout(state, model, w, h);
    ASSERT_EQ(l.rows, 300);
    ASSERT_GT(l.body_rows, 5);
    Canvas canvas(w, h);
    draw_heatmap(canvas, model, state);
    EXPECT_NE(row(canvas, h - 1).find(fmt::format("rows 1-{} of 300", l.body_rows)),
              std::string::npos)
        << row(canvas, h - 1);

    EXPECT_TRUE(heatmap_handle(state, Action::kPageDown, model, w, h));
    EXPECT_EQ(state.row, l.body_rows);
    l = heatmap_layout(state, model, w, h);
    EXPECT_EQ(l.first, l.body_rows);
    EXPECT_TRUE(heatmap_handle(state, Action::kLast, model, w, h));
    EXPECT_EQ(state.row, 299);
    EXPECT_FALSE(heatmap_handle(state, Action::kDown, model, w, h));
    draw_heatmap(canvas, model, state);
    EXPECT_NE(row(canvas, h - 1).find("of 300"), std::string::npos) << row(canvas, h - 1);
    EXPECT_TRUE(heatmap_handle(state, Action::kFirst, model, w, h));
    EXPECT_EQ(state.row, 0);

    // Columns: -1 follows the newest; Left leaves it, Right back to the end follows again.
    EXPECT_FALSE(state.step);
    EXPECT_FALSE(heatmap_handle(state, Action::kRight, model, w, h));
    EXPECT_TRUE(heatmap_handle(state, Action::kLeft, model, w, h));
    EXPECT_EQ(state.step, l.bucket_start(l.columns - 2));
    EXPECT_TRUE(heatmap_handle(state, Action::kRight, model, w, h));
    EXPECT_FALSE(state.step);

    // A click on a cell selects its row and column; on a label, the row only.
    EXPECT_TRUE(heatmap_mouse(state,
                              InputEvent::mouse(l.map_x + 5, l.body_y + 3, MouseButton::kLeft),
                              model, w, h) == Pointer::kChanged);
    EXPECT_EQ(state.row, 3);
    EXPECT_EQ(state.step, 5);
    HeatmapSelection s = heatmap_selection(state, model, w, h);
    EXPECT_EQ(model.run_rank(s.series), (RunRank{"job", 3}));
    ASSERT_TRUE(s.step);
    EXPECT_EQ(*s.step, 5);  // 50 steps on 50 columns
    EXPECT_TRUE(heatmap_mouse(state, InputEvent::mouse(0, l.body_y + 4, MouseButton::kLeft), model,
                              w, h) == Pointer::kChanged);
    EXPECT_EQ(state.row, 4);
    EXPECT_EQ(state.step, 5);
    EXPECT_FALSE(heatmap_mouse(state, InputEvent::mouse(5, l.axis_y, MouseButton::kLeft), model, w,
                               h) == Pointer::kChanged);

    // Tags cycle; an unknown tag falls back to the first card.
    EXPECT_TRUE(heatmap_handle(state, Action::kNextSeries, model, w, h));
    EXPECT_EQ(state.tag, "train/lr");
    EXPECT_EQ(heatmap_selection(state, model, w, h).group->tag, "train/lr");
    state.tag = "nope";
    EXPECT_EQ(heatmap_selection(state, model, w, h).group->tag, "train/loss");
}

TEST_F(HeatmapView, EmptyModelSaysSo) {
    ViewModel model(store_, analyzer_);
    Canvas canvas(60, 10);
    HeatmapState state;
    draw_heatmap(canvas, model, state);
    EXPECT_NE(row(canvas, 1).find("no scalar series read yet"), std::string::npos);
    EXPECT_FALSE(heatmap_handle(state, Action::kDown, model, 60, 10));
    EXPECT_FALSE(heatmap_mouse(state, InputEvent::mouse(10, 2, MouseButton::kLeft), model, 60,
                               10) == Pointer::kChanged);
    EXPECT_EQ(heatmap_selection(state, model, 60, 10).group, nullptr);
}

}  // namespace
}  // namespace ui
}  // namespace runtop
