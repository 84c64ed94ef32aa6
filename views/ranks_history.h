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

// How far a rank's value is from the median of the ranks: the cross-rank outlier limit of
// core/analysis/cross_rank.h, max(5 MAD, 5% of |median|); beyond it an outlier, beyond half of
// it "off". Fewer than 3 finite ranks have no majority to stand out from: every value is kOk.
enum class CellLevel { kOk, kOff, kOutlier, kNonFinite };
struct CellDeviation {
    CellLevel level = CellLevel::kOk;
    double ratio = 0;  // |value - median| / the outlier limit (inf when the limit is 0)
};
CellDeviation rank_deviation(double value, const CrossRankStats& stats,
                             const CrossRankOptions& options = {});

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
    int ranks = 0;                  // finite ranks in that column (the median's)
};
// Per entry of `series` (kNoSeries: an empty result), over [lo, hi]; a value is measured against
// its column's statistics by rank_deviation.
std::vector<WorstDeviation> worst_deviations(const Store& store, std::span<const SeriesId> series,
                                             std::int64_t lo, std::int64_t hi, int time_columns);
// The same over columns already queried: per rank, its columns of [lo, hi] as Series::query
// split them (all of one count; empty: the rank has no series). The heatmap judges its own
// cells' columns so.
std::vector<WorstDeviation> worst_deviations_in(std::span<const std::vector<ColumnSummary>> cols,
                                                std::int64_t lo, std::int64_t hi);

}  // namespace runtop::ui
