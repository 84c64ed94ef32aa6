// What the compare view keeps between frames (private to views/compare_*.cpp): the comparer,
// the key it was configured with, the rows computed from it, and the sparklines of the rows on
// screen.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/config/config_diff.h"
#include "core/compare/run_compare.h"
#include "views/compare/compare_rows.h"
#include "views/compare/compare_spark.h"

namespace runtop::ui {

struct CompareCache {
    // The comparer of one Store (made again if the view is drawn from another).
    const Store* store = nullptr;
    std::unique_ptr<RunComparer> comparer;
    // What it was configured with: the runs, the options and the filter's text.
    bool configured = false;
    std::string run_a, run_b;
    CompareOptions options;
    std::string filter_tags, filter_ranks;
    // The rows: computed from the comparer's result whenever it changed, sorted by `sort`.
    bool rows_valid = false;
    CompareSort sort = CompareSort::kDivergence;
    CompareRows rows;

    // One row's sparkline and what it was queried from.
    struct Spark {
        std::string tag;
        int rank = 0;
        int columns = 0;
        CompareOptions options;
        std::string run_a, run_b;
        std::uint64_t signature = 0;  // changes when any series drawn gains or loses points
        bool used = false;            // asked for since the last sweep
        SparkColumns columns_data;
    };
    std::vector<Spark> sparks;

    // The configuration diff of the two runs, while the panel is open: made again when the
    // runs or the Store's configuration texts change.
    std::string config_a, config_b;
    std::uint64_t config_signature = 0;
    bool config_valid = false;
    std::size_t config_keys_a = 0, config_keys_b = 0;
    std::vector<ConfigChange> config_changes;
};

}  // namespace runtop::ui
