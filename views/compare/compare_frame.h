// Drawing the compare chart (compare_frame.cpp, compare_readout.cpp) from its data
// (views/compare/compare_chart_data.h): not for other views.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "views/canvas.h"
#include "views/chart_plot.h"
#include "views/compare/compare_chart_data.h"
#include "views/detail_state.h"
#include "views/sparkline.h"

namespace runtop::ui {

void draw_compare_frame(Canvas& canvas, const ViewModel& model, const DetailState& state,
                        const CompareChart& ch);

// The readout: a panel at the right (layout.panel_x), or two lines under the legend.
void draw_compare_panel(Canvas& canvas, const ViewModel& model, const DetailState& state,
                        const CompareChart& ch);
void draw_compare_bottom(Canvas& canvas, const ViewModel& model, const DetailState& state,
                         const CompareChart& ch);

// How the frame names a run: as every view does (ViewModel::run_label).
std::string compare_run_label(const ViewModel& model, const CompareChart& ch, int k);
// The divergence mark: ◆, or # in ASCII.
char32_t divergence_mark(GlyphTier tier);

}  // namespace runtop::ui
