// Column summaries (Series::query) as the heatmaps read them: whether a column holds NaN/Inf or
// finite values, and the first step in a span where something holds, narrowed by queries. Shared
// by the rank x step heatmap (views/heatmap_view.h) and the module x step heatmap
// (views/modules_view.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/store/series.h"

namespace runtop::ui {

inline bool non_finite(const ColumnSummary& c) {
    return c.nan + c.pos_inf + c.neg_inf > 0;
}
inline bool has_finite(const ColumnSummary& c) {
    return c.count > c.nan + c.pos_inf + c.neg_inf && std::isfinite(c.min);
}

// The first step in [a, b) whose points satisfy `holds` (a column summary of them), narrowed by
// querying ever smaller spans: 16 parts a round, so a million steps take five rounds. Folded
// points answer for their bucket, which counts at its last step. nullopt when none holds.
template <class Holds>
std::optional<std::int64_t> narrow_to_step(const Series& series, std::int64_t a, std::int64_t b,
                                           Holds holds) {
    constexpr int kParts = 16;
    std::vector<ColumnSummary> parts;
    while (b - a > 1) {
        const int n = static_cast<int>(std::min<std::int64_t>(kParts, b - a));
        parts.assign(n, ColumnSummary{});
        series.query(a, b, parts);
        int hit = -1;
        for (int i = 0; i < n && hit < 0; ++i)
            if (!parts[i].empty() && holds(parts[i])) hit = i;
        if (hit < 0) return std::nullopt;
        if (parts[hit].count == 1) return parts[hit].last_step;
        const std::int64_t lo = column_start(a, b, n, hit), hi = column_start(a, b, n, hit + 1);
        if (lo == a && hi == b) return parts[hit].last_step;  // no narrower split
        a = lo;
        b = hi;
    }
    return a;
}

}  // namespace runtop::ui
