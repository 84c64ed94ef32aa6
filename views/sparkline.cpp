#include "views/sparkline.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace runtop::ui {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::string_view kAsciiRamp = "_.-=^#";

bool has_non_finite(const ColumnSummary& c) {
    return c.nan + c.pos_inf + c.neg_inf != 0;
}
bool has_finite(const ColumnSummary& c) {
    return c.count != 0 && std::isfinite(c.min) && std::isfinite(c.max);
}

// Where v sits in the range, 0 (bottom) to 1 (top), clamped; halves keep hi - lo finite.
double fraction(double v, const SparkRange& range) {
    double t;
    if (range.log) {
        if (!(v > 0)) return 0;
        // As ratios where they are finite: exact for powers of two (a constant's range).
        double a = v / range.lo, b = range.hi / range.lo;
        if (std::isfinite(a) && std::isfinite(b) && a > 0 && b > 1) {
            t = std::log(a) / std::log(b);
        } else {
            double span = std::log(range.hi) - std::log(range.lo);
            t = span > 0 ? (std::log(v) - std::log(range.lo)) / span : 0.5;
        }
    } else {
        double span = range.hi / 2 - range.lo / 2;
        t = span > 0 ? (v / 2 - range.lo / 2) / span : 0.5;
    }
    if (!(t > 0)) return 0;  // also NaN
    return std::min(t, 1.0);
}

// The level 0..levels-1 of a fraction.
int level(double t, int levels) {
    return std::min(levels - 1, static_cast<int>(t * levels));
}

// Braille dot bits of one dot column (0 left, 1 right) at dot row r (0 bottom .. 3 top).
constexpr unsigned kDot[2][4] = {{0x40, 0x04, 0x02, 0x01}, {0x80, 0x20, 0x10, 0x08}};

// The dots of one column: every row from its min's level to its max's.
unsigned braille_column(const ColumnSummary& c, const SparkRange& range, int side) {
    if (!has_finite(c)) return 0;
    int lo = level(fraction(c.min, range), 4), hi = level(fraction(c.max, range), 4);
    unsigned bits = 0;
    for (int r = std::min(lo, hi); r <= std::max(lo, hi); ++r) bits |= kDot[side][r];
    return bits;
}

}  // namespace

SparkRange spark_range(std::span<const ColumnSummary> columns, bool log) {
    double lo = kInf, hi = -kInf;
    if (log) {
        for (const ColumnSummary& c : columns) {
            if (!has_finite(c)) continue;
            for (double v : {c.min, c.max}) {
                if (v <= 0) continue;
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
        if (lo <= hi) {
            if (lo == hi) {
                // A constant: a factor of 4 around it (inside the doubles).
                double v = lo;
                lo = v / 2;
                hi = v * 2;
                if (!(lo > 0)) lo = v, hi = v * 4;
                if (!std::isfinite(hi)) lo = v / 4, hi = v;
            }
            return SparkRange{lo, hi, true};
        }
        // Nothing positive: a log scale has nothing to show, so the linear one.
    }
    for (const ColumnSummary& c : columns) {
        if (!has_finite(c)) continue;
        lo = std::min(lo, c.min);
        hi = std::max(hi, c.max);
    }
    if (lo > hi) return SparkRange{0, 1, false};
    if (lo == hi) {
        // A constant: drawn mid-height, ±10 % around it (±1 around 0).
        double v = lo;
        double d = v == 0 ? 1 : std::abs(v) / 10;
        lo = v - d;
        hi = v + d;
        if (!std::isfinite(lo) || !std::isfinite(hi) || lo == hi) {
            lo = std::nextafter(v, -kInf);
            hi = std::nextafter(v, kInf);
        }
    }
    return SparkRange{lo, hi, false};
}

int spark_columns(int cells, GlyphTier tier) {
    if (cells <= 0) return 0;
    return tier == GlyphTier::kBraille ? 2 * cells : cells;
}

std::vector<SparkCell> sparkline(std::span<const ColumnSummary> columns, const SparkRange& range,
                                 GlyphTier tier) {
    const char32_t nan_mark = marks(tier).nan;
    std::vector<SparkCell> cells;
    if (tier == GlyphTier::kBraille) {
        cells.resize((columns.size() + 1) / 2);
        for (std::size_t k = 0; k < cells.size(); ++k) {
            const ColumnSummary& left = columns[2 * k];
            const ColumnSummary* right = 2 * k + 1 < columns.size() ? &columns[2 * k + 1] : nullptr;
            if (has_non_finite(left) || (right && has_non_finite(*right))) {
                cells[k] = SparkCell{nan_mark, true};
                continue;
            }
            unsigned bits = braille_column(left, range, 0);
            if (right) bits |= braille_column(*right, range, 1);
            cells[k].ch = bits == 0 ? U' ' : static_cast<char32_t>(0x2800 + bits);
        }
        return cells;
    }
    cells.resize(columns.size());
    for (std::size_t k = 0; k < columns.size(); ++k) {
        const ColumnSummary& c = columns[k];
        if (has_non_finite(c)) {
            cells[k] = SparkCell{nan_mark, true};
        } else if (has_finite(c)) {
            // The column's max: a block grows from the bottom, so it can show a spike, not a dip.
            double t = fraction(c.max, range);
            cells[k].ch = tier == GlyphTier::kBlocks
                              ? static_cast<char32_t>(U'▁' + level(t, 8))
                              : static_cast<char32_t>(kAsciiRamp[level(t, kAsciiRamp.size())]);
        }
    }
    return cells;
}

}  // namespace runtop::ui
