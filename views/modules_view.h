// View 6, modules: module x step heatmap of one tag family whose middle names a module
// (core/analysis/module_families.h: msProbe's modules and parameters, `layers.N` in any format).
//
//   grad_unreduced · norm  24 modules × steps 0-399, 5 steps a column  max over ranks  log  <-
//   header layers.0.attn   ░░▒░░▒▒░░░▒░░░▒░░▒░░░░▒░░░░▒░░░▒                       <- a row per
//   module layers.0.mlp    ░░▒░░░▒░░░░▒░░░░░░▒△░░▒░░░▒░░░░▒                          (or group of
//   layers) layers.1.attn   ▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒◉××××××× step 0        100        200 300 399
//   <- the step axis max over ranks: 0.91 ░░░▒▒▓▓▓██ 1.65 (log)  ◉ earliest  ▲△ alert/warn  × nan
//   ∞ inf layers.1.attn steps 240-244: 8.12 (r1) ...                               <- the selection
//
// Rows are the family's modules in model order, paged; `-`/`+` group consecutive layers into one
// row (1, 2, 4 ... layers a row) and back. Columns split the family's step range as the rank
// heatmap's do, each member series queried with Series::query (exact count, mean, NaN/Inf
// whatever was folded). A member's value in a column is its mean there (its level); a cell
// aggregates its members: the max over ranks, one rank's value (`a` cycles, Tab picks the rank)
// or the spread, max / min across ranks (max - min when a value is not positive), taken per
// module; a row of several modules (or micro-steps) shows the largest of its modules' values.
// Only the page's rows are queried: a frame costs what is shown, not the model.
//
// Colour: the page's values on the heat ramp (1st to 99th percentile; log when every value is
// positive, `l` flips), or (`c`) the distance from the row's own median, three levels a doubling,
// so a module drifting away from its own history reads whatever its scale. NaN (×) and Inf (∞)
// have their own glyphs. Anomalies runtop or msProbe recorded on a member, and each member's
// first NaN/Inf, mark their cell (▲ alert, △ warn); the earliest cell of the worst severity is
// ◉, `e` goes to it, `]`/`[` walk the marked cells in step order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "views/actions.h"
#include "views/canvas.h"
#include "views/model.h"
#include "views/modules_state.h"
#include "views/view_api.h"

namespace runtop::ui {

void draw_modules(Canvas& canvas, const ViewModel& model, const ModulesState& state);

// Arrows, pages, first/last; Tab/BackTab the next/previous rank (switching to one rank's values);
// `+`/`-`/`0` the rows' zoom. Returns whether the state changed.
bool modules_handle(ModulesState& state, Action action, const ViewModel& model, int width,
                    int height);

// `t`, `o`, `a`, `c`, `l`, `e`, `]`/`[` and `g`: what changed, as the note says it.
std::string modules_cycle_task(ModulesState& state, const ViewModel& model);
std::string modules_cycle_op(ModulesState& state, const ViewModel& model);
std::string modules_cycle_aggregation(ModulesState& state, const ViewModel& model);
std::string modules_toggle_colour(ModulesState& state);
std::string modules_toggle_log(ModulesState& state, const ViewModel& model, int width, int height);
std::string modules_go_to_earliest(ModulesState& state, const ViewModel& model, int width,
                                   int height);
std::string modules_next_mark(ModulesState& state, int direction, const ViewModel& model, int width,
                              int height);
std::string modules_go_to_step(ModulesState& state, std::int64_t step, const ViewModel& model,
                               int width, int height);

// The family and row of `tag` when it is a module's (else nothing changes): the view switched to
// shows the module the user was looking at.
void modules_take_tag(ModulesState& state, const std::string& tag, const ViewModel& model);

Pointer modules_mouse(ModulesState& state, const InputEvent& event, const ViewModel& model,
                      int width, int height);
// The selected row's module tag and series at the selected column's step: the earliest anomaly
// or NaN/Inf recorded there, else the member with the cell's value at its newest point there.
ViewSelection modules_selected(const ModulesState& state, const ViewModel& model, int width,
                               int height);

}  // namespace runtop::ui
