// View 5, compare: two runs tag by tag (the default view of `runtop base=PATH new=PATH`).
//
//   compare  A base  vs  B new   step-aligned, rank to rank, tolerance 1e-6   1 of 3 tags diverge,
//   first at step 137
//     TAG              RANKS  STEPS  LAST A  LAST B       Δ  RATIO  FIRST DIV  0  A|B by step  399
//   ▲ train/loss           4    400  0.6123  0.6184  +0.0061  1.01   137 r2    ⠒⠒⠒⠑⠑⠑⠑⠑
//     train/grad_norm      4    400   1.18    1.18        0      1   —         ⠔⠔⠢⠢⠔⠒⠒⠢
//     train/lr             4    400   1e-5    1e-5        0      1   —         ⠉⠉⠉⠉⠒⠒⠒⠤
//   only in A base (1): eval/accuracy
//   only in B new (1): train/tokens
//   train/loss r2: diverges first at step 137 · 3 of 4 ranks diverge · at most 1.0% apart ...
//   <status line>                                                 tag 1/3 · sort divergence
//
// The title names run A and run B in their stable run colours (ViewModel::run_colour), how
// points are paired (alignment, ranks, tolerance) and how many tags diverge. One table row per
// tag present in both runs (CompareRows::order): its ranks (the same count in both, or "4/2"),
// the steps in common, the newest value of each run, Δ = B − A and the ratio B / A at the newest
// step they share, the first step where they diverge (with the rank when several ranks are
// compared and one diverges first; "—" when never), and the two runs' sparkline overlaid in the
// remaining width (views/compare_spark.h). A diverging row is marked ▲ (Role::kAlert) and its
// first divergence is bold and reversed, so it reads without colour; sorted by divergence the
// earliest is on top. Tags only one run has are listed apart under the table. The line under
// them reads out the selected row; `c` opens the configuration diff panel over the lower half.
// Narrow canvases drop the ranks, ratio, steps and last values (in that order) before the
// sparkline gets under 12 cells; short ones drop the readout and the only-in lines. With fewer
// than two runs the view says how to give it two.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/run_compare.h"
#include "views/actions.h"
#include "views/canvas.h"
#include "views/compare_rows.h"
#include "views/detail_view.h"
#include "views/input.h"
#include "views/model.h"

namespace runtop::ui {

struct CompareState {
    // The runs compared, by name; "" = the first two of ViewModel::run_names() (command-line
    // root order). `[` and `]` set them.
    std::string run_a, run_b;
    CompareOptions options;  // the app sets them from --tolerance, --align, --by
    CompareSort sort = CompareSort::kDivergence;
    int selected = 0;     // a row (index into CompareRows::order); clamped
    int scroll = 0;       // the first row on screen; kept so the selection is visible
    bool config = false;  // the configuration-diff panel is open (`c`)
    // The comparer and what was computed from it. Shared, so draw_screen (which sees a const
    // state) can bring it up to date, and copies of a UiState see the same comparison.
    std::shared_ptr<CompareCache> cache = make_compare_cache();
};

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
};
CompareLayout compare_layout(const CompareState& state, const ViewModel& model, int width,
                             int height);

void draw_compare(Canvas& canvas, const ViewModel& model, const CompareState& state);

// Moves (up/down, pages, first/last), `[` `]` (run A, run B), `o` (sort), `a` (alignment),
// `m` (ranks or mean), `c` (configuration panel) on a canvas of this size. Returns whether the
// state changed (false for `[` / `]` when there is no other run to take).
bool compare_handle(CompareState& state, Action action, const ViewModel& model, int width,
                    int height);
// The row at (x, y), -1 when none.
int compare_row_at(const CompareState& state, int x, int y, const ViewModel& model, int width,
                   int height);
// The wheel: `rows` down (negative: up); the selection stays on screen.
bool compare_scroll(CompareState& state, int rows, const ViewModel& model, int width, int height);

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
