// What the ranks view (views/ranks_view.h) keeps between keys.
#pragma once

#include <optional>

namespace runtop::ui {

// What a table cell shows (`c` cycles): the rank's newest value, its worst distance from the
// median of the ranks over every step, or the anomalies recorded on it (views/ranks_history.h).
enum class RankCells { kNewest, kWorst, kAnomalies };

struct RanksState {
    int row = 0;              // selected tag: an index into ViewModel::groups(); clamped
    int column = 0;           // selected rank column: an index into rank_columns(); clamped
    bool sparklines = false;  // true: one sparkline per rank of the selected tag
    // The sparklines' y scale as `l` chose it (true: log); nullopt follows the data.
    std::optional<bool> log;
    RankCells cells = RankCells::kNewest;
    // Sparklines of more ranks than rows: bins of neighbours, outliers apart (b: a row per
    // rank); o: outliers on top, worst first (views/rank_bins.h).
    bool binned = true;
    bool outliers_first = false;
};

}  // namespace runtop::ui
