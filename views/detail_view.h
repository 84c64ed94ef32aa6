// The detail chart (Enter on a card, a rank, a heatmap cell or an anomaly): one tag, every
// selected (run, rank) of it, as a braille plot with axes and labels; raw and smoothed lines;
// restart and anomaly markers; a cursor reading out step, value, smoothed value and the values
// of every rank at that step; zoom and pan; log-Y; x by step, relative or wall time; a y-range
// that ignores outliers only on request, then marking the clipped points at the edge.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "views/actions.h"
#include "views/canvas.h"
#include "views/input.h"
#include "views/model.h"

namespace runtop::ui {

enum class XAxis { kStep, kRelative, kWall };

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
};

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
bool detail_mouse(DetailState& state, int x, int y, MouseButton button, const ViewModel& model,
                  int width, int height);

}  // namespace runtop::ui
