// The compare chart's data (views/compare/compare_chart.h draws it): per side, its points in
// the window summarised per column, the pairs, the Δ strip, the cursor's readout; built by
// compare_chart_data.cpp, drawn by compare_frame.cpp and compare_readout.cpp. Not for other
// views.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "views/chart_plot.h"
#include "views/compare/compare_series.h"
#include "views/compare/delta_strip.h"
#include "views/detail_state.h"
#include "views/model.h"
#include "views/sparkline.h"

namespace runtop::ui {

// What the cursor reads: with step alignment, the front run's point nearest the cursor and
// both runs' points at its step; with wall alignment, A's point nearest the cursor and the
// point of B it is paired with (B's latest at or before the same time since its start).
struct CompareReadout {
    bool ok = false;
    std::int64_t step = 0;  // the step read (the reading run's point)
    double wall = std::numeric_limits<double>::quiet_NaN();  // its wall time
    double time = std::numeric_limits<double>::quiet_NaN();  // its time since its run's start
    bool reading_a = false;                                  // whose point it is
    // Each run's point: at the step, else (step alignment) its last point before it; with
    // wall alignment B's paired point. nullopt: none.
    std::optional<SidePoint> a, b;
    // a and b are a pair (the same step, or paired by time): Δ = b − a, ratio b / a (±inf when
    // a is 0 and b is not, NaN when both are) and runtop::relative_difference.
    bool paired = false;
    double delta = std::numeric_limits<double>::quiet_NaN();
    double ratio = std::numeric_limits<double>::quiet_NaN();
    double relative = std::numeric_limits<double>::quiet_NaN();
    bool diverges = false;  // relative > the tolerance (or the values differ in kind)
};
// One column of a line: its finite extremes, and the first and last values it joins its
// neighbours with (NaN: none; a last NaN or Inf point leaves `last` NaN, so the line breaks).
struct LineColumn {
    double lo = std::numeric_limits<double>::quiet_NaN();
    double hi = std::numeric_limits<double>::quiet_NaN();
    double first = std::numeric_limits<double>::quiet_NaN();
    double last = std::numeric_limits<double>::quiet_NaN();
};

// One side's columns of the window.
struct SideColumns {
    std::vector<LineColumn> raw;
    std::vector<LineColumn> envelope;      // kMean: the ranks' extremes
    std::vector<LineColumn> smooth;        // when `smoothed`
    std::vector<std::uint32_t> nonfinite;  // NaN/Inf points per column
    bool smoothed = false;
    std::uint64_t non_positive = 0;  // log-Y: finite points at or below 0
};

using CompareChartLayout = ChartLayout;

enum class CompareBuild {
    kGeometry,  // the window and the layout: what the key and mouse handlers need
    kFull,      // and the lines, the pairs and the readout
};

struct CompareChart {
    CompareSides sides;
    bool front_a = false;
    XAxis axis = XAxis::kStep;
    bool smoothing = false;
    CompareChartLayout layout;
    DetailGeometry g;
    SideColumns data[2];  // A, B
    const CompareSide& side(int k) const { return k == 0 ? sides.a : sides.b; }

    SparkRange range;
    bool log_empty = false;  // log-Y asked for, nothing positive: linear
    bool clip = false;
    std::uint64_t clipped = 0;  // column extremes outside the clipped range
    std::uint64_t non_positive = 0;
    std::vector<double> yticks;

    std::vector<DeltaColumn> delta;
    SparkRange delta_range;
    std::optional<ComparePair> divergence;   // the first pair that diverges
    std::int64_t divergence_x = 0;           // its x (A's point)
    std::optional<ComparePair> anchor_pair;  // wall alignment: the pair the readout reads
    CompareReadout readout;
};

// Which run is in front: B unless `focus` names A (Tab swaps).
bool compare_front_is_a(const DetailState& state);

CompareChart build_compare_chart(const ViewModel& model, const DetailState& state, int width,
                                 int height, CompareBuild what);

}  // namespace runtop::ui
