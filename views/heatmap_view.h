// View 3, heatmap: rank x step of the selected tag, each cell the value of that rank over that
// column's steps mapped onto the theme's heat ramp (Role::kHeat0..9), NaN/Inf with their own
// glyph in Role::kNan.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "views/actions.h"
#include "views/canvas.h"
#include "views/model.h"

namespace runtop::ui {

struct HeatmapState {
    std::string tag;  // the tag shown; "" = the first card's (ViewModel::groups()[0])
    int row = 0;      // selected rank row; clamped
    int column = -1;  // selected step column, -1 = the newest; clamped
};

void draw_heatmap(Canvas& canvas, const ViewModel& model, const HeatmapState& state);

// Navigation (kUp/kDown rows, kLeft/kRight columns, pages, kFirst/kLast) for a canvas of this
// size. Returns whether the state changed.
bool heatmap_handle(HeatmapState& state, Action action, const ViewModel& model, int width,
                    int height);
bool heatmap_click(HeatmapState& state, int x, int y, const ViewModel& model, int width,
                   int height);

// What Enter opens: the series of the selected row and the step of the selected column.
struct HeatmapSelection {
    const TagGroup* group = nullptr;
    SeriesId series = kNoSeries;
    std::optional<std::int64_t> step;
};
HeatmapSelection heatmap_selection(const HeatmapState& state, const ViewModel& model, int width,
                                   int height);

}  // namespace runtop::ui
