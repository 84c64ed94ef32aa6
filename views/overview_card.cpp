#include "views/overview_card.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"

#include "views/chart_plot.h"
#include "views/distribution_band.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

// The trend's two windows, over full-resolution points: means of finite values, so one noisy
// point does not flip the arrow.
void trend_windows(const Series& s, CardSeries& cs) {
    const std::size_t n = s.retained();
    const std::size_t m = std::clamp<std::size_t>(n / 10, 1, 256);
    if (n < 2 * m) return;
    auto mean = [&](std::size_t from, std::size_t to) {
        double sum = 0;
        std::size_t k = 0;
        for (std::size_t i = from; i < to; ++i) {
            const double v = s.point(i).value;
            if (std::isfinite(v)) {
                sum += v;
                ++k;
            }
        }
        return k > 0 ? sum / static_cast<double>(k) : kCardNaN;
    };
    cs.recent = mean(n - m, n);
    cs.before = mean(n - 2 * m, n - m);
}

// Where a run comes in ViewModel::run_names() (runs it does not know go last).
std::size_t run_position(const ViewModel& model, const std::string& run) {
    const auto& names = model.run_names();
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), run) - names.begin());
}

// Each run's line from its members' columns (already merged), its last value and NaN flag.
void finish_runs(const ViewModel& model, CardData& d) {
    std::stable_sort(d.runs.begin(), d.runs.end(), [&](const RunLine& a, const RunLine& b) {
        return run_position(model, a.run) < run_position(model, b.run);
    });
    for (RunLine& r : d.runs) {
        double sum = 0;
        int finite = 0;
        for (std::size_t m : r.members)
            if (std::isfinite(d.series[m].last)) {
                sum += d.series[m].last;
                ++finite;
            }
        // No finite last value: show the first non-finite one, so the NaN reads as such.
        r.last = finite > 0 ? sum / finite : d.series[r.members.front()].last;
        r.non_finite = std::any_of(r.columns.begin(), r.columns.end(),
                                   [](const ColumnSummary& c) { return non_finite(c); });
        for (std::size_t c = 0; c < r.columns.size(); ++c) merge_into(d.envelope[c], r.columns[c]);
    }
}

}  // namespace

bool non_finite(const ColumnSummary& c) {
    return c.nan + c.pos_inf + c.neg_inf > 0;
}

CardData query_card(const ViewModel& model, const TagGroup& group, int columns, bool by_run) {
    CardData d;
    d.count = count_text(model, group.series);
    // A histogram says so where a scalar says its count: the band is no envelope of ranks.
    if (group.distribution)
        d.count = group.series.size() == 1 ? "distribution" : "distribution, " + d.count;
    bool first = true;
    for (SeriesId id : group.series) {
        const Series& s = model.store().at(id);
        if (s.empty()) continue;
        d.lo = first ? s.first_step() : std::min(d.lo, s.first_step());
        d.hi = first ? s.last_step() : std::max(d.hi, s.last_step());
        first = false;
    }
    d.any_points = !first;
    if (!d.any_points) return d;
    // The x range grows in quanta (a power of two near 1/32 of the span), not step by step: a
    // new point then changes the last column or two, not every column of the card (each
    // boundary moving a little would redraw the whole sparkline: costly over a slow SSH link).
    // The price is at most 1/32 of the card left empty at the right.
    const auto span = static_cast<std::uint64_t>(d.hi - d.lo) + 1;
    std::uint64_t quantum = 1;
    while (quantum * 32 < span) quantum *= 2;
    d.end = d.lo + static_cast<std::int64_t>((span + quantum - 1) / quantum * quantum);
    d.envelope.assign(columns, ColumnSummary{});
    std::vector<ColumnSummary> scratch(columns);
    for (SeriesId id : group.series) {
        const Series& s = model.store().at(id);
        if (s.empty()) continue;
        CardSeries cs{id, s.back().value};
        s.query(d.lo, d.end, scratch, nullptr, /*snap=*/true);
        trend_windows(s, cs);
        if (by_run) {
            // A group's series come in (run, rank) order: a run's ranks are neighbours.
            const std::string_view run = s.key().run;
            if (d.runs.empty() || d.runs.back().run != run)
                d.runs.push_back({std::string(run), std::vector<ColumnSummary>(columns), {}});
            RunLine& line = d.runs.back();
            for (int c = 0; c < columns; ++c) merge_into(line.columns[c], scratch[c]);
            line.members.push_back(d.series.size());
        } else {
            for (int c = 0; c < columns; ++c) merge_into(d.envelope[c], scratch[c]);
        }
        if (!d.series.empty() && s.key().run != model.store().at(d.series.front().id).key().run)
            d.many_runs = true;
        d.series.push_back(cs);
    }
    if (by_run) finish_runs(model, d);
    return d;
}

int card_trend(const CardData& d) {
    double now = 0, then = 0;
    int both = 0;
    for (const CardSeries& s : d.series) {
        if (std::isfinite(s.recent) && std::isfinite(s.before)) {
            now += s.recent;
            then += s.before;
            ++both;
        }
    }
    return both > 0 ? trend_direction(then / both, now / both) : 0;
}

void draw_pair(Canvas& canvas, int x, int y, int w, const std::string& left, Style left_style,
               const std::string& right, Style right_style) {
    const int lw = display_width(left);
    const int rw = display_width(right);
    if (!right.empty() && lw + 2 + rw <= w) canvas.text_right(x + w, y, right, right_style);
    canvas.text(x, y, left, left_style, w);
}

void draw_distribution_card_body(Canvas& canvas, const ViewModel& model, const CardData& d,
                                 std::size_t focus, int x, int y, int w, int h) {
    const GlyphTier tier = model.glyphs();
    const bool ascii = model.ascii();
    const CardSeries& f = d.series[focus];
    const Role role = series_role(model.overlay_index(f.id));
    const int columns = static_cast<int>(d.envelope.size());
    const BandColumns band = query_band(model.store(), model.band(f.id), d.lo, d.end, columns,
                                        /*snap=*/true);
    std::vector<ColumnSummary> extent(d.envelope.begin(), d.envelope.end());
    append_band_extent(band, extent);
    const SparkRange range = spark_range(extent);

    const int text_rows = h >= 4 ? 2 : 1;
    const int chart_rows = std::max(0, h - text_rows);
    int row = y;
    if (chart_rows > 0) {
        const int per_cell = dot_shape(tier).x;
        draw_band(canvas, x, row, w, chart_rows, band, per_cell, range, tier, role);
        // The median over the band, as the detail chart draws a line.
        const std::vector<ColumnSummary>& median =
            band.q[kMedianQuantile].empty() ? d.envelope : band.q[kMedianQuantile];
        DotGrid grid(w, chart_rows, tier);
        plot_line(
            grid, range, std::min(columns, grid.dot_w()),
            [&](int c, double& lo, double& hi, double& first, double& last) {
                const ColumnSummary& col = median[static_cast<std::size_t>(c)];
                if (col.count == 0 || !std::isfinite(col.min) || !std::isfinite(col.max))
                    return false;
                lo = col.min;
                hi = col.max;
                first = col.mean;
                last = std::isfinite(col.last) ? col.last : kCardNaN;
                return true;
            },
            0, 1, Style{role, true});
        grid.render(canvas, x, row);
        row += chart_rows;
    }
    // The median's last value and trend; the newest min..max.
    {
        std::string left = "p50 " + short_value(f.last);
        append_utf8(left, U' ');
        append_utf8(left, trend_glyph(card_trend(d), ascii));
        std::string right;
        if (const auto reading = read_band(model.store(), model.band(f.id), d.hi)) {
            right = short_value(reading->values.front()) + (ascii ? ".." : "…") +
                    short_value(reading->values.back());
        }
        if (d.series.size() > 1) {
            std::string label = series_label(model, f.id, d.many_runs);
            right = right.empty() ? label : label + " " + right;
        }
        const AlertLevel fl = model.analyzer().series_state(f.id).level;
        const Style right_style = fl == AlertLevel::kAlert  ? Style{Role::kAlert, true}
                                  : fl == AlertLevel::kWarn ? Style{Role::kWarn, true}
                                                            : Style{Role::kDim};
        draw_pair(canvas, x, row++, w, left, {Role::kText, true}, right, right_style);
    }
    if (text_rows == 2) draw_count_row(canvas, model, d, x, row, w);
}

void draw_count_row(Canvas& canvas, const ViewModel& model, const CardData& d, int x, int y,
                    int w) {
    const std::string dash = model.ascii() ? "-" : "–";
    const std::string steps = short_step(d.lo) + dash + short_step(d.hi);
    const Series& s0 = model.store().at(d.series[0].id);
    const std::string axis(step_axis_name(s0.source().axis));
    const std::string& count = d.count;
    std::string right = axis + " " + steps;
    if (display_width(count) + 2 + display_width(right) > w) right = steps;
    draw_pair(canvas, x, y, w, count, {Role::kDim}, right, {Role::kDim});
}

// Band `band` of `bands` (0 at the bottom) of a range, in its scale.
namespace {

SparkRange band_range(const SparkRange& range, int band, int bands) {
    if (bands <= 1) return range;
    auto at = [&](int i) {
        if (i == 0) return range.lo;
        if (i == bands) return range.hi;
        const double t = static_cast<double>(i) / bands;
        return range.log
                   ? std::exp(std::log(range.lo) + t * (std::log(range.hi) - std::log(range.lo)))
                   : range.lo + t * (range.hi - range.lo);
    };
    return {at(band), at(band + 1), range.log};
}

// The columns as band [lo, hi) of a taller chart sees them: a braille cell draws min..max, so a
// column outside the band is empty and one crossing it is clipped to it; blocks and ascii fill
// from the bottom up to the max, so a column above the band fills it.
std::vector<ColumnSummary> band_columns(std::span<const ColumnSummary> columns,
                                        const SparkRange& band, bool top, GlyphTier tier) {
    std::vector<ColumnSummary> out(columns.begin(), columns.end());
    for (ColumnSummary& c : out) {
        if (c.empty() || c.nan + c.pos_inf + c.neg_inf > 0 || std::isnan(c.min)) continue;
        const bool below = c.max < band.lo;
        const bool above = top ? c.min > band.hi : c.min >= band.hi;
        if (below || (above && tier == GlyphTier::kBraille)) {
            c = ColumnSummary{};
            continue;
        }
        c.min = std::clamp(c.min, band.lo, band.hi);
        c.max = std::clamp(c.max, band.lo, band.hi);
    }
    return out;
}

}  // namespace

// A chart `rows` cells high from y (top) down, each row a band of the range.
void draw_chart(Canvas& canvas, int x, int y, int rows, std::span<const ColumnSummary> columns,
                const SparkRange& range, GlyphTier tier, Style style) {
    const Style nan_style{Role::kNan, true};
    for (int r = 0; r < rows; ++r) {
        const int band = rows - 1 - r;
        std::vector<SparkCell> cells;
        if (rows == 1) {
            cells = sparkline(columns, range, tier);
        } else {
            const SparkRange b = band_range(range, band, rows);
            cells = sparkline(band_columns(columns, b, band == rows - 1, tier), b, tier);
        }
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (cells[i].nan)
                canvas.put(x + static_cast<int>(i), y + r, marks(tier).nan, nan_style);
            else
                canvas.put(x + static_cast<int>(i), y + r, cells[i].ch, style);
        }
    }
}

}  // namespace runtop::ui
