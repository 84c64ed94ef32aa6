// The compare view's configuration panel (`c`): what changes from run A's configuration to run
// B's (core/config/config_diff.h: TensorBoard text summaries, hparams.yaml, deepspeed_config.csv...
// each flattened to keys), one key a line: "~ key  a → b" changed, "+ key  b" added (only B has
// it),
// "- key  a" removed (only A has it). The mark says the kind without colour; added values are in
// B's run colour, removed ones in A's. What does not fit is counted ("+12 more"): `runtop diff`
// lists every key.
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
