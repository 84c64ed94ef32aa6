// A histogram tag's distribution drawn as TensorBoard's distributions view draws it: nested
// bands of its quantiles over steps (min..max, 7..93 %, 16..84 %, 31..69 %) and the median as a
// line over them. Used by the overview card and the detail chart.
//
// A cell shows the innermost band that reaches into it, by its glyph as well as its colour, so
// the bands read without colour: ░ ▒ ▓ █ from min..max in (blocks · ░ ▒ ▓, ascii ~ + = #). The
// median is drawn over them by the caller's line machinery (its dots replace the shade in the cells
// it crosses). A cell whose columns hold a NaN or an Inf in any quantile is the NaN mark, top to
// bottom.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/distribution.h"
#include "core/store/series.h"
#include "core/store/store.h"
#include "views/canvas.h"
#include "views/glyphs.h"
#include "views/sparkline.h"

namespace runtop::ui {

inline constexpr int kDistributionBands = 4;  // min..max, 7..93, 16..84, 31..69

// The nine quantile series of one (run, rank) over the same columns (empty vectors for a
// quantile with no series).
struct BandColumns {
    std::array<std::vector<ColumnSummary>, kDistributionQuantiles> q;
};

// Queries `ids` over [lo, end) in `columns` columns, as Series::query does (`snap` as there).
BandColumns query_band(const Store& store, const std::array<SeriesId, kDistributionQuantiles>& ids,
                       std::int64_t lo, std::int64_t end, int columns, bool snap);

// Adds every column of the band's outer quantiles to `into` (for a y range that holds it).
void append_band_extent(const BandColumns& band, std::vector<ColumnSummary>& into);

// The band's glyph for `level` (1 the outermost band .. kDistributionBands the innermost).
char32_t band_glyph(int level, GlyphTier tier);

// Draws `band` into cells [x, x + cells) x [y, y + rows): each cell covers `per_cell` columns
// (the tier's dots across a cell) and its row's slice of `range`. Empty cells are not touched.
// Outer bands dim, the inner ones in `role`.
void draw_band(Canvas& canvas, int x, int y, int cells, int rows, const BandColumns& band,
               int per_cell, const SparkRange& range, GlyphTier tier, Role role);

// The quantiles of a band's series at `step` (their last point at or before it); nullopt when
// no series has one.
struct BandReading {
    std::int64_t step = 0;  // the point read (the median's, else the first quantile's)
    DistributionValues values{};
    std::array<bool, kDistributionQuantiles> has{};
};
std::optional<BandReading> read_band(const Store& store,
                                     const std::array<SeriesId, kDistributionQuantiles>& ids,
                                     std::int64_t step);

}  // namespace runtop::ui
