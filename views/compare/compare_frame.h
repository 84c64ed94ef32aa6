// The compare chart's parts shared by its data (compare_chart.cpp) and its drawing
// (compare_frame.cpp, compare_readout.cpp): not for other views.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "views/canvas.h"
#include "views/chart_plot.h"
#include "views/compare/compare_chart.h"
#include "views/sparkline.h"

namespace runtop::ui {

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

CompareChart build_compare_chart(const ViewModel& model, const DetailState& state, int width,
                                 int height, CompareBuild what);

void draw_compare_frame(Canvas& canvas, const ViewModel& model, const DetailState& state,
                        const CompareChart& ch);

// The readout: a panel at the right (layout.panel_x), or two lines under the legend.
void draw_compare_panel(Canvas& canvas, const ViewModel& model, const DetailState& state,
                        const CompareChart& ch);
void draw_compare_bottom(Canvas& canvas, const ViewModel& model, const DetailState& state,
                         const CompareChart& ch);

// How the frame names a run: its last path component, or the whole name when both runs end
// the same way.
std::string compare_run_label(const CompareChart& ch, int k);
// The divergence mark: ◆, or # in ASCII.
char32_t divergence_mark(GlyphTier tier);

}  // namespace runtop::ui
