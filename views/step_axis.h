// The step axis under a heatmap's columns (the rank x step and the module x step heatmaps):
// round steps under the columns holding them, the last step at the end, and a mark under the
// selected column (labels it would cut give way).
#pragma once

#include <cstdint>

#include "views/canvas.h"

namespace runtop::ui {

struct StepAxis {
    int y = 0;        // the axis row
    int label_w = 0;  // "step" is written in the row labels' room
    int map_x = 0;    // where the columns start
    int columns = 1;
    std::int64_t lo = 0, hi = 0;  // the steps the columns split evenly, [lo, hi]
    int column = 0;               // the selected column
};

void draw_step_axis(Canvas& canvas, const StepAxis& axis, bool ascii);

}  // namespace runtop::ui
