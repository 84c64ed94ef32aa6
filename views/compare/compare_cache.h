// What the compare view keeps between frames (private to views/compare/): the comparer, the
// key it was configured with, the rows computed from it (CompareRows), the sparklines of the
// rows on screen (SparkColumns) and the configuration diff. Only types: compare_rows.cpp,
// compare_spark.cpp and compare_config.cpp bring them up to date.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/compare/run_comparer.h"
#include "core/config/config_diff.h"
#include "views/compare/compare_state.h"
#include "views/model.h"
#include "views/sparkline.h"

namespace runtop::ui {

// What the view shows, from the comparer's result.
struct CompareRows {
    std::string run_a, run_b;  // the runs compared ("" when the Store has fewer than two)
    bool two_runs() const { return !run_a.empty() && !run_b.empty() && run_a != run_b; }
    CompareOptions options;
    std::vector<TagComparison> tags;  // tag_rows(): every tag in either run, by tag
    std::vector<int> order;           // tags in both runs (indices into tags), sorted
    std::vector<int> only_a, only_b;  // tags in one run only, by tag
    std::size_t diverging = 0;        // tags of `order` with a diverging pair
    // The earliest first divergence of any tag (an index into tags), -1 when none diverges.
    int first = -1;
    const TagComparison& row(int i) const { return tags[order[i]]; }
    int rows() const { return static_cast<int>(order.size()); }
};

struct SparkColumns {
    bool any = false;                 // either run has points here
    std::vector<ColumnSummary> a, b;  // one summary per step column, each run
    SparkRange range;                 // shared by both runs
    std::int64_t lo = 0, hi = 0;      // the steps covered (kStep), inclusive
    int divergence = -1;              // the column of the first divergence, -1: none shown
};

struct CompareCache {
    // The comparer of one Store (made again if the view is drawn from another).
    const Store* store = nullptr;
    std::unique_ptr<RunComparer> comparer;
    // What it was configured with: the runs, the options and the filter's text.
    bool configured = false;
    std::string run_a, run_b;
    CompareOptions options;
    std::string filter_tags, filter_ranks, filter_runs;
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
