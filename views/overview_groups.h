// The overview's tag tree (views/tag_tree.h) as the user sees it: group cards, standing for
// many tags when they do not fit on a page, and the side list (`t`).
//
//   ┌ grad_reduced/ ──────────── ▲ 3 ─┐  the group's name; badge: its worst state, how many
//   │⠤⠤⠤⣄⣀⣀⣀⣀⣀⣀⣸⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀×⣀⣀⣀⣀⣀⣀⣀⣀⣀│    of its tags are in it
//   │⠤⠤⠤⣄⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀×⣀⣀⣀⣀⣀⣀⣀⣀⣀│  the envelope of its tags
//   │1204 tags   layers.3…weight/norm│  how many; the worst tag (its state's colour)
//   │envelope of 32    steps 0–399   │  how many tags the envelope holds; the step range
//   └─────────────────────────────────┘
//
// The envelope of a group of a thousand tags of 256 ranks cannot query them all on every
// frame: it merges one series of each of up to 32 tags (every tag in the worst state first,
// each by its series in the worst state, then tags spread evenly over the rest), and says so.
#pragma once

#include <string>

#include "views/canvas.h"
#include "views/model.h"
#include "views/tag_tree.h"

namespace runtop::ui {

// The tree of the model's cards, made again only when they change.
const TagTree& overview_tree(const ViewModel& model);

// The worst state among a node's tags, and how many of its tags are in it.
struct GroupState {
    AlertLevel level = AlertLevel::kOk;
    int count = 0;
    int worst = -1;  // the first tag in that state (an index into groups()), -1 when none
};
// Kept for every node of overview_tree() while the Analyzer's states and the cards stay the
// same: a page of group cards over 10,000 tags of 256 ranks would otherwise look at 2.56 M
// series states a frame.
const GroupState& group_state(const ViewModel& model, int node);
// The worst state of each card (groups()[i]), kept alike.
AlertLevel tag_level(const ViewModel& model, int group);

// A group card at (x, y), w x h; `level` is the node whose children the page shows (its path
// is left out of the title).
void draw_group_card(Canvas& canvas, const ViewModel& model, const TagTree& tree, int node,
                     int level, int x, int y, int w, int h, bool selected);

// The side list: the tree from the root, open along the path to `level`, each node with its
// tag count and alert mark; `level` highlighted.
void draw_tag_side_list(Canvas& canvas, const ViewModel& model, const TagTree& tree, int level,
                        int x, int y, int w, int h);

}  // namespace runtop::ui
