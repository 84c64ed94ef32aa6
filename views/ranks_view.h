// View 2, ranks: rows of tags x columns of ranks, each cell the series' newest value coloured by
// its distance from the median of the ranks, plus mean/std/min/max/outlier columns; and, for
// the selected tag, one sparkline per rank.
//
// The table (one run: ranks as columns; several runs: every (run, rank) is a column and a row
// above the rank numbers names the runs):
//
//                  newest value of each rank ──────────  across the ranks ────────────────────
//   TAG                r0      r1      r2      r3      │ MEAN    STD     MIN     MAX    OUTLIERS
//   train/loss     0.6123  0.6088  0.6201  0.6150      │ 0.614   0.0041  0.6088  0.6201 0
//   train/grad_nor 1.18    36.41   1.25    1.21        │ 10.01   15.25   1.18    36.41  1 r1
//   ...
//   train/grad_norm r1: 36.41 at step 399, median 1.23, +2860%: an outlier      <- the selection
//   off the median of the ranks: 1.2 near  1.2 off  1.2 outlier  nan  · no data <- the legend
//
// Why the median and not the mean: one rank going wrong drags the mean (and inflates the std)
// towards itself, so it hides behind its own error; the median of the ranks does not move. A
// cell's distance |x - median| is measured against the cross-rank outlier limit of
// core/analysis/cross_rank.h, max(5 MAD, 5% of |median|): beyond it the cell is an outlier
// (Role::kAlert, bold and reversed: what the cross_rank rule would flag), beyond half of it "off"
// (kWarn, bold and underlined), else kOk. NaN/Inf cells print nan/inf in Role::kNan; a rank without
// the tag is a dim "·" ("-" in ascii). With fewer than 3 finite ranks there is no majority to stand
// out from: every finite cell is kOk. The attributes carry the level without colour.
//
// Columns of ranks are paged horizontally when they do not fit ("ranks 0-31 of 256"), rows of
// tags vertically; the page is the one holding the selection. The statistics columns describe
// every rank of the row, not only the page's, and give way right to left on a narrow canvas
// (std, min, max, mean; the outliers last).
//
// Sparkline mode (`v`): for the selected tag, one row per rank: its label, a sparkline over the
// tag's whole step range (the same x for every rank, so a rank that stopped early ends early;
// one y range shared by the ranks, so a rank off the others sits off them), its last value and
// its distance from the median. Up/Down move the rank (the table's selected column), Left/Right
// the tag. More ranks than rows: neighbours share a row (a bin: one sparkline of every member's
// points, so it spans their min..max; LAST and VS MEDIAN its member furthest from the median),
// and a rank off its peers over the steps shown keeps a row of its own (views/rank_bins.h; `b`
// a row per rank, `o` outliers on top). Log scale when the values span over a decade, or as `l`
// last chose; a column far beyond the range (by its span, in the values or, on a log scale, in
// their logs) is an arrow.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/analysis/cross_rank.h"
#include "views/actions.h"
#include "views/canvas.h"
#include "views/model.h"
#include "views/rank_bins.h"
#include "views/ranks_history.h"
#include "views/ranks_state.h"
#include "views/view_api.h"

namespace runtop::ui {

// The table's columns: every (run, rank) of the selected series, in (run, rank) order; or, when
// no tag has the same rank in two runs (msProbe output and event files of one job read as two
// runs, say), one column per rank (`*by_rank` true), in rank order, its run "" unless every
// column has the same one (then cells of a rank come from whichever run has the tag).
std::vector<RunRank> rank_columns(const ViewModel& model, bool* by_rank = nullptr);

// How a cell of that level is drawn.
Style cell_style(CellLevel level);

// Where things are on a canvas of this size: what draw, handle, click and selection share.
struct RanksLayout {
    std::vector<RunRank> columns;
    bool by_rank = false;     // columns are ranks, whatever the run (see rank_columns)
    bool many_runs = false;   // columns are (run, rank) pairs of several runs
    int rows = 0;             // tags
    int row = 0, column = 0;  // the selection, clamped
    int body_y = 0;           // the first row of tags (table) or ranks (sparklines)
    int body_rows = 0;        // rows of them a page holds
    int first = 0;            // the first tag (table) or rank (sparklines) of the page
    int readout_y = -1;       // the selected cell's line, -1 when the canvas is too short
    int legend_y = -1;        // the colours' line, ditto
    // Table: the tag column, then `per_page` rank cells of `cell_w` + 1 columns.
    int tag_w = 0;
    int cell_x = 0, cell_w = 0;
    int pitch = 1;  // columns from one cell to the next
    int first_column = 0, per_page = 1;
    // Sparklines: the rank label, then the sparkline.
    int label_w = 0, spark_x = 0, spark_w = 0;
    // Sparklines: the rows, each a rank (members index `columns`) or a bin of them; the row of
    // the selected rank (`column`); ranks in bins and outliers apart (0 when none).
    std::vector<RankRow> lines;
    int line = 0;
    int binned = 0, outliers = 0;
};
RanksLayout ranks_layout(const RanksState& state, const ViewModel& model, int width, int height);

void draw_ranks(Canvas& canvas, const ViewModel& model, const RanksState& state);

// Applies a navigation action for a canvas of this size: table: kUp/kDown tags, kLeft/kRight
// ranks, kPageUp/kPageDown a page of tags, kFirst/kLast the first/last tag, kPanLeft/kPanRight
// a page of ranks; sparklines: kUp/kDown/pages/kFirst/kLast ranks, kLeft/kRight tags;
// kToggleRankSparklines switches. Returns whether the state changed (the caller then redraws).
// What the table's cells show (RanksState::cells), as the caption and `c`'s note say it.
std::string_view rank_cells_caption(RankCells cells);

// `l`: the sparklines' y scale flips from the one shown (log <-> linear) and stays so; the
// note says what it is now (or why not: the table has no scale, log needs positive values).
std::string ranks_toggle_log(RanksState& state, const ViewModel& model, int width, int height);
bool ranks_handle(RanksState& state, Action action, const ViewModel& model, int width, int height);
// The note `b` or `o` leaves: what the sparklines' rows are now.
std::string ranks_rows_note(const RanksState& state, const ViewModel& model, int width, int height);

// What Enter opens: the selected tag and rank (nullptr / kNoRank when none).
struct RanksSelection {
    const TagGroup* group = nullptr;
    SeriesId series = kNoSeries;  // the selected cell's series, kNoSeries when none
};
// The cursor alone decides it (no frame is laid out: leaving the view asks for it).
RanksSelection ranks_selection(const RanksState& state, const ViewModel& model);

// The wheel moves the selected tag; a left click selects what is there: a cell (its tag and
// rank), a tag, a rank header; in sparkline mode a rank.
Pointer ranks_mouse(RanksState& state, const InputEvent& event, const ViewModel& model, int width,
                    int height);
// The selected tag, and its selected rank in front (ranks_selection).
ViewSelection ranks_selected(const RanksState& state, const ViewModel& model, int width,
                             int height);

}  // namespace runtop::ui
