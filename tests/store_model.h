// A plain model of one series for the Store's tests: every point after restart semantics, in
// a vector, and brute-force statistics over it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/series_key.h"

namespace runtop::testing {

struct ModelSeries {
    std::vector<Point> points;

    void append(const Point& p) {
        while (!points.empty() && points.back().step >= p.step) points.pop_back();
        points.push_back(p);
    }
    // Points with step in [lo, hi].
    std::pair<std::size_t, std::size_t> range(std::int64_t lo, std::int64_t hi) const {
        auto first = std::lower_bound(points.begin(), points.end(), lo,
                                      [](const Point& p, std::int64_t s) { return p.step < s; });
        auto last = std::upper_bound(points.begin(), points.end(), hi,
                                     [](std::int64_t s, const Point& p) { return s < p.step; });
        return {static_cast<std::size_t>(first - points.begin()),
                static_cast<std::size_t>(last - points.begin())};
    }
};

struct Stats {
    std::uint64_t count = 0, nan = 0, pos_inf = 0, neg_inf = 0;
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    double sum = 0;
    void add(double v) {
        ++count;
        if (std::isnan(v))
            ++nan;
        else if (std::isinf(v))
            ++(v > 0 ? pos_inf : neg_inf);
        else {
            min = std::min(min, v);
            max = std::max(max, v);
            sum += v;
        }
    }
};

}  // namespace runtop::testing
