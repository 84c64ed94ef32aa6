// Finding a chart's points in a Series (the detail chart and its compare mode): binary searches
// over the full-resolution points, which are kept in step order (and so, for the searches by
// wall time used here, in wall-time order), and how far back an EMA must start to be exact.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "core/store/series.h"

namespace runtop::ui {

// Index of the first retained point for which `before` is false.
template <class Before>
std::size_t first_point_not(const Series& s, Before before) {
    std::size_t a = 0, b = s.retained();
    while (a < b) {
        const std::size_t m = a + (b - a) / 2;
        if (before(s.point(m)))
            a = m + 1;
        else
            b = m;
    }
    return a;
}

// Index of the first retained point with step >= `step`.
inline std::size_t lower_index(const Series& s, std::int64_t step) {
    return first_point_not(s, [step](const Point& p) { return p.step < step; });
}

// The retained point at `step`, if any.
inline std::optional<std::size_t> index_at(const Series& s, std::int64_t step) {
    const std::size_t i = lower_index(s, step);
    if (i < s.retained() && s.point(i).step == step) return i;
    return std::nullopt;
}

// The retained point nearest `step` (ties: the earlier), if any.
inline std::optional<std::size_t> nearest_index(const Series& s, std::int64_t step) {
    const std::size_t n = s.retained();
    if (n == 0) return std::nullopt;
    const std::size_t i = lower_index(s, step);
    if (i < n && s.point(i).step == step) return i;
    if (i == 0) return i;
    if (i == n) return n - 1;
    const std::int64_t before = step - s.point(i - 1).step, after = s.point(i).step - step;
    return after < before ? i : i - 1;
}

// The retained point at `step`, else the last one before it.
inline std::optional<std::size_t> at_or_before(const Series& s, std::int64_t step) {
    const std::size_t i = lower_index(s, step);
    if (i < s.retained() && s.point(i).step == step) return i;
    if (i == 0) return std::nullopt;
    return i - 1;
}

// How many points before a window the EMA starts from: w^k below 1e-9.
inline std::size_t ema_warmup(double w) {
    if (!(w > 0)) return 0;
    if (w >= 1) return std::numeric_limits<std::size_t>::max();
    return static_cast<std::size_t>(std::min(1e7, std::ceil(std::log(1e-9) / std::log(w))));
}

}  // namespace runtop::ui
