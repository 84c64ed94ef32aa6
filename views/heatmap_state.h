// What the heatmap (views/heatmap_view.h) keeps between keys.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace runtop::ui {

struct HeatmapState {
    std::string tag;  // the tag shown; "" = the first card's (ViewModel::groups()[0])
    int row = 0;      // selected row (a rank, or a bin of ranks); clamped
    // The selected column as the step it starts at, so it stays put while steps arrive (a
    // column index drifts as the columns widen); nullopt = the newest column (it follows).
    std::optional<std::int64_t> step;
    std::optional<bool> log;  // the ramp's scale as `l` chose it (true: log); nullopt: the data's
    bool binned = true;       // more ranks than rows: bins of neighbours (b: a row per rank)
    bool outliers_first = false;  // o: outlier ranks on top, worst first
};

}  // namespace runtop::ui
