// View 3, heatmap: rank x step of the selected tag, each cell the value of that rank over that
// column's steps mapped onto the theme's heat ramp (Role::kHeat0..9), NaN/Inf with their own
// glyph in Role::kNan.
//
//   train/grad_norm  4 ranks x steps 0-399, 5 steps a column          <- title
//   r0   ░░▒░░▒▒░░░▒░░░▒░░▒░░░░▒░░░░▒░░░▒                              <- a row per (run, rank)
//   r1   ░░▒░░░▒░░░░▒░░░░░░▒↑░░▒░░░▒░░░░▒
//   r2   ▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒×▒▒▒▒▒▒▒▒
//   step 0        100        200        300    399                  <- the step axis
//   mean of a column: 0.91 ░░░▒▒▓▓▓██ 1.65  ↑ spike  × nan/inf  blank: no data
//   r1 steps 195-199: mean 8.12, min 1.04, max 36.41 (5 points) ↑ spike   <- the selection
//
// Rows are the tag's series ((run, rank) pairs; "run:r3" labels across runs), paged vertically.
// When there are more than the canvas holds (1,024 ranks), neighbours share a row (a bin,
// views/rank_bins.h: its cell the column of every member's points together, so its colour is
// their mean, its ↑/↓ any member's spike or dip, the readout its min and max and whose they
// are), and a rank off its peers in any column, or holding a NaN, keeps a row of its own (`b`:
// a row per rank again; `o`: outliers on top, worst first).
// Columns split the tag's common step range evenly across the canvas (one step a column when
// there are fewer steps than columns), each queried with Series::query, so a column's count,
// min, max, mean and NaN/Inf counts are exact, whatever was folded.
//
// A cell is coloured by the mean of its column's points: the mean is the rank's level there,
// what a heatmap compares across ranks and steps, and it does not paint every column of a noisy
// series at the top of the ramp as the max would. What the mean hides it does not drop:
//  - a column holding NaN or Inf draws the NaN mark in Role::kNan, whatever its mean: a single
//    NaN among thousands of points must be seen, and a mean of the finite rest would hide it;
//  - a column whose max (min) stands far above (below) the other columns' maxima (minima) - a
//    spike averaged away in its column - draws ↑ (↓) in the colour of that extreme (robust: in
//    the ramp's scale, beyond the ramp's range and 6 scaled MADs of the page's maxima), so a
//    one-point spike is visible however many points share its column;
//  - the readout of the selected cell gives its mean, min, max and count.
// The ramp spans the 1st to 99th percentile of the page's column means (so one extreme column
// does not flatten every other into one colour; columns beyond sit at the ramp's ends), in log
// scale when every value is positive and they span over two decades (`l` flips it). The level is in
// the glyph as well as the colour, so the map reads without colour: shades ░▒▓█ in Unicode tiers,
// the density ramp .,:-=+*#%@ in ascii.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "views/actions.h"
#include "views/canvas.h"
#include "views/heatmap_state.h"
#include "views/model.h"
#include "views/rank_bins.h"
#include "views/view_api.h"

namespace runtop::ui {

// Where things are on a canvas of this size: what draw, handle, click and selection share.
struct HeatmapLayout {
    const TagGroup* group = nullptr;  // nullptr: nothing to show
    // The rows: each one series of the group (members index group->series) or a bin of them.
    std::vector<RankRow> lines;
    int rows = 0;                 // lines.size()
    int binned = 0;               // ranks sharing rows in bins (0: a row per rank)
    int outliers = 0;             // ranks off their peers (own rows)
    int row = 0, column = 0;      // the selection, clamped (the column resolved from its step)
    std::int64_t lo = 0, hi = 0;  // the tag's steps, [lo, hi]
    int columns = 0;              // step columns (buckets)
    int label_w = 0, map_x = 0;   // the row labels, then the map
    int body_y = 1, body_rows = 1, first = 0;
    int axis_y = -1, legend_y = -1, readout_y = -1;
    // Column c covers steps [bucket_start(c), bucket_start(c + 1)), as Series::query splits.
    std::int64_t bucket_start(int c) const;
    // The column holding `step` (clamped to the columns).
    int column_of(std::int64_t step) const;
    // The series of row r when it is one rank's, kNoSeries for a bin.
    SeriesId row_series(int r) const;
};
HeatmapLayout heatmap_layout(const HeatmapState& state, const ViewModel& model, int width,
                             int height);

// The glyph of ramp level 0..9 in a tier: ░░░▒▒▓▓▓██ or .,:-=+*#%@.
char32_t heat_glyph(int level, GlyphTier tier);

void draw_heatmap(Canvas& canvas, const ViewModel& model, const HeatmapState& state);

// Navigation for a canvas of this size: kUp/kDown rows, kLeft/kRight columns (the last column
// follows the newest steps), kPageUp/kPageDown a page of rows, kFirst/kLast the first/last row;
// kNextSeries/kPreviousSeries the next/previous tag; kToggleRankBins bins (or a row per rank),
// kToggleOutliersFirst outliers on top. Returns whether the state changed.
bool heatmap_handle(HeatmapState& state, Action action, const ViewModel& model, int width,
                    int height);

// `l`: the ramp's scale flips from the one shown (log <-> linear) and stays so; the note says
// what it is now (or why not: log needs positive values).
std::string heatmap_toggle_log(HeatmapState& state, const ViewModel& model, int width, int height);

// `g`: the column holding `step` (clamped to the tag's steps); the note says which steps it
// covers.
std::string heatmap_go_to_step(HeatmapState& state, std::int64_t step, const ViewModel& model,
                               int width, int height);

// `]` / `[`: the next (previous) marked cell (spike, dip, NaN/Inf) in step order, then row
// order, over every row (each page judged by its own ramp, as drawn); "" when there is one,
// else a note saying there is none further.
std::string heatmap_next_mark(HeatmapState& state, int direction, const ViewModel& model, int width,
                              int height);

// The note `b` or `o` leaves: what the rows are now.
std::string heatmap_rows_note(const HeatmapState& state, const ViewModel& model, int width,
                              int height);

// What Enter opens: the series of the selected row (of a bin, the member that tells in the
// column: a NaN, the spike's or dip's, else the furthest from the others) and the step that
// tells in the selected column: the first anomaly runtop or msProbe recorded there, else its first
// NaN/Inf, else the step of the extreme that makes it a spike (dip), else its newest point's step
// (where the column starts when it has none). A column of 17 steps holding a spike at 1234 opens at
// 1234.
struct HeatmapSelection {
    const TagGroup* group = nullptr;
    SeriesId series = kNoSeries;
    std::optional<std::int64_t> step;
};
HeatmapSelection heatmap_selection(const HeatmapState& state, const ViewModel& model, int width,
                                   int height);

// The wheel moves the selected row; a left click on a cell selects its row and column, on a
// label the row.
Pointer heatmap_mouse(HeatmapState& state, const InputEvent& event, const ViewModel& model,
                      int width, int height);
// The tag, and the selected row's series at the selected column's step (heatmap_selection).
ViewSelection heatmap_selected(const HeatmapState& state, const ViewModel& model, int width,
                               int height);

}  // namespace runtop::ui
