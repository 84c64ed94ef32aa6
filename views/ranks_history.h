// What the ranks table's cells show besides each rank's newest value (`c` cycles them): a
// spike that has passed is invisible among newest values, so a cell can also give the rank's
// worst distance from the median of the ranks over every step, or the anomalies recorded on
// it. Both describe the whole run: the table has no step window of its own.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/analysis/anomaly_log.h"
#include "core/analysis/cross_rank.h"
#include "core/store/store.h"
#include "views/ranks_state.h"

namespace runtop::ui {

// The anomaly records of one series: how many, and the worst severity among them.
struct AnomalyTally {
    std::uint32_t count = 0;
    bool alert = false;
};
std::unordered_map<SeriesId, AnomalyTally> tally_anomalies(const AnomalyLog& log);

// One rank's worst moment against the others: the tag's steps split into `time_columns`, each
// rank's column maximum (and minimum) measured against the median of the ranks' in that column
// (the cross-rank outlier limit of core/analysis/cross_rank.h, as the newest values are).
struct WorstDeviation {
    bool any = false;         // the rank has finite points in a column some others share
    bool non_finite = false;  // a NaN or Inf somewhere
    double ratio = 0;         // |value - median| / the limit; 1 is an outlier
    double value = 0, median = 0;
    std::int64_t from = 0, to = 0;  // the column's steps, inclusive
    CrossRankStats stats;           // of that column
};
// Per entry of `series` (kNoSeries: an empty result), over [lo, hi]; `ratio` measures a value
// against a column's statistics (the ranks view's rank_deviation).
using DeviationRatio = double (*)(double value, const CrossRankStats& stats);
std::vector<WorstDeviation> worst_deviations(const Store& store, std::span<const SeriesId> series,
                                             std::int64_t lo, std::int64_t hi, int time_columns,
                                             DeviationRatio ratio);

}  // namespace runtop::ui
