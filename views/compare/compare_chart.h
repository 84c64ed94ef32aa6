// The detail chart's compare mode (DetailState::compare, opened with Enter in the compare view):
// one tag of two runs overlaid, a Δ strip below, the cursor reading out both values. A frame
// (100x30, braille):
//
//   compare: train/loss — base vs new, rank 0  steps 0–399  smooth 0.6            front new
//                              ◆                                  │ CURSOR          mode flags,
//   3┤⢄                                                           │ step       250  marks row
//    │ ⠑⢄                                                         │ ...            (◆ first
//   2┤   ⠑⠢⣀        the two runs: each in its run's colour,       │ base     0.912  divergence,
//    │      ⠉⠒⠤⣀⣀   B in front (Tab swaps), smoothed over raw     │ new      1.083  ▲△ alerts)
//    ├┄ Δ new − base ┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄ │ Δ       +0.171
//   +.2┤                        ⣀⣤⣴⣶⣿⣿⣿⣿⣿⣿                         │ ratio    1.187  the Δ strip
//     0┤⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿                  │ rel diff 0.158  (delta_strip.h)
//    └┬──────────┬───────────◆──────────┬──────────┴───           │
//     0         100         200        300        250             │ DIVERGENCE     x axis: ticks,
//   ━ base  ━ new                      ◆ diverges at 120  × nan   │ first at   120  ┴ cursor, ◆
//   status line
//
// The two sides are run A's and run B's series of the tag for one rank, or with `mean` each
// run's cross-rank mean at each step (views/compare/compare_series.h: the points core compares,
// paired as core pairs them), with a dim min..max envelope of the ranks (not in ASCII, where it
// would blur three dot rows). NaN and Inf are marked on the x axis (×) and, where they make the two
// differ, in the Δ strip. On the step axis the runs line up by step; on the relative-time axis
// (where wall alignment opens) by time since each run's start; on the wall axis by wall clock.
// The Δ strip and the readout place each pair at A's point.
//
// Without colour the runs stay apart: the front run's lines are bold (raw and smoothed), the
// back run's raw line dim; in the ASCII tier the back run is drawn with its own glyphs
// (, ~ ` ; ! for . - ' : |). The legend and the readout name both runs.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "views/canvas.h"
#include "views/chart_plot.h"
#include "views/compare/compare_chart_data.h"
#include "views/detail_state.h"
#include "views/model.h"

namespace runtop::ui {

CompareReadout compare_readout(const ViewModel& model, const DetailState& state, int width,
                               int height);

// The Δ strip's columns of the window on a canvas of this size (one per data column), and the
// first divergence over every pair (A's step, and its x on the chart's axis).
struct CompareDelta {
    std::vector<DeltaColumn> columns;
    std::optional<std::int64_t> divergence;
    std::optional<std::int64_t> divergence_x;
};
CompareDelta compare_delta(const ViewModel& model, const DetailState& state, int width, int height);

// The chart's geometry (detail_geometry in compare mode); x in the axis' unit (steps, or
// milliseconds: compare_x).
DetailGeometry compare_geometry(const ViewModel& model, const DetailState& state, int width,
                                int height);
void draw_compare_detail(Canvas& canvas, const ViewModel& model, const DetailState& state);

// Opens the chart comparing `compare.run_a` and `compare.run_b` on `tag`, the cursor at `step`
// (when given: the window is centred on it). With CompareAlign::kRelativeWall the x axis starts
// on XAxis::kRelative (each run's time since its own start).
void open_compare_detail(DetailState& state, const ViewModel& model, std::string tag,
                         CompareDetail compare, std::optional<std::int64_t> step);

// Which run is in front (compare_front_is_a, compare_chart_data.h): Tab swaps.
void compare_swap_front(DetailState& state);
// The window and cursor of a freshly opened compare chart: centred on A's point at `step` on
// the chart's axis (when given; a quarter of the data when there is much of it), else all of
// it following the newest point.
void compare_open_window(DetailState& state, const ViewModel& model,
                         std::optional<std::int64_t> step);
// After the x axis changed from `before`: the cursor and the window's ends move to the same
// points (the front run's) on the new axis.
void compare_convert_x(DetailState& state, const ViewModel& model, XAxis before);

}  // namespace runtop::ui
