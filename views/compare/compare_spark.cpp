#include "views/compare/compare_spark.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace runtop::ui {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The series of `run` the row draws: the head pair's rank, or every rank (kMean).
std::vector<const Series*> side_series(const ViewModel& model, const CompareRows& rows,
                                       const TagComparison& tag, const std::string& run) {
    std::vector<const Series*> out;
    const TagGroup* group = model.group(tag.tag);
    if (!group || tag.compared == 0) return out;
    const bool mean = rows.options.ranks == CompareRanks::kMean;
    for (SeriesId id : group->series) {
        const Series& s = model.store().at(id);
        if (s.key().run != run || s.empty()) continue;
        if (mean || s.key().rank == tag.head.rank) out.push_back(&s);
    }
    return out;
}

struct Span {
    bool any = false;
    std::int64_t lo = 0, hi = 0;
};
Span span_of(const std::vector<const Series*>& series) {
    Span s;
    for (const Series* x : series) {
        s.lo = s.any ? std::min(s.lo, x->first_step()) : x->first_step();
        s.hi = s.any ? std::max(s.hi, x->last_step()) : x->last_step();
        s.any = true;
    }
    return s;
}

// One run's columns over [lo, hi]: its one series, or per column the mean over its ranks of
// their minima and of their maxima (NaN/Inf counts summed, so a non-finite rank still shows).
std::vector<ColumnSummary> side_columns(const std::vector<const Series*>& series, Span span,
                                        int columns) {
    std::vector<ColumnSummary> out(columns);
    if (!span.any || columns <= 0) return out;
    if (series.size() == 1) {
        series[0]->query(span.lo, span.hi + 1, out, nullptr, true);
        return out;
    }
    std::vector<ColumnSummary> one(columns);
    std::vector<double> min_sum(columns, 0), max_sum(columns, 0), mean_sum(columns, 0);
    std::vector<int> finite(columns, 0);
    for (const Series* s : series) {
        std::fill(one.begin(), one.end(), ColumnSummary{});
        s->query(span.lo, span.hi + 1, one, nullptr, true);
        for (int c = 0; c < columns; ++c) {
            const ColumnSummary& x = one[c];
            ColumnSummary& o = out[c];
            o.count += x.count;
            o.nan += x.nan;
            o.pos_inf += x.pos_inf;
            o.neg_inf += x.neg_inf;
            if (x.count == 0 || !std::isfinite(x.min) || !std::isfinite(x.max)) continue;
            min_sum[c] += x.min;
            max_sum[c] += x.max;
            mean_sum[c] += x.mean;
            ++finite[c];
        }
    }
    for (int c = 0; c < columns; ++c) {
        ColumnSummary& o = out[c];
        const double n = finite[c];
        o.min = finite[c] ? min_sum[c] / n : kNaN;
        o.max = finite[c] ? max_sum[c] / n : kNaN;
        o.mean = finite[c] ? mean_sum[c] / n : kNaN;
    }
    return out;
}

// The column of `step` in `columns` columns over [lo, hi] (Series::query's split).
int column_of(std::int64_t step, std::int64_t lo, std::int64_t hi, int columns) {
    if (step < lo || step > hi || columns <= 0) return -1;
    const auto span = static_cast<__int128>(hi) + 1 - lo;
    auto edge = [&](int c) { return static_cast<__int128>(lo) + span * c / columns; };
    int c = static_cast<int>((static_cast<__int128>(step) - lo) * columns / span);
    c = std::clamp(c, 0, columns - 1);
    while (c + 1 < columns && edge(c + 1) <= step) ++c;
    while (c > 0 && edge(c) > step) --c;
    return c;
}

// Changes whenever a series drawn gains, replaces or loses points.
std::uint64_t signature(const std::vector<const Series*>& series) {
    std::uint64_t h = 1469598103934665603ULL;
    for (const Series* s : series) {
        for (std::uint64_t v : {s->received(), s->count(), s->restart_count(),
                                static_cast<std::uint64_t>(s->key().rank)}) {
            h ^= v;
            h *= 1099511628211ULL;
        }
    }
    return h;
}

// Braille dot bits of the left and right dot columns at dot row r (0 bottom .. 3 top).
constexpr unsigned kLeft[4] = {0x40, 0x04, 0x02, 0x01};
constexpr unsigned kRight[4] = {0x80, 0x20, 0x10, 0x08};

}  // namespace

int compare_spark_columns(int cells, GlyphTier tier) {
    if (cells <= 0) return 0;
    return tier == GlyphTier::kBraille ? cells : cells / 2;
}

SparkColumns query_compare_spark(const ViewModel& model, const CompareRows& rows,
                                 const TagComparison& tag, int columns) {
    SparkColumns out;
    const std::vector<const Series*> a = side_series(model, rows, tag, rows.run_a);
    const std::vector<const Series*> b = side_series(model, rows, tag, rows.run_b);
    Span sa = span_of(a), sb = span_of(b);
    out.any = sa.any || sb.any;
    if (!out.any || columns <= 0) return out;
    if (rows.options.align == CompareAlign::kStep) {
        // The steps both have; when they do not overlap, every step either has.
        Span common{true, std::max(sa.lo, sb.lo), std::min(sa.hi, sb.hi)};
        if (!sa.any || !sb.any || common.lo > common.hi)
            common = {true, std::min(sa.any ? sa.lo : sb.lo, sb.any ? sb.lo : sa.lo),
                      std::max(sa.any ? sa.hi : sb.hi, sb.any ? sb.hi : sa.hi)};
        sa.lo = sb.lo = common.lo;
        sa.hi = sb.hi = common.hi;
        out.lo = common.lo;
        out.hi = common.hi;
        if (tag.head.first_divergence)
            out.divergence = column_of(*tag.head.first_divergence, out.lo, out.hi, columns);
    }
    out.a = side_columns(a, sa, columns);
    out.b = side_columns(b, sb, columns);
    std::vector<ColumnSummary> both(out.a);
    both.insert(both.end(), out.b.begin(), out.b.end());
    out.range = spark_range(both);
    return out;
}

const SparkColumns& cached_compare_spark(const CompareState& state, const ViewModel& model,
                                         const CompareRows& rows, const TagComparison& tag,
                                         int columns) {
    CompareCache& cache = *state.cache;
    std::vector<const Series*> drawn = side_series(model, rows, tag, rows.run_a);
    for (const Series* s : side_series(model, rows, tag, rows.run_b)) drawn.push_back(s);
    const std::uint64_t sig = signature(drawn);
    for (CompareCache::Spark& s : cache.sparks) {
        if (s.tag != tag.tag || s.rank != tag.head.rank || s.columns != columns ||
            s.options != rows.options || s.run_a != rows.run_a || s.run_b != rows.run_b)
            continue;
        // A key's frame may show what a recent frame queried: a data frame follows.
        if (s.signature != sig && !model.ingest.key_frame) {
            s.columns_data = query_compare_spark(model, rows, tag, columns);
            s.signature = sig;
        }
        s.used = true;
        return s.columns_data;
    }
    CompareCache::Spark& s = cache.sparks.emplace_back();
    s.tag = tag.tag;
    s.rank = tag.head.rank;
    s.columns = columns;
    s.options = rows.options;
    s.run_a = rows.run_a;
    s.run_b = rows.run_b;
    s.signature = sig;
    s.used = true;
    s.columns_data = query_compare_spark(model, rows, tag, columns);
    return s.columns_data;
}

void sweep_compare_spark(const CompareState& state) {
    std::vector<CompareCache::Spark>& sparks = state.cache->sparks;
    std::erase_if(sparks, [](const CompareCache::Spark& s) { return !s.used; });
    for (CompareCache::Spark& s : sparks) s.used = false;
}

void draw_compare_spark(Canvas& canvas, int x, int y, int cells, const SparkColumns& s,
                        GlyphTier tier, Style a, Style b) {
    const std::size_t n = std::min(s.a.size(), s.b.size());
    if (!s.any || n == 0 || cells <= 0) return;
    std::vector<ColumnSummary> pairs;
    pairs.reserve(2 * n);
    for (std::size_t k = 0; k < n; ++k) {
        pairs.push_back(s.a[k]);
        pairs.push_back(s.b[k]);
    }
    const std::vector<SparkCell> glyphs = sparkline(pairs, s.range, tier);
    const Style nan{Role::kNan, true};
    auto marked = [](Style st) {
        st.reverse = !st.reverse;
        return st;
    };
    if (tier == GlyphTier::kBraille) {
        for (std::size_t k = 0; k < glyphs.size() && static_cast<int>(k) < cells; ++k) {
            const SparkCell& g = glyphs[k];
            Style st = a;
            if (g.nan) {
                st = nan;
            } else if (g.ch != U' ') {
                const unsigned bits = static_cast<unsigned>(g.ch - 0x2800);
                bool right = false, same = true;
                for (int r = 0; r < 4; ++r) {
                    right |= (bits & kRight[r]) != 0;
                    same &= ((bits & kLeft[r]) != 0) == ((bits & kRight[r]) != 0);
                }
                // Where B parts from A (or only B has points), the cell is B's.
                if (!same && right) st = b;
            }
            if (static_cast<int>(k) == s.divergence) st = marked(st);
            canvas.put(x + static_cast<int>(k), y, g.nan ? marks(tier).nan : g.ch, st);
        }
        return;
    }
    for (std::size_t k = 0; k < glyphs.size() && static_cast<int>(k) < cells; ++k) {
        const SparkCell& g = glyphs[k];
        Style st = g.nan ? nan : (k % 2 == 0 ? a : b);
        if (static_cast<int>(k / 2) == s.divergence) st = marked(st);
        canvas.put(x + static_cast<int>(k), y, g.nan ? marks(tier).nan : g.ch, st);
    }
}

}  // namespace runtop::ui
