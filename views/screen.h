// The dashboard as one state machine, terminal-free: which view is up and each view's state,
// the help overlay, the filter prompts, smoothing, log-Y and follow; `handle()` turns an input
// event into a state change through the action table (views/actions.h), `draw_screen()` draws
// the whole frame. The app's event loop owns a UiState and calls these two; `runtop snapshot
// --keys` replays keys through the same handle(), so golden frames can show any state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/analyzer.h"
#include "views/anomaly_view.h"
#include "views/canvas.h"
#include "views/compare/compare_view.h"
#include "views/detail_view.h"
#include "views/heatmap_view.h"
#include "views/input.h"
#include "views/model.h"
#include "views/overview_view.h"
#include "views/ranks_view.h"

namespace runtop::ui {

enum class ViewId { kOverview, kRanks, kHeatmap, kAnomalies, kDetail, kCompare };
std::string_view view_name(ViewId view);

// The view the dashboard starts in: compare when exactly two roots are given (`runtop
// base=PATH new=PATH`), else the overview. The app sets `UiState::view` to it before the first
// frame (no other state needs setting: the compare view picks the first two runs itself).
ViewId initial_view(std::size_t roots);

// The `/` and `r` prompts: what is typed is applied as it is typed (live preview); Enter keeps
// it, Esc puts back what was there before.
struct Prompt {
    enum class Kind { kNone, kTags, kRanks };
    Kind kind = Kind::kNone;
    std::string text;
    std::string error;  // why the text does not parse yet (the last good filter stays)
    std::string before_tags, before_ranks;
};

struct UiState {
    ViewId view = ViewId::kOverview;         // the app may start elsewhere: see initial_view()
    ViewId detail_from = ViewId::kOverview;  // where Esc returns from the detail chart
    OverviewState overview;
    RanksState ranks;
    HeatmapState heatmap;
    AnomalyState anomalies;
    DetailState detail;
    CompareState compare;  // the app sets compare.options from --tolerance, --align, --by
    bool help = false;
    int help_scroll = 0;
    Prompt prompt;
    bool follow = true;  // apply new data as it arrives; false: it waits (nothing is lost)
    std::string flash;   // a one-line note for the next frame (cleared by the next key)
};

// What the app must do after an event.
struct Outcome {
    bool redraw = false;
    bool force = false;  // repaint every cell (Ctrl-L)
    bool quit = false;
};

// `analyzer` is the one the model reads (acknowledging changes it). The canvas size is the
// terminal's: views lay out pages and hit-test clicks with it.
Outcome handle(UiState& state, const InputEvent& event, ViewModel& model, Analyzer& analyzer,
               int width, int height);

void draw_screen(Canvas& canvas, const ViewModel& model, const UiState& state);

// Parses `runtop snapshot --keys`: key names as the action table writes them, separated by
// spaces ("2 j j Enter"); a name that is not a key is typed as text, one event per character
// ("/ loss Enter": "/", "l", "o", "s", "s", "Enter"). "Space" is a space.
std::vector<InputEvent> parse_key_script(std::string_view script);

}  // namespace runtop::ui
