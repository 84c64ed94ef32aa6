// What the heatmap (views/heatmap_view.h) keeps between keys.
#pragma once

#include <optional>
#include <string>

namespace runtop::ui {

struct HeatmapState {
    std::string tag;  // the tag shown; "" = the first card's (ViewModel::groups()[0])
    int row = 0;      // selected rank row; clamped
    int column = -1;  // selected step column, -1 = the newest (it follows new steps); clamped
    std::optional<bool> log;  // the ramp's scale as `l` chose it (true: log); nullopt: the data's
};

}  // namespace runtop::ui
