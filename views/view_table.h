// The table of views: one row per view, all screen.cpp knows of them. Each row puts the view's
// one-shape API (views/view_api.h) behind functions of the whole UiState, so the screen
// dispatches drawing, keys, mouse and selection through the row of the view that is up.
//
// Adding a view: its files (<view>_state.h, <view>_view.h/.cpp), a member and a ViewId in
// views/ui_state.h, one row in view_table.cpp, its golden test (and, for a key that shows it,
// an Action and a binding in views/actions.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "views/actions.h"
#include "views/canvas.h"
#include "views/input.h"
#include "views/model.h"
#include "views/ui_state.h"
#include "views/view_api.h"

namespace runtop::ui {

// What a view's keys did: redraw, and a word on it for the flash line ("" none).
struct Handled {
    bool redraw = false;
    std::string note;
};

// When a view takes the tag the user was looking at in the view left (switching keeps it).
enum class TakesTag {
    kNever,
    kAlways,      // from any view switched away from, itself included
    kFromOthers,  // from another view only (a grid not yet moved in stays unselected)
    kWhenShown,   // only when switched to (its layout is costly to work out)
};

struct ViewRow {
    ViewId id;
    std::string_view name;      // as the status line and tests say it
    std::optional<Action> key;  // the action that shows it (the detail chart: none, Enter)
    Scope scope;                // its bindings in the action table
    void (*draw)(Canvas&, const ViewModel&, const UiState&);
    Handled (*handle)(UiState&, Action, const ViewModel&, int width, int height);
    Pointer (*mouse)(UiState&, const InputEvent&, const ViewModel&, int width, int height);
    ViewSelection (*selected)(const UiState&, const ViewModel&, int width, int height);
    TakesTag takes = TakesTag::kNever;
    // Takes `group` (groups()[index]) as its selection; nullptr with TakesTag::kNever.
    void (*take_tag)(UiState&, const TagGroup& group, int index, const ViewModel&, int width,
                     int height) = nullptr;
    // Global actions the view answers itself while it is up (the detail chart: Esc, log-Y;
    // the ranks view and the heatmap: log-Y).
    std::vector<Action> own_globals = {};
    // n / N step on from the selected anomaly here (else they start at the first or last).
    bool anomaly_steps_on = false;
    // `g` and a step: what the view does with it, and a note saying so; nullptr: no steps here.
    std::string (*go_to_step)(UiState&, std::int64_t step, const ViewModel&, int width,
                              int height) = nullptr;
    // Enter, before the selection's chart opens: true when the view answered it itself (the
    // overview opens a group card); nullptr: Enter always opens the chart.
    bool (*enter)(UiState&, const ViewModel&, int width, int height) = nullptr;
};

std::span<const ViewRow> view_rows();
const ViewRow& view_row(ViewId id);

}  // namespace runtop::ui
