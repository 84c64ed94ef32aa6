// View 2, ranks: rows of tags x columns of ranks, each cell the series' newest value coloured by
// its deviation from the median of the ranks, plus mean/std/min/max/outlier columns; and, for
// the selected tag, one sparkline per rank.
#pragma once

#include "views/actions.h"
#include "views/canvas.h"
#include "views/model.h"

namespace runtop::ui {

struct RanksState {
    int row = 0;          // selected tag: an index into ViewModel::groups(); clamped
    int column = 0;       // selected rank column (0-based among the ranks shown); clamped
    bool sparklines = false;  // true: one sparkline per rank of the selected tag
};

void draw_ranks(Canvas& canvas, const ViewModel& model, const RanksState& state);

// Applies a navigation action (kUp/kDown/kLeft/kRight/kPageUp/kPageDown/kFirst/kLast and the
// view's own, e.g. kToggleRankSparklines) for a canvas of this size. Returns whether the state
// changed (the caller then redraws).
bool ranks_handle(RanksState& state, Action action, const ViewModel& model, int width, int height);
// A left click at cell (x, y) selects what is there. Returns whether the state changed.
bool ranks_click(RanksState& state, int x, int y, const ViewModel& model, int width, int height);

// What Enter opens: the selected tag and rank (nullptr / kNoRank when none).
struct RanksSelection {
    const TagGroup* group = nullptr;
    SeriesId series = kNoSeries;  // the selected cell's series, kNoSeries when none
};
RanksSelection ranks_selection(const RanksState& state, const ViewModel& model, int width,
                               int height);

}  // namespace runtop::ui
