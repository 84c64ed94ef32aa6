// Building blocks of multi-row charts (the detail chart): a dot grid that plots vertical runs
// of dots in cells (braille 2x4 dots a cell, half blocks 1x2, ascii 1x3), with layers that
// occlude each other cell by cell, and axis helpers: "nice" linear, log and time ticks, and
// the time texts of the x axis.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "views/canvas.h"
#include "views/glyphs.h"
#include "views/sparkline.h"

namespace runtop::ui {

// Dots per cell in a tier: braille 2 across, 4 down; blocks (▀ ▄ █) 1 x 2; ascii (' - . |) 1 x 3.
struct DotShape {
    int x = 1;
    int y = 1;
};
DotShape dot_shape(GlyphTier tier);

// A plot area of cells_w x cells_h cells as a grid of dots, (0, 0) the bottom-left dot.
//
// Each cell shows the dots of one group (a series) only: the group with the highest priority
// that put dots there; dots of other groups in that cell are occluded (so the series in front
// reads as one clean line), while dots of the same group merge (its raw and smoothed lines), the
// cell taking the style of the highest-priority layer that drew into it.
class DotGrid {
  public:
    DotGrid(int cells_w, int cells_h, GlyphTier tier);
    int cells_w() const { return w_; }
    int cells_h() const { return h_; }
    int dot_w() const { return w_ * shape_.x; }
    int dot_h() const { return h_ * shape_.y; }
    DotShape shape() const { return shape_; }

    // Dots of dot column x from dot row y0 to y1 (either order, clamped to the grid), for
    // `group` at `priority` in `style`.
    void span(int x, int y0, int y1, int group, int priority, Style style);

    // Whether cell (cx, cy) (cy 0 = the top row, as on the canvas) has any dot.
    bool empty(int cx, int cy) const { return cells_[index(cx, cy)].bits == 0; }
    // Draws the cells with dots at (x0, y0) (the top-left cell); empty cells are not touched.
    void render(Canvas& canvas, int x0, int y0) const;
    // The glyph of cell (cx, cy) (space when empty).
    char32_t glyph(int cx, int cy) const;
    Style style(int cx, int cy) const { return cells_[index(cx, cy)].style; }
    // The group whose dots cell (cx, cy) shows (-1 when empty).
    int group(int cx, int cy) const { return empty(cx, cy) ? -1 : cells_[index(cx, cy)].group; }

  private:
    struct DotCell {
        std::uint8_t bits = 0;
        int group = -1;
        int priority = -1;
        Style style;
    };
    std::size_t index(int cx, int cy) const {
        return static_cast<std::size_t>(cy) * static_cast<std::size_t>(w_) +
               static_cast<std::size_t>(cx);
    }
    GlyphTier tier_;
    DotShape shape_;
    int w_ = 0, h_ = 0;
    std::vector<DotCell> cells_;
};

// Where v sits in the range, 0 (bottom) to 1 (top), clamped; values <= 0 at 0 in log.
double range_fraction(double v, const SparkRange& r);
// The dot row (0 the bottom) of v in a plot `dot_h` dots high.
int dot_row(double v, const SparkRange& r, int dot_h);

// One line into `grid` over columns [0, n): `extent(c, lo, hi, first, last)` gives column c's
// values (false: it has none); the column spans lo..hi and is joined to the previous column's
// `last` (across empty columns by a straight line; not at all when that `last` is NaN), so steep
// moves stay connected and no extreme is dropped.
template <class Extent>
void plot_line(DotGrid& grid, const SparkRange& range, int n, Extent&& extent, int group,
               int priority, Style style) {
    const int dh = grid.dot_h();
    auto row = [&](double v) { return dot_row(v, range, dh); };
    double prev = 0;
    bool has_prev = false;
    int prev_c = -1;
    for (int c = 0; c < n; ++c) {
        double lo, hi, first, last;
        if (!extent(c, lo, hi, first, last)) continue;
        int a = row(lo), b = row(hi);
        if (has_prev) {
            if (c - prev_c > 1) {
                double from = prev;
                for (int k = prev_c + 1; k < c; ++k) {
                    const double t = static_cast<double>(k - prev_c) / (c - prev_c);
                    const double v = prev + (first - prev) * t;
                    grid.span(k, row(from), row(v), group, priority, style);
                    from = v;
                }
                prev = from;
            }
            const int p = row(prev);
            a = std::min(a, p);
            b = std::max(b, p);
        }
        grid.span(c, a, b, group, priority, style);
        prev = last;
        has_prev = std::isfinite(last);
        prev_c = c;
    }
}

// Where the parts of a detail chart go on a w x h canvas: the title (row 0), the marks row, the
// plot (with y labels at its left), in compare mode a Δ strip under it, the x axis, its labels,
// the legend, and the readout (a panel at the right when wide enough, else two rows under the
// legend); the status line is the last row.
struct ChartLayout {
    int ylabel_w = 0;  // labels in [0, ylabel_w); the y axis at column ylabel_w
    int marks_y = -1;  // anomaly (and divergence) marks, the row above the plot
    int plot_x = 0, plot_y = 1, plot_w = 0, plot_h = 0;
    int strip_y = -1, strip_rows = 0;  // the Δ strip: its label row, then its rows (0: none)
    int axis_y = 0;
    int labels_y = -1;
    int legend_y = -1;
    int panel_x = -1;                 // the side readout's separator column (-1: none)
    int bottom_y = -1, bottom_h = 0;  // the readout under the legend
    int status_y = 0;
};
// `delta_strip`: 2-4 rows of the plot go to a Δ strip when the plot keeps at least 6 rows.
ChartLayout make_chart_layout(int w, int h, int ylabel_w, bool delta_strip);

// What a column of a chart marks on the row above its plot.
struct ChartMarker {
    bool nan = false;
    bool restart = false;
    int anomaly = 0;  // 0 none, 1 warn, 2 alert
};

// One key of a chart's legend: a mark and what it means (mark 0: the text alone, in `style`).
struct LegendKey {
    char32_t mark = 0;
    std::string text;
    Style style;
};
// The keys of the marks on a chart, in this order: alert, warn, nan/inf, restart (those the
// markers have), clipped (`clipped`: values outside a clipped y range), <=0 (`log_non_positive`:
// values at or below 0 on a log scale).
std::vector<LegendKey> mark_keys(const std::vector<ChartMarker>& markers, GlyphTier tier,
                                 bool clipped, bool log_non_positive);
// The columns `keys` take, two apart.
int legend_keys_width(const std::vector<LegendKey>& keys);
// Draws `keys` on row y from column x: each mark in its style, its text dim.
void draw_legend_keys(Canvas& canvas, int x, int y, const std::vector<LegendKey>& keys);
// The markers' marks: NaN/Inf (else a restart) on the x axis row, anomalies on the marks row
// (when the layout has one); one marker per plot column.
void draw_chart_markers(Canvas& canvas, const ChartLayout& l,
                        const std::vector<ChartMarker>& markers, GlyphTier tier);

// The y ticks of a plot `plot_h` rows high (one every other row at most), log or linear, and the
// width of their widest label.
std::vector<double> y_ticks(const SparkRange& range, int plot_h);
int tick_label_width(const std::vector<double>& ticks);

// An x tick: its plot cell and its label.
struct AxisTick {
    int x;
    std::string label;
};
// The axes of a chart: the y axis with its ticks and labels (two ticks in one row: the first),
// the x axis line with its ticks, and the cursor's mark on it (┴) at plot cell `cursor`.
void draw_chart_axes(Canvas& canvas, const ChartLayout& l, const std::vector<double>& yticks,
                     const SparkRange& range, const std::vector<AxisTick>& xticks, int cursor,
                     GlyphTier tier);
// The x tick labels under the axis, ending before column `right`: the cursor's first
// (reversed, always drawn), then each tick's unless it would touch a label already there.
void draw_x_labels(Canvas& canvas, const ChartLayout& l, const std::vector<AxisTick>& xticks,
                   int cursor, const std::string& cursor_label, int right);

// The y range without outliers (the `o` key): from the 1st to the 99th percentile of `values`
// (reordered), padded by a tenth of the span (in log space on a log scale), inside `full`;
// false when there are fewer than 5 values or the range would be empty.
bool clipped_range(std::vector<double>& values, const SparkRange& full, SparkRange& out);

// About `max_ticks` (at least 2) round values (1, 2 or 5 times a power of ten apart) inside
// [lo, hi], ascending. Empty when the range is empty or not finite.
std::vector<double> nice_ticks(double lo, double hi, int max_ticks);
// Log scale (lo > 0): the powers of ten inside [lo, hi], thinned to at most max_ticks; with 2
// and 5 times them when there are fewer than three (and room for them); else the linear ticks.
std::vector<double> log_ticks(double lo, double hi, int max_ticks);
// Integer steps (no two ticks the same step) inside [lo, hi].
std::vector<std::int64_t> step_ticks(std::int64_t lo, std::int64_t hi, int max_ticks);
// A round time interval (1 s, 2 s, 5 s, 10 s, 15 s, 30 s, 1 min ... 12 h, 1 d, 2 d, 7 d...) so
// that `span` seconds hold at most about max_ticks of them.
double time_tick_interval(double span, int max_ticks);

// "+42s", "+5m12s", "+1h20m", "+2d3h" (seconds since the start; "-" before it); `coarse`
// drops the smallest unit when the larger one is there ("+5m", "+1h").
std::string relative_time_text(double seconds, bool coarse = false);
// Local wall-clock time of a Unix time: "14:05:10", or "14:05" when `seconds` is false;
// with `date`: "03-14 14:05".
std::string wall_time_text(double unix_time, bool seconds = true, bool date = false);
// Seconds east of UTC of the local time zone at a Unix time (to align wall-clock ticks).
long local_utc_offset(double unix_time);

// Where a chart (the detail chart, or its compare mode) is on a canvas, and how its x axis maps
// steps to columns: what the key and mouse handlers use.
struct DetailGeometry {
    bool has_data = false;       // the tag has points in some selected series
    int plot_x = 0, plot_y = 0;  // the plot area's top-left cell
    int plot_w = 0, plot_h = 0;  // in cells (0: no plot on this canvas)
    int columns = 0;             // data columns: plot_w times the tier's dots across a cell
    int dots_x = 1;              // data columns per cell (2 in braille)
    std::int64_t data_lo = 0, data_hi = 0;  // every step of the tag's series
    std::int64_t lo = 0, hi = 0;            // the x window, inclusive
    std::int64_t cursor = 0;                // the cursor's step, inside the window

    // Column c covers steps [column_step(c), column_step(c + 1)), as Series::query splits them.
    std::int64_t column_step(int column) const;
    // The column holding `step` (clamped to the plot).
    int column_of(std::int64_t step) const;
    // The plot cell column (from plot_x) of a step.
    int cell_of(std::int64_t step) const;
};

}  // namespace runtop::ui
