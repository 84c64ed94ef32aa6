// View 1, the overview: a grid of cards, one per tag (its series: that tag in every selected
// (run, rank)), in ViewModel::groups() order, paged, with a status line below.
//
// A card (6 rows; 5 when the canvas is short; taller when there is room, see overview_layout):
//
//   ┌ train/loss ──────────── ▲ 2 ─┐  tag (fitted); badge: worst state, series alerting
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
#pragma once

#include <memory>
#include <optional>

#include "views/actions.h"
#include "views/canvas.h"
#include "views/model.h"

namespace runtop::ui {

// The cards' queried columns from the last frame, reused while their series have not changed:
// a key that only moves the selection then redraws without querying (a page of 50 cards of 256
// ranks queries millions of points). Only the cards of the last frame are kept.
struct OverviewCache;

struct OverviewState {
    int page = 0;                  // clamped to the pages there are
    int selected = -1;             // a card (index into ViewModel::groups()), -1: none
    std::optional<RunRank> focus;  // the (run, rank) every card shows in its focus row
    mutable std::shared_ptr<OverviewCache> cache;  // made by the first draw; copies share it
};

inline constexpr int kMinCardWidth = 28;
inline constexpr int kMaxCardHeight = 12;

struct OverviewLayout {
    int columns = 1;
    int rows = 0;         // rows of cards a page holds
    int card_height = 6;  // 6 (5 on a short canvas); taller when every card fits on one page
    int per_page() const { return columns * rows; }
};
// Cards per row (as many of kMinCardWidth as fit, at least one) and rows of cards for a canvas;
// the last row of the canvas is the status line. When all `cards` fit on one page, the cards
// grow to share the height (up to kMaxCardHeight): their charts get more rows, not more air.
OverviewLayout overview_layout(int width, int height, int cards);
int overview_pages(const ViewModel& model, const OverviewLayout& layout);

void draw_overview(Canvas& canvas, const ViewModel& model, const OverviewState& state);

// Moves the selection (arrows across the grid, pages, first/last) for a canvas of this size;
// the page follows the selection. The first move selects the page's first card. Returns
// whether the state changed.
bool overview_handle(OverviewState& state, Action action, const ViewModel& model, int width,
                     int height);
// The card at cell (x, y), -1 when none (the status line, an empty slot).
int overview_card_at(const OverviewState& state, int x, int y, const ViewModel& model, int width,
                     int height);
// The card Enter opens: the selected one, else the first of the page (-1 when none).
int overview_target(const OverviewState& state, const ViewModel& model, int width, int height);

}  // namespace runtop::ui
