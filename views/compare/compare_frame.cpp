// Drawing the compare chart (views/compare/compare_chart.h): title, the two runs' lines, axes and
// marks, the Δ strip, the legend and the status line; the readout is compare_readout.cpp.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/format.h"
#include "views/chart_plot.h"
#include "views/compare/compare_frame.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

Role side_role(const CompareChart& ch, int k) {
    return series_role(ch.side(k).colour);
}

int front_index(const CompareChart& ch) {
    return ch.front_a ? 0 : 1;
}

// The back run's ASCII glyphs: the same shapes, other characters.
char32_t back_glyph(char32_t ch) {
    switch (ch) {
        case U'.':
            return U',';
        case U'-':
            return U'~';
        case U'\'':
            return U'`';
        case U':':
            return U';';
        case U'|':
            return U'!';
        default:
            return ch;
    }
}

// Whether a series belongs to the chart, and to which side (0 A, 1 B).
int side_of(const CompareChart& ch, SeriesId id) {
    for (int k = 0; k < 2; ++k)
        if (std::find(ch.side(k).ids.begin(), ch.side(k).ids.end(), id) != ch.side(k).ids.end())
            return k;
    return -1;
}

// The x of a step of a side on the chart's axis (its point at or before the step; the step
// itself on the step axis or when it has none).
std::int64_t step_x(const CompareChart& ch, int k, std::int64_t step) {
    if (ch.axis == XAxis::kStep) return step;
    const CompareSide& side = ch.side(k);
    const std::optional<SidePoint> p = side_point_at_or_before(side, step);
    if (!p) return ch.g.data_lo;
    return compare_x(ch.axis, p->step, p->wall, side.origin);
}

bool in_window(const DetailGeometry& g, std::int64_t x) {
    return x >= g.lo && x <= g.hi;
}

void draw_plot(Canvas& canvas, const ViewModel& model, const CompareChart& ch,
               bool following_cursor) {
    const CompareChartLayout& l = ch.layout;
    const DetailGeometry& g = ch.g;
    const GlyphTier tier = model.glyphs();
    DotGrid grid(l.plot_w, l.plot_h, tier);
    const int n = g.columns;
    const int front = front_index(ch), back = 1 - front;
    auto line = [&](const std::vector<LineColumn>& cols, bool join, int group, int priority,
                    Style style) {
        if (cols.empty()) return;
        plot_line(
            grid, ch.range, n,
            [&](int c, double& lo, double& hi, double& first, double& last) {
                const LineColumn& col = cols[static_cast<std::size_t>(c)];
                if (std::isnan(col.lo)) return false;
                lo = col.lo;
                hi = col.hi;
                first = col.first;
                last = join ? col.last : std::numeric_limits<double>::quiet_NaN();
                return true;
            },
            group, priority, style);
    };
    // Groups: 0 A, 1 B, 2 and 3 their envelopes (behind every line; the front one's first).
    if (tier != GlyphTier::kAscii)
        for (int k : {front, back}) line(ch.data[k].envelope, false, 2 + k, 0, {Role::kDim});
    for (int k : {back, front}) {
        const SideColumns& d = ch.data[k];
        const Role role = side_role(ch, k);
        const bool is_front = k == front;
        const int base = is_front ? 3 : 1;
        Style raw{role, is_front};
        if (d.smoothed && !is_front) raw = Style{Role::kDim};
        line(d.raw, true, k, base, raw);
        if (d.smoothed) line(d.smooth, true, k, base + 1, Style{role, is_front});
    }
    for (int cy = 0; cy < l.plot_h; ++cy)
        for (int cx = 0; cx < l.plot_w; ++cx) {
            if (grid.empty(cx, cy)) continue;
            char32_t glyph = grid.glyph(cx, cy);
            if (tier == GlyphTier::kAscii && grid.group(cx, cy) == back) glyph = back_glyph(glyph);
            canvas.put(l.plot_x + cx, l.plot_y + cy, glyph, grid.style(cx, cy));
        }

    // Restarts: a dim dotted line where the plot is empty.
    const char32_t vdots = model.ascii() ? U':' : U'┊';
    for (int k = 0; k < 2; ++k)
        for (const Series* s : ch.side(k).series)
            for (const RestartMarker& m : s->restarts()) {
                const std::int64_t x = compare_x(ch.axis, m.step, m.wall_time, ch.side(k).origin);
                if (!in_window(g, x)) continue;
                const int cx = g.cell_of(x);
                for (int cy = 0; cy < l.plot_h; ++cy)
                    if (grid.empty(cx, cy))
                        canvas.put(l.plot_x + cx, l.plot_y + cy, vdots, {Role::kDim});
            }
    // The cursor: a line where the plot is empty (not while it follows the newest point), and
    // the two points it reads highlighted in their runs' colours.
    const int cur = g.cell_of(g.cursor);
    if (!following_cursor)
        for (int cy = 0; cy < l.plot_h; ++cy)
            if (grid.empty(cur, cy))
                canvas.put(l.plot_x + cur, l.plot_y + cy, model.ascii() ? U'|' : U'│',
                           {Role::kAccent});
    const CompareReadout& r = ch.readout;
    for (int k : {back, front}) {
        const std::optional<SidePoint>& p = k == 0 ? r.a : r.b;
        if (!p || !std::isfinite(p->value)) continue;
        const std::int64_t x = compare_x(ch.axis, p->step, p->wall, ch.side(k).origin);
        if (!in_window(g, x)) continue;
        const int cx = g.cell_of(x);
        const int cy = l.plot_h - 1 - dot_row(p->value, ch.range, grid.dot_h()) / grid.shape().y;
        char32_t glyph = grid.empty(cx, cy) ? U' ' : grid.glyph(cx, cy);
        if (tier == GlyphTier::kAscii && grid.group(cx, cy) == back) glyph = back_glyph(glyph);
        canvas.put(l.plot_x + cx, l.plot_y + cy, glyph, {side_role(ch, k), true, true});
    }
    // Points beyond the y range (clipped, or <= 0 on a log scale): marked at the edge.
    const Marks& mk = marks(tier);
    const Style warn{Role::kWarn, true};
    if (ch.clip || ch.range.log)
        for (const SideColumns& d : ch.data)
            for (int c = 0; c < n; ++c) {
                const LineColumn& col = d.raw[static_cast<std::size_t>(c)];
                if (std::isnan(col.lo)) continue;
                const int cx = c / g.dots_x;
                if (ch.clip && col.hi > ch.range.hi)
                    canvas.put(l.plot_x + cx, l.plot_y, mk.clipped_up, warn);
                if (col.lo < ch.range.lo)
                    canvas.put(l.plot_x + cx, l.plot_y + l.plot_h - 1, mk.clipped_down, warn);
            }
}

std::vector<ChartMarker> axis_markers(const ViewModel& model, const DetailState& state,
                                      const CompareChart& ch) {
    const DetailGeometry& g = ch.g;
    std::vector<ChartMarker> m(static_cast<std::size_t>(g.plot_w));
    for (int k = 0; k < 2; ++k) {
        const SideColumns& d = ch.data[k];
        for (int c = 0; c < g.columns && c < static_cast<int>(d.nonfinite.size()); ++c)
            if (d.nonfinite[static_cast<std::size_t>(c)] > 0)
                m[static_cast<std::size_t>(c / g.dots_x)].nan = true;
        for (const Series* s : ch.side(k).series)
            for (const RestartMarker& r : s->restarts()) {
                const std::int64_t x = compare_x(ch.axis, r.step, r.wall_time, ch.side(k).origin);
                if (in_window(g, x)) m[static_cast<std::size_t>(g.cell_of(x))].restart = true;
            }
    }
    // Anomalies on the chart's series, over their episodes.
    for (const AnomalyRecord& r : model.analyzer().log().records()) {
        if (r.tag != state.tag || !model.selects(r) || r.series == kNoSeries) continue;
        const int k = side_of(ch, r.series);
        if (k < 0) continue;
        const std::int64_t a = step_x(ch, k, r.step), b = step_x(ch, k, r.last_step);
        if (b < g.lo || a > g.hi) continue;
        const int level = r.severity == Severity::kAlert ? 2 : 1;
        for (int x = g.cell_of(std::max(a, g.lo)); x <= g.cell_of(std::min(b, g.hi)); ++x) {
            int& cur = m[static_cast<std::size_t>(x)].anomaly;
            cur = std::max(cur, level);
        }
    }
    return m;
}

std::vector<AxisTick> x_ticks(const CompareChart& ch) {
    const DetailGeometry& g = ch.g;
    std::vector<AxisTick> out;
    if (ch.axis != XAxis::kStep) {
        const double t0 = static_cast<double>(g.lo) / 1000, t1 = static_cast<double>(g.hi) / 1000;
        if (t1 > t0) {
            const bool wall = ch.axis == XAxis::kWall;
            const int lw = wall ? 8 : 6;
            const double iv = time_tick_interval(t1 - t0, std::max(1, g.plot_w / (lw + 3)));
            const double base = wall ? -static_cast<double>(local_utc_offset(t0)) : 0;
            for (double t = base + std::ceil((t0 - base) / iv) * iv; t <= t1; t += iv) {
                const auto x = static_cast<std::int64_t>(std::llround(t * 1000));
                std::string label =
                    wall ? wall_time_text(t, iv<60, t1 - t0> 86400) : relative_time_text(t, true);
                out.push_back({g.cell_of(x), std::move(label)});
            }
        }
        return out;
    }
    const int lw = std::max(display_width(short_step(g.lo)), display_width(short_step(g.hi)));
    for (std::int64_t s : step_ticks(g.lo, g.hi, std::max(2, g.plot_w / (lw + 4))))
        out.push_back({g.cell_of(s), short_step(s)});
    return out;
}

// An x on the chart's axis as the axis labels it.
std::string x_label(const CompareChart& ch, std::int64_t x) {
    switch (ch.axis) {
        case XAxis::kStep:
            return short_step(x);
        case XAxis::kRelative:
            return relative_time_text(static_cast<double>(x) / 1000);
        case XAxis::kWall:
            return wall_time_text(static_cast<double>(x) / 1000);
    }
    return {};
}

void draw_axes(Canvas& canvas, const ViewModel& model, const CompareChart& ch,
               const std::vector<ChartMarker>& markers) {
    const CompareChartLayout& l = ch.layout;
    const DetailGeometry& g = ch.g;
    const std::vector<AxisTick> ticks = x_ticks(ch);
    const int cur = g.cell_of(g.cursor);
    draw_chart_axes(canvas, l, ch.yticks, ch.range, ticks, cur, model.glyphs());
    draw_chart_markers(canvas, l, markers, model.glyphs());
    // The first divergence, over everything else on both rows.
    if (ch.divergence && in_window(g, ch.divergence_x)) {
        const int x = l.plot_x + g.cell_of(ch.divergence_x);
        const char32_t d = divergence_mark(model.glyphs());
        canvas.put(x, l.axis_y, d, {Role::kAlert, true});
        if (l.marks_y >= 0) canvas.put(x, l.marks_y, d, {Role::kAlert, true});
    }
    // The cursor's label: the point it reads, on the axis' unit.
    const CompareReadout& r = ch.readout;
    std::string cur_text = x_label(ch, g.cursor);
    if (r.ok) {
        const CompareSide& side = r.reading_a ? ch.sides.a : ch.sides.b;
        cur_text = x_label(ch, compare_x(ch.axis, r.step, r.wall, side.origin));
    }
    draw_x_labels(canvas, l, ticks, cur, cur_text, l.panel_x >= 0 ? l.panel_x - 1 : canvas.width());
}

void draw_title(Canvas& canvas, const ViewModel& model, const DetailState& state,
                const CompareChart& ch) {
    const int w = canvas.width();
    const bool ascii = model.ascii();
    const DetailGeometry& g = ch.g;
    const CompareDetail& cmp = *state.compare;
    int end = w;
    if (g.has_data) {
        const int f = front_index(ch);
        const std::string right = "front " + compare_run_label(model, ch, f);
        const int rw = display_width(right);
        if (rw + 30 <= w) {
            canvas.text(w - rw, 0, right, {side_role(ch, f), true});
            end = w - rw - 2;
        }
    }
    std::vector<Piece> segs;
    std::string head = "compare: " + state.tag + (ascii ? " - " : " — ") + cmp.run_a + " vs " +
                       cmp.run_b + ", " +
                       (cmp.mean              ? std::string("cross-rank mean")
                        : cmp.rank == kNoRank ? std::string("no rank")
                                              : fmt::format("rank {}", cmp.rank));
    segs.push_back({head, {Role::kTitle, true}});
    if (g.has_data) {
        const std::string dash = ascii ? "-" : "–";
        const bool whole = g.lo <= g.data_lo && g.hi >= g.data_hi;
        const char* unit = ch.axis == XAxis::kStep       ? "steps "
                           : ch.axis == XAxis::kRelative ? "time "
                                                         : "wall ";
        std::string win = unit + x_label(ch, g.lo) + dash + x_label(ch, g.hi);
        if (!whole) win += " of " + x_label(ch, g.data_lo) + dash + x_label(ch, g.data_hi);
        segs.push_back({win, {Role::kText}});
        if (cmp.align == CompareAlign::kRelativeWall)
            segs.push_back({"paired by time", {Role::kDim}});
        segs.push_back({state.smoothing > 0 ? fmt::format("smooth {}", short_value(state.smoothing))
                                            : std::string("raw"),
                        {Role::kDim}});
        if (state.log_y)
            segs.push_back(
                {log_y_text(ch.log_empty, ch.non_positive, ascii), {Role::kAccent, true}});
        if (state.clip_outliers)
            segs.push_back(
                {fmt::format("clipped {}", short_step(static_cast<std::int64_t>(ch.clipped))),
                 {ch.clipped > 0 ? Role::kWarn : Role::kAccent, true}});
        bool live = false;
        if (!state.window_lo && !state.window_hi)
            for (const std::string* run : {&cmp.run_a, &cmp.run_b})
                if (const RunStatus* rs = model.analyzer().run(*run))
                    live |= rs->live && !rs->stalled;
        if (live) segs.push_back({"following", {Role::kOk}});
    }
    draw_pieces(canvas, 0, 0, std::max(1, end), segs, ascii);
}

void draw_legend(Canvas& canvas, const ViewModel& model, const CompareChart& ch,
                 const std::vector<ChartMarker>& markers) {
    const CompareChartLayout& l = ch.layout;
    if (l.legend_y < 0) return;
    const bool ascii = model.ascii();
    const int w = l.panel_x >= 0 ? l.panel_x - 1 : canvas.width();
    std::vector<LegendKey> keys;
    if (ch.divergence)
        keys.push_back({divergence_mark(model.glyphs()),
                        "diverges at " + short_step(ch.divergence->a.step),
                        {Role::kAlert, true}});
    else
        keys.push_back({0, "no divergence", {Role::kOk}});
    for (LegendKey& k : mark_keys(markers, model.glyphs(), ch.clip && ch.clipped > 0,
                                  ch.range.log && ch.non_positive > 0))
        keys.push_back(std::move(k));
    auto key_width = [&] { return legend_keys_width(keys); };
    // Left: the two runs in their colours, the front one reversed (and bold).
    const std::string line = ascii ? "-" : "━";
    int series_w = 0;
    for (int k = 0; k < 2; ++k)
        series_w += display_width(line + " " + compare_run_label(model, ch, k)) + 2;
    // Keys give way to the runs, the last first.
    while (!keys.empty() && series_w + key_width() > w) keys.pop_back();
    int x = 0;
    for (int k = 0; k < 2; ++k) {
        const Role role = side_role(ch, k);
        const bool front = k == front_index(ch);
        x += canvas.text(x, l.legend_y, ascii && k != front_index(ch) ? "~" : line, {role, true});
        x += canvas.text(x, l.legend_y, " ");
        x += canvas.text(x, l.legend_y, model.run_label(ch.side(k).run, std::max(1, w / 2 - x)),
                         {role, front, front});
        x += 2;
    }
    draw_legend_keys(canvas, w - key_width() + 2, l.legend_y, keys);
}

std::string status_hint(int w) {
    if (w >= 116) return "+- zoom  [] pan  x axis  l log  s smooth  Tab front  Esc back";
    if (w >= 80) return "+- zoom  [] pan  x axis  Tab front";
    return "compare";
}

}  // namespace

std::string compare_run_label(const ViewModel& model, const CompareChart& ch, int k) {
    return model.run_label(ch.side(k).run);
}

char32_t divergence_mark(GlyphTier tier) {
    return tier == GlyphTier::kAscii ? U'#' : U'◆';
}

void draw_compare_frame(Canvas& canvas, const ViewModel& model, const DetailState& state,
                        const CompareChart& ch) {
    draw_title(canvas, model, state, ch);
    if (!ch.g.has_data) {
        const CompareDetail& cmp = *state.compare;
        std::string text;
        if (state.tag.empty())
            text = "no tag to compare";
        else if (ch.sides.a.series.empty() && ch.sides.b.series.empty())
            text = "no selected series of " + state.tag + " in " + cmp.run_a + " or " + cmp.run_b;
        else
            text = "no points yet";
        canvas.text(1, 2, fit(text, canvas.width() - 2, model.ascii()), {Role::kDim});
        draw_status(canvas, model, status_hint(canvas.width()));
        return;
    }
    const std::vector<ChartMarker> markers = axis_markers(model, state, ch);
    draw_plot(canvas, model, ch, !state.cursor && ch.g.cursor >= ch.g.data_hi);
    const CompareChartLayout& l = ch.layout;
    if (l.strip_y >= 0) {
        DeltaPlace at;
        at.axis_x = l.ylabel_w;
        at.x = l.plot_x;
        at.y = l.strip_y;
        at.w = l.plot_w;
        at.rows = l.strip_rows;
        at.columns = ch.g.columns;
        if (state.cursor || ch.g.cursor < ch.g.data_hi) at.cursor = ch.g.cell_of(ch.g.cursor);
        const std::string delta = model.ascii() ? "delta " : "Δ ";
        const std::string minus = model.ascii() ? " - " : " − ";
        const std::string label =
            delta + compare_run_label(model, ch, 1) + minus + compare_run_label(model, ch, 0);
        draw_delta_strip(canvas, at, ch.delta, ch.delta_range, label, model.glyphs());
    }
    draw_axes(canvas, model, ch, markers);
    draw_legend(canvas, model, ch, markers);
    if (l.panel_x >= 0)
        draw_compare_panel(canvas, model, state, ch);
    else if (l.bottom_y >= 0)
        draw_compare_bottom(canvas, model, state, ch);
    draw_status(canvas, model, status_hint(canvas.width()));
}

}  // namespace runtop::ui
