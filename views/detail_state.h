// What the detail chart (views/detail_view.h) keeps between keys, and its compare mode's
// settings (drawn by views/compare/compare_chart.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/compare/run_compare.h"
#include "views/model.h"

namespace runtop::ui {

enum class XAxis { kStep, kRelative, kWall };

// The detail chart's compare mode (Enter in the compare view): one tag of two runs overlaid,
// a Δ strip (B − A) below, the cursor reading out both values.
struct CompareDetail {
    std::string run_a, run_b;
    int rank = kNoRank;  // the rank compared (per-rank); ignored with `mean`
    bool mean = false;   // each run's cross-rank mean at each step instead of one rank
    CompareAlign align = CompareAlign::kStep;
    double tolerance = 1e-6;  // relative: where the first divergence is marked
    bool operator==(const CompareDetail&) const = default;
};

struct DetailState {
    std::string tag;
    std::optional<RunRank> focus;  // the series drawn in front and read by the cursor
    // The x window in steps; nullopt = every step (and, following, the newest as they come).
    std::optional<std::int64_t> window_lo, window_hi;
    std::optional<std::int64_t> cursor;  // the cursor's step; nullopt = the newest point
    XAxis x_axis = XAxis::kStep;
    bool log_y = false;
    bool clip_outliers = false;  // y-range from the 1st-99th percentile; clipped points marked
    double smoothing = 0.6;      // TensorBoard's EMA weight, 0 = raw only
    // Set: the chart compares two runs (open_compare_detail); `focus` is then unused.
    std::optional<CompareDetail> compare;
};

}  // namespace runtop::ui
