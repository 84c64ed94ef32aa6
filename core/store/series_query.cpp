// Series::query: per-column summaries of a step range from the segment summaries and their
// pyramid, decoding points only where a column's edge cuts a sealed chunk, and in the tail.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/store/series.h"

namespace runtop {

struct Series::Accumulator {
    explicit Accumulator(QueryWork* w) : work(w) {}

    QueryWork* work;
    // Extremes, sum and counts as a summary keeps them; last_value/last_step: the column's last.
    SegmentSummary stats;
    std::uint64_t folded = 0;

    // Points and segments arrive in step order: the last one added is the column's last.
    void add(std::int64_t step, double v) {
        stats.add_value(v);
        stats.last_value = v;
        stats.last_step = step;
        if (work) ++work->points;
    }
    void add(const SegmentSummary& s, bool is_folded) {
        stats.add_statistics(s);
        if (is_folded) folded += s.count;
        stats.last_value = s.last_value;
        stats.last_step = s.last_step;
        if (work) ++work->summaries;
    }
    void finish(ColumnSummary& out) const {
        out = ColumnSummary{};
        out.count = stats.count;
        out.nan = stats.nan;
        out.pos_inf = stats.pos_inf;
        out.neg_inf = stats.neg_inf;
        out.folded = folded;
        // Saturating: a bucket a restart cut into has upper bounds for NaN and infinities.
        const std::uint64_t finite = stats.finite();
        const double none = std::numeric_limits<double>::quiet_NaN();
        out.min = finite ? stats.min : none;
        out.max = finite ? stats.max : none;
        out.mean = finite ? stats.sum / static_cast<double>(finite) : none;
        out.last = stats.count ? stats.last_value : none;
        out.last_step = stats.last_step;
    }
};

void Series::query(std::int64_t step_lo, std::int64_t step_hi, std::span<ColumnSummary> out,
                   QueryWork* work, bool snap, QueryPath path) const {
    for (ColumnSummary& c : out) c = ColumnSummary{};
    const std::size_t n = out.size();
    if (n == 0 || step_hi <= step_lo || count_ == 0) return;
    const std::uint64_t width =
        static_cast<std::uint64_t>(step_hi) - static_cast<std::uint64_t>(step_lo);
    auto edge = [&](std::size_t c) { return column_start(step_lo, step_hi, n, c); };
    const SummaryBuffer& s = summaries_;
    if (path == QueryPath::kAuto)
        path = folded_ + retained() <= n * 24 ? QueryPath::kLinear : QueryPath::kSummaries;
    if (path == QueryPath::kLinear) {
        // Columns this narrow hold under a chunk each: nothing for snapping to move.
        query_linear(step_lo, step_hi, out, work, edge);
        return;
    }
    auto snapped = [&](std::int64_t e, std::int64_t prev) {
        auto ends_before = [](const SegmentSummary& seg, std::int64_t x) {
            return seg.last_step < x;
        };
        const auto j = static_cast<std::size_t>(
            std::lower_bound(s.begin(), s.end(), e, ends_before) - s.begin());
        if (j >= s.size() || j < folded_ || s[j].first_step >= e) return e;  // no chunk cut
        const std::int64_t first = s[j].first_step, end = s[j].last_step + 1;
        // Only where the chunk is at most a column wide: a point moves half a column at most.
        if (static_cast<std::uint64_t>(end - first) * n > width) return e;
        const std::int64_t to = e - first <= end - e ? first : end;
        return std::clamp(to, prev, step_hi);
    };
    std::int64_t a = step_lo;
    for (std::size_t c = 0; c < n; ++c) {
        std::int64_t b = c + 1 == n ? step_hi : edge(c + 1);
        if (snap && c + 1 < n) b = snapped(b, a);
        if (a == b) continue;  // a range narrower than the columns: this one is empty
        Accumulator acc(work);
        accumulate(a, b, c + 1 == n, acc);
        acc.finish(out[c]);
        a = b;
    }
}

// One pass in step order: a bucket counts whole in the column holding its last step (the last
// column when it ends past the range), as in accumulate(); points in the column of their step.
template <class Edge>
void Series::query_linear(std::int64_t step_lo, std::int64_t step_hi, std::span<ColumnSummary> out,
                          QueryWork* work, Edge edge) const {
    const std::size_t n = out.size();
    std::size_t c = 0;
    std::int64_t next = n == 1 ? step_hi : edge(1);  // where column c ends
    Accumulator acc(work);
    auto column_of = [&](std::int64_t step) {  // finishes the columns before step's
        while (step >= next && c + 1 < n) {
            acc.finish(out[c]);
            acc = Accumulator(work);
            ++c;
            next = c + 1 == n ? step_hi : edge(c + 1);
        }
    };
    const SummaryBuffer& s = summaries_;
    auto ends_before = [](const SegmentSummary& seg, std::int64_t x) { return seg.last_step < x; };
    std::size_t j = static_cast<std::size_t>(
        std::lower_bound(s.begin(), s.end(), step_lo, ends_before) - s.begin());
    bool done = false;
    for (; j < s.size() && !done && s[j].first_step < step_hi; ++j) {
        if (j < folded_) {
            column_of(std::min(s[j].last_step, step_hi - 1));
            acc.add(s[j], true);
            continue;
        }
        const SealedChunk& chunk = sealed_[sealed_head_ + (j - folded_)];
        for (std::size_t k = 0; k < kChunk; ++k) {
            const std::int64_t step = chunk.step(k);
            if (step < step_lo) continue;
            if (step >= step_hi) {
                done = true;
                break;
            }
            column_of(step);
            acc.add(step, chunk.value(k));
        }
    }
    const std::int64_t* t = std::lower_bound(tail_steps(), tail_steps() + tail_len_, step_lo);
    for (const std::int64_t* end = tail_steps() + tail_len_; t < end && *t < step_hi; ++t) {
        column_of(*t);
        acc.add(*t, tail_values()[t - tail_steps()]);
    }
    acc.finish(out[c]);
    for (++c; c < n; ++c) Accumulator(work).finish(out[c]);
}

void Series::accumulate(std::int64_t a, std::int64_t b, bool last_column, Accumulator& acc) const {
    const SummaryBuffer& s = summaries_;
    auto ends_before = [](const SegmentSummary& seg, std::int64_t x) { return seg.last_step < x; };
    // Segments [j0, j1) end inside the column; j0 may start before it.
    const auto j0 =
        static_cast<std::size_t>(std::lower_bound(s.begin(), s.end(), a, ends_before) - s.begin());
    const auto j1 = static_cast<std::size_t>(
        std::lower_bound(s.begin() + static_cast<std::ptrdiff_t>(j0), s.end(), b, ends_before) -
        s.begin());
    std::size_t i = j0;
    if (i < j1 && s[i].first_step < a) {
        if (i < folded_)
            acc.add(s[i], true);  // a bucket counts whole where its last step is
        else
            add_chunk_points(i, a, b, acc);
        ++i;
    }
    if (i < j1) {  // wholly inside: summaries, buckets apart so `folded` stays exact
        const std::size_t split = std::clamp<std::size_t>(folded_, i, j1);
        if (i < split) combine(0, i, split, true, acc);
        if (split < j1) combine(0, split, j1, false, acc);
    }
    if (j1 < s.size() && s[j1].first_step < b) {  // the segment the column's end cuts
        if (j1 >= folded_)
            add_chunk_points(j1, a, b, acc);
        else if (last_column)
            acc.add(s[j1], true);  // ends past the range: counts in its last column
    }
    const std::int64_t* t = std::lower_bound(tail_steps(), tail_steps() + tail_len_, a);
    for (const std::int64_t* end = tail_steps() + tail_len_; t < end && *t < b; ++t) {
        const std::size_t k = static_cast<std::size_t>(t - tail_steps());
        acc.add(*t, tail_values()[k]);
    }
}

// Items [from, to) of pyramid level `level` (0: the segments themselves), all buckets or all
// sealed chunks: whole groups of 16 from the level above, the ragged ends item by item.
void Series::combine(std::size_t level, std::size_t from, std::size_t to, bool folded,
                     Accumulator& acc) const {
    const SummaryBuffer& items = level == 0 ? summaries_ : levels()[level - 1];
    if (level < levels().size()) {
        const std::size_t g0 = (from + kGroup - 1) / kGroup;
        const std::size_t g1 = std::min(to / kGroup, levels()[level].size());
        if (g0 < g1) {
            for (std::size_t i = from; i < g0 * kGroup; ++i) acc.add(items[i], folded);
            combine(level + 1, g0, g1, folded, acc);
            for (std::size_t i = g1 * kGroup; i < to; ++i) acc.add(items[i], folded);
            return;
        }
    }
    for (std::size_t i = from; i < to; ++i) acc.add(items[i], folded);
}

void Series::add_chunk_points(std::size_t segment, std::int64_t a, std::int64_t b,
                              Accumulator& acc) const {
    const SealedChunk& chunk = sealed_[sealed_head_ + (segment - folded_)];
    std::size_t lo = 0, hi = kChunk;  // the first point at or after a
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (chunk.step(mid) < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (std::size_t k = lo; k < kChunk; ++k) {
        const std::int64_t step = chunk.step(k);
        if (step >= b) break;
        acc.add(step, chunk.value(k));
    }
}

void merge_into(ColumnSummary& into, const ColumnSummary& c) {
    if (c.empty()) return;
    const std::uint64_t finite_into = into.count - into.nan - into.pos_inf - into.neg_inf;
    const std::uint64_t finite_c = c.count - c.nan - c.pos_inf - c.neg_inf;
    if (finite_c > 0) {
        if (finite_into == 0) {
            into.min = c.min;
            into.max = c.max;
            into.mean = c.mean;
        } else {
            into.min = std::min(into.min, c.min);
            into.max = std::max(into.max, c.max);
            into.mean = (into.mean * static_cast<double>(finite_into) +
                         c.mean * static_cast<double>(finite_c)) /
                        static_cast<double>(finite_into + finite_c);
        }
    } else if (finite_into == 0) {
        into.min = into.max = into.mean = std::numeric_limits<double>::quiet_NaN();
    }
    if (into.empty() || c.last_step >= into.last_step) {
        into.last = c.last;
        into.last_step = c.last_step;
    }
    into.count += c.count;
    into.nan += c.nan;
    into.pos_inf += c.pos_inf;
    into.neg_inf += c.neg_inf;
    into.folded += c.folded;
}

}  // namespace runtop
