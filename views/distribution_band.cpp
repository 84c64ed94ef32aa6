#include "views/distribution_band.h"

#include <algorithm>
#include <cmath>

#include "views/chart_plot.h"
#include "views/chart_points.h"

namespace runtop::ui {
namespace {

bool finite_column(const ColumnSummary& c) {
    return c.count > 0 && std::isfinite(c.min) && std::isfinite(c.max);
}

bool non_finite_column(const ColumnSummary& c) {
    return c.nan + c.pos_inf + c.neg_inf > 0;
}

// The row (0 the bottom) of a value in a chart `rows` cells high.
int cell_row(double v, const SparkRange& range, int rows) {
    return std::min(rows - 1, static_cast<int>(range_fraction(v, range) * rows));
}

}  // namespace

BandColumns query_band(const Store& store, const std::array<SeriesId, kDistributionQuantiles>& ids,
                       std::int64_t lo, std::int64_t end, int columns, bool snap) {
    BandColumns band;
    for (int q = 0; q < kDistributionQuantiles; ++q) {
        const SeriesId id = ids[static_cast<std::size_t>(q)];
        if (id == kSkippedSeries || id >= store.series_count()) continue;
        auto& cols = band.q[static_cast<std::size_t>(q)];
        cols.assign(static_cast<std::size_t>(columns), ColumnSummary{});
        store.at(id).query(lo, end, cols, nullptr, snap);
    }
    return band;
}

void append_band_extent(const BandColumns& band, std::vector<ColumnSummary>& into) {
    for (const std::vector<ColumnSummary>* cols : {&band.q.front(), &band.q.back()})
        into.insert(into.end(), cols->begin(), cols->end());
}

char32_t band_glyph(int level, GlyphTier tier) {
    // None of them is a glyph the tier's lines are drawn with (braille; ▄ ▀ █; . - ' : |), so
    // the median reads over the band.
    static constexpr char32_t kBraille[] = {U' ', U'░', U'▒', U'▓', U'█'};
    static constexpr char32_t kBlocks[] = {U' ', U'·', U'░', U'▒', U'▓'};
    static constexpr char32_t kAscii[] = {U' ', U'~', U'+', U'=', U'#'};
    const int at = std::clamp(level, 0, kDistributionBands);
    return tier == GlyphTier::kAscii    ? kAscii[at]
           : tier == GlyphTier::kBlocks ? kBlocks[at]
                                        : kBraille[at];
}

void draw_band(Canvas& canvas, int x, int y, int cells, int rows, const BandColumns& band,
               int per_cell, const SparkRange& range, GlyphTier tier, Role role) {
    if (rows <= 0 || cells <= 0) return;
    const std::size_t n = band.q[kMedianQuantile].size();
    // Per cell and band (1..kDistributionBands): the band's extent over the cell's columns.
    struct Extent {
        double lo = 0, hi = 0;
        bool has = false;
    };
    const auto width = static_cast<std::size_t>(cells);
    std::vector<std::array<Extent, kDistributionBands + 1>> extent(width);
    std::vector<bool> nan(width, false);
    for (std::size_t cx = 0; cx < width; ++cx) {
        const std::size_t c0 = cx * static_cast<std::size_t>(per_cell);
        const std::size_t c1 = std::min(n, c0 + static_cast<std::size_t>(per_cell));
        for (std::size_t c = c0; c < c1; ++c)
            for (const auto& q : band.q)
                if (q.size() == n && non_finite_column(q[c])) nan[cx] = true;
        for (int k = 1; k <= kDistributionBands; ++k) {
            const auto& lower = band.q[static_cast<std::size_t>(k - 1)];
            const auto& upper = band.q[static_cast<std::size_t>(kDistributionQuantiles - k)];
            if (lower.size() != n || upper.size() != n) continue;
            Extent& e = extent[cx][static_cast<std::size_t>(k)];
            for (std::size_t c = c0; c < c1; ++c) {
                if (!finite_column(lower[c]) || !finite_column(upper[c])) continue;
                e.lo = e.has ? std::min(e.lo, lower[c].min) : lower[c].min;
                e.hi = e.has ? std::max(e.hi, upper[c].max) : upper[c].max;
                e.has = true;
            }
        }
    }
    // Histograms are logged every so many steps: cells between two of them take the straight
    // line between their extents, as TensorBoard's area joins its points (never across a NaN).
    for (int k = 1; k <= kDistributionBands; ++k) {
        const auto b = static_cast<std::size_t>(k);
        std::size_t prev = width;
        for (std::size_t cx = 0; cx < width; ++cx) {
            if (nan[cx]) {
                prev = width;
                continue;
            }
            if (!extent[cx][b].has) continue;
            if (prev != width && cx - prev > 1) {
                const Extent a = extent[prev][b], z = extent[cx][b];
                for (std::size_t m = prev + 1; m < cx; ++m) {
                    const double t = static_cast<double>(m - prev) / static_cast<double>(cx - prev);
                    extent[m][b] = {a.lo + (z.lo - a.lo) * t, a.hi + (z.hi - a.hi) * t, true};
                }
            }
            prev = cx;
        }
    }
    for (std::size_t cx = 0; cx < width; ++cx) {
        const int px = x + static_cast<int>(cx);
        for (int r = 0; r < rows; ++r) {
            if (nan[cx]) {
                canvas.put(px, y + r, marks(tier).nan, {Role::kNan, true});
                continue;
            }
            const int from_bottom = rows - 1 - r;
            int level = 0;
            for (int k = 1; k <= kDistributionBands; ++k) {
                const Extent& e = extent[cx][static_cast<std::size_t>(k)];
                if (!e.has) continue;
                const int a = cell_row(e.lo, range, rows), z = cell_row(e.hi, range, rows);
                if (from_bottom >= std::min(a, z) && from_bottom <= std::max(a, z)) level = k;
            }
            if (level == 0) continue;
            canvas.put(px, y + r, band_glyph(level, tier),
                       level == 1 ? Style{Role::kDim} : Style{role});
        }
    }
}

std::optional<BandReading> read_band(const Store& store,
                                     const std::array<SeriesId, kDistributionQuantiles>& ids,
                                     std::int64_t step) {
    BandReading out;
    bool any = false;
    for (int q = 0; q < kDistributionQuantiles; ++q) {
        const SeriesId id = ids[static_cast<std::size_t>(q)];
        if (id == kSkippedSeries || id >= store.series_count()) continue;
        const Series& s = store.at(id);
        const auto i = at_or_before(s, step);
        if (!i) continue;
        const Point p = s.point(*i);
        out.values[static_cast<std::size_t>(q)] = p.value;
        out.has[static_cast<std::size_t>(q)] = true;
        if (!any || q == kMedianQuantile) out.step = p.step;
        any = true;
    }
    if (!any) return std::nullopt;
    return out;
}

}  // namespace runtop::ui
