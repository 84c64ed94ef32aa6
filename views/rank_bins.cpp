#include "views/rank_bins.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace runtop::ui {
namespace {

// An outlier's score is beyond this many times the median rank's.
constexpr double kTypicalTimes = 3.0;

}  // namespace

double rank_outlier_score(const WorstDeviation& worst) {
    if (worst.non_finite) return std::numeric_limits<double>::infinity();
    return worst.any ? worst.ratio : 0.0;
}

std::vector<RankRow> rank_rows(std::span<const double> scores, const RankRowsOptions& options) {
    const int n = static_cast<int>(scores.size());
    const int room = std::max(1, options.room);
    // Off its peers (above 1), and well above how off a rank typically is: with noisy ranks
    // every rank crosses the limit in some column of a long run, and then only the ones far
    // beyond the others' worst stand out.
    std::vector<double> finite;
    for (double s : scores)
        if (std::isfinite(s)) finite.push_back(s);
    double typical = 0;
    if (!finite.empty()) {
        auto mid = finite.begin() + static_cast<std::ptrdiff_t>(finite.size() / 2);
        std::nth_element(finite.begin(), mid, finite.end());
        typical = *mid;
    }
    const double limit = std::max(1.0, kTypicalTimes * typical);
    auto outlier = [&](int i) { return scores[i] > limit; };
    std::vector<RankRow> rows;
    std::vector<RankRow> apart;  // outlier rows, when they go first
    auto own_row = [&](int i) { return RankRow{{i}, outlier(i), outlier(i) ? scores[i] : 0.0}; };
    if (n <= room || !options.binned) {
        for (int i = 0; i < n; ++i)
            (options.outliers_first && outlier(i) ? apart : rows).push_back(own_row(i));
    } else {
        int outliers = 0;
        for (int i = 0; i < n; ++i) outliers += outlier(i);
        const int bins = std::max(1, room - outliers);
        int size = (n + bins - 1) / bins;
        const int node = std::max(1, options.per_node);
        if (size > node)
            size = (size + node - 1) / node * node;
        else
            while (node % size != 0) ++size;  // a bin never straddles two nodes
        for (int from = 0; from < n; from += size) {
            const int to = std::min(n, from + size);
            RankRow bin;
            std::vector<RankRow> inside;
            for (int i = from; i < to; ++i) {
                if (outlier(i))
                    (options.outliers_first ? apart : inside).push_back(own_row(i));
                else
                    bin.members.push_back(i);
            }
            if (!bin.members.empty()) rows.push_back(std::move(bin));
            for (RankRow& r : inside) rows.push_back(std::move(r));
        }
    }
    // Worst first; a NaN (infinite score) before any finite distance; ties in rank order.
    std::stable_sort(apart.begin(), apart.end(),
                     [](const RankRow& a, const RankRow& b) { return a.score > b.score; });
    apart.insert(apart.end(), std::make_move_iterator(rows.begin()),
                 std::make_move_iterator(rows.end()));
    return apart;
}

std::string rank_rows_note(const RankRowsOptions& options, int ranks, int rows, int binned,
                           int outliers) {
    std::string note;
    if (!options.binned)
        note = fmt::format("a row per rank ({} rows; b: bins)", ranks);
    else if (binned > 0)
        note = fmt::format(
            "{} ranks in {} rows: neighbours binned, outliers apart (b: a row per rank)", ranks,
            rows);
    else
        note = fmt::format("every rank fits: a row each ({})", ranks);
    if (options.outliers_first)
        note += outliers > 0
                    ? fmt::format(", {} outlier{} on top", outliers, outliers == 1 ? "" : "s")
                    : ", no outlier to put on top";
    else
        note += ", in rank order";
    return note;
}

const std::vector<std::vector<ColumnSummary>>& ColumnsCache::get(const Store& store,
                                                                 std::span<const SeriesId> series,
                                                                 std::int64_t lo, std::int64_t hi,
                                                                 int columns) {
    if (store_ == &store && points_ == store.total_points() && lo_ == lo && hi_ == hi &&
        columns_ == columns &&
        std::equal(series.begin(), series.end(), series_.begin(), series_.end()))
        return cols_;
    judged_ = false;
    store_ = &store;
    points_ = store.total_points();
    lo_ = lo;
    hi_ = hi;
    columns_ = columns;
    series_.assign(series.begin(), series.end());
    cols_.resize(series.size());
    for (std::size_t i = 0; i < series.size(); ++i) {
        cols_[i].clear();
        if (series[i] == kNoSeries) continue;
        cols_[i].resize(columns);
        store.at(series[i]).query(lo, hi + 1, cols_[i]);
    }
    return cols_;
}

const std::vector<double>& ColumnsCache::scores() {
    if (judged_) return scores_;
    const std::vector<WorstDeviation> worst = worst_deviations_in(cols_, lo_, hi_);
    scores_.resize(worst.size());
    for (std::size_t i = 0; i < worst.size(); ++i) scores_[i] = rank_outlier_score(worst[i]);
    judged_ = true;
    return scores_;
}

}  // namespace runtop::ui
