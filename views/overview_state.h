// What the overview (views/overview_view.h) keeps between keys: its page, selection and focus.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "views/model.h"

namespace runtop::ui {

// The cards' queried columns from the last frame, reused while their series have not changed:
// a key that only moves the selection then redraws without querying (a page of 50 cards of 256
// ranks queries millions of points). Only the cards of the last frame are kept.
struct OverviewCache;

struct OverviewState {
    int page = 0;       // clamped to the pages there are
    int selected = -1;  // a card (index into overview_cards()), -1: none
    // The level of the tag tree shown (views/tag_tree.h: a node's path, "" the root). Cards that
    // do not fit on one page fold into group cards; Enter opens one, Backspace goes up.
    std::string tree;
    bool side_list = false;  // t: the tree beside the cards
    // The (run, rank) every card shows in its focus row; when the cards overlay runs, its run is
    // the one drawn in front. Tab / BackTab cycle it (nullopt: each card chooses).
    std::optional<RunRank> focus;
    mutable std::shared_ptr<OverviewCache> cache;  // made by the first draw; copies share it
    // What a key's frame may spend querying cards (24 cards of 1,024 ranks take ~100 ms): a
    // card queried before shows that query, one never queried shows "…" until the next frame.
    std::chrono::microseconds key_frame_queries{8000};
};

// Whether the last frame left a card unqueried ("…"): a frame is owed soon.
bool overview_incomplete(const OverviewState& state);

}  // namespace runtop::ui
