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

#include "views/actions.h"
#include "views/canvas.h"
#include "views/chart_plot.h"
#include "views/detail_state.h"
#include "views/input.h"
#include "views/model.h"
#include "views/view_api.h"

namespace runtop::ui {

// Opens the chart on `tag`, reading `focus` (when given) at `step` (when given: the window
// is centred on it).
void open_detail(DetailState& state, const ViewModel& model, std::string tag,
                 std::optional<RunRank> focus, std::optional<std::int64_t> step);

void draw_detail(Canvas& canvas, const ViewModel& model, const DetailState& state);

// Cursor, zoom, pan, log-Y, x axis, outlier clipping... for a canvas of this size. Returns
// whether the state changed.
bool detail_handle(DetailState& state, Action action, const ViewModel& model, int width,
                   int height);
// A left click moves the cursor there; the wheel zooms about the pointer.
// `g`: the cursor to `step` (clamped to the data), the window moved to hold it; the note says
// where the cursor went.
std::string detail_go_to_step(DetailState& state, std::int64_t step, const ViewModel& model,
                              int width, int height);
Pointer detail_mouse(DetailState& state, const InputEvent& event, const ViewModel& model, int width,
                     int height);
// The chart's tag (carried to the view switched to); Enter opens nothing more.
ViewSelection detail_selected(const DetailState& state, const ViewModel& model, int width,
                              int height);
// Opens the chart on `target` (open_detail, or in compare mode open_compare_detail).
void open_chart(DetailState& state, const ViewModel& model, ChartTarget target);

// Where the chart is on a canvas of this size (DetailGeometry, views/chart_plot.h): what the
// key and mouse handlers use, exposed for tests.
DetailGeometry detail_geometry(const ViewModel& model, const DetailState& state, int width,
                               int height);

// The smoothing weights `s` cycles through in the chart: 0 (raw only), 0.6, 0.9, 0.99.
double next_smoothing(double weight);

}  // namespace runtop::ui
