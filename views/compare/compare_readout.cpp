// The compare chart's cursor readout (views/compare/compare_chart.h): a panel at the right, or two
// lines under the legend on a narrow canvas.
//
//   CURSOR                             the point read: step, its run's time since its start and
//   step                 250           wall clock
//   time              +4m10s
//   wall            22:17:30
//
//   base               0.912           each run's value there, in its colour (the front one
//   new                1.083           reversed); "@N" when it is the point of another step
//   Δ                 +0.171           B − A, B / A, relative difference (bold, warn colour,
//   ratio              1.187           beyond the tolerance)
//   rel diff           0.158
//
//   DIVERGENCE                         the first pair beyond the tolerance, over every pair
//   first at step        120
//   tolerance           1e-6
//
//   RANKS AT 250                       with the rank mean: the ranks averaged and their range
//   base         4  0.9–0.93
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "core/format.h"
#include "views/chart_plot.h"
#include "views/compare/compare_frame.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

std::string signed_value(double v) {
    return v > 0 ? "+" + short_value(v) : short_value(v);
}

Style value_style(double v) {
    return std::isfinite(v) ? Style{Role::kText, true} : Style{Role::kNan, true};
}

// A run's label in the readout: "@N" when its point is of another step than the one read.
std::string point_label(const ViewModel& model, const CompareChart& ch, int k,
                        const std::optional<SidePoint>& p) {
    std::string label = compare_run_label(model, ch, k);
    if (p && p->step != ch.readout.step) label += " @" + short_step(p->step);
    return label;
}

std::string time_text(const CompareReadout& r) {
    return relative_time_text(r.time);
}

}  // namespace

void draw_compare_panel(Canvas& canvas, const ViewModel& model, const DetailState& state,
                        const CompareChart& ch) {
    const CompareChartLayout& l = ch.layout;
    const CompareReadout& r = ch.readout;
    const CompareDetail& cmp = *state.compare;
    const bool ascii = model.ascii();
    PanelRows panel(canvas, l.panel_x, 1, l.status_y, ascii);
    auto line = [&panel](const std::string& left, Style ls, const std::string& right, Style rs) {
        panel.line(left, ls, right, rs);
    };
    auto gap = [&panel] { panel.gap(); };
    const Style dim{Role::kDim};
    const Style title{Role::kTitle, true};
    line("CURSOR", title, "", {});
    line("step", dim, r.ok ? short_step(r.step) : short_step(ch.g.cursor), {Role::kAccent, true});
    if (r.ok) {
        line(ch.sides.a.run == ch.sides.b.run
                 ? std::string("time")
                 : "time " + compare_run_label(model, ch, r.reading_a ? 0 : 1),
             dim, time_text(r), {});
        line("wall", dim, wall_time_text(r.wall), {});
    }
    gap();
    const int front = ch.front_a ? 0 : 1;
    for (int k = 0; k < 2; ++k) {
        const std::optional<SidePoint>& p = k == 0 ? r.a : r.b;
        const bool is_front = k == front;
        line(point_label(model, ch, k, p), {series_role(ch.side(k).colour), true, is_front},
             p ? short_value(p->value) : "-", p ? value_style(p->value) : dim);
    }
    const Style differ = r.diverges ? Style{Role::kWarn, true} : Style{Role::kText};
    line(ascii ? "delta" : "Δ", dim, r.paired ? signed_value(r.delta) : "-", differ);
    line("ratio", dim, r.paired ? short_value(r.ratio) : "-", differ);
    line("rel diff", dim, r.paired ? short_value(r.relative) : "-", differ);
    if (r.ok && !r.paired) line("(no pair at this step)", dim, "", {});
    gap();
    line("DIVERGENCE", title, "", {});
    if (ch.divergence) {
        line("first at step", dim, short_step(ch.divergence->a.step), {Role::kAlert, true});
        if (cmp.align == CompareAlign::kRelativeWall)
            line("time " + compare_run_label(model, ch, 0), dim,
                 relative_time_text(ch.divergence->a.wall - ch.sides.a.origin), {});
    } else {
        line("none", {Role::kOk}, "", {});
    }
    line("tolerance", dim, short_value(cmp.tolerance), {});
    if (!cmp.mean || !r.ok) return;
    gap();
    line("RANKS AT " + short_step(r.step), title, "", {});
    for (int k = 0; k < 2; ++k) {
        const std::optional<SidePoint>& p = k == 0 ? r.a : r.b;
        std::string right = "-";
        if (p) {
            right = fmt::format("{}", p->ranks);
            if (!std::isnan(p->lo))
                right += "  " + short_value(p->lo) + (ascii ? ".." : "–") + short_value(p->hi);
        }
        line(compare_run_label(model, ch, k), {series_role(ch.side(k).colour)}, right,
             {Role::kText});
    }
}

void draw_compare_bottom(Canvas& canvas, const ViewModel& model, const DetailState& state,
                         const CompareChart& ch) {
    const CompareChartLayout& l = ch.layout;
    const CompareReadout& r = ch.readout;
    (void)state;
    const bool ascii = model.ascii();
    const int w = canvas.width();
    int x = 0, y = l.bottom_y;
    auto put = [&](const std::string& text, Style style) {
        if (x >= w) return;
        x += canvas.text(x, y, fit(text, w - x, ascii), style);
    };
    const Style dim{Role::kDim};
    put("step ", dim);
    put(r.ok ? short_step(r.step) : short_step(ch.g.cursor), {Role::kAccent, true});
    const int front = ch.front_a ? 0 : 1;
    for (int k = 0; k < 2; ++k) {
        const std::optional<SidePoint>& p = k == 0 ? r.a : r.b;
        put("  ", {});
        put(point_label(model, ch, k, p) + " ", {series_role(ch.side(k).colour), true, k == front});
        put(p ? short_value(p->value) : "-", p ? value_style(p->value) : dim);
    }
    const Style differ = r.diverges ? Style{Role::kWarn, true} : Style{Role::kText};
    put(ascii ? "  delta " : "  Δ ", dim);
    put(r.paired ? signed_value(r.delta) : "-", differ);
    x = 0;
    ++y;
    put("ratio ", dim);
    put(r.paired ? short_value(r.ratio) : "-", differ);
    put("  rel diff ", dim);
    put(r.paired ? short_value(r.relative) : "-", differ);
    put("  ", {});
    if (ch.divergence) {
        std::string mark;
        append_utf8(mark, divergence_mark(model.glyphs()));
        put(mark + " diverges at " + short_step(ch.divergence->a.step), {Role::kAlert, true});
    } else {
        put("no divergence", {Role::kOk});
    }
}

}  // namespace runtop::ui
