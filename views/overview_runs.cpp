#include "views/overview_runs.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

#include "core/format.h"
#include "views/chart_plot.h"
#include "views/glyphs.h"
#include "views/sparkline.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

// How many columns a run's name takes at most in the value rows and the legend.
constexpr int kValueNameColumns = 10;
constexpr int kLegendNameColumns = 28;  // "ds_pipe_job (csv_monitor)" whole

Style run_style(const ViewModel& model, std::string_view run, bool front) {
    return {series_role(std::max(0, model.run_colour(run))), front};
}

// One line per run on a dot grid (plot_line: each column its min..max, joined to the column
// before), the front run last (it occludes the others cell by cell, in bold); columns with a NaN
// or an Inf in any run are the NaN mark in every row, as the envelope marks them.
void draw_run_chart(Canvas& canvas, const ViewModel& model, const CardData& d, std::size_t front,
                    int x, int y, int w, int rows) {
    if (rows <= 0 || w <= 0) return;
    const GlyphTier tier = model.glyphs();
    const SparkRange range = spark_range(d.envelope);
    DotGrid grid(w, rows, tier);
    const int n = std::min(grid.dot_w(), static_cast<int>(d.envelope.size()));
    const int count = static_cast<int>(d.runs.size());
    for (int k = 0; k <= count; ++k) {
        // Every run but the front one in run order, then the front one on top.
        const auto i = static_cast<std::size_t>(k < count ? k : static_cast<int>(front));
        if ((k < count && i == front) || i >= d.runs.size()) continue;
        const RunLine& r = d.runs[i];
        const int priority = k < count ? k : count;
        plot_line(
            grid, range, n,
            [&](int c, double& lo, double& hi, double& first, double& last) {
                const ColumnSummary& col = r.columns[static_cast<std::size_t>(c)];
                if (col.empty() || !std::isfinite(col.min) || !std::isfinite(col.max)) return false;
                lo = col.min;
                hi = col.max;
                first = col.mean;
                last = std::isfinite(col.last) ? col.last : kCardNaN;
                return true;
            },
            static_cast<int>(i), priority, run_style(model, r.run, i == front));
    }
    grid.render(canvas, x, y);
    const int across = grid.shape().x;
    const Style nan_style{Role::kNan, true};
    for (int cx = 0; cx < w; ++cx) {
        bool bad = false;
        for (int c = cx * across; c < std::min(n, (cx + 1) * across) && !bad; ++c)
            for (const RunLine& r : d.runs)
                bad |= non_finite(r.columns[static_cast<std::size_t>(c)]);
        if (!bad) continue;
        for (int row = 0; row < rows; ++row)
            canvas.put(x + cx, y + row, marks(tier).nan, nan_style);
    }
}

// One run in the value rows: "name value", then the NaN mark when its columns hold one.
struct ValueEntry {
    std::size_t run = 0;
    std::string name, value;
    Style name_style, value_style;
    bool nan_mark = false;
    int width() const {
        return display_width(name) + 1 + display_width(value) + (nan_mark ? 2 : 0);
    }
};

ValueEntry value_entry(const ViewModel& model, const CardData& d, std::size_t i, bool front) {
    const RunLine& r = d.runs[i];
    ValueEntry e;
    e.run = i;
    e.name = model.run_label(r.run, kValueNameColumns);
    e.value = short_value(r.last);
    e.name_style = run_style(model, r.run, front);
    AlertLevel level = AlertLevel::kOk;
    for (std::size_t m : r.members)
        level = std::max(level, model.analyzer().series_state(d.series[m].id).level);
    e.value_style = level == AlertLevel::kAlert  ? Style{Role::kAlert, true}
                    : level == AlertLevel::kWarn ? Style{Role::kWarn, true}
                    : !std::isfinite(r.last)     ? Style{Role::kNan, true}
                                                 : Style{Role::kText, front};
    e.nan_mark = r.non_finite;
    return e;
}

// Where each entry goes: rows of `w` columns, the first after `indent` columns, entries two
// columns apart; when they do not all fit in `rows` rows, "+N" (the rest) ends the last one.
struct Packed {
    struct Place {
        std::size_t entry;
        int row, x;
    };
    std::vector<Place> places;
    int rows_used = 1;
    int more = 0;  // entries left out
    int more_x = 0;
};

Packed pack(const std::vector<ValueEntry>& entries, int w, int rows, int indent) {
    Packed p;
    int row = 0, x = indent;
    const std::size_t n = entries.size();
    for (std::size_t i = 0; i < n; ++i) {
        const int ew = entries[i].width();
        const int rest = static_cast<int>(n - i - 1);
        auto fits = [&](int at, bool last_row) {
            const int reserve =
                last_row && rest > 0 ? 2 + display_width("+" + std::to_string(rest)) : 0;
            return at + ew + reserve <= w;
        };
        if (!fits(x, row == rows - 1)) {
            if (row + 1 < rows && x > 0 && ew <= w) {
                ++row;
                x = 0;
            }
            if (!fits(x, row == rows - 1)) {
                p.more = static_cast<int>(n - i);
                p.more_x = x;
                break;
            }
        }
        p.places.push_back({i, row, x});
        x += ew + 2;
    }
    p.rows_used = row + 1;
    return p;
}

}  // namespace

bool group_by_run(const ViewModel& model, const TagGroup& group) {
    // The series come in (run, rank) order: the first and the last differ in run when any do.
    if (group.series.size() < 2) return false;
    return model.store().at(group.series.front()).key().run !=
           model.store().at(group.series.back()).key().run;
}

bool overview_by_run(const ViewModel& model) {
    if (model.runs() < 2) return false;
    for (const TagGroup& group : model.groups())
        if (group_by_run(model, group)) return true;
    return false;
}

std::vector<std::string> selected_runs(const ViewModel& model) {
    std::set<std::string_view> runs;
    for (SeriesId id : model.selected()) runs.insert(model.store().at(id).key().run);
    std::vector<std::string> out;
    for (const std::string& run : model.run_names())
        if (runs.count(run)) out.push_back(run);
    return out;
}

void draw_run_legend(Canvas& canvas, const ViewModel& model, const OverviewState& state, int y,
                     int width) {
    const std::vector<std::string> runs = selected_runs(model);
    const bool ascii = model.ascii();
    const std::string line = ascii ? "-" : "━";
    int x = 1;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::string name = model.run_label(runs[i], kLegendNameColumns);
        const int iw = display_width(line) + 1 + display_width(name);
        const std::size_t rest = runs.size() - i - 1;
        const int reserve = rest > 0 ? 2 + display_width("+" + std::to_string(rest)) : 0;
        if (x + iw + reserve > width) {
            canvas.text(x, y, "+" + std::to_string(rest + 1), {Role::kDim});
            return;
        }
        const bool front = state.focus && state.focus->run == runs[i];
        const Role role = series_role(std::max(0, model.run_colour(runs[i])));
        x += canvas.text(x, y, line, {role, true});
        x += canvas.text(x, y, " ");
        x += canvas.text(x, y, name, {role, front, front});
        x += 2;
    }
}

std::size_t front_run(const ViewModel& model, const CardData& d,
                      const std::optional<RunRank>& focus) {
    if (focus)
        for (std::size_t i = 0; i < d.runs.size(); ++i)
            if (d.runs[i].run == focus->run) return i;
    std::size_t worst = 0;
    AlertLevel worst_level = AlertLevel::kOk;
    std::int64_t worst_step = 0;
    for (std::size_t i = 0; i < d.runs.size(); ++i)
        for (std::size_t m : d.runs[i].members) {
            const AlertState& a = model.analyzer().series_state(d.series[m].id);
            if (a.level > worst_level || (a.level == worst_level && a.level != AlertLevel::kOk &&
                                          a.first_step < worst_step)) {
                worst = i;
                worst_level = a.level;
                worst_step = a.first_step;
            }
        }
    return worst;
}

void draw_run_card_body(Canvas& canvas, const ViewModel& model, const CardData& d,
                        const OverviewState& state, int x, int y, int w, int h) {
    if (d.runs.empty() || w <= 0 || h <= 0) return;
    const bool ascii = model.ascii();
    const std::size_t front = front_run(model, d, state.focus);
    const int count_rows = h >= 4 ? 1 : 0;
    const int avail = h - count_rows;
    // The chart keeps at least two rows (half the card when it is tall); the value rows take
    // what they need of the rest.
    const int max_value_rows = std::max(1, avail - std::max(2, avail / 2));

    // The trend, then each run's value: in run order, or, when they do not all fit, the front
    // run's first.
    std::vector<ValueEntry> entries;
    for (std::size_t i = 0; i < d.runs.size(); ++i)
        entries.push_back(value_entry(model, d, i, i == front));
    constexpr int kIndent = 2;  // the trend glyph and a space
    Packed packed = pack(entries, w, max_value_rows, kIndent);
    if (packed.more > 0 && front > 0) {
        std::rotate(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(front),
                    entries.begin() + static_cast<std::ptrdiff_t>(front) + 1);
        packed = pack(entries, w, max_value_rows, kIndent);
    }
    const int value_rows = packed.rows_used;
    const int chart_rows = std::max(0, avail - value_rows);

    draw_run_chart(canvas, model, d, front, x, y, w, chart_rows);
    const int vy = y + chart_rows;
    canvas.put(x, vy, trend_glyph(card_trend(d), ascii), {Role::kText, true});
    for (const Packed::Place& p : packed.places) {
        const ValueEntry& e = entries[p.entry];
        int ex = x + p.x;
        const int ey = vy + p.row;
        ex += canvas.text(ex, ey, e.name, e.name_style);
        ex += 1;
        ex += canvas.text(ex, ey, e.value, e.value_style);
        if (e.nan_mark) canvas.put(ex + 1, ey, marks(model.glyphs()).nan, {Role::kNan, true});
    }
    if (packed.more > 0)
        canvas.text(x + packed.more_x, vy + value_rows - 1, "+" + std::to_string(packed.more),
                    {Role::kDim});
    if (count_rows) draw_count_row(canvas, model, d, x, y + h - 1, w);
}

std::optional<RunRank> next_overview_focus(const ViewModel& model,
                                           const std::optional<RunRank>& focus, int direction) {
    const bool by_run = overview_by_run(model);
    std::vector<RunRank> options;
    if (by_run) {
        // The selected series come in (run, rank, tag) order: a run's first is its lowest rank.
        for (const std::string& run : selected_runs(model))
            for (SeriesId id : model.selected())
                if (model.store().at(id).key().run == run) {
                    options.push_back(model.run_rank(id));
                    break;
                }
    } else {
        for (SeriesId id : model.selected()) {
            RunRank rr = model.run_rank(id);
            if (options.empty() || options.back() != rr) options.push_back(std::move(rr));
        }
    }
    const int n = static_cast<int>(options.size());
    if (n == 0) return std::nullopt;
    int current = -1;  // none: each card chooses
    if (focus)
        for (int i = 0; i < n; ++i)
            if (by_run ? options[i].run == focus->run : options[i] == *focus) current = i;
    int next = current + (direction >= 0 ? 1 : -1);
    if (next >= n) next = -1;
    if (next < -1) next = n - 1;
    if (next < 0) return std::nullopt;
    return options[static_cast<std::size_t>(next)];
}

}  // namespace runtop::ui
