// View 1, the overview: a grid of cards, one per tag (its series: that tag in every selected
// (run, rank)), in ViewModel::groups() order, paged, with a status line below.
//
// A card (6 rows; 5 when the canvas is short; taller when there is room, see overview_layout):
//
//   ┌ train/loss ──────────── ▲ 2 ─┐  tag (fitted); badge: worst state, series in it
//   │⠤⠤⠤⣄⣀⣀⣀⣀⣀⣀⣸⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀×⣀⣀⣀⣀⣀⣀⣀⣀│  every series: their min/max envelope
//   │⠤⠤⠤⣄⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀×⣀⣀⣀⣀⣀⣀⣀⣀│  the focus series (a rank or run), in its colour
//   │mean 0.5804 ↓         r2 0.571│  mean of the last values, trend; the focus' last
//   │4 ranks            steps 0–399│  how many series; the step range
//   └──────────────────────────────┘
//
// Why an envelope plus one focus series rather than every rank overlaid: a sparkline is one row
// of cells, so overlaid ranks would overwrite each other and eight colours cannot tell 64 ranks
// apart. The envelope (per column, the min and max over every series of the card, NaN if any
// has one) never hides a spike or a NaN on any rank; the focus row then names and shows the
// rank that matters: the one the user chose (OverviewState::focus), else the one in the worst
// alert state (earliest first), else the one whose last value is furthest from the median of the
// ranks (when over 10% off), else the first. Both rows share the envelope's y range, so the
// focus row reads as a part of the envelope. A card with one series shows its min and max in
// the row under its chart instead. A taller card stacks several sparkline rows into one chart,
// each row a band of the y range; the focus gets a third of the chart rows, under a rule that
// names it.
//
// The trend compares the mean of each series' newest tenth of points (1 to 256 of them) with the
// mean of as many points before them, averaged over the card's series: ↑ ↓ → (ascii ^ v -), flat
// under 2% of change. Means, not single points, so a noisy metric does not flip the arrow.
//
// Runs (views/overview_runs.h): a card whose tag two runs or more have overlays one line per
// run (its ranks merged) in the run's stable colour, and a legend row above the grid names the
// runs; Tab cycles the run in front. A card of a tag only one run has is drawn as above, so
// runs that share no tag (msProbe's monitor_output beside the job's TensorBoard run) look as
// one run would.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "views/actions.h"
#include "views/canvas.h"
#include "views/model.h"
#include "views/overview_state.h"
#include "views/view_api.h"

namespace runtop::ui {

inline constexpr int kMinCardWidth = 28;
inline constexpr int kMaxCardHeight = 12;

struct OverviewLayout {
    int top = 0;  // rows above the cards: 1 for the run legend (several runs), else 0
    int columns = 1;
    int rows = 0;         // rows of cards a page holds
    int card_height = 6;  // 6 (5 on a short canvas); taller when every card fits on one page
    int per_page() const { return columns * rows; }
};
// Cards per row (as many of kMinCardWidth as fit, at least one) and rows of cards for a canvas;
// the last row of the canvas is the status line, the first `top` rows (the run legend) are
// above the cards unless a card would not fit under them. When all `cards` fit on one page, the
// cards grow to share the height (up to kMaxCardHeight): their charts get more rows, not more
// air. The model's form: its cards, and the legend row when the cards overlay runs; what the
// view draws and its keys and clicks use.
OverviewLayout overview_layout(int width, int height, int cards, int top = 0);
OverviewLayout overview_layout(int width, int height, const ViewModel& model);
int overview_pages(const ViewModel& model, const OverviewLayout& layout);

// A card of the page: one tag's (`group`, groups()[group_index]) or a group of tags (`node`, a
// node of overview_tree(): views/overview_groups.h).
struct OverviewCard {
    const TagGroup* group = nullptr;
    int group_index = -1;
    int node = -1;
};
// The cards at the state's level of the tag tree on a canvas of this size: every tag under it
// when they fit on one page (at the root, every tag: the overview as it always was), else the
// level's groups and tags (views/tag_tree.h).
std::vector<OverviewCard> overview_cards(const OverviewState& state, const ViewModel& model,
                                         int width, int height);

void draw_overview(Canvas& canvas, const ViewModel& model, const OverviewState& state);

// Enter on a group card opens it (true); on a tag's card, nothing here (the detail chart opens).
bool overview_enter(OverviewState& state, const ViewModel& model, int width, int height);
// Backspace: up one level, the group left selected; false at the root.
bool overview_up(OverviewState& state, const ViewModel& model, int width, int height);
// Shows the level where groups()[group] is a card, and selects it (a tag taken from a view).
void overview_show_tag(OverviewState& state, int group, const ViewModel& model, int width,
                       int height);

// Moves the selection (arrows across the grid, pages, first/last) for a canvas of this size;
// the page follows the selection. The first move selects the page's first card. kNextSeries /
// kPreviousSeries (Tab / BackTab) cycle the focus: through the runs when the cards overlay
// runs, else through the (run, rank)s, then back to none (next_overview_focus);
// kToggleTagTree the side list, kTreeUp overview_up. Returns whether the state changed.
bool overview_handle(OverviewState& state, Action action, const ViewModel& model, int width,
                     int height);
// The card at cell (x, y), -1 when none (the status line, an empty slot).
int overview_card_at(const OverviewState& state, int x, int y, const ViewModel& model, int width,
                     int height);
// The card Enter opens: the selected one, else the first of the page (-1 when none).
int overview_target(const OverviewState& state, const ViewModel& model, int width, int height);

// A click selects a card, a click on the selected card opens it; the wheel turns pages.
Pointer overview_mouse(OverviewState& state, const InputEvent& event, const ViewModel& model,
                       int width, int height);
// The card Enter opens (overview_target), its focus in front.
ViewSelection overview_selected(const OverviewState& state, const ViewModel& model, int width,
                                int height);

}  // namespace runtop::ui
