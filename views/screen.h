// The dashboard as one state machine, terminal-free, over UiState (views/ui_state.h): `handle()`
// turns an input event into a state change through the action table (views/actions.h) and
// the table of views (views/view_table.h), `draw_screen()` draws the whole frame. The app's event
// loop owns a UiState and calls these two; `runtop snapshot
// --keys` replays keys through the same handle(), so golden frames can show any state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/analyzer.h"
#include "views/canvas.h"
#include "views/input.h"
#include "views/model.h"
#include "views/ui_state.h"

namespace runtop::ui {

std::string_view view_name(ViewId view);
// The view of that name (as view_name() gives it), if any.
std::optional<ViewId> view_named(std::string_view name);
// Every view's name in the view table's order, joined by `separator` ("overview|ranks|...").
std::string view_names(std::string_view separator);
// Shows `view` as its key does: the tag the user is looking at goes along.
void show_view(UiState& state, ViewId view, const ViewModel& model, int width, int height);

// The view the dashboard starts in: compare when exactly two roots are given (`runtop
// base=PATH new=PATH`), else the overview. The app sets `UiState::view` to it before the first
// frame (no other state needs setting: the compare view picks the first two runs itself).
ViewId initial_view(std::size_t roots);

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

// Whether the frame just drawn left something for a later one (a key's frame out of time for
// a card): the app then draws again soon, even with no new data.
bool frame_owed(const UiState& state);

// Drops what views keep of earlier queries (cards, comparisons, the anomaly list's layout): the
// model they were made from was replaced by another (the dashboard reads the files again with a
// new filter).
void forget_queries(UiState& state);

// Parses `runtop snapshot --keys`: key names as the action table writes them, separated by
// spaces ("2 j j Enter"); a name that is not a key is typed as text, one event per character
// ("/ loss Enter": "/", "l", "o", "s", "s", "Enter"). "Space" is a space.
std::vector<InputEvent> parse_key_script(std::string_view script);

}  // namespace runtop::ui
