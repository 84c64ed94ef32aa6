// The overview with several runs (views/overview_view.h has the picture and the reasons): the
// legend line above the cards, the multi-run card's chart and value rows, and the focus that
// Tab / BackTab cycle.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "views/canvas.h"
#include "views/model.h"
#include "views/overview_card.h"
#include "views/overview_state.h"

namespace runtop::ui {

// Whether a card overlays runs: its tag's selected series span two runs or more. Runs that
// share no tag (an msProbe monitor_output beside a TensorBoard run of the same job) are not
// overlaid: each card shows its one run's ranks.
bool group_by_run(const ViewModel& model, const TagGroup& group);
// Whether the overview shows the run legend (and Tab cycles runs): some card overlays runs.
bool overview_by_run(const ViewModel& model);

// The runs of the selected series, in ViewModel::run_names() order.
std::vector<std::string> selected_runs(const ViewModel& model);

// The legend on row y: for each selected run a swatch (━, ascii '-') in its colour and its
// short name, the focus run's name reversed; as many as fit in `width`, then "+N".
void draw_run_legend(Canvas& canvas, const ViewModel& model, const OverviewState& state, int y,
                     int width);

// The inside of a multi-run card (w x h cells from (x, y)): the chart, the value rows, the
// count row when h >= 4.
void draw_run_card_body(Canvas& canvas, const ViewModel& model, const CardData& d,
                        const OverviewState& state, int x, int y, int w, int h);

// The run of a multi-run card drawn in front (an index into d.runs): the focus run when the
// card has it, else the run of the series in the worst alert state (earliest first), else the
// first run.
std::size_t front_run(const ViewModel& model, const CardData& d,
                      const std::optional<RunRank>& focus);

// Tab (direction 1) / BackTab (-1): the next focus after `focus`, cycling through the
// selected runs when the cards overlay runs (the run's lowest selected rank, so Enter opens the
// detail chart with that series in front), else through the selected (run, rank)s, and back to
// none (each card chooses) after the last.
std::optional<RunRank> next_overview_focus(const ViewModel& model,
                                           const std::optional<RunRank>& focus, int direction);

}  // namespace runtop::ui
