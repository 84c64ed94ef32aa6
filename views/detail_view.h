// The detail chart (Enter on a card, a rank, a heatmap cell or an anomaly): one tag, every
// selected (run, rank) of it, as a braille plot with axes and labels; raw and smoothed lines;
// restart and anomaly markers; a cursor reading out step, value, smoothed value and the values
// of every rank at that step; zoom and pan; log-Y; x by step, relative or wall time; a y-range
// that ignores outliers only on request, then marking the clipped points at the edge.
//
// Layout, top to bottom: the title (tag, series count, x window, smoothing, log-Y, clipped N,
// following; the front series at the right), a row of anomaly marks (▲ alert, △ warn) over
// their steps, the plot with its y axis at the left, the x axis (ticks, × NaN/Inf, ↺ restart,
// ┴ cursor) and its labels (the cursor's reversed), the legend (series colours, the front one
// reversed; a key of the marks shown), the status line. The cursor readout is a panel at the
// right (front series: step, time, value, smoothed value, anomalies there; then every series'
// value at that step, highest first, the median and outliers marked, "+N more" when they do
// not fit), or two lines under the legend on a narrow canvas. A smaller canvas drops the
// readout, then the legend, the anomaly row and the tick labels; under 20x6, a notice.
//
// The front series is drawn last in its overlay colour (its smoothed line bold); the others
// behind it, their raw values dim under their smoothed line (with smoothing 0: raw in their
// colour). Each column of a line spans its min..max (Series::query), joined to its neighbours.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/compare/run_compare.h"
#include "views/actions.h"
#include "views/canvas.h"
#include "views/input.h"
#include "views/model.h"

namespace runtop::ui {

enum class XAxis { kStep, kRelative, kWall };

// The detail chart's compare mode (Enter in the compare view): one tag of two runs overlaid,
// a Δ strip (B − A) below, the cursor reading out both values.
struct CompareDetail {
    std::string run_a, run_b;
    int rank = kNoRank;  // the rank compared (per-rank); ignored with `mean`
    bool mean = false;   // each run's cross-rank mean at each step instead of one rank
    CompareAlign align = CompareAlign::kStep;
    double tolerance = 1e-6;  // relative: where the first divergence is marked
    bool operator==(const CompareDetail&) const = default;
};

struct DetailState {
    std::string tag;
    std::optional<RunRank> focus;  // the series drawn in front and read by the cursor
    // The x window in steps; nullopt = every step (and, following, the newest as they come).
    std::optional<std::int64_t> window_lo, window_hi;
    std::optional<std::int64_t> cursor;  // the cursor's step; nullopt = the newest point
    XAxis x_axis = XAxis::kStep;
    bool log_y = false;
    bool clip_outliers = false;  // y-range from the 1st-99th percentile; clipped points marked
    double smoothing = 0.6;      // TensorBoard's EMA weight, 0 = raw only
    // Set: the chart compares two runs (open_compare_detail); `focus` is then unused.
    std::optional<CompareDetail> compare;
};

// Opens the chart on `tag`, reading `focus` (when given) at `step` (when given: the window
// is centred on it).
void open_detail(DetailState& state, const ViewModel& model, std::string tag,
                 std::optional<RunRank> focus, std::optional<std::int64_t> step);

// Opens the chart comparing `compare.run_a` and `compare.run_b` on `tag`, the cursor at `step`
// (when given: the window is centred on it). With CompareAlign::kRelativeWall the x axis starts
// on XAxis::kRelative (each run's time since its own start).
void open_compare_detail(DetailState& state, const ViewModel& model, std::string tag,
                         CompareDetail compare, std::optional<std::int64_t> step);

void draw_detail(Canvas& canvas, const ViewModel& model, const DetailState& state);

// Cursor, zoom, pan, log-Y, x axis, outlier clipping... for a canvas of this size. Returns
// whether the state changed.
bool detail_handle(DetailState& state, Action action, const ViewModel& model, int width,
                   int height);
// A left click moves the cursor there; the wheel zooms about the pointer.
bool detail_mouse(DetailState& state, int x, int y, MouseButton button, const ViewModel& model,
                  int width, int height);

// Where the chart is on a canvas of this size, and how its x axis maps steps to columns: what
// the key and mouse handlers use, exposed for tests.
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
DetailGeometry detail_geometry(const ViewModel& model, const DetailState& state, int width,
                               int height);

// The smoothing weights `s` cycles through in the chart: 0 (raw only), 0.6, 0.9, 0.99.
double next_smoothing(double weight);

}  // namespace runtop::ui
