// The Δ strip of the compare chart (views/compare/compare_chart.h): a few rows under the plot
// showing, per column, B − A over the pairs of points whose A point falls in that column (pairs as
// core makes them: the same step, or with wall alignment B's latest point at or before A's time).
//
//   ├┄ Δ new − base ┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄   the label row, a dashed line under the plot
//   0.2┤          ⢀⣠⣤⣶⣿⣿⣿⣿                     B − A up to its largest value
//     0┤⣀⣀⣀⣀⣀⣀⣀⣀⣀⣿⣿⣿⣿⣿⣿⣿⣿┈┈┈┈┈  ×             zero line (┈ where no pairs), × NaN/Inf Δ
//
// Each column is a bar from zero to its Δ extremes (so a column of equal values is one dot on
// the zero row, and a column without pairs shows the bare zero line): bold where some pair
// differs beyond the tolerance, dim where every pair is within it. A column where a pair's Δ is
// NaN or infinite while the values differ (one side NaN, or an infinity against a number) has
// the NaN mark on the zero row. The y range is [min(0, lowest Δ), max(0, highest Δ)].
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include "views/canvas.h"
#include "views/glyphs.h"
#include "views/sparkline.h"

namespace runtop::ui {

struct DeltaColumn {
    std::uint64_t pairs = 0;
    std::uint64_t diverging = 0;  // pairs beyond the tolerance (runtop::values_diverge)
    std::uint64_t nonfinite = 0;  // diverging pairs whose Δ is NaN or infinite
    double lo = std::numeric_limits<double>::quiet_NaN();  // the finite Δ extremes
    double hi = std::numeric_limits<double>::quiet_NaN();
};
// Counts the pair (a, b) into the column.
void add_delta(DeltaColumn& column, double a, double b, double tolerance);

// The strip's y range: [min(0, lowest Δ), max(0, highest Δ)]; [-1, 1] when every Δ is 0 or
// there is none.
SparkRange delta_range(std::span<const DeltaColumn> columns);
// The y labels: the top of the range, 0, and the bottom (each only where it has a row of its
// own). Their widest, for the caller's label column.
int delta_label_width(const SparkRange& range);

// Where the strip goes: the label row at `y`, then `rows` rows of bars; the y axis at column
// `axis_x` (labels right-aligned before it), the bars from column `x`, `w` cells wide.
struct DeltaPlace {
    int axis_x = 0;
    int x = 0, y = 0, w = 0, rows = 0;
    int columns = 0;  // data columns: w times the tier's dots across a cell
    int cursor = -1;  // the cursor's cell column (a line where the strip is empty), -1 none
};
// `label`: "Δ new − base".
void draw_delta_strip(Canvas& canvas, const DeltaPlace& at, std::span<const DeltaColumn> columns,
                      const SparkRange& range, const std::string& label, GlyphTier tier);

}  // namespace runtop::ui
