#include "views/compare/delta_strip.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/compare/run_compare.h"
#include "views/chart_plot.h"
#include "views/model.h"

namespace runtop::ui {
namespace {

std::string signed_value(double v) {
    return v > 0 ? "+" + short_value(v) : short_value(v);
}

struct StripLabel {
    int row;  // from the top of the bars
    std::string text;
};

// The labels and the zero row of a strip `rows` high.
std::vector<StripLabel> strip_labels(const SparkRange& range, int rows, int dots_y, int& zero_row) {
    const int dh = rows * dots_y;
    zero_row = rows - 1 - dot_row(0, range, dh) / dots_y;
    std::vector<StripLabel> out;
    if (zero_row > 0) out.push_back({0, signed_value(range.hi)});
    out.push_back({zero_row, "0"});
    if (zero_row < rows - 1) out.push_back({rows - 1, signed_value(range.lo)});
    return out;
}

}  // namespace

void add_delta(DeltaColumn& column, double a, double b, double tolerance) {
    ++column.pairs;
    const bool diverge = values_diverge(a, b, tolerance);
    column.diverging += diverge;
    const double d = b - a;
    if (std::isfinite(d)) {
        column.lo = std::isnan(column.lo) ? d : std::min(column.lo, d);
        column.hi = std::isnan(column.hi) ? d : std::max(column.hi, d);
    } else if (diverge) {
        ++column.nonfinite;
    }
}

SparkRange delta_range(std::span<const DeltaColumn> columns) {
    SparkRange r{0, 0, false};
    for (const DeltaColumn& c : columns) {
        if (std::isnan(c.lo)) continue;
        r.lo = std::min(r.lo, c.lo);
        r.hi = std::max(r.hi, c.hi);
    }
    if (!(r.hi > r.lo)) return {-1, 1, false};
    return r;
}

int delta_label_width(const SparkRange& range) {
    return std::max(
        {display_width(signed_value(range.hi)), display_width(signed_value(range.lo)), 1});
}

void draw_delta_strip(Canvas& canvas, const DeltaPlace& at, std::span<const DeltaColumn> columns,
                      const SparkRange& range, const std::string& label, GlyphTier tier) {
    if (at.w <= 0) return;
    const bool ascii = tier == GlyphTier::kAscii;
    const Style dim{Role::kDim};
    const DotShape shape = dot_shape(tier);
    int zero_row = 0;
    std::vector<StripLabel> labels = strip_labels(range, std::max(1, at.rows), shape.y, zero_row);
    // Labels wider than the label column: the range goes into the label row instead.
    const bool fits = std::all_of(labels.begin(), labels.end(), [&](const StripLabel& l) {
        return display_width(l.text) <= at.axis_x;
    });
    std::string text = label;
    if (!fits) {
        text += "  " + signed_value(range.lo) + (ascii ? ".." : "…") + signed_value(range.hi);
        std::erase_if(labels, [zero_row](const StripLabel& l) { return l.row != zero_row; });
    }
    // The label row: a dashed line with the label in it.
    canvas.put(at.axis_x, at.y, ascii ? U'+' : U'├', dim);
    canvas.fill(at.x, at.y, at.w, 1, ascii ? U'-' : U'┄', dim);
    canvas.text(at.x + 1, at.y, fit(" " + text + " ", at.w - 1, ascii), {Role::kText, true});
    if (at.rows <= 0) return;

    const int top = at.y + 1;
    DotGrid grid(at.w, at.rows, tier);
    const int dh = grid.dot_h();
    auto row = [&](double v) { return dot_row(v, range, dh); };
    const int n = std::min(at.columns, static_cast<int>(columns.size()));
    for (int c = 0; c < n; ++c) {
        const DeltaColumn& col = columns[static_cast<std::size_t>(c)];
        if (col.pairs == 0) continue;
        const double lo = std::isnan(col.lo) ? 0 : std::min(0.0, col.lo);
        const double hi = std::isnan(col.hi) ? 0 : std::max(0.0, col.hi);
        const bool diverging = col.diverging > 0;
        grid.span(c, row(lo), row(hi), 0, diverging ? 2 : 1,
                  diverging ? Style{Role::kText, true} : dim);
    }
    grid.render(canvas, at.x, top);

    // The zero line where no column has pairs.
    for (int cx = 0; cx < at.w; ++cx)
        if (grid.empty(cx, zero_row))
            canvas.put(at.x + cx, top + zero_row, ascii ? U'-' : U'┈', dim);
    // The cursor where the strip is empty.
    if (at.cursor >= 0 && at.cursor < at.w)
        for (int cy = 0; cy < at.rows; ++cy)
            if (grid.empty(at.cursor, cy))
                canvas.put(at.x + at.cursor, top + cy, ascii ? U'|' : U'│', {Role::kAccent});
    // Differences that are not numbers.
    const char32_t nan = marks(tier).nan;
    for (int c = 0; c < n; ++c)
        if (columns[static_cast<std::size_t>(c)].nonfinite > 0)
            canvas.put(at.x + c / shape.x, top + zero_row, nan, {Role::kNan, true});
    // The y axis and its labels.
    for (int cy = 0; cy < at.rows; ++cy) {
        const bool labelled = std::any_of(labels.begin(), labels.end(),
                                          [cy](const StripLabel& l) { return l.row == cy; });
        canvas.put(at.axis_x, top + cy, labelled ? (ascii ? U'+' : U'┤') : (ascii ? U'|' : U'│'),
                   dim);
    }
    if (at.axis_x > 0)
        for (const StripLabel& l : labels) canvas.text_right(at.axis_x, top + l.row, l.text, dim);
}

}  // namespace runtop::ui
