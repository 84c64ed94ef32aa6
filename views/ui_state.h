// The dashboard's state, terminal-free: which view is up, each view's own state (from its
// *_state.h: no view's drawing is needed to hold it), help, the filter prompts and follow.
// views/screen.h changes it, views/view_table.h lists the views.
#pragma once

#include <optional>
#include <string>

#include "views/anomaly_state.h"
#include "views/compare/compare_state.h"
#include "views/detail_state.h"
#include "views/heatmap_state.h"
#include "views/modules_state.h"
#include "views/overview_state.h"
#include "views/ranks_state.h"

namespace runtop::ui {

// The views, one row each in views/view_table.cpp.
enum class ViewId { kOverview, kRanks, kHeatmap, kAnomalies, kDetail, kCompare, kModules };

// The `/`, `r` and `R` prompts: what is typed is applied as it is typed (live preview); Enter
// keeps it, Esc puts back what was there before.
struct Prompt {
    enum class Kind { kNone, kTags, kRanks, kRuns };
    Kind kind = Kind::kNone;
    std::string text;
    std::string error;  // why the text does not parse yet (the last good filter stays)
    std::string before_tags, before_ranks, before_runs;
};

struct UiState {
    ViewId view = ViewId::kOverview;         // the app may start elsewhere: see initial_view()
    ViewId detail_from = ViewId::kOverview;  // where Esc returns from the detail chart
    OverviewState overview;
    RanksState ranks;
    HeatmapState heatmap;
    AnomalyState anomalies;
    DetailState detail;
    ModulesState modules;
    CompareState compare;  // the app sets compare.options from --tolerance, --align, --by
    bool help = false;
    int help_scroll = 0;
    Prompt prompt;
    // `g` in a view of steps: the step typed so far, while the prompt is open.
    std::optional<std::string> go_to_step;
    bool follow = true;  // apply new data as it arrives; false: it waits (nothing is lost)
    std::string flash;   // a one-line note for the next frame (cleared by the next key)
};

}  // namespace runtop::ui
