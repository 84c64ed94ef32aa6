// The detail chart (views/detail_view.h): golden frames from `runtop snapshot --view detail` on
// the view fixture (4 ranks, 400 steps, rank 1's grad norm x30 at step 200, rank 2's loss NaN at
// step 300), and in-process units: zoom, pan and cursor arithmetic, log-Y with values <= 0,
// clipping that marks every clipped point, a spike among 100k points at every zoom, the
// readout of every rank, the x axis modes and the mouse.
//
// Re-bless the frames after an intended change: RUNTOP_BLESS=1 build/tests/runtop_tests
// --gtest_filter='DetailSnapshot.*'
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/analysis/smoothing.h"
#include "core/format.h"
#include "core/store/store.h"
#include "tests/view_fixture.h"
#include "views/canvas.h"
#include "views/chart_plot.h"
#include "views/detail_view.h"
#include "views/glyphs.h"
#include "views/model.h"

namespace runtop {
namespace {

// --- golden frames -------------------------------------------------------------------------

class DetailSnapshot : public testing::ViewFixture {};

TEST_F(DetailSnapshot, LossBraille) {
    // The first card's tag (train/loss): rank 2's NaN at step 300 marked on the x axis.
    expect_golden("detail_100x30", {"--size", "100x30", "--view", "detail"});
}

TEST_F(DetailSnapshot, LossAscii) {
    expect_golden("detail_100x30_ascii", {"--size", "100x30", "--view", "detail", "--ascii"});
}

TEST_F(DetailSnapshot, GradNormCursorOnTheSpike) {
    expect_golden("detail_grad_norm_step200_100x30", {"--size", "100x30", "--view", "detail",
                                                      "--tag", "train/grad_norm", "--step", "200"});
}

TEST_F(DetailSnapshot, LossAtTheNaNStep) {
    expect_golden("detail_loss_step300_120x40",
                  {"--size", "120x40", "--view", "detail", "--tag", "train/loss", "--step", "300"});
}

TEST_F(DetailSnapshot, NarrowCanvasReadsOutBelow) {
    expect_golden("detail_grad_norm_64x24", {"--size", "64x24", "--view", "detail", "--tag",
                                             "train/grad_norm", "--step", "200"});
}

TEST_F(DetailSnapshot, SmallCanvas) {
    expect_golden("detail_small_40x10", {"--size", "40x10", "--view", "detail"});
}

TEST_F(DetailSnapshot, TooSmallCanvas) {
    expect_golden("detail_too_small_18x5", {"--size", "18x5", "--view", "detail"});
}

}  // namespace

namespace ui {
namespace {

// --- in-process ----------------------------------------------------------------------------

std::string utf8_row(const Canvas& c, int y) {
    std::string out;
    for (int x = 0; x < c.width(); ++x)
        if (c.at(x, y).ch != 0) append_utf8(out, c.at(x, y).ch);
    return out;
}

std::string frame(const Canvas& c) {
    return c.to_text();
}

bool is_dot_glyph(char32_t ch) {
    return (ch > 0x2800 && ch <= 0x28ff) || ch == U'▄' || ch == U'▀' || ch == U'█' || ch == U'.' ||
           ch == U'-' || ch == U'\'' || ch == U'|' || ch == U':';
}

class DetailView : public ::testing::Test {
  protected:
    DetailView() : analyzer_(default_rules()), sink_(analyzer_, &store_) {}

    template <class F>
    void add(const std::string& run, int rank, const std::string& tag, int steps, F f,
             double wall_step = 1.0) {
        const SeriesId id = sink_.series({run, rank, tag}, source_id({"tfevents"}));
        for (int s = 0; s < steps; ++s)
            sink_.append(id, {s, 1.7e9 + s * wall_step, static_cast<double>(f(s))});
    }

    // Draws and returns the canvas.
    Canvas draw(const ViewModel& model, const DetailState& state, int w = 100, int h = 30) {
        Canvas c(w, h);
        draw_detail(c, model, state);
        return c;
    }

    Store store_;
    Analyzer analyzer_;
    AnalyzingSink sink_;
};

TEST_F(DetailView, ZoomPanAndCursorArithmetic) {
    add("job", 0, "train/loss", 1000, [](int s) { return 2.0 - s * 0.001; });
    analyzer_.finish();
    ViewModel model(store_, analyzer_);
    DetailState state;
    open_detail(state, model, "train/loss", std::nullopt, std::nullopt);
    const int W = 100, H = 30;
    DetailGeometry g = detail_geometry(model, state, W, H);
    ASSERT_TRUE(g.has_data);
    EXPECT_EQ(g.lo, 0);
    EXPECT_EQ(g.hi, 999);
    EXPECT_EQ(g.cursor, 999);            // the newest step by default
    EXPECT_EQ(g.columns, g.plot_w * 2);  // braille: two columns a cell
    // Columns split the window as Series::query does, and column_of inverts column_step.
    for (int c = 0; c < g.columns; ++c) {
        EXPECT_EQ(g.column_of(g.column_step(c)), c);
        EXPECT_EQ(g.column_of(g.column_step(c + 1) - 1), c);
    }

    // Zoom in about the cursor at the newest step: half the window, ending there.
    ASSERT_TRUE(detail_handle(state, Action::kZoomIn, model, W, H));
    g = detail_geometry(model, state, W, H);
    EXPECT_EQ(g.hi - g.lo + 1, 500);
    EXPECT_EQ(g.hi, 999);
    // The cursor one column left, twice.
    ASSERT_TRUE(detail_handle(state, Action::kLeft, model, W, H));
    ASSERT_TRUE(state.cursor);
    g = detail_geometry(model, state, W, H);
    EXPECT_EQ(g.column_of(g.cursor), g.columns - 2);
    const std::int64_t before = g.cursor;
    ASSERT_TRUE(detail_handle(state, Action::kRight, model, W, H));
    g = detail_geometry(model, state, W, H);
    EXPECT_GT(g.cursor, before);
    EXPECT_EQ(g.column_of(g.cursor), g.columns - 1);

    // Pan left a quarter window; the cursor stays inside it.
    ASSERT_TRUE(detail_handle(state, Action::kPanLeft, model, W, H));
    g = detail_geometry(model, state, W, H);
    EXPECT_EQ(g.lo, 375);
    EXPECT_EQ(g.hi, 874);
    EXPECT_EQ(g.cursor, 874);
    ASSERT_TRUE(detail_handle(state, Action::kPanRight, model, W, H));
    g = detail_geometry(model, state, W, H);
    EXPECT_EQ(g.lo, 500);
    // Right at the end of the data: no further.
    EXPECT_FALSE(detail_handle(state, Action::kPanRight, model, W, H));

    // Zoom in about a cursor in the middle: the cursor keeps its place.
    state.cursor = 750;
    g = detail_geometry(model, state, W, H);
    const int cell = g.cell_of(750);
    ASSERT_TRUE(detail_handle(state, Action::kZoomIn, model, W, H));
    g = detail_geometry(model, state, W, H);
    EXPECT_EQ(g.hi - g.lo + 1, 250);
    EXPECT_NEAR(g.cell_of(750), cell, 1);
    // Deep zoom stops at 8 steps; the columns are then wider than the steps.
    for (int i = 0; i < 12; ++i) detail_handle(state, Action::kZoomIn, model, W, H);
    g = detail_geometry(model, state, W, H);
    EXPECT_EQ(g.hi - g.lo + 1, 8);
    EXPECT_LE(g.lo, 750);
    EXPECT_GE(g.hi, 750);
    EXPECT_FALSE(detail_handle(state, Action::kZoomIn, model, W, H));
    // Moving the cursor right goes one step at a time now, and pans at the edge.
    state.cursor = g.hi;
    const std::int64_t hi = g.hi;
    ASSERT_TRUE(detail_handle(state, Action::kRight, model, W, H));
    g = detail_geometry(model, state, W, H);
    EXPECT_EQ(g.hi, hi + 1);
    EXPECT_EQ(g.cursor, hi + 1);
    ASSERT_TRUE(detail_handle(state, Action::kLeft, model, W, H));
    EXPECT_EQ(*state.cursor, hi);

    // g / G: the first step (the window follows) and the newest.
    ASSERT_TRUE(detail_handle(state, Action::kFirst, model, W, H));
    g = detail_geometry(model, state, W, H);
    EXPECT_EQ(g.cursor, 0);
    EXPECT_EQ(g.lo, 0);
    ASSERT_TRUE(detail_handle(state, Action::kLast, model, W, H));
    g = detail_geometry(model, state, W, H);
    EXPECT_FALSE(state.cursor);
    EXPECT_EQ(g.cursor, 999);
    EXPECT_EQ(g.hi, 999);
    // Zooming out all the way, or 0: the whole run again (following).
    for (int i = 0; i < 20; ++i) detail_handle(state, Action::kZoomOut, model, W, H);
    EXPECT_FALSE(state.window_lo);
    EXPECT_FALSE(state.window_hi);
    detail_handle(state, Action::kZoomIn, model, W, H);
    ASSERT_TRUE(state.window_lo);
    ASSERT_TRUE(detail_handle(state, Action::kResetZoom, model, W, H));
    EXPECT_FALSE(state.window_lo);
}

TEST_F(DetailView, OpenAtAStepCentresALongRunOnIt) {
    add("job", 0, "train/loss", 20000, [](int s) { return 1.0 + s % 7; });
    ViewModel model(store_, analyzer_);
    DetailState state;
    open_detail(state, model, "train/loss", std::nullopt, 12000);
    ASSERT_TRUE(state.window_lo && state.window_hi);
    EXPECT_EQ(*state.window_hi - *state.window_lo + 1, 5000);
    EXPECT_LE(*state.window_lo, 12000);
    EXPECT_GE(*state.window_hi, 12000);
    EXPECT_EQ(*state.cursor, 12000);
    // A short run is shown whole.
    add("job", 0, "train/lr", 300, [](int) { return 1.0; });
    model.update();
    open_detail(state, model, "train/lr", std::nullopt, 100);
    EXPECT_FALSE(state.window_lo);
    EXPECT_EQ(*state.cursor, 100);
}

TEST_F(DetailView, LogYDrawsValuesAtOrBelowZeroAtTheBottomMarked) {
    add("job", 0, "train/x", 100, [](int s) { return s - 10.0; });  // -10 .. 89
    ViewModel model(store_, analyzer_);
    DetailState state;
    open_detail(state, model, "train/x", std::nullopt, std::nullopt);
    state.log_y = true;
    const Canvas c = draw(model, state);
    const std::string title = utf8_row(c, 0);
    EXPECT_NE(title.find("log-Y (11 ≤0 at bottom)"), std::string::npos) << frame(c);
    const DetailGeometry g = detail_geometry(model, state, 100, 30);
    // The columns of steps 0..10 are marked on the plot's bottom row, in the warn role.
    const int bottom = g.plot_y + g.plot_h - 1;
    std::set<int> marked;
    for (int x = g.plot_x; x < g.plot_x + g.plot_w; ++x)
        if (c.at(x, bottom).ch == marks(GlyphTier::kBraille).clipped_down) {
            EXPECT_EQ(c.at(x, bottom).style.role, Role::kWarn);
            marked.insert(x - g.plot_x);
        }
    std::set<int> expected;
    for (int s = 0; s <= 10; ++s) expected.insert(g.cell_of(s));
    EXPECT_EQ(marked, expected);
    // Log ticks: powers of ten labelled.
    EXPECT_NE(frame(c).find("10┤"), std::string::npos) << frame(c);
    // Positive values are plotted above the bottom.
    int dots = 0;
    for (int y = g.plot_y; y < bottom; ++y)
        for (int x = g.plot_x; x < g.plot_x + g.plot_w; ++x) dots += is_dot_glyph(c.at(x, y).ch);
    EXPECT_GT(dots, 10);
}

TEST_F(DetailView, ClippingMarksEveryClippedPointAtTheEdge) {
    const std::set<int> up = {100, 300, 500, 700, 900}, down = {200, 600, 800};
    for (int rank = 0; rank < 2; ++rank)
        add("job", rank, "train/x", 1000, [&, rank](int s) {
            if (rank == 1 && up.count(s)) return 50.0 + s;
            if (rank == 0 && down.count(s)) return -50.0 - s;
            return std::sin(s * 0.1 + rank);
        });
    ViewModel model(store_, analyzer_);
    DetailState state;
    open_detail(state, model, "train/x", std::nullopt, std::nullopt);
    state.smoothing = 0;
    // Without clipping: the whole range, nothing marked.
    Canvas c = draw(model, state);
    DetailGeometry g = detail_geometry(model, state, 100, 30);
    auto count = [&](const Canvas& cv, int y, char32_t mark) {
        std::set<int> cells;
        for (int x = g.plot_x; x < g.plot_x + g.plot_w; ++x)
            if (cv.at(x, y).ch == mark) cells.insert(x - g.plot_x);
        return cells;
    };
    const Marks& mk = marks(GlyphTier::kBraille);
    EXPECT_TRUE(count(c, g.plot_y, mk.clipped_up).empty());
    EXPECT_EQ(utf8_row(c, 0).find("clipped"), std::string::npos);

    ASSERT_TRUE(detail_handle(state, Action::kToggleClipOutliers, model, 100, 30));
    c = draw(model, state);
    g = detail_geometry(model, state, 100, 30);
    EXPECT_NE(utf8_row(c, 0).find("clipped 8"), std::string::npos) << frame(c);
    std::set<int> want_up, want_down;
    for (int s : up) want_up.insert(g.cell_of(s));
    for (int s : down) want_down.insert(g.cell_of(s));
    EXPECT_EQ(count(c, g.plot_y, mk.clipped_up), want_up) << frame(c);
    EXPECT_EQ(count(c, g.plot_y + g.plot_h - 1, mk.clipped_down), want_down) << frame(c);
    for (int cell : want_up) {
        EXPECT_EQ(c.at(g.plot_x + cell, g.plot_y).style.role, Role::kWarn);
        EXPECT_TRUE(c.at(g.plot_x + cell, g.plot_y).style.bold);
    }
    // The sine fills the clipped range: its ticks are about ±1, not ±1000.
    EXPECT_EQ(frame(c).find("1000"), std::string::npos) << frame(c);

    // Zoomed in on one spike: still marked, and counted.
    state.cursor = 500;
    for (int i = 0; i < 3; ++i) detail_handle(state, Action::kZoomIn, model, 100, 30);
    c = draw(model, state);
    g = detail_geometry(model, state, 100, 30);
    ASSERT_LE(g.lo, 500);
    ASSERT_GE(g.hi, 500);
    EXPECT_EQ(count(c, g.plot_y, mk.clipped_up), std::set<int>{g.cell_of(500)}) << frame(c);
}

TEST_F(DetailView, ASpikeAmong100kPointsShowsAtEveryZoom) {
    constexpr int kSpike = 54321;
    add("job", 0, "train/grad_norm", 100000,
        [](int s) { return s == kSpike ? 1000.0 : 1.0 + 0.01 * std::sin(s * 0.37); });
    ViewModel model(store_, analyzer_);
    for (GlyphTier tier : {GlyphTier::kBraille, GlyphTier::kBlocks, GlyphTier::kAscii}) {
        model.set_glyphs(tier);
        DetailState state;
        open_detail(state, model, "train/grad_norm", std::nullopt, std::nullopt);
        state.cursor = 10;  // far from the spike: zooming keeps the spike in view only so far
        for (int zoom = 0; zoom < 16; ++zoom) {
            const Canvas c = draw(model, state, 90, 24);
            const DetailGeometry g = detail_geometry(model, state, 90, 24);
            if (g.lo <= kSpike && g.hi >= kSpike) {
                const int x = g.plot_x + g.cell_of(kSpike);
                // The spike reaches the top row of the plot (the y range is its value).
                EXPECT_TRUE(is_dot_glyph(c.at(x, g.plot_y).ch))
                    << glyph_tier_name(tier) << " zoom " << zoom << "\n"
                    << frame(c);
            }
            detail_handle(state, Action::kZoomIn, model, 90, 24);
            // Half the zooms about the spike itself.
            if (zoom == 3) state.cursor = kSpike;
        }
    }
}

TEST_F(DetailView, ReadoutListsEveryRankSortedWithMedianAndOutliers) {
    for (int rank = 0; rank < 6; ++rank)
        add("job", rank, "train/loss", 100, [rank](int s) {
            if (rank == 4 && s == 50) return 100.0;
            return 1.0 + rank * 0.25 + s * 0.001;
        });
    ViewModel model(store_, analyzer_);
    DetailState state;
    open_detail(state, model, "train/loss", std::nullopt, 50);
    const Canvas c = draw(model, state);
    const std::string text = frame(c);
    // Every rank's value at step 50, highest first; the outlier flagged and in the alert role.
    const std::vector<std::string> order = {"r4 !", "r5", "r3", "r2", "r1", "r0"};
    const std::vector<std::string> values = {"100", "2.3", "1.8", "1.55", "1.3", "1.05"};
    int last_y = -1;
    for (std::size_t i = 0; i < order.size(); ++i) {
        int found = -1;
        for (int y = 0; y < c.height(); ++y) {
            const std::string row = utf8_row(c, y);
            const std::size_t at = row.find("│ " + order[i] + " ");
            if (at != std::string::npos && row.find(values[i], at) != std::string::npos) found = y;
        }
        ASSERT_GE(found, 0) << order[i] << "\n" << text;
        EXPECT_GT(found, last_y) << order[i] << "\n" << text;
        last_y = found;
    }
    EXPECT_NE(text.find("6 RANKS AT 50"), std::string::npos) << text;
    EXPECT_NE(text.find("median"), std::string::npos);
    // The median of 1.05 1.3 1.55 1.8 2.3 100: (1.55 + 1.8) / 2.
    EXPECT_NE(text.find("1.675"), std::string::npos) << text;
    // The outlier's value cell is in the alert role.
    for (int y = 0; y < c.height(); ++y) {
        const std::string row = utf8_row(c, y);
        if (row.find("│ r4 !") == std::string::npos) continue;
        EXPECT_EQ(c.at(c.width() - 1, y).style.role, Role::kAlert);
    }
}

TEST_F(DetailView, ManyRanksAreTruncatedWithACount) {
    for (int rank = 0; rank < 40; ++rank)
        add("job", rank, "train/loss", 20, [rank](int s) { return rank + s * 0.01; });
    ViewModel model(store_, analyzer_);
    DetailState state;
    open_detail(state, model, "train/loss", std::nullopt, 10);
    const Canvas c = draw(model, state, 100, 24);
    const std::string text = frame(c);
    EXPECT_NE(text.find("40 RANKS AT 10"), std::string::npos) << text;
    // The extremes on both ends stay; the middle is counted.
    EXPECT_NE(text.find("│ r39"), std::string::npos) << text;
    EXPECT_NE(text.find("│ r0 "), std::string::npos) << text;
    int shown = 0;
    bool listing = false;  // below the "40 RANKS AT 10" header
    for (int y = 0; y < c.height(); ++y) {
        const std::string row = utf8_row(c, y);
        listing |= row.find("RANKS AT") != std::string::npos;
        if (!listing) continue;
        const std::size_t bar = row.rfind("│ r");
        // "│ r" is 5 bytes ("│" takes 3).
        if (bar != std::string::npos && row.size() > bar + 5 &&
            std::isdigit(static_cast<unsigned char>(row[bar + 5])))
            ++shown;
    }
    EXPECT_NE(text.find(fmt::format("+{} more", 40 - shown)), std::string::npos) << text;
    // The legend is cut with a count too.
    EXPECT_NE(text.find("more"), std::string::npos);
}

TEST_F(DetailView, SmoothedReadoutIsTensorBoardsEma) {
    std::vector<double> values;
    for (int s = 0; s < 200; ++s) values.push_back(1.0 + std::sin(s * 0.3) + s * 0.01);
    add("job", 0, "train/loss", 200, [&](int s) { return values[static_cast<std::size_t>(s)]; });
    ViewModel model(store_, analyzer_);
    DetailState state;
    open_detail(state, model, "train/loss", std::nullopt, 120);
    state.smoothing = 0.9;
    std::vector<double> smoothed(values.size());
    classic_smooth(values, 0.9, smoothed);
    const Canvas c = draw(model, state);
    EXPECT_NE(frame(c).find("smoothed"), std::string::npos);
    bool found = false;
    for (int y = 0; y < c.height(); ++y) {
        const std::string row = utf8_row(c, y);
        if (row.find("│ smoothed") != std::string::npos)
            found |= row.find(short_value(smoothed[120])) != std::string::npos;
    }
    EXPECT_TRUE(found) << short_value(smoothed[120]) << "\n" << frame(c);
    EXPECT_NE(utf8_row(c, 0).find("smooth 0.9"), std::string::npos);
    // s cycles the weight; 0 draws the raw line only.
    EXPECT_EQ(next_smoothing(0), 0.6);
    EXPECT_EQ(next_smoothing(0.6), 0.9);
    EXPECT_EQ(next_smoothing(0.9), 0.99);
    EXPECT_EQ(next_smoothing(0.99), 0);
    state.smoothing = 0;
    const Canvas raw = draw(model, state);
    EXPECT_EQ(frame(raw).find("smoothed"), std::string::npos);
    EXPECT_NE(utf8_row(raw, 0).find("raw"), std::string::npos);
}

TEST_F(DetailView, XAxisModesLabelStepsRelativeAndWallTime) {
    const char* old_tz = std::getenv("TZ");
    const std::string saved = old_tz ? old_tz : "";
    ::setenv("TZ", "UTC", 1);
    ::tzset();
    // 400 steps 10 s apart from 1.7e9 (2023-11-14 22:13:20 UTC).
    add(
        "job", 0, "train/loss", 400, [](int s) { return 3.0 - s * 0.005; }, 10.0);
    ViewModel model(store_, analyzer_);
    DetailState state;
    open_detail(state, model, "train/loss", std::nullopt, std::nullopt);
    Canvas c = draw(model, state);
    DetailGeometry g = detail_geometry(model, state, 100, 30);
    const int labels = g.plot_y + g.plot_h + 1;
    std::string row = utf8_row(c, labels);
    EXPECT_NE(row.find("100"), std::string::npos) << frame(c);
    EXPECT_NE(row.find("200"), std::string::npos) << frame(c);
    EXPECT_NE(row.find("399"), std::string::npos) << frame(c);  // the cursor
    EXPECT_NE(utf8_row(c, 0).find("steps 0–399"), std::string::npos);

    ASSERT_TRUE(detail_handle(state, Action::kCycleXAxis, model, 100, 30));
    EXPECT_EQ(state.x_axis, XAxis::kRelative);
    c = draw(model, state);
    row = utf8_row(c, labels);
    EXPECT_NE(row.find("+10m"), std::string::npos) << frame(c);
    EXPECT_NE(row.find("+30m"), std::string::npos) << frame(c);
    EXPECT_NE(row.find("+1h6m"), std::string::npos) << frame(c);  // the cursor
    // A tick at +10m sits over step 60.
    const std::size_t at = row.find("+10m");
    EXPECT_NEAR(static_cast<double>(display_width(row.substr(0, at)) + 2),
                static_cast<double>(g.plot_x + g.cell_of(60)), 1.0);
    EXPECT_NE(utf8_row(c, 0).find("time +0s–+1h6m"), std::string::npos) << frame(c);

    ASSERT_TRUE(detail_handle(state, Action::kCycleXAxis, model, 100, 30));
    EXPECT_EQ(state.x_axis, XAxis::kWall);
    c = draw(model, state);
    row = utf8_row(c, labels);
    EXPECT_NE(row.find("22:30"), std::string::npos) << frame(c);
    EXPECT_NE(row.find("23:00"), std::string::npos) << frame(c);
    EXPECT_NE(row.find("23:19:50"), std::string::npos) << frame(c);  // the cursor
    EXPECT_NE(utf8_row(c, 0).find("wall 22:13:20–23:19:50"), std::string::npos) << frame(c);
    // The panel reads both.
    EXPECT_NE(frame(c).find("+1h6m"), std::string::npos);

    ASSERT_TRUE(detail_handle(state, Action::kCycleXAxis, model, 100, 30));
    EXPECT_EQ(state.x_axis, XAxis::kStep);
    if (old_tz)
        ::setenv("TZ", saved.c_str(), 1);
    else
        ::unsetenv("TZ");
    ::tzset();
}

TEST_F(DetailView, MouseClickMovesTheCursorAndTheWheelZoomsAboutThePointer) {
    add("job", 0, "train/loss", 1000, [](int s) { return 2.0 - s * 0.001; });
    ViewModel model(store_, analyzer_);
    DetailState state;
    open_detail(state, model, "train/loss", std::nullopt, std::nullopt);
    DetailGeometry g = detail_geometry(model, state, 100, 30);
    ASSERT_TRUE(detail_mouse(state,
                             InputEvent::mouse(g.plot_x + 10, g.plot_y + 3, MouseButton::kLeft),
                             model, 100, 30) == Pointer::kChanged);
    ASSERT_TRUE(state.cursor);
    g = detail_geometry(model, state, 100, 30);
    EXPECT_EQ(g.cell_of(*state.cursor), 10);
    // The cursor line is drawn in that cell column.
    const Canvas c = draw(model, state);
    EXPECT_EQ(c.at(g.plot_x + 10, g.plot_y + g.plot_h).style.role, Role::kAccent);
    // Outside the plot: nothing.
    EXPECT_FALSE(detail_mouse(state, InputEvent::mouse(0, 0, MouseButton::kLeft), model, 100, 30) ==
                 Pointer::kChanged);
    EXPECT_FALSE(detail_mouse(state, InputEvent::mouse(99, 29, MouseButton::kLeft), model, 100,
                              30) == Pointer::kChanged);
    // The wheel zooms about the pointer's step, which stays under it.
    const int px = g.plot_x + 40;
    const std::int64_t step = g.column_step((px - g.plot_x) * g.dots_x);
    ASSERT_TRUE(detail_mouse(state, InputEvent::mouse(px, g.plot_y + 1, MouseButton::kWheelUp),
                             model, 100, 30) == Pointer::kChanged);
    g = detail_geometry(model, state, 100, 30);
    EXPECT_EQ(g.hi - g.lo + 1, 500);
    EXPECT_NEAR(g.cell_of(step), 40, 1);
    ASSERT_TRUE(detail_mouse(state, InputEvent::mouse(px, g.plot_y + 1, MouseButton::kWheelDown),
                             model, 100, 30) == Pointer::kChanged);
    EXPECT_FALSE(state.window_lo);
}

TEST_F(DetailView, FrontSeriesIsTheAlertingOneAndTabCyclesIt) {
    for (int rank = 0; rank < 3; ++rank)
        add("job", rank, "train/loss", 100,
            [rank](int s) { return rank == 1 && s == 70 ? std::nan("") : 1.0 + rank + s * 0.01; });
    analyzer_.finish();
    ViewModel model(store_, analyzer_);
    DetailState state;
    open_detail(state, model, "train/loss", std::nullopt, std::nullopt);
    Canvas c = draw(model, state);
    EXPECT_NE(utf8_row(c, 0).find("front r1 ▲"), std::string::npos) << frame(c);
    // The NaN on the x axis in the NaN role; the anomaly above the plot in the alert role.
    const DetailGeometry g = detail_geometry(model, state, 100, 30);
    const int x = g.plot_x + g.cell_of(70);
    EXPECT_EQ(c.at(x, g.plot_y + g.plot_h).ch, U'×');
    EXPECT_EQ(c.at(x, g.plot_y + g.plot_h).style.role, Role::kNan);
    EXPECT_EQ(c.at(x, g.plot_y - 1).ch, U'▲');
    EXPECT_EQ(c.at(x, g.plot_y - 1).style.role, Role::kAlert);
    ASSERT_TRUE(detail_handle(state, Action::kNextSeries, model, 100, 30));
    EXPECT_EQ(state.focus, (RunRank{"job", 2}));
    ASSERT_TRUE(detail_handle(state, Action::kNextSeries, model, 100, 30));
    EXPECT_EQ(state.focus, (RunRank{"job", 0}));
    ASSERT_TRUE(detail_handle(state, Action::kPreviousSeries, model, 100, 30));
    EXPECT_EQ(state.focus, (RunRank{"job", 2}));
    c = draw(model, state);
    EXPECT_NE(utf8_row(c, 0).find("front r2"), std::string::npos);
}

TEST_F(DetailView, RestartsAreMarkedOnTheAxis) {
    const SeriesId id = sink_.series({"job", 0, "train/loss"}, source_id({"tfevents"}));
    for (int s = 0; s < 300; ++s) sink_.append(id, {s, 1.7e9 + s, 2.0 - s * 0.001});
    for (int s = 200; s < 400; ++s) sink_.append(id, {s, 1.8e9 + s, 1.5 - s * 0.001});
    ViewModel model(store_, analyzer_);
    ASSERT_EQ(store_.at(id).restarts().size(), 1u);
    DetailState state;
    open_detail(state, model, "train/loss", std::nullopt, std::nullopt);
    const Canvas c = draw(model, state);
    const DetailGeometry g = detail_geometry(model, state, 100, 30);
    EXPECT_EQ(c.at(g.plot_x + g.cell_of(200), g.plot_y + g.plot_h).ch, U'↺') << frame(c);
    EXPECT_NE(frame(c).find("↺ restart"), std::string::npos) << frame(c);
}

TEST_F(DetailView, SmallCanvasesDegradeAndTinyOnesShowTheNotice) {
    for (int rank = 0; rank < 4; ++rank)
        add("job", rank, "train/loss", 100, [rank](int s) { return 1.0 + rank + s * 0.01; });
    ViewModel model(store_, analyzer_);
    DetailState state;
    open_detail(state, model, "train/loss", std::nullopt, std::nullopt);
    // Wide: the side panel.
    EXPECT_NE(frame(draw(model, state, 100, 30)).find("CURSOR"), std::string::npos);
    // Narrow and tall: the readout below.
    const std::string narrow = frame(draw(model, state, 60, 24));
    EXPECT_EQ(narrow.find("CURSOR"), std::string::npos);
    EXPECT_NE(narrow.find("median"), std::string::npos) << narrow;
    // Short: no readout, no legend, still a plot with an axis.
    const Canvas small = draw(model, state, 30, 7);
    EXPECT_EQ(frame(small).find("median"), std::string::npos);
    EXPECT_NE(frame(small).find("└"), std::string::npos) << frame(small);
    // Under 20x6: the notice, never a broken chart.
    for (auto [w, h] : {std::pair{19, 30}, std::pair{100, 5}}) {
        const std::string t = frame(draw(model, state, w, h));
        EXPECT_NE(t.find("too small"), std::string::npos) << t;
    }
    EXPECT_FALSE(detail_handle(state, Action::kZoomIn, model, 10, 4));
    // Every size in between draws without leaving the canvas.
    for (int w = 20; w <= 80; w += 7)
        for (int h = 6; h <= 20; h += 3) {
            const Canvas cv = draw(model, state, w, h);
            EXPECT_EQ(cv.width(), w);
        }
}

TEST_F(DetailView, UnknownTagSaysSo) {
    add("job", 0, "train/loss", 10, [](int s) { return s; });
    ViewModel model(store_, analyzer_);
    DetailState state;
    open_detail(state, model, "nope", std::nullopt, std::nullopt);
    const std::string t = frame(draw(model, state));
    EXPECT_NE(t.find("no selected series of nope"), std::string::npos) << t;
    EXPECT_FALSE(detail_handle(state, Action::kZoomIn, model, 100, 30));
}

TEST(ChartPlot, TicksAndTimeTexts) {
    EXPECT_EQ(nice_ticks(0, 1, 5), (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1.0}));
    EXPECT_EQ(nice_ticks(0.13, 0.91, 4), (std::vector<double>{0.2, 0.4, 0.6, 0.8}));
    EXPECT_EQ(log_ticks(0.5, 2000, 6), (std::vector<double>{1, 10, 100, 1000}));
    EXPECT_EQ(step_ticks(0, 399, 4), (std::vector<std::int64_t>{0, 100, 200, 300}));
    EXPECT_EQ(step_ticks(5, 9, 10), (std::vector<std::int64_t>{5, 6, 7, 8, 9}));
    EXPECT_EQ(time_tick_interval(3990, 7), 600);
    EXPECT_EQ(relative_time_text(42), "+42s");
    EXPECT_EQ(relative_time_text(312), "+5m12s");
    EXPECT_EQ(relative_time_text(4800), "+1h20m");
    EXPECT_EQ(relative_time_text(3600, true), "+1h");
    EXPECT_EQ(relative_time_text(183600), "+2d3h");
    DotGrid grid(2, 1, GlyphTier::kBraille);
    grid.span(0, 0, 3, 0, 1, {Role::kDim});   // a full left column
    grid.span(1, 0, 0, 1, 2, {Role::kText});  // another group in front: occludes it
    EXPECT_EQ(grid.glyph(0, 0), U'⢀');
    grid.span(2, 1, 2, 0, 1, {Role::kDim});
    EXPECT_EQ(grid.glyph(1, 0), U'⠆');
}

}  // namespace
}  // namespace ui
}  // namespace runtop
