#include "views/ranks_history.h"

#include <cmath>

namespace runtop::ui {

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
                                             std::int64_t lo, std::int64_t hi, int time_columns,
                                             DeviationRatio ratio_of) {
    const std::size_t n = series.size();
    std::vector<WorstDeviation> out(n);
    if (hi < lo || n == 0) return out;
    const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
    const auto k = static_cast<int>(std::min<std::uint64_t>(span, std::max(1, time_columns)));
    const auto columns = static_cast<std::uint64_t>(k);
    std::vector<std::vector<ColumnSummary>> cols(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (series[i] == kNoSeries) continue;
        cols[i].resize(k);
        store.at(series[i]).query(lo, hi + 1, cols[i]);
    }
    CrossRankScratch scratch;
    CrossRankStats stats;
    std::vector<RankValue> values;
    for (int c = 0; c < k; ++c) {
        const auto at = static_cast<std::uint64_t>(c);
        const std::int64_t from = column_start(lo, hi + 1, columns, at);
        const std::int64_t to = column_start(lo, hi + 1, columns, at + 1) - 1;
        // Maxima, then minima: a spike up and a dip down both count.
        for (const bool maxima : {true, false}) {
            values.clear();
            for (std::size_t i = 0; i < n; ++i) {
                if (cols[i].empty()) continue;
                const ColumnSummary& s = cols[i][c];
                if (s.nan + s.pos_inf + s.neg_inf > 0) out[i].non_finite = true;
                if (s.empty() || !std::isfinite(s.min)) continue;
                values.push_back({static_cast<int>(i), maxima ? s.max : s.min});
            }
            if (values.size() < 3) continue;  // no majority to stand out from
            compute_cross_rank(values, {}, scratch, stats);
            for (const RankValue& v : values) {
                const double ratio = ratio_of(v.value, stats);
                WorstDeviation& w = out[static_cast<std::size_t>(v.rank)];
                if (w.any && ratio <= w.ratio) continue;
                w = {true, w.non_finite, ratio, v.value, stats.median, from, to, stats};
            }
        }
    }
    return out;
}

}  // namespace runtop::ui
