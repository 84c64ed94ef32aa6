// What both kinds of overview card share (views/overview_view.h explains the cards): the data a
// card queries once per change of its series (kept in the overview's per-card cache), and the
// drawing helpers of their text rows.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "core/store/series.h"
#include "views/canvas.h"
#include "views/glyphs.h"
#include "views/model.h"
#include "views/sparkline.h"

namespace runtop::ui {

inline constexpr double kCardNaN = std::numeric_limits<double>::quiet_NaN();

bool non_finite(const ColumnSummary& c);

// One series of a card: what choosing the focus, the values and the trend need. Its columns
// are merged into the envelope (and, by run, into its run's line) and not kept: a card of 256
// ranks would otherwise write megabytes a frame.
struct CardSeries {
    SeriesId id;
    double last = kCardNaN;    // its last value
    double recent = kCardNaN;  // the mean of its newest points (a tenth of them, 1 to 256)
    double before = kCardNaN;  // the mean of as many points before those
};

// One run of a multi-run card: its ranks merged column by column.
struct RunLine {
    std::string run;
    std::vector<ColumnSummary> columns;  // per column, min..max over its ranks, NaN/Inf counted
    std::vector<std::size_t> members;    // its series (indices into CardData::series)
    double last = kCardNaN;   // the mean of its ranks' finite last values, else a non-finite one
    bool non_finite = false;  // a column holds a NaN or an Inf
};

struct CardData {
    std::int64_t lo = 0, hi = 0;  // the step range of its series
    std::int64_t end = 0;         // the x range's end (exclusive): hi + 1 rounded up
    std::vector<CardSeries> series;
    std::vector<ColumnSummary> envelope;  // every series merged
    std::vector<RunLine> runs;            // by_run only: per run, in ViewModel::run_names() order
    bool any_points = false;
    // Made with the query, not per frame: each is a pass over the card's keys (1,024 ranks).
    std::string count;       // count_text() of the group's series
    bool many_runs = false;  // its series are of more than one run: labels name the run
};

// Queries the card's series over `columns` columns of its x range (grown in quanta, see the
// .cpp); with `by_run`, also each run's line.
CardData query_card(const ViewModel& model, const TagGroup& group, int columns, bool by_run);

// The trend over a card's series: -1, 0, 1 (trend_direction of the means of their windows).
int card_trend(const CardData& d);

// `left` at x, `right` right-aligned at x + w; right is dropped when both do not fit with two
// columns between them.
void draw_pair(Canvas& canvas, int x, int y, int w, const std::string& left, Style left_style,
               const std::string& right, Style right_style);

// A histogram's card (TagGroup::distribution) inside its frame, from (x, y), w x h: the band of
// the focus series' quantiles (views/distribution_band.h) with its median line over it; under it
// the median's last value and trend, the last min..max; then the count row.
void draw_distribution_card_body(Canvas& canvas, const ViewModel& model, const CardData& d,
                                 std::size_t focus, int x, int y, int w, int h);

// The bottom text row: how many series ("4 ranks", "2 runs, 8 series"), the step range.
void draw_count_row(Canvas& canvas, const ViewModel& model, const CardData& d, int x, int y, int w);

// A chart `rows` cells high from y (top) down, each row a band of the range (a taller card's
// chart: more rows, not more air).
void draw_chart(Canvas& canvas, int x, int y, int rows, std::span<const ColumnSummary> columns,
                const SparkRange& range, GlyphTier tier, Style style);

}  // namespace runtop::ui
