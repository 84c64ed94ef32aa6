// Rows of ranks when there are more than the screen holds (1,024 ranks on 60 rows): neighbours
// share a row, a bin showing what its members span, and a rank off its peers keeps a row of its
// own, so binning never hides the rank that went wrong. The ranks view's sparklines and the
// heatmap lay out their rows so.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/store/store.h"
#include "views/ranks_history.h"

namespace runtop::ui {

struct RankRow {
    std::vector<int> members;  // indices into the ranks, ascending; one for a rank's own row
    bool outlier = false;      // a rank off its peers (its own row, whatever the binning)
    double score = 0;          // the outlier's worst ratio (rank_outlier_score)

    bool bin() const { return members.size() > 1; }
};

struct RankRowsOptions {
    int room = 1;                 // rows the screen holds for them
    int per_node = 8;             // bins hold whole nodes once they hold more than one
    bool binned = true;           // false: a row per rank, paged
    bool outliers_first = false;  // outliers on top, worst first; else everything in rank order
};

// How far a rank is off its peers at its worst, for rank_rows: its ratio to the cross-rank
// outlier limit (above 1: an outlier), infinity when it holds a NaN or Inf.
double rank_outlier_score(const WorstDeviation& worst);

// The rows for ranks with these scores (one per rank, in rank order). An outlier scores above 1
// and above 3 times the median rank's score (so among noisy ranks, that all cross the limit
// somewhere, only the ones far beyond stand out); a NaN/Inf (infinite) always. A row per rank
// when they fit in `room` (or binning is off). Else the outliers keep rows of their own and the
// others fill the rest in bins of neighbours: ceil(ranks / bins) ranks each, rounded up to whole
// nodes past one node or to a divisor of a node's ranks below it (a bin never straddles two
// nodes), an outlier's row right after the bin its rank falls in. More outliers than
// the room still each get a row (the rows then page).
std::vector<RankRow> rank_rows(std::span<const double> scores, const RankRowsOptions& options);

// The note `b` or `o` leaves in the heatmap and the rank sparklines: what the rows of `ranks`
// ranks are now (`rows` of them, `binned` ranks in bins, `outliers` apart).
std::string rank_rows_note(const RankRowsOptions& options, int ranks, int rows, int binned,
                           int outliers);

// Every series of a list queried over [lo, hi] in `columns` columns, kept while the store's
// points, the list and the columns stay the same: a key on a binned view of 1,024 ranks then
// costs no query. Each view keeps its own (one thread_local each).
class ColumnsCache {
  public:
    // Per entry of `series` (kNoSeries: empty), its columns.
    const std::vector<std::vector<ColumnSummary>>& get(const Store& store,
                                                       std::span<const SeriesId> series,
                                                       std::int64_t lo, std::int64_t hi,
                                                       int columns);
    // Per entry, rank_outlier_score over the columns get() last gave (worst_deviations_in),
    // judged once per get() that queried.
    const std::vector<double>& scores();

  private:
    std::vector<double> scores_;
    bool judged_ = false;
    const Store* store_ = nullptr;
    std::vector<SeriesId> series_;
    std::uint64_t points_ = 0;
    std::int64_t lo_ = 0, hi_ = -1;
    int columns_ = 0;
    std::vector<std::vector<ColumnSummary>> cols_;
};

}  // namespace runtop::ui
