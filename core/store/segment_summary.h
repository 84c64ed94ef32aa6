// What the Store keeps of every run of points it no longer needs point by point: extremes,
// sum, counts of NaN and infinities, first and last. Each sealed chunk has one (so a query
// crossing it reads 104 bytes, not 128 points), a folded chunk is nothing but its summary (a
// bucket), and merging two adjacent summaries is exact for every field, so however often
// buckets are merged no extreme and no NaN is ever lost.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace runtop {

struct SegmentSummary {
    std::int64_t first_step = 0;
    std::int64_t last_step = 0;
    double first_wall = 0;
    double last_wall = 0;
    // Over finite values only; +inf / -inf while there is none.
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    double sum = 0;  // finite values
    double first_value = 0;
    double last_value = 0;
    std::uint64_t count : 56 = 0;  // every point, NaN and infinities included
    // How many times buckets were merged into this one (0: one chunk's worth of points).
    std::uint64_t level : 7 = 0;
    // The steps are evenly spaced (consecutive steps, or a job logging every N): then a
    // restart that cuts the bucket knows exactly how many points it drops.
    std::uint64_t even : 1 = 0;
    std::uint64_t nan = 0;
    std::uint64_t pos_inf = 0;
    std::uint64_t neg_inf = 0;

    // Saturating: after clip_before() the NaN and infinity counts are upper bounds each.
    std::uint64_t finite() const {
        const std::uint64_t other = nan + pos_inf + neg_inf;
        return count > other ? count - other : 0;
    }
    // The distance between steps of an even summary of two points or more.
    std::uint64_t stride() const {
        return count < 2 ? 0
                         : (static_cast<std::uint64_t>(last_step) -
                            static_cast<std::uint64_t>(first_step)) /
                               (count - 1);
    }

    // Adds one point's value to the statistics (not to first/last, which the caller sets).
    void add_value(double v) {
        if (std::isfinite(v)) {
            min = std::min(min, v);
            max = std::max(max, v);
            sum += v;
        } else if (std::isnan(v)) {
            ++nan;
        } else if (v > 0) {
            ++pos_inf;
        } else {
            ++neg_inf;
        }
        ++count;
    }
    // Adds another summary's statistics: extremes, sum and counts (not steps, walls, first/last).
    void add_statistics(const SegmentSummary& o) {
        min = std::min(min, o.min);
        max = std::max(max, o.max);
        sum += o.sum;
        count += o.count;
        nan += o.nan;
        pos_inf += o.pos_inf;
        neg_inf += o.neg_inf;
    }
    // Undoes add_value for a count and sum (not min/max: an extreme cannot be taken back).
    void remove_value(double v) {
        if (std::isfinite(v))
            sum -= v;
        else if (std::isnan(v))
            nan -= nan > 0;
        else if (v > 0)
            pos_inf -= pos_inf > 0;
        else
            neg_inf -= neg_inf > 0;
        --count;
    }

    // Forgets the points at or after `step` (first_step < step <= last_step): a restart cut
    // into folded data. Nothing says which values those points had, so the extremes, sum and
    // last value stay as they were (an extreme is never lost; at worst one that was replaced
    // is still shown) and the NaN and infinity counts become upper bounds (capped at the
    // count). Evenly spaced steps say exactly which points go: count and last step stay exact;
    // otherwise the last step becomes step - 1 and the count an upper bound.
    void clip_before(std::int64_t step) {
        if (even && count >= 2) {
            const std::uint64_t d = stride();
            const std::uint64_t kept =
                (static_cast<std::uint64_t>(step) - 1 - static_cast<std::uint64_t>(first_step)) /
                    d +
                1;
            last_step =
                static_cast<std::int64_t>(static_cast<std::uint64_t>(first_step) + (kept - 1) * d);
            count = kept;
        } else {
            last_step = step - 1;
        }
        nan = std::min<std::uint64_t>(nan, count);
        pos_inf = std::min<std::uint64_t>(pos_inf, count);
        neg_inf = std::min<std::uint64_t>(neg_inf, count);
    }
};

// A summary of n >= 1 points in step order with only its first and last set: the statistics
// are the caller's to add.
inline SegmentSummary summary_ends(const std::int64_t* steps, const double* walls,
                                   const double* values, std::size_t n) {
    SegmentSummary s;
    s.first_step = steps[0];
    s.last_step = steps[n - 1];
    s.first_wall = walls[0];
    s.last_wall = walls[n - 1];
    s.first_value = values[0];
    s.last_value = values[n - 1];
    return s;
}

// The summary of n >= 1 points in step order (a bucket made straight from plain points).
inline SegmentSummary summarize(const std::int64_t* steps, const double* walls,
                                const double* values, std::size_t n) {
    SegmentSummary s = summary_ends(steps, walls, values, n);
    bool even = true;
    for (std::size_t i = 0; i < n; ++i) {
        s.add_value(values[i]);
        if (i >= 2 && steps[i] - steps[i - 1] != steps[1] - steps[0]) even = false;
    }
    s.even = even;
    return s;
}

// `later` follows `earlier` in step order; the result covers both.
inline SegmentSummary merged(const SegmentSummary& earlier, const SegmentSummary& later) {
    SegmentSummary s = earlier;
    s.last_step = later.last_step;
    s.last_wall = later.last_wall;
    s.last_value = later.last_value;
    s.add_statistics(later);
    s.level = std::min<std::uint64_t>(std::max(earlier.level, later.level) + 1, 127);
    // Still evenly spaced if both are, with one stride, and the gap between them is that too
    // (a single point fits any stride).
    const std::uint64_t gap = static_cast<std::uint64_t>(later.first_step) -
                              static_cast<std::uint64_t>(earlier.last_step);
    const std::uint64_t stride = earlier.count >= 2 ? earlier.stride() : later.stride();
    s.even = earlier.even && later.even && (stride == 0 || gap == stride) &&
             (earlier.count < 2 || later.count < 2 || earlier.stride() == later.stride());
    return s;
}

}  // namespace runtop
