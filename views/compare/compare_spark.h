// The compare table's sparkline: one tag of run A and run B overlaid in one row of cells, on one
// shared y range, so an offset between them shows as an offset.
//
// Each step column is drawn twice, side by side: run A on the left, run B on the right. In the
// braille tier the pair is one cell, A's min..max in its left dot column and B's in its right;
// in the blocks and ascii tiers (one level a cell) the pair is two cells, A's then B's. Why side
// by side rather than one line over the other: a cell has one glyph and one colour, so "B drawn
// over A" would hide A wherever B passes, and without colour (the mono theme, NO_COLOR, a
// terminal with no colours, a pasted snapshot) the reader could not tell the runs apart at all.
// Side by side, both runs are always there and the glyph itself says whether they agree: where
// they do, a pair is symmetric (⠒, ⣀, "▃▃", "--"); where they part, it is not (⠑, ⢄, "▃▆", "-^"),
// whatever the colour. With colour, A's half is in A's stable run colour (ViewModel::run_colour)
// and B's in B's; a braille cell, having one colour, takes B's where its halves differ (B has
// left A there) and A's where they agree. The cell holding the first divergence is reversed.
// NaN and ±Inf draw the NaN mark (Role::kNan) in the cell of the run (the pair's cell in braille),
// never dropped: Series::query counts them per column.
//
// x: with CompareAlign::kStep, the steps both runs have (the later first step to the earlier
// last one; when they do not overlap, everything either has), the same columns for both. With
// kRelativeWall each run spans its own first to last step, so both start at the left as their
// wall-time-since-start pairing does (exact when each run keeps a steady pace).
//
// Per rank, the row's head pair (the rank that diverges first); with CompareRanks::kMean, per
// column the mean over the run's ranks of each rank's min and of its max: an envelope that holds
// the per-step mean (its min over a column is at least the mean of the ranks' minima), from the
// column summaries alone.
#pragma once

#include <cstdint>
#include <vector>

#include "core/compare/run_compare.h"
#include "core/store/series.h"
#include "views/canvas.h"
#include "views/compare/compare_cache.h"
#include "views/compare/compare_state.h"
#include "views/glyphs.h"
#include "views/model.h"
#include "views/sparkline.h"

namespace runtop::ui {

// Step columns a sparkline of `cells` cells holds in `tier`: one a cell in braille, one per two
// cells otherwise.
int compare_spark_columns(int cells, GlyphTier tier);

// Queries both runs' series of the row's tag (the head's rank, or every rank with kMean) in
// `columns` step columns.
SparkColumns query_compare_spark(const ViewModel& model, const CompareRows& rows,
                                 const TagComparison& tag, int columns);

// The same, remembered between frames while the series of the row are unchanged: a frame
// queries only the rows on screen that changed.
const SparkColumns& cached_compare_spark(const CompareState& state, const ViewModel& model,
                                         const CompareRows& rows, const TagComparison& tag,
                                         int columns);
// Forgets the sparklines no frame asked for since the last sweep (the draw calls it once).
void sweep_compare_spark(const CompareState& state);

// Draws `s` into `cells` cells from (x, y); `a` and `b` are the runs' styles.
void draw_compare_spark(Canvas& canvas, int x, int y, int cells, const SparkColumns& s,
                        GlyphTier tier, Style a, Style b);

}  // namespace runtop::ui
