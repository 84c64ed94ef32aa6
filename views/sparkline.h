// Sparklines from a series' per-column summaries (core/store/series.h Series::query): one row of
// cells, each column drawn as the range min..max of its points, so a spike inside a column shows
// however many points it shares it with (the envelope: TensorBoard's sampling would drop it).
// A column with NaN or Inf draws the NaN mark; an empty one is blank.
//
// Tiers: braille packs two columns in a cell, four dot rows, each column a vertical run of dots
// from its min's row to its max's (a column holding any point has at least one dot; a cell
// whose either column has NaN/Inf is the NaN mark). Blocks: ▁..█ at the column's max (a block
// grows from the bottom: it shows a spike, not a dip). ASCII: the ramp _.-=^# at the max.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/store/series.h"
#include "views/glyphs.h"

namespace runtop::ui {

struct SparkRange {
    double lo = 0, hi = 1;  // the y range; every finite min/max inside it
    bool log = false;       // log scale (only when lo > 0); values <= 0 draw at the bottom
};
// The range of the finite values of `columns` (a constant series gets a range around it, so it
// draws mid-height: ±10 %, ±1 around 0, a factor 2 either way in log). With `log`, the range of
// the positive values; none: the linear range (log false). Nothing finite: [0, 1].
SparkRange spark_range(std::span<const ColumnSummary> columns, bool log = false);

// One cell per entry of the result. With braille each cell covers two columns (so pass twice as
// many columns as cells; an odd last column fills a left half), four dot rows high; blocks and
// ascii one column per cell. Values outside the range are clamped to its edges.
struct SparkCell {
    char32_t ch = U' ';
    bool nan = false;  // drawn with the NaN mark: the caller gives it Role::kNan
};
std::vector<SparkCell> sparkline(std::span<const ColumnSummary> columns, const SparkRange& range,
                                 GlyphTier tier);
// Columns to query for `cells` cells in `tier`.
int spark_columns(int cells, GlyphTier tier);

}  // namespace runtop::ui
