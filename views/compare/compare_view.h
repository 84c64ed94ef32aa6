// View 5, compare: two runs tag by tag (the default view of `runtop base=PATH new=PATH`).
//
//   compare  A base vs B new  by step, rank to rank, tolerance 1e-6  2 of 4 tags diverge, first at
//   step 137 (train/loss r1)
//     TAG              RANKS  STEPS  LAST A  LAST B    Δ B-A  RATIO  FIRST DIV  A|B over the steps
//     both have
//   ▲ train/loss           2    400  0.6987  0.7057  +0.006987  1.01  137 r1     ⠉⠉⠛⠛⠒⠒⠒⠶⠤⠤⠤⠤
//   ▲ train/grad_norm      2    400   1.179   1.179        0      1  300 r0     ⣶⣿⠿⣶⣶⣶×⣶⣶⣿
//     train/lr             2    400  1.0e-4  1.0e-4        0      1  —          ⣤⠶⠛⠉⠉⠉⠉⠒⠒⠤
//   only in A base (1): perf/samples_per_s
//   only in B new (1): train/aux_loss
//   train/loss r1: diverges first at step 137 · 2 of 2 ranks diverge · up to 0.99% apart · ...
//
//   compare: train/loss — base vs new, rank 1  ...     (the selected tag's chart, when there
//   ...                                                 is room: views/compare/compare_chart.h)
//   <status line>                                                 tag 1/4 · sort divergence
//
// The title names run A and run B in their stable run colours (ViewModel::run_colour), how
// points are paired (alignment, ranks, tolerance) and how many tags diverge. One table row per
// tag present in both runs (CompareRows::order): its ranks (the same count in both, or "4/2"),
// the steps in common, the newest value of each run, Δ = B − A and the ratio B / A at the newest
// step they share, the first step where they diverge (with the rank when several ranks are
// compared and one diverges first; "—" when never), and the two runs' sparkline overlaid in the
// remaining width (views/compare/compare_spark.h). A diverging row is marked ▲ (Role::kAlert) and
// its first divergence is bold and reversed, so it reads without colour; sorted by divergence the
// earliest is on top. Tags only one run has are listed apart under the table. The line under
// them reads out the selected row; `c` opens the configuration diff panel over the lower half.
// Narrow canvases drop the ranks, ratio, steps and last values (in that order) before the
// sparkline gets under 12 cells; short ones drop the readout and the only-in lines. Room left
// under the readout (12 rows or more, the panel closed) shows the selected tag as Enter would
// open it, whole: both runs overlaid, the first divergence marked ◆, the Δ strip, the newest
// values read out; moving the selection changes it. With fewer than two runs the view says how
// to give it two.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/compare/run_compare.h"
#include "views/actions.h"
#include "views/canvas.h"
#include "views/compare/compare_rows.h"
#include "views/compare/compare_state.h"
#include "views/detail_state.h"
#include "views/input.h"
#include "views/model.h"
#include "views/view_api.h"

namespace runtop::ui {

// Where things are on a canvas of this size: what draw, keys and clicks share.
struct CompareLayout {
    bool table = false;  // two runs: the table is drawn (false: the notice)
    int rows = 0;        // table rows (tags in both runs)
    int selected = 0;    // clamped
    int first = 0;       // the first row on screen
    int body_y = 2;      // the first table row's line
    int body_rows = 1;   // table rows that fit
    int only_y = -1;     // the "only in" lines, -1 when not shown
    int only_lines = 0;
    int panel_y = -1;  // the configuration panel, -1 when closed
    int panel_h = 0;
    int readout_y = -1;  // the selection's line, -1 when not shown
    int preview_y = -1;  // the selected tag's chart, -1 when there is no room for it
    int preview_h = 0;
};
CompareLayout compare_layout(const CompareState& state, const ViewModel& model, int width,
                             int height);

void draw_compare(Canvas& canvas, const ViewModel& model, const CompareState& state);

// Moves (up/down, pages, first/last), `[` `]` (run A, run B), `o` (sort), `a` (alignment),
// `m` (ranks or mean), `c` (configuration panel) on a canvas of this size. Returns whether the
// state changed (false for `[` / `]` when there is no other run to take).
bool compare_handle(CompareState& state, Action action, const ViewModel& model, int width,
                    int height);
// The wheel scrolls three rows (the selection stays on screen); a click selects a row, a click
// on the selected row opens it.
Pointer compare_mouse(CompareState& state, const InputEvent& event, const ViewModel& model,
                      int width, int height);
// The selected row's tag, and its chart in compare mode (compare_selection).
ViewSelection compare_selected(const CompareState& state, const ViewModel& model, int width,
                               int height);

// What Enter opens: the selected tag in the detail chart's compare mode, at its first
// divergence (the head pair's rank), nullopt when there is no row.
struct CompareSelection {
    std::string tag;
    CompareDetail detail;
    std::optional<std::int64_t> step;
};
std::optional<CompareSelection> compare_selection(const CompareState& state,
                                                  const ViewModel& model);

// Selects `tag`'s row when it has one (switching views carries the tag along).
void compare_select_tag(CompareState& state, const ViewModel& model, std::string_view tag);

}  // namespace runtop::ui
