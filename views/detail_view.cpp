// The detail chart. A frame (100x30, braille):
//
//   train/grad_norm  4 ranks  steps 0–399  smooth 0.6          front r1 △   title, mode flags
//                     △                                │ CURSOR            anomaly marks
//   34.08┤             ⢸                               │ step          200 the plot: every series,
//      30┤             ⢸                               │ ...               the front one on top
//   ...                                                │
//    1.2 ┤⣀⣤⣤⣄⣀⣠⣤⣤⣄⣀⣸⣀⣤⣤⣄⣀⣠⣤⣤⣄⣀⣠⣤⡤⣀⣠⣀         │ 4 RANKS AT 200
//        └──┬──────────┴─────×───────┬────             │ median      1.226 x axis: ticks, cursor,
//           0         200           300                │ r1 !        34.08 NaN and restart marks
//   ━ r0  ━ r1  ━ r2  ━ r3                 ↺ restart × nan               legend, marks key
//   status line
//
// Data: per series, Series::query over the window's columns (exact min/max/NaN/Inf per column:
// a spike is never dropped, whatever the zoom); smoothing and the robust y-range read the
// full-resolution points of the window (within a budget; beyond it, non-front series go
// unsmoothed and clipping counts columns).
#include "views/detail_view.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/analysis/smoothing.h"
#include "core/format.h"
#include "views/chart_plot.h"
#include "views/chart_points.h"
#include "views/compare/compare_chart.h"
#include "views/distribution_band.h"
#include "views/sparkline.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Full-resolution points read per frame beyond the front series (smoothing, percentiles).
constexpr std::uint64_t kPointBudget = 2'000'000;
constexpr int kProvisionalLabelWidth = 6;
constexpr std::int64_t kMinSpan = 8;  // steps: the deepest zoom
constexpr std::int64_t kOpenSpan = 1000;

bool finite_column(const ColumnSummary& c) {
    return c.count > 0 && std::isfinite(c.min) && std::isfinite(c.max);
}

using Layout = ChartLayout;

Layout make_layout(int w, int h, int ylabel_w) {
    return make_chart_layout(w, h, ylabel_w, false);
}

struct SeriesData {
    SeriesId id = 0;
    int overlay = 0;
    AlertLevel level = AlertLevel::kOk;
    std::string label;
    std::vector<ColumnSummary> cols;
    // Smoothed values per column (NaN: none): extremes, and the first and last for joining.
    std::vector<double> smin, smax, sfirst, slast;
    bool smoothed = false;
    std::size_t i0 = 0, i1 = 0;  // the window's retained points
};

struct Chart {
    const TagGroup* group = nullptr;
    Layout layout;
    DetailGeometry g;
    std::vector<SeriesData> series;
    std::size_t focus = 0;
    bool many_runs = false;
    bool smoothing = false;  // state.smoothing > 0
    SparkRange range;
    bool log_empty = false;  // log-Y asked for, nothing positive: linear
    bool clip = false;
    std::uint64_t clipped = 0;  // points outside the clipped range
    bool clipped_exact = true;
    std::uint64_t non_positive = 0;  // log-Y: points at or below 0 (drawn at the bottom)
    std::vector<double> yticks;
    // A histogram (TagGroup::distribution): the front series' quantiles over the columns.
    bool distribution = false;
    BandColumns band;
};

// Whether an anomaly record is of the chart's tag: for a histogram, of one of its quantiles.
bool record_of_chart(const AnomalyRecord& r, const Chart& ch) {
    if (!ch.distribution) return r.tag == ch.group->tag;
    for (int q = 0; q < kDistributionQuantiles; ++q)
        if (distribution_base(r.tag, q) == std::string_view(ch.group->tag)) return true;
    return false;
}

// Queries every series over the window's columns, smooths, and finds the y range.
void compute(Chart& ch, const ViewModel& model, const DetailState& state, bool smooth) {
    DetailGeometry& g = ch.g;
    const int n = g.columns;
    std::uint64_t total = 0;
    for (SeriesData& sd : ch.series) {
        const Series& s = model.store().at(sd.id);
        sd.cols.assign(static_cast<std::size_t>(n), ColumnSummary{});
        s.query(g.lo, g.hi + 1, sd.cols);
        sd.i0 = lower_index(s, g.lo);
        sd.i1 = lower_index(s, g.hi + 1);
        total += sd.i1 - sd.i0;
    }
    if (ch.distribution)
        ch.band = query_band(model.store(), model.band(ch.series[ch.focus].id), g.lo, g.hi + 1, n,
                             /*snap=*/false);
    const bool exact = total <= kPointBudget;
    const bool want_values = state.clip_outliers && exact;
    const bool log = state.log_y;
    std::vector<double> values;
    if (want_values) values.reserve(total);
    ch.non_positive = 0;
    std::uint64_t budget = kPointBudget;
    const double w = std::clamp(std::isfinite(state.smoothing) ? state.smoothing : 0.0, 0.0, 1.0);
    const std::size_t warm = ema_warmup(w);
    for (std::size_t k = 0; k < ch.series.size(); ++k) {
        SeriesData& sd = ch.series[k];
        const Series& s = model.store().at(sd.id);
        const std::size_t start = sd.i0 > warm ? sd.i0 - warm : 0;
        const bool front = k == ch.focus;
        sd.smoothed = smooth && w > 0 && (front || sd.i1 - start <= budget);
        if (sd.smoothed) {
            if (!front) budget -= sd.i1 - start;
            sd.smin.assign(n, kNaN);
            sd.smax.assign(n, kNaN);
            sd.sfirst.assign(n, kNaN);
            sd.slast.assign(n, kNaN);
        }
        if (!sd.smoothed && !want_values && !log) continue;
        EmaSmoother ema(w);
        for (std::size_t i = sd.smoothed ? start : sd.i0; i < sd.i1; ++i) {
            const Point p = s.point(i);
            const double sm = sd.smoothed ? ema.push(p.value) : kNaN;
            if (i < sd.i0) continue;
            if (std::isfinite(p.value)) {
                if (log && p.value <= 0)
                    ++ch.non_positive;
                else if (want_values)
                    values.push_back(p.value);
            }
            if (sd.smoothed && std::isfinite(sm)) {
                const auto c = static_cast<std::size_t>(g.column_of(p.step));
                if (std::isnan(sd.sfirst[c])) {
                    sd.sfirst[c] = sd.smin[c] = sd.smax[c] = sm;
                } else {
                    sd.smin[c] = std::min(sd.smin[c], sm);
                    sd.smax[c] = std::max(sd.smax[c], sm);
                }
                sd.slast[c] = sm;
            }
        }
    }

    std::vector<ColumnSummary> all;
    all.reserve(ch.series.size() * static_cast<std::size_t>(n));
    for (const SeriesData& sd : ch.series) all.insert(all.end(), sd.cols.begin(), sd.cols.end());
    if (ch.distribution) append_band_extent(ch.band, all);
    const SparkRange full = spark_range(all, log);
    ch.log_empty = log && !full.log;
    ch.range = full;
    ch.clip = state.clip_outliers;
    ch.clipped = 0;
    ch.clipped_exact = exact;
    if (!ch.clip) return;

    // The robust range: the 1st..99th percentile, widened by a tenth of it either way, never
    // past the data.
    if (!exact) {
        for (const ColumnSummary& c : all) {
            if (!finite_column(c)) continue;
            for (double v : {c.min, c.mean, c.max})
                if (!full.log || v > 0) values.push_back(v);
        }
    }
    SparkRange r;
    if (!clipped_range(values, full, r)) return;
    ch.range = r;
    if (exact) {
        for (const SeriesData& sd : ch.series) {
            const Series& s = model.store().at(sd.id);
            for (std::size_t i = sd.i0; i < sd.i1; ++i) {
                const double v = s.point(i).value;
                if (!std::isfinite(v) || (r.log && v <= 0)) continue;
                ch.clipped += v > r.hi || v < r.lo;
            }
        }
    } else {
        for (const ColumnSummary& c : all)
            if (finite_column(c))
                ch.clipped += (c.max > r.hi) + (c.min < r.lo && (!r.log || c.min > 0));
    }
}

// `geometry`: only what the key and mouse handlers need (no smoothing).
Chart build_chart(const ViewModel& model, const DetailState& state, int w, int h,
                  bool geometry = false) {
    Chart ch;
    ch.group = model.group(state.tag);
    ch.distribution = ch.group && ch.group->distribution;
    const GlyphTier tier = model.glyphs();
    DetailGeometry& g = ch.g;
    g.dots_x = dot_shape(tier).x;
    if (ch.group) {
        std::set<std::string_view> runs;
        for (SeriesId id : ch.group->series) runs.insert(model.store().at(id).key().run);
        ch.many_runs = runs.size() > 1;
        bool first = true;
        for (SeriesId id : ch.group->series) {
            const Series& s = model.store().at(id);
            if (s.empty()) continue;
            g.data_lo = first ? s.first_step() : std::min(g.data_lo, s.first_step());
            g.data_hi = first ? s.last_step() : std::max(g.data_hi, s.last_step());
            first = false;
            SeriesData sd;
            sd.id = id;
            sd.overlay = model.overlay_index(id);
            sd.level = model.analyzer().series_state(id).level;
            sd.label = series_label(model, id, ch.many_runs, 10);
            ch.series.push_back(std::move(sd));
        }
        g.has_data = !first;
    }
    ch.smoothing = state.smoothing > 0;
    ch.layout = make_layout(w, h, kProvisionalLabelWidth);
    if (!g.has_data) return ch;

    // The front series: the one asked for, else the worst alert (the earliest), else the first.
    std::size_t focus = 0;
    bool found = false;
    if (state.focus)
        for (std::size_t i = 0; i < ch.series.size() && !found; ++i)
            if (model.has_run_rank(ch.series[i].id, *state.focus)) focus = i, found = true;
    if (!found) {
        AlertLevel worst = AlertLevel::kOk;
        std::int64_t worst_step = 0;
        for (std::size_t i = 0; i < ch.series.size(); ++i) {
            const AlertState& a = model.analyzer().series_state(ch.series[i].id);
            if (a.level > worst ||
                (a.level == worst && a.level != AlertLevel::kOk && a.first_step < worst_step)) {
                focus = i;
                worst = a.level;
                worst_step = a.first_step;
            }
        }
    }
    ch.focus = focus;

    g.lo = state.window_lo.value_or(g.data_lo);
    g.hi = state.window_hi.value_or(g.data_hi);
    if (g.hi < g.lo) std::swap(g.lo, g.hi);
    auto place = [&](const Layout& l) {
        g.plot_x = l.plot_x;
        g.plot_y = l.plot_y;
        g.plot_w = l.plot_w;
        g.plot_h = l.plot_h;
        g.columns = l.plot_w * g.dots_x;
    };
    // The y range does not depend on how many columns split the window (every column's
    // min/max together are the window's), so a first pass over a few columns gives the
    // labels' width, and with it the plot's.
    place(ch.layout);
    g.columns = std::min(g.columns, 16);
    compute(ch, model, state, false);
    const int lw = tick_label_width(y_ticks(ch.range, ch.layout.plot_h));
    ch.layout = make_layout(w, h, lw);
    place(ch.layout);
    compute(ch, model, state, !geometry);
    ch.yticks = y_ticks(ch.range, ch.layout.plot_h);
    g.cursor = std::clamp(state.cursor.value_or(g.data_hi), g.lo, g.hi);
    return ch;
}

// --- drawing -----------------------------------------------------------------------------

void draw_plot(Canvas& canvas, const ViewModel& model, const Chart& ch, bool following_cursor) {
    const Layout& l = ch.layout;
    const DetailGeometry& g = ch.g;
    const GlyphTier tier = model.glyphs();
    DotGrid grid(l.plot_w, l.plot_h, tier);
    const int dh = grid.dot_h();
    auto row = [&](double v) { return dot_row(v, ch.range, dh); };

    auto draw_line = [&](int n, auto&& extent, int group, int priority, Style style) {
        plot_line(grid, ch.range, n, extent, group, priority, style);
    };

    const int n = g.columns;
    for (std::size_t k = 0; k < ch.series.size(); ++k) {
        const SeriesData& sd = ch.series[k];
        const bool front = k == ch.focus;
        const Role role = series_role(sd.overlay);
        const int group = static_cast<int>(k);
        Style raw_style{role, front && !sd.smoothed};
        if (sd.smoothed && !front) raw_style = Style{Role::kDim};
        draw_line(
            n,
            [&](int c, double& lo, double& hi, double& first, double& last) {
                const ColumnSummary& col = sd.cols[static_cast<std::size_t>(c)];
                if (!finite_column(col)) return false;
                lo = col.min;
                hi = col.max;
                first = col.mean;
                last = std::isfinite(col.last) ? col.last : kNaN;
                return true;
            },
            group, front ? 3 : 1, raw_style);
        if (sd.smoothed) {
            draw_line(
                n,
                [&](int c, double& lo, double& hi, double& first, double& last) {
                    const auto i = static_cast<std::size_t>(c);
                    if (std::isnan(sd.sfirst[i])) return false;
                    lo = sd.smin[i];
                    hi = sd.smax[i];
                    first = sd.sfirst[i];
                    last = sd.slast[i];
                    return true;
                },
                group, front ? 4 : 2, Style{role, front});
        }
    }
    // A histogram's band under the lines: the lines' dots replace its shade where they cross.
    if (ch.distribution)
        draw_band(canvas, l.plot_x, l.plot_y, l.plot_w, l.plot_h, ch.band, g.dots_x, ch.range, tier,
                  series_role(ch.series[ch.focus].overlay));
    grid.render(canvas, l.plot_x, l.plot_y);

    // Restarts: a dim dotted line where the plot is empty.
    const char32_t vdots = model.ascii() ? U':' : U'┊';
    for (const SeriesData& sd : ch.series)
        for (const RestartMarker& m : model.store().at(sd.id).restarts()) {
            if (m.step < g.lo || m.step > g.hi) continue;
            const int cx = g.cell_of(m.step);
            for (int cy = 0; cy < l.plot_h; ++cy)
                if (grid.empty(cx, cy))
                    canvas.put(l.plot_x + cx, l.plot_y + cy, vdots, {Role::kDim});
        }
    // The cursor: a line where the plot is empty (not while it follows the newest point at the
    // right edge, where it would read as a border), and the front series' point highlighted.
    const int cur = g.cell_of(g.cursor);
    const char32_t vline = model.ascii() ? U'|' : U'│';
    if (!following_cursor)
        for (int cy = 0; cy < l.plot_h; ++cy)
            if (grid.empty(cur, cy))
                canvas.put(l.plot_x + cur, l.plot_y + cy, vline, {Role::kAccent});
    {
        const SeriesData& f = ch.series[ch.focus];
        const Series& s = model.store().at(f.id);
        if (auto i = nearest_index(s, g.cursor)) {
            const Point p = s.point(*i);
            if (std::isfinite(p.value) && p.step >= g.lo && p.step <= g.hi) {
                const int cx = g.cell_of(p.step);
                const int cy = l.plot_h - 1 - row(p.value) / grid.shape().y;
                const char32_t ch_at = grid.empty(cx, cy) ? U' ' : grid.glyph(cx, cy);
                canvas.put(l.plot_x + cx, l.plot_y + cy, ch_at,
                           {series_role(f.overlay), true, true});
            }
        }
    }

    // Points beyond the y range (clipped, or <= 0 on a log scale): marked at the edge, in
    // every cell column that has one.
    const Marks& mk = marks(tier);
    const Style warn{Role::kWarn, true};
    if (ch.clip || ch.range.log) {
        for (const SeriesData& sd : ch.series)
            for (int c = 0; c < n; ++c) {
                const ColumnSummary& col = sd.cols[static_cast<std::size_t>(c)];
                if (!finite_column(col)) continue;
                const int cx = c / g.dots_x;
                if (ch.clip && col.max > ch.range.hi)
                    canvas.put(l.plot_x + cx, l.plot_y, mk.clipped_up, warn);
                if (col.min < ch.range.lo)
                    canvas.put(l.plot_x + cx, l.plot_y + l.plot_h - 1, mk.clipped_down, warn);
            }
    }
}

std::vector<ChartMarker> axis_markers(const ViewModel& model, const Chart& ch) {
    const DetailGeometry& g = ch.g;
    std::vector<ChartMarker> m(static_cast<std::size_t>(g.plot_w));
    for (const SeriesData& sd : ch.series) {
        for (int c = 0; c < g.columns; ++c) {
            const ColumnSummary& col = sd.cols[static_cast<std::size_t>(c)];
            if (col.nan + col.pos_inf + col.neg_inf > 0)
                m[static_cast<std::size_t>(c / g.dots_x)].nan = true;
        }
        for (const RestartMarker& r : model.store().at(sd.id).restarts())
            if (r.step >= g.lo && r.step <= g.hi)
                m[static_cast<std::size_t>(g.cell_of(r.step))].restart = true;
    }
    // Anomalies of this tag on the chart's series, over their episodes.
    std::set<SeriesId> ids;
    for (const SeriesData& sd : ch.series) ids.insert(sd.id);
    for (const AnomalyRecord& r : model.analyzer().log().records()) {
        if (!record_of_chart(r, ch) || !model.selects(r)) continue;
        if (r.series != kNoSeries && !ids.count(r.series) && !ch.distribution) continue;
        if (r.last_step < g.lo || r.step > g.hi) continue;
        const int level = r.severity == Severity::kAlert ? 2 : 1;
        const int a = g.cell_of(std::max(r.step, g.lo)), b = g.cell_of(std::min(r.last_step, g.hi));
        for (int x = a; x <= b; ++x) {
            int& cur = m[static_cast<std::size_t>(x)].anomaly;
            cur = std::max(cur, level);
        }
    }
    return m;
}

// The point of the front series the cursor reads (nearest the cursor's step).
struct Reading {
    bool ok = false;
    Point point;
    double smoothed = kNaN;
};

Reading read_front(const ViewModel& model, const Chart& ch, double weight) {
    Reading r;
    const Series& s = model.store().at(ch.series[ch.focus].id);
    const auto i = nearest_index(s, ch.g.cursor);
    if (!i) return r;
    r.ok = true;
    r.point = s.point(*i);
    if (weight > 0) {
        const std::size_t warm = ema_warmup(weight);
        EmaSmoother ema(weight);
        for (std::size_t k = *i > warm ? *i - warm : 0; k <= *i; ++k)
            r.smoothed = ema.push(s.point(k).value);
    }
    return r;
}

// The cursor's x in the axis' unit.
std::string x_text(XAxis mode, std::int64_t step, double wall, double origin) {
    switch (mode) {
        case XAxis::kStep:
            return short_step(step);
        case XAxis::kRelative:
            return relative_time_text(wall - origin);
        case XAxis::kWall:
            return wall_time_text(wall);
    }
    return {};
}

// The series whose wall times label a time axis: the front one if it has points.
const Series& time_series(const ViewModel& model, const Chart& ch) {
    const Series& f = model.store().at(ch.series[ch.focus].id);
    if (f.retained() > 0) return f;
    for (const SeriesData& sd : ch.series)
        if (model.store().at(sd.id).retained() > 0) return model.store().at(sd.id);
    return f;
}

double first_wall(const Series& s) {
    if (!s.buckets().empty()) return s.buckets().front().first_wall;
    return s.retained() > 0 ? s.point(0).wall_time : kNaN;
}

double wall_at(const Series& s, std::int64_t step) {
    const auto i = nearest_index(s, step);
    return i ? s.point(*i).wall_time : kNaN;
}

std::vector<AxisTick> x_ticks(const ViewModel& model, const Chart& ch, XAxis mode) {
    const DetailGeometry& g = ch.g;
    std::vector<AxisTick> out;
    const Series& ts = time_series(model, ch);
    if (mode != XAxis::kStep && ts.retained() > 1) {
        const double t0 = wall_at(ts, g.lo), t1 = wall_at(ts, g.hi);
        const double origin = first_wall(ts);
        if (std::isfinite(t0) && std::isfinite(t1) && t1 > t0) {
            const int lw = mode == XAxis::kWall ? 8 : 6;
            const double iv = time_tick_interval(t1 - t0, std::max(1, g.plot_w / (lw + 3)));
            const double base =
                mode == XAxis::kWall ? -static_cast<double>(local_utc_offset(t0)) : origin;
            for (double t = base + std::ceil((t0 - base) / iv) * iv; t <= t1; t += iv) {
                // The first point at or after t.
                const std::size_t a =
                    first_point_not(ts, [t](const Point& p) { return p.wall_time < t; });
                if (a >= ts.retained()) break;
                const std::int64_t step = ts.point(a).step;
                if (step < g.lo || step > g.hi) continue;
                std::string label = mode == XAxis::kWall ? wall_time_text(t, iv<60, t1 - t0> 86400)
                                                         : relative_time_text(t - origin, true);
                out.push_back({g.cell_of(step), std::move(label)});
            }
            if (!out.empty()) return out;
        }
    }
    const int lw = std::max(display_width(short_step(g.lo)), display_width(short_step(g.hi)));
    for (std::int64_t s : step_ticks(g.lo, g.hi, std::max(2, g.plot_w / (lw + 4))))
        out.push_back({g.cell_of(s), short_step(s)});
    return out;
}

void draw_axes(Canvas& canvas, const ViewModel& model, const Chart& ch, const DetailState& state,
               const Reading& reading, const std::vector<ChartMarker>& markers) {
    const Layout& l = ch.layout;
    const DetailGeometry& g = ch.g;
    const std::vector<AxisTick> ticks = x_ticks(model, ch, state.x_axis);
    const int cur = g.cell_of(g.cursor);
    draw_chart_axes(canvas, l, ch.yticks, ch.range, ticks, cur, model.glyphs());
    draw_chart_markers(canvas, l, markers, model.glyphs());  // NaN, restarts; anomalies above
    const Series& ts = time_series(model, ch);
    const std::int64_t cstep = reading.ok ? reading.point.step : g.cursor;
    const double cwall = reading.ok ? reading.point.wall_time : wall_at(ts, g.cursor);
    std::string cur_text = x_text(state.x_axis, cstep, cwall, first_wall(ts));
    if (state.x_axis != XAxis::kStep && (!std::isfinite(cwall) || ts.retained() < 2))
        cur_text = short_step(cstep);
    draw_x_labels(canvas, l, ticks, cur, cur_text, l.panel_x >= 0 ? l.panel_x - 1 : canvas.width());
}

std::string smoothing_text(double w) {
    return fmt::format("smooth {}", short_value(w));
}

void draw_title(Canvas& canvas, const ViewModel& model, const Chart& ch, const DetailState& state) {
    const int w = canvas.width();
    const bool ascii = model.ascii();
    const DetailGeometry& g = ch.g;
    // Right: the series in front.
    int end = w;
    if (g.has_data) {
        const SeriesData& f = ch.series[ch.focus];
        std::string right = "front " + f.label;
        const int bw = badge_width(f.level, model.glyphs());
        const int rw = display_width(right) + (bw > 0 ? bw + 1 : 0);
        if (rw + 20 <= w) {
            int x = w - rw;
            x += canvas.text(x, 0, right, {series_role(f.overlay), true});
            if (bw > 0) draw_badge(canvas, x + 1, 0, f.level, model.glyphs());
            end = w - rw - 2;
        }
    }
    std::vector<Piece> segs;
    segs.push_back({state.tag, {Role::kTitle, true}});
    if (ch.group && g.has_data) {
        segs.push_back({count_text(model, ch.group->series), {Role::kDim}});
        if (ch.distribution) segs.push_back({"distribution", {Role::kDim}});
        const std::string dash = ascii ? "-" : "–";
        std::string win;
        const bool whole = g.lo <= g.data_lo && g.hi >= g.data_hi;
        if (state.x_axis == XAxis::kStep) {
            win = "steps " + short_step(g.lo) + dash + short_step(g.hi);
        } else {
            const Series& ts = time_series(model, ch);
            const double t0 = wall_at(ts, g.lo), t1 = wall_at(ts, g.hi);
            if (state.x_axis == XAxis::kRelative)
                win = "time " + relative_time_text(t0 - first_wall(ts)) + dash +
                      relative_time_text(t1 - first_wall(ts));
            else
                win = "wall " + wall_time_text(t0) + dash + wall_time_text(t1);
        }
        if (!whole) win += " of " + short_step(g.data_lo) + dash + short_step(g.data_hi);
        segs.push_back({win, {Role::kText}});
        segs.push_back(
            {state.smoothing > 0 ? smoothing_text(state.smoothing) : "raw", {Role::kDim}});
        if (state.log_y)
            segs.push_back(
                {log_y_text(ch.log_empty, ch.non_positive, ascii), {Role::kAccent, true}});
        if (state.clip_outliers)
            segs.push_back(
                {fmt::format("clipped {}{}", short_step(static_cast<std::int64_t>(ch.clipped)),
                             ch.clipped_exact ? "" : "+"),
                 {ch.clipped > 0 ? Role::kWarn : Role::kAccent, true}});
        bool live = false;
        if (!state.window_lo && !state.window_hi)
            for (const SeriesData& sd : ch.series)
                if (const RunStatus* rs = model.analyzer().run(model.store().at(sd.id).key().run))
                    live |= rs->live && !rs->stalled;
        if (live) segs.push_back({"following", {Role::kOk}});
    }
    draw_pieces(canvas, 0, 0, std::max(1, end), segs, ascii);
}

void draw_legend(Canvas& canvas, const ViewModel& model, const Chart& ch,
                 const std::vector<ChartMarker>& markers) {
    const Layout& l = ch.layout;
    if (l.legend_y < 0) return;
    const bool ascii = model.ascii();
    const int w = l.panel_x >= 0 ? l.panel_x - 1 : canvas.width();
    // Right: the key of the marks that are on the chart.
    std::vector<LegendKey> keys = mark_keys(markers, model.glyphs(), ch.clip && ch.clipped > 0,
                                            ch.range.log && ch.non_positive > 0);
    if (ch.distribution) {  // what each shade of the band spans
        const Role role = series_role(ch.series[ch.focus].overlay);
        std::vector<LegendKey> band;
        static constexpr const char* kSpans[] = {"min-max", "7-93%", "16-84%", "31-69%"};
        for (int k = 1; k <= kDistributionBands; ++k)
            band.push_back({band_glyph(k, model.glyphs()), kSpans[k - 1],
                            k == 1 ? Style{Role::kDim} : Style{role}});
        keys.insert(keys.begin(), band.begin(), band.end());
    }
    const int key_w = legend_keys_width(keys);
    // Left: the series in their colours, the front one reversed.
    int x = 0;
    const std::string line = ascii ? "-" : "━";
    int limit = w - key_w;
    // Keys give way to the series, but a band's keys say what its shades are: they stay.
    if (limit < w / 2 && !ch.distribution) {
        keys.clear();
        limit = w;
    }
    for (std::size_t i = 0; i < ch.series.size(); ++i) {
        const SeriesData& sd = ch.series[i];
        const std::string item = line + " " + sd.label;
        const int iw = display_width(item);
        const std::size_t rest = ch.series.size() - i - 1;
        const std::string more = fmt::format("+{} more", rest + 1);
        const int reserve = rest > 0 ? display_width(more) + 2 : 0;
        if (x + iw + reserve > limit) {
            canvas.text(x, l.legend_y, more, {Role::kDim});
            break;
        }
        const Role role = series_role(sd.overlay);
        const bool front = i == ch.focus;
        x += canvas.text(x, l.legend_y, line, {role, true});
        x += canvas.text(x, l.legend_y, " ");
        x += canvas.text(x, l.legend_y, sd.label, {role, front, front});
        x += 2;
    }
    draw_legend_keys(canvas, w - key_w + 2, l.legend_y, keys);
}

// One rank's value at the reading step.
struct RankValue {
    std::size_t series;
    double value = kNaN;
    std::int64_t step = 0;  // the point read (the reading step, or the last one before it)
    bool has = false;
    bool outlier = false;
};

struct RankReadout {
    std::vector<RankValue> values;  // sorted: non-finite first, then descending
    double median = kNaN;
    std::size_t missing = 0;
};

RankReadout read_ranks(const ViewModel& model, const Chart& ch, std::int64_t step) {
    RankReadout out;
    std::vector<double> finite;
    for (std::size_t k = 0; k < ch.series.size(); ++k) {
        const Series& s = model.store().at(ch.series[k].id);
        RankValue rv{k};
        if (auto i = at_or_before(s, step)) {
            const Point p = s.point(*i);
            rv.value = p.value;
            rv.step = p.step;
            rv.has = true;
            if (std::isfinite(p.value)) finite.push_back(p.value);
        } else {
            ++out.missing;
            continue;
        }
        out.values.push_back(rv);
    }
    if (!finite.empty()) {
        std::sort(finite.begin(), finite.end());
        const std::size_t n = finite.size();
        out.median = n % 2 ? finite[n / 2] : (finite[n / 2 - 1] + finite[n / 2]) / 2;
        // Outliers: modified z-score over 3.5 (Iglewicz and Hoaglin), from the median absolute
        // deviation (the mean absolute deviation when over half the values are equal).
        std::vector<double> dev;
        for (double v : finite) dev.push_back(std::fabs(v - out.median));
        std::sort(dev.begin(), dev.end());
        double mad = n % 2 ? dev[n / 2] : (dev[n / 2 - 1] + dev[n / 2]) / 2;
        double scale = 1.4826 * mad;
        if (!(scale > 0)) {
            double sum = 0;
            for (double d : dev) sum += d;
            scale = 1.253314 * sum / static_cast<double>(n);
        }
        if (n >= 3 && scale > 0)
            for (RankValue& rv : out.values)
                rv.outlier = std::isfinite(rv.value) &&
                             std::fabs(rv.value - out.median) / scale > 3.5 &&
                             std::fabs(rv.value - out.median) > 1e-9 * std::fabs(out.median);
    }
    for (RankValue& rv : out.values)
        if (!std::isfinite(rv.value)) rv.outlier = true;
    std::stable_sort(out.values.begin(), out.values.end(),
                     [](const RankValue& a, const RankValue& b) {
                         const bool fa = std::isfinite(a.value), fb = std::isfinite(b.value);
                         if (fa != fb) return !fa;  // NaN and Inf first
                         if (!fa) return false;
                         return a.value > b.value;
                     });
    return out;
}

Style value_style(const RankValue& rv) {
    if (!std::isfinite(rv.value)) return {Role::kNan, true};
    if (rv.outlier) return {Role::kAlert, true};
    return {Role::kText};
}

// Anomaly records of the tag at the reading step (an episode covering it), worst first.
std::vector<const AnomalyRecord*> records_at(const ViewModel& model, const Chart& ch,
                                             std::int64_t step) {
    std::vector<const AnomalyRecord*> out;
    std::set<SeriesId> ids;
    for (const SeriesData& sd : ch.series) ids.insert(sd.id);
    for (const AnomalyRecord& r : model.analyzer().log().records()) {
        if (!record_of_chart(r, ch) || !model.selects(r)) continue;
        if (r.series != kNoSeries && !ids.count(r.series) && !ch.distribution) continue;
        if (step >= r.step && step <= r.last_step) out.push_back(&r);
    }
    std::stable_sort(out.begin(), out.end(), [](const AnomalyRecord* a, const AnomalyRecord* b) {
        return a->severity > b->severity;
    });
    return out;
}

std::string record_label(const ViewModel& model, const AnomalyRecord& r, bool many_runs) {
    std::string who = r.rank == kNoRank ? model.run_label(r.run) : fmt::format("r{}", r.rank);
    if (many_runs && r.rank != kNoRank) who = model.run_label(r.run) + " " + who;
    return r.rule + " " + who;
}

void draw_panel(Canvas& canvas, const ViewModel& model, const Chart& ch, const DetailState& state,
                const Reading& reading) {
    const Layout& l = ch.layout;
    const bool ascii = model.ascii();
    PanelRows panel(canvas, l.panel_x, 1, l.status_y, ascii);
    const int bottom = panel.bottom;
    int& y = panel.y;
    auto line = [&panel](const std::string& left, Style ls, const std::string& right, Style rs) {
        panel.line(left, ls, right, rs);
    };
    const Style dim{Role::kDim};
    const SeriesData& f = ch.series[ch.focus];
    const Style fstyle{series_role(f.overlay), true};
    line("CURSOR", {Role::kTitle, true}, "", {});
    const std::int64_t step = reading.ok ? reading.point.step : ch.g.cursor;
    line("step", dim, short_step(step), {Role::kAccent, true});
    if (reading.ok) {
        const Series& ts = model.store().at(f.id);
        line("time", dim, relative_time_text(reading.point.wall_time - first_wall(ts)), {});
        line("wall", dim, wall_time_text(reading.point.wall_time), {});
    }
    y += y < bottom;
    {
        std::string left = f.label;
        if (f.level != AlertLevel::kOk) {
            left += ' ';
            append_utf8(left, f.level == AlertLevel::kAlert ? marks(model.glyphs()).alert
                                                            : marks(model.glyphs()).warn);
        }
        const double v = reading.ok ? reading.point.value : kNaN;
        line(left, fstyle, reading.ok ? short_value(v) : "-",
             std::isfinite(v) ? Style{Role::kText, true} : Style{Role::kNan, true});
        if (state.smoothing > 0)
            line("smoothed", dim, reading.ok ? short_value(reading.smoothed) : "-",
                 {series_role(f.overlay), true});
        if (reading.ok && reading.point.step != ch.g.cursor) line("(nearest point)", dim, "", {});
    }
    if (ch.distribution) {  // the quantiles at the step, highest first, as the band stacks them
        if (const auto band = read_band(model.store(), model.band(f.id), step)) {
            y += y < bottom;
            line(fmt::format("DISTRIBUTION AT {}", short_step(band->step)), {Role::kTitle, true},
                 "", {});
            for (int q = kDistributionQuantiles - 1; q >= 0 && y < bottom; --q) {
                const auto i = static_cast<std::size_t>(q);
                const double v = band->has[i] ? band->values[i] : kNaN;
                line(std::string(distribution_label(q)), q == kMedianQuantile ? fstyle : dim,
                     band->has[i] ? short_value(v) : "-",
                     std::isfinite(v) || !band->has[i] ? Style{Role::kText, q == kMedianQuantile}
                                                       : Style{Role::kNan, true});
            }
        }
    }
    for (const AnomalyRecord* r : records_at(model, ch, step)) {
        if (y >= bottom - 3) break;
        std::string t;
        append_utf8(t, r->severity == Severity::kAlert ? marks(model.glyphs()).alert
                                                       : marks(model.glyphs()).warn);
        t += " " + record_label(model, *r, ch.many_runs);
        line(t, {r->severity == Severity::kAlert ? Role::kAlert : Role::kWarn, true}, "", {});
    }
    // Every rank at the step: median, then sorted, outliers marked.
    if (ch.series.size() < 2) return;
    y += y < bottom;
    const RankReadout rr = read_ranks(model, ch, step);
    const bool ranks = std::all_of(ch.series.begin(), ch.series.end(), [&](const SeriesData& sd) {
        return model.run_rank(sd.id).rank != kNoRank;
    });
    line(fmt::format("{} {} AT {}", ch.series.size(), ranks ? "RANKS" : "SERIES", short_step(step)),
         {Role::kTitle, true}, "", {});
    line("median", {Role::kText, true}, short_value(rr.median), {Role::kText, true});
    const int rows = bottom - y;
    if (rows <= 0) return;
    const std::size_t n = rr.values.size() + (rr.missing > 0 ? 1 : 0);
    std::vector<int> shown;  // indices into values; -1 the "+N more" line
    if (static_cast<int>(rr.values.size()) <= rows) {
        for (std::size_t i = 0; i < rr.values.size(); ++i) shown.push_back(static_cast<int>(i));
    } else {
        const int head = rows / 2, tail = rows - 1 - head;
        for (int i = 0; i < head; ++i) shown.push_back(i);
        shown.push_back(-1);
        for (int i = static_cast<int>(rr.values.size()) - tail;
             i < static_cast<int>(rr.values.size()); ++i)
            shown.push_back(i);
    }
    (void)n;
    const std::size_t hidden =
        rr.values.size() - (shown.size() - (std::count(shown.begin(), shown.end(), -1)));
    for (int i : shown) {
        if (i < 0) {
            line(fmt::format("{} +{} more", ascii ? "..." : "…", hidden), dim, "", {});
            continue;
        }
        const RankValue& v = rr.values[static_cast<std::size_t>(i)];
        const SeriesData& sd = ch.series[v.series];
        std::string left = sd.label;
        if (v.outlier && std::isfinite(v.value)) left += " !";
        if (v.step != step) left += fmt::format(" @{}", short_step(v.step));
        const bool front = v.series == ch.focus;
        line(left, {series_role(sd.overlay), front, front}, short_value(v.value), value_style(v));
    }
    if (rr.missing > 0 && y < bottom)
        line(fmt::format("{} without a point", rr.missing), dim, "", {});
}

// The readout in two lines under the legend, for canvases too narrow for the side panel.
void draw_bottom_readout(Canvas& canvas, const ViewModel& model, const Chart& ch,
                         const DetailState& state, const Reading& reading) {
    const Layout& l = ch.layout;
    const bool ascii = model.ascii();
    const int w = canvas.width();
    const SeriesData& f = ch.series[ch.focus];
    const std::int64_t step = reading.ok ? reading.point.step : ch.g.cursor;
    int x = 0, y = l.bottom_y;
    auto put = [&](const std::string& text, Style style) {
        if (x >= w) return false;
        if (x + display_width(text) > w) {
            x += canvas.text(x, y, fit(text, w - x, ascii), style);
            return false;
        }
        x += canvas.text(x, y, text, style);
        return true;
    };
    put("step ", {Role::kDim});
    put(short_step(step), {Role::kAccent, true});
    if (reading.ok) {
        put("  ", {});
        put(wall_time_text(reading.point.wall_time), {Role::kDim});
    }
    put("  " + f.label + " ", {series_role(f.overlay), true});
    put(reading.ok ? short_value(reading.point.value) : "-", {Role::kText, true});
    if (state.smoothing > 0 && reading.ok) {
        put("  smoothed ", {Role::kDim});
        put(short_value(reading.smoothed), {series_role(f.overlay), true});
    }
    if (ch.distribution) {  // the quantiles at the step, lowest first
        x = 0;
        ++y;
        if (const auto band = read_band(model.store(), model.band(f.id), step)) {
            for (int q = 0; q < kDistributionQuantiles; ++q) {
                const auto i = static_cast<std::size_t>(q);
                if (!put(std::string(q ? " " : "") + std::string(distribution_label(q)) + " ",
                         {Role::kDim}))
                    break;
                if (!put(band->has[i] ? short_value(band->values[i]) : "-",
                         {Role::kText, q == kMedianQuantile}))
                    break;
            }
        }
        return;
    }
    if (ch.series.size() < 2) return;
    x = 0;
    ++y;
    const RankReadout rr = read_ranks(model, ch, step);
    put("median ", {Role::kDim});
    put(short_value(rr.median), {Role::kText, true});
    put(ascii ? " |" : " │", {Role::kDim});
    for (std::size_t i = 0; i < rr.values.size(); ++i) {
        const RankValue& v = rr.values[i];
        const SeriesData& sd = ch.series[v.series];
        const std::string item = " " + sd.label + " " + short_value(v.value) +
                                 (v.outlier && std::isfinite(v.value) ? "!" : "");
        const std::size_t rest = rr.values.size() - i - 1;
        const std::string more = fmt::format(" +{} more", rest + 1);
        if (x + display_width(item) + (rest > 0 ? display_width(more) : 0) > w) {
            put(more, {Role::kDim});
            break;
        }
        x += canvas.text(x, y, " " + sd.label + " ", {series_role(sd.overlay)});
        x += canvas.text(x, y,
                         short_value(v.value) + (v.outlier && std::isfinite(v.value) ? "!" : ""),
                         value_style(v));
    }
}

std::string status_hint(int w) {
    if (w >= 116) return "+- zoom  [] pan  x axis  l log  o clip  Tab front  s smooth";
    if (w >= 80) return "+- zoom  [] pan  x axis  l log  o clip";
    return "detail";
}

}  // namespace

// --- geometry ----------------------------------------------------------------------------

DetailGeometry detail_geometry(const ViewModel& model, const DetailState& state, int width,
                               int height) {
    if (width < kMinWidth || height < kMinHeight) return {};
    if (state.compare) return compare_geometry(model, state, width, height);
    return build_chart(model, state, width, height, true).g;
}

double next_smoothing(double weight) {
    for (double w : {0.6, 0.9, 0.99})
        if (weight < w - 1e-9) return w;
    return 0;
}

void open_detail(DetailState& state, const ViewModel& model, std::string tag,
                 std::optional<RunRank> focus, std::optional<std::int64_t> step) {
    state.tag = std::move(tag);
    state.focus = std::move(focus);
    state.compare.reset();
    state.cursor = step;
    state.window_lo.reset();
    state.window_hi.reset();
    if (!step) return;
    // Centred on the step: the whole run when it is short, else a quarter of it (at least
    // kOpenSpan steps).
    const TagGroup* group = model.group(state.tag);
    if (!group) return;
    bool first = true;
    std::int64_t lo = 0, hi = 0;
    for (SeriesId id : group->series) {
        const Series& s = model.store().at(id);
        if (s.empty()) continue;
        lo = first ? s.first_step() : std::min(lo, s.first_step());
        hi = first ? s.last_step() : std::max(hi, s.last_step());
        first = false;
    }
    if (first) return;
    const std::int64_t full = hi - lo + 1;
    if (full <= kOpenSpan) return;
    const std::int64_t span = std::max(kOpenSpan, full / 4);
    std::int64_t a = std::clamp(*step, lo, hi) - span / 2;
    a = std::clamp(a, lo, hi - span + 1);
    state.window_lo = a;
    state.window_hi = a + span - 1;
}

void draw_detail(Canvas& canvas, const ViewModel& model, const DetailState& state) {
    canvas.clear();
    if (too_small(canvas)) {
        draw_too_small(canvas, "detail");
        return;
    }
    if (state.compare) {
        draw_compare_detail(canvas, model, state);
        return;
    }
    const Chart ch = build_chart(model, state, canvas.width(), canvas.height());
    draw_title(canvas, model, ch, state);
    if (!ch.g.has_data) {
        const std::string text = !ch.group
                                     ? (state.tag.empty() ? std::string("no tag to chart")
                                                          : "no selected series of " + state.tag)
                                     : std::string("no points yet");
        canvas.text(1, 2, fit(text, canvas.width() - 2, model.ascii()), {Role::kDim});
        draw_status(canvas, model, status_hint(canvas.width()));
        return;
    }
    const Reading reading = read_front(model, ch, state.smoothing);
    const std::vector<ChartMarker> markers = axis_markers(model, ch);
    draw_plot(canvas, model, ch, !state.cursor && ch.g.cursor >= ch.g.data_hi);
    draw_axes(canvas, model, ch, state, reading, markers);
    draw_legend(canvas, model, ch, markers);
    if (ch.layout.panel_x >= 0)
        draw_panel(canvas, model, ch, state, reading);
    else if (ch.layout.bottom_y >= 0)
        draw_bottom_readout(canvas, model, ch, state, reading);
    draw_status(canvas, model, status_hint(canvas.width()));
}

// --- input -------------------------------------------------------------------------------

namespace {

// Sets the window to [lo, lo + span) inside the data (the whole data: following again).
void set_window(DetailState& state, const DetailGeometry& g, std::int64_t lo, std::int64_t span) {
    const std::int64_t full = g.data_hi - g.data_lo + 1;
    span = std::clamp<std::int64_t>(span, std::min(kMinSpan, full), full);
    lo = std::clamp(lo, g.data_lo, g.data_hi - span + 1);
    if (span >= full) {
        state.window_lo.reset();
        state.window_hi.reset();
        return;
    }
    state.window_lo = lo;
    state.window_hi = lo + span - 1;
}

bool zoom(DetailState& state, const DetailGeometry& g, std::int64_t about, double factor) {
    const auto before = std::pair(state.window_lo, state.window_hi);
    const std::int64_t span = g.hi - g.lo + 1;
    const auto next = static_cast<std::int64_t>(std::llround(static_cast<double>(span) * factor));
    about = std::clamp(about, g.lo, g.hi);
    // `about` keeps its place in the window.
    const double t =
        span > 1 ? static_cast<double>(about - g.lo) / static_cast<double>(span - 1) : 0.5;
    const std::int64_t clamped = std::clamp<std::int64_t>(
        next, std::min(kMinSpan, g.data_hi - g.data_lo + 1), g.data_hi - g.data_lo + 1);
    const auto lo =
        about - static_cast<std::int64_t>(std::llround(t * static_cast<double>(clamped - 1)));
    set_window(state, g, lo, clamped);
    return std::pair(state.window_lo, state.window_hi) != before;
}

bool pan(DetailState& state, const DetailGeometry& g, std::int64_t by) {
    const auto before = std::pair(state.window_lo, state.window_hi);
    const std::int64_t span = g.hi - g.lo + 1;
    if (!state.window_lo && !state.window_hi) return false;  // the whole run: nowhere to go
    set_window(state, g, g.lo + by, span);
    if (std::pair(state.window_lo, state.window_hi) == before) return false;
    // Keep the cursor inside the window.
    const std::int64_t lo = state.window_lo.value_or(g.data_lo);
    const std::int64_t hi = state.window_hi.value_or(g.data_hi);
    const std::int64_t cur = state.cursor.value_or(g.data_hi);
    if (cur < lo || cur > hi) state.cursor = std::clamp(cur, lo, hi);
    return true;
}

}  // namespace

std::string detail_go_to_step(DetailState& state, std::int64_t step, const ViewModel& model,
                              int width, int height) {
    const DetailGeometry g = detail_geometry(model, state, width, height);
    if (!g.has_data) return "no points to go to";
    const std::string note = clamp_step(step, g.data_lo, g.data_hi, "the data");
    // Outside the window: the window moves to centre it, as wide as it was.
    if (step < g.lo || step > g.hi) {
        const std::int64_t span = g.hi - g.lo + 1;
        set_window(state, g, step - span / 2, span);
    }
    state.cursor = step;
    return note + fmt::format("cursor at step {}", step);
}

bool detail_handle(DetailState& state, Action action, const ViewModel& model, int width,
                   int height) {
    switch (action) {
        case Action::kToggleLogY:
            state.log_y = !state.log_y;
            return true;
        case Action::kCycleXAxis: {
            const XAxis before = state.x_axis;
            state.x_axis = state.x_axis == XAxis::kStep       ? XAxis::kRelative
                           : state.x_axis == XAxis::kRelative ? XAxis::kWall
                                                              : XAxis::kStep;
            // Compare mode's x is the axis' unit (steps or milliseconds): keep the points.
            if (state.compare) compare_convert_x(state, model, before);
            return true;
        }
        case Action::kToggleClipOutliers:
            state.clip_outliers = !state.clip_outliers;
            return true;
        case Action::kCycleSmoothing:
            state.smoothing = next_smoothing(state.smoothing);
            return true;
        default:
            break;
    }
    if (width < kMinWidth || height < kMinHeight) return false;
    Chart ch;
    if (!state.compare) ch = build_chart(model, state, width, height, true);
    const DetailGeometry g = state.compare ? compare_geometry(model, state, width, height) : ch.g;
    if (!g.has_data) return false;
    const std::int64_t span = g.hi - g.lo + 1;
    const std::int64_t column_steps = std::max<std::int64_t>(1, span / std::max(1, g.columns));
    switch (action) {
        case Action::kZoomIn:
            return zoom(state, g, g.cursor, 0.5);
        case Action::kZoomOut:
            return zoom(state, g, g.cursor, 2.0);
        case Action::kResetZoom: {
            const bool changed = state.window_lo || state.window_hi;
            state.window_lo.reset();
            state.window_hi.reset();
            return changed;
        }
        case Action::kPanLeft:
            return pan(state, g, -std::max<std::int64_t>(1, span / 4));
        case Action::kPanRight:
            return pan(state, g, std::max<std::int64_t>(1, span / 4));
        case Action::kLeft: {
            const int c = g.column_of(g.cursor);
            if (c > 0) {
                state.cursor = std::min(g.cursor - 1, g.column_step(c - 1));
                return true;
            }
            if (g.lo <= g.data_lo) {
                if (g.cursor == g.data_lo && state.cursor) return false;
                state.cursor = g.data_lo;
                return true;
            }
            pan(state, g, -column_steps);
            state.cursor = std::max(g.data_lo, g.cursor - column_steps);
            return true;
        }
        case Action::kRight: {
            const int c = g.column_of(g.cursor);
            if (!state.cursor && g.cursor >= g.data_hi) return false;  // newest, following
            if (c + 1 < g.columns && g.column_step(c + 1) <= g.hi) {
                state.cursor = std::max(g.cursor + 1, g.column_step(c + 1));
                if (*state.cursor > g.hi) state.cursor = g.hi;
                return true;
            }
            if (g.hi >= g.data_hi) {
                if (g.cursor >= g.data_hi) return false;
                state.cursor = g.data_hi;
                return true;
            }
            pan(state, g, column_steps);
            state.cursor = std::min(g.data_hi, g.cursor + column_steps);
            return true;
        }
        case Action::kFirst: {
            state.cursor = g.data_lo;
            if (state.window_lo) set_window(state, g, g.data_lo, span);
            return true;
        }
        case Action::kLast: {
            state.cursor.reset();
            if (state.window_lo) set_window(state, g, g.data_hi - span + 1, span);
            return true;
        }
        case Action::kNextSeries:
        case Action::kPreviousSeries: {
            if (state.compare) {
                compare_swap_front(state);
                return true;
            }
            if (ch.series.size() < 2) return false;
            const std::size_t n = ch.series.size();
            const std::size_t next =
                action == Action::kNextSeries ? (ch.focus + 1) % n : (ch.focus + n - 1) % n;
            state.focus = model.run_rank(ch.series[next].id);
            return true;
        }
        default:
            return false;
    }
}

namespace {

bool mouse_at(DetailState& state, int x, int y, MouseButton button, const ViewModel& model,
              int width, int height) {
    if (width < kMinWidth || height < kMinHeight) return false;
    DetailGeometry g;
    int bottom = 0;
    if (state.compare) {
        const CompareChart ch =
            build_compare_chart(model, state, width, height, CompareBuild::kGeometry);
        g = ch.g;
        bottom = ch.layout.labels_y >= 0 ? ch.layout.labels_y : ch.layout.axis_y;
    } else {
        const Chart ch = build_chart(model, state, width, height, true);
        g = ch.g;
        bottom = ch.layout.labels_y >= 0 ? ch.layout.labels_y : ch.layout.axis_y;
    }
    if (!g.has_data || g.plot_w <= 0) return false;
    // The plot (and the Δ strip), its axis and labels below, the marks row above.
    if (x < g.plot_x || x >= g.plot_x + g.plot_w || y < 1 || y > bottom) return false;
    const int cell = x - g.plot_x;
    // The middle of the cell's columns.
    const int c0 = cell * g.dots_x;
    const std::int64_t a = g.column_step(c0), b = g.column_step(c0 + g.dots_x);
    const std::int64_t step = std::clamp(b > a ? a + (b - a - 1) / 2 : a, g.lo, g.hi);
    switch (button) {
        case MouseButton::kLeft:
            state.cursor = step;
            return true;
        case MouseButton::kWheelUp:
            return zoom(state, g, step, 0.5);
        case MouseButton::kWheelDown:
            return zoom(state, g, step, 2.0);
        default:
            return false;
    }
}

}  // namespace

Pointer detail_mouse(DetailState& state, const InputEvent& event, const ViewModel& model, int width,
                     int height) {
    return mouse_at(state, event.x, event.y, event.button, model, width, height)
               ? Pointer::kChanged
               : Pointer::kNothing;
}

ViewSelection detail_selected(const DetailState& state, const ViewModel& model, int /*width*/,
                              int /*height*/) {
    return {model.group(state.tag), std::nullopt, {}};
}

void open_chart(DetailState& state, const ViewModel& model, ChartTarget target) {
    if (target.compare)
        open_compare_detail(state, model, std::move(target.tag), std::move(*target.compare),
                            target.step);
    else
        open_detail(state, model, std::move(target.tag), std::move(target.focus), target.step);
}

}  // namespace runtop::ui
