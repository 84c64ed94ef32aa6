// Data: per side, its points in the window walked once (views/compare/compare_series.h), summarised
// per column (finite extremes, first and last for joining, NaN/Inf counts, the ranks' envelope, the
// smoothed line); the pairs walked from the start (the first divergence is over every pair),
// those in the window kept for the Δ strip. The frame is drawn by compare_frame.cpp.
#include "views/compare/compare_chart_data.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/analysis/smoothing.h"
#include "views/chart_plot.h"
#include "views/chart_points.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kProvisionalLabelWidth = 6;

void widen(LineColumn& c, double v) {
    c.lo = std::isnan(c.lo) ? v : std::min(c.lo, v);
    c.hi = std::isnan(c.hi) ? v : std::max(c.hi, v);
    if (std::isnan(c.first)) c.first = v;
}

CompareChartLayout make_layout(int w, int h, int ylabel_w) {
    return make_chart_layout(w, h, ylabel_w, true);
}

// Summarises a side's points in the window into the chart's columns.
void side_columns(CompareChart& ch, const DetailState& state, int k, bool smooth) {
    const CompareSide& side = ch.side(k);
    SideColumns& d = ch.data[k];
    const DetailGeometry& g = ch.g;
    const auto n = static_cast<std::size_t>(g.columns);
    d = SideColumns{};
    d.raw.assign(n, LineColumn{});
    d.nonfinite.assign(n, 0);
    if (side.mean) d.envelope.assign(n, LineColumn{});
    const double w = std::clamp(std::isfinite(state.smoothing) ? state.smoothing : 0.0, 0.0, 1.0);
    d.smoothed = smooth && w > 0;
    if (d.smoothed) d.smooth.assign(n, LineColumn{});
    std::vector<std::size_t> pos = positions_from_x(side, ch.axis, g.lo);
    if (d.smoothed) back_off(side, pos, ema_warmup(w));
    EmaSmoother ema(w);
    for (SideCursor c(side, pos); c.has(); c.next()) {
        const SidePoint& p = c.point();
        const std::int64_t x = compare_x(ch.axis, p.step, p.wall, side.origin);
        if (x > g.hi) break;
        const double sm = d.smoothed ? ema.push(p.value) : kNaN;
        if (x < g.lo) continue;
        const auto col = static_cast<std::size_t>(g.column_of(x));
        LineColumn& raw = d.raw[col];
        if (std::isfinite(p.value)) {
            widen(raw, p.value);
            if (state.log_y && p.value <= 0) ++d.non_positive;
        } else {
            ++d.nonfinite[col];
        }
        raw.last = std::isfinite(p.value) ? p.value : kNaN;
        if (side.mean && !std::isnan(p.lo)) {
            widen(d.envelope[col], p.lo);
            widen(d.envelope[col], p.hi);
        }
        if (d.smoothed && std::isfinite(sm)) {
            widen(d.smooth[col], sm);
            d.smooth[col].last = sm;
        }
    }
}

// The y range over both sides' columns (the envelope included); with clipping, the
// 1st..99th percentile of the columns' extremes, widened by a tenth either way, never past the
// data, and the column extremes outside it counted.
void y_range(CompareChart& ch, const DetailState& state) {
    std::vector<ColumnSummary> all;
    for (const SideColumns& d : ch.data)
        for (const std::vector<LineColumn>* cols : {&d.raw, &d.envelope})
            for (const LineColumn& c : *cols) {
                if (std::isnan(c.lo)) continue;
                ColumnSummary s;
                s.count = 1;
                s.min = c.lo;
                s.max = c.hi;
                s.mean = c.first;
                all.push_back(s);
            }
    const SparkRange full = spark_range(all, state.log_y);
    ch.log_empty = state.log_y && !full.log;
    ch.range = full;
    ch.clip = state.clip_outliers;
    ch.clipped = 0;
    if (!ch.clip) return;
    std::vector<double> values;
    for (const ColumnSummary& c : all)
        for (double v : {c.min, c.max})
            if (!full.log || v > 0) values.push_back(v);
    SparkRange r;
    if (!clipped_range(values, full, r)) return;
    ch.range = r;
    for (const SideColumns& d : ch.data)
        for (const LineColumn& c : d.raw)
            if (!std::isnan(c.lo))
                ch.clipped += (c.hi > r.hi) + (c.lo < r.lo && (!r.log || c.lo > 0));
}

// The pairs: the first divergence over all of them; those whose A point is in the window into
// the Δ strip's columns; the pair the readout reads (wall alignment) when `anchor` is A's step.
void walk(CompareChart& ch, double tolerance, CompareAlign align,
          std::optional<std::int64_t> anchor) {
    const DetailGeometry& g = ch.g;
    ch.delta.assign(static_cast<std::size_t>(g.columns), DeltaColumn{});
    const CompareSide& a = ch.sides.a;
    walk_pairs(a, ch.sides.b, align, [&](const ComparePair& p) {
        const std::int64_t x = compare_x(ch.axis, p.a.step, p.a.wall, a.origin);
        if (!ch.divergence && values_diverge(p.a.value, p.b.value, tolerance)) {
            ch.divergence = p;
            ch.divergence_x = x;
        }
        if (x >= g.lo && x <= g.hi)
            add_delta(ch.delta[static_cast<std::size_t>(g.column_of(x))], p.a.value, p.b.value,
                      tolerance);
        if (anchor && p.a.step == *anchor) ch.anchor_pair = p;
        // Past the window (and the anchor) with the divergence found: nothing more to learn.
        return !(ch.divergence && x > g.hi && (!anchor || p.a.step >= *anchor));
    });
    ch.delta_range = delta_range(ch.delta);
}

void read_cursor(CompareChart& ch, const CompareDetail& cmp) {
    CompareReadout& r = ch.readout;
    const bool wall = cmp.align == CompareAlign::kRelativeWall;
    // The reading run: A with wall alignment (pairs are A's points); else the run whose point
    // is nearer the cursor, the front one when both are as near (so the cursor never reads a
    // point of one run far from it while the other has one under it).
    const bool use_a = wall || ch.front_a;
    const CompareSide* reader = use_a ? &ch.sides.a : &ch.sides.b;
    std::optional<SidePoint> p = side_point_nearest(*reader, ch.axis, ch.g.cursor);
    if (!wall) {
        const CompareSide* other = use_a ? &ch.sides.b : &ch.sides.a;
        const std::optional<SidePoint> q = side_point_nearest(*other, ch.axis, ch.g.cursor);
        auto distance = [&](const CompareSide& side, const SidePoint& point) {
            const std::int64_t x = compare_x(ch.axis, point.step, point.wall, side.origin);
            return x > ch.g.cursor ? x - ch.g.cursor : ch.g.cursor - x;
        };
        if (q && (!p || distance(*other, *q) < distance(*reader, *p))) {
            reader = other;
            p = q;
        }
    }
    if (!p) return;
    r.ok = true;
    r.reading_a = reader == &ch.sides.a;
    r.step = p->step;
    r.wall = p->wall;
    r.time = p->wall - reader->origin;
    if (wall) {
        r.a = p;
        if (ch.anchor_pair && ch.anchor_pair->a.step == p->step) {
            r.b = ch.anchor_pair->b;
            r.paired = true;
        }
    } else {
        r.a = side_point_at_or_before(ch.sides.a, p->step);
        r.b = side_point_at_or_before(ch.sides.b, p->step);
        r.paired = r.a && r.b && r.a->step == p->step && r.b->step == p->step;
    }
    if (!r.paired) return;
    const double a = r.a->value, b = r.b->value;
    r.delta = b - a;
    r.ratio = a == 0 && b == 0 ? kNaN : b / a;
    r.relative = relative_difference(a, b);
    r.diverges = values_diverge(a, b, cmp.tolerance);
}

}  // namespace

CompareChart build_compare_chart(const ViewModel& model, const DetailState& state, int w, int h,
                                 CompareBuild what) {
    CompareChart ch;
    const CompareDetail& cmp = *state.compare;
    ch.sides = compare_sides(model, state.tag, cmp);
    ch.front_a = compare_front_is_a(state);
    ch.axis = state.x_axis;
    ch.smoothing = state.smoothing > 0;
    DetailGeometry& g = ch.g;
    g.dots_x = dot_shape(model.glyphs()).x;
    std::optional<std::pair<std::int64_t, std::int64_t>> range;
    for (const CompareSide* side : {&ch.sides.a, &ch.sides.b})
        if (auto r = side_x_range(*side, ch.axis))
            range = range ? std::pair(std::min(range->first, r->first),
                                      std::max(range->second, r->second))
                          : *r;
    ch.layout = make_layout(w, h, kProvisionalLabelWidth);
    g.has_data = range.has_value();
    if (!g.has_data) return ch;
    g.data_lo = range->first;
    g.data_hi = range->second;
    g.lo = state.window_lo.value_or(g.data_lo);
    g.hi = state.window_hi.value_or(g.data_hi);
    if (g.hi < g.lo) std::swap(g.lo, g.hi);
    auto place = [&] {
        g.plot_x = ch.layout.plot_x;
        g.plot_y = ch.layout.plot_y;
        g.plot_w = ch.layout.plot_w;
        g.plot_h = ch.layout.plot_h;
        g.columns = ch.layout.plot_w * g.dots_x;
    };
    // As in the single-run chart: the y range does not depend on the columns, so a pass over a
    // few gives the labels' width, and with it the plot's.
    place();
    g.columns = std::min(g.columns, 16);
    for (int k = 0; k < 2; ++k) side_columns(ch, state, k, false);
    y_range(ch, state);
    const int lw = tick_label_width(y_ticks(ch.range, ch.layout.plot_h));
    ch.layout = make_layout(w, h, lw);
    place();
    g.cursor = std::clamp(state.cursor.value_or(g.data_hi), g.lo, g.hi);
    if (what == CompareBuild::kGeometry) return ch;
    for (int k = 0; k < 2; ++k) side_columns(ch, state, k, true);
    y_range(ch, state);
    ch.yticks = y_ticks(ch.range, ch.layout.plot_h);
    ch.non_positive = ch.data[0].non_positive + ch.data[1].non_positive;
    // With wall alignment the readout needs the pair of A's point at the cursor.
    std::optional<std::int64_t> anchor;
    if (cmp.align == CompareAlign::kRelativeWall)
        if (auto p = side_point_nearest(ch.sides.a, ch.axis, g.cursor)) anchor = p->step;
    walk(ch, cmp.tolerance, cmp.align, anchor);
    read_cursor(ch, cmp);
    return ch;
}

bool compare_front_is_a(const DetailState& state) {
    return state.compare && state.focus && state.focus->run == state.compare->run_a &&
           state.compare->run_a != state.compare->run_b;
}

}  // namespace runtop::ui
