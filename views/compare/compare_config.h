// The compare view's configuration panel (`c`): what changes from run A's configuration to run
// B's (core/config/config_diff.h: TensorBoard text summaries, hparams.yaml, deepspeed_config.csv...
// each flattened to keys), one key a line: "~ key  a → b" changed, "+ key  b" added (only B has
// it), "- key  a" removed (only A has it); changed keys first, then added, then removed. The mark
// says the kind without colour; added values are in B's run colour, removed ones in A's.
// A change is shown in full, its values wrapped over rows, while the panel has the rows; past
// that a change keeps one row, its values cut around where they differ ("…seed=1 → …seed=2"),
// never through the difference. What does not fit at all is counted ("+12 more"): `runtop
// diff` lists every key.
#pragma once

#include "views/canvas.h"
#include "views/compare/compare_cache.h"
#include "views/compare/compare_state.h"
#include "views/model.h"

namespace runtop::ui {

// Draws the panel over the full width, rows [y, y + height).
void draw_config_panel(Canvas& canvas, const ViewModel& model, const CompareState& state,
                       const CompareRows& rows, int y, int height);

}  // namespace runtop::ui
