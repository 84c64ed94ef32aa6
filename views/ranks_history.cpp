#include "views/ranks_history.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace runtop::ui {

CellDeviation rank_deviation(double value, const CrossRankStats& stats,
                             const CrossRankOptions& options) {
    if (!std::isfinite(value)) return {CellLevel::kNonFinite, 0};
    if (stats.finite < 3) return {};  // no majority to stand out from (core/analysis/cross_rank.h)
    const double limit = std::max(
        {options.k * stats.mad, options.rel_floor * std::fabs(stats.median), options.abs_floor});
    const double off = std::fabs(value - stats.median);
    const double ratio =
        limit > 0 ? off / limit : (off > 0 ? std::numeric_limits<double>::infinity() : 0.0);
    if (ratio > 1) return {CellLevel::kOutlier, ratio};
    if (ratio > 0.5) return {CellLevel::kOff, ratio};
    return {CellLevel::kOk, ratio};
}

std::unordered_map<SeriesId, AnomalyTally> tally_anomalies(const AnomalyLog& log) {
    std::unordered_map<SeriesId, AnomalyTally> out;
    for (const AnomalyRecord& r : log.records()) {
        if (r.series == kNoSeries) continue;
        AnomalyTally& t = out[r.series];
        ++t.count;
        t.alert = t.alert || r.severity == Severity::kAlert;
    }
    return out;
}

std::vector<WorstDeviation> worst_deviations(const Store& store, std::span<const SeriesId> series,
                                             std::int64_t lo, std::int64_t hi, int time_columns) {
    const std::size_t n = series.size();
    if (hi < lo || n == 0) return std::vector<WorstDeviation>(n);
    const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
    const auto k = static_cast<int>(std::min<std::uint64_t>(span, std::max(1, time_columns)));
    std::vector<std::vector<ColumnSummary>> cols(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (series[i] == kNoSeries) continue;
        cols[i].resize(k);
        store.at(series[i]).query(lo, hi + 1, cols[i]);
    }
    return worst_deviations_in(cols, lo, hi);
}

std::vector<WorstDeviation> worst_deviations_in(std::span<const std::vector<ColumnSummary>> cols,
                                                std::int64_t lo, std::int64_t hi) {
    const std::size_t n = cols.size();
    std::vector<WorstDeviation> out(n);
    std::size_t k = 0;
    for (const auto& c : cols) k = std::max(k, c.size());
    if (hi < lo || k == 0) return out;
    const auto columns = static_cast<std::uint64_t>(k);
    CrossRankScratch scratch;
    CrossRankStats stats;
    std::vector<RankValue> values;
    for (std::size_t c = 0; c < k; ++c) {
        const auto at = static_cast<std::uint64_t>(c);
        const std::int64_t from = column_start(lo, hi + 1, columns, at);
        const std::int64_t to = column_start(lo, hi + 1, columns, at + 1) - 1;
        // Maxima, then minima: a spike up and a dip down both count.
        for (const bool maxima : {true, false}) {
            values.clear();
            for (std::size_t i = 0; i < n; ++i) {
                if (cols[i].size() != k) continue;
                const ColumnSummary& s = cols[i][c];
                if (s.nan + s.pos_inf + s.neg_inf > 0) out[i].non_finite = true;
                if (s.empty() || !std::isfinite(s.min)) continue;
                values.push_back({static_cast<int>(i), maxima ? s.max : s.min});
            }
            if (values.size() < 3) continue;  // no majority to stand out from
            compute_cross_rank(values, {}, scratch, stats);
            for (const RankValue& v : values) {
                const double ratio = rank_deviation(v.value, stats).ratio;
                WorstDeviation& w = out[static_cast<std::size_t>(v.rank)];
                if (w.any && ratio <= w.ratio) continue;
                w = {true, w.non_finite, ratio, v.value, stats.median, from, to, stats.finite};
            }
        }
    }
    return out;
}

}  // namespace runtop::ui
