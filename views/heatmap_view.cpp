#include "views/heatmap_view.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/analysis/cross_rank.h"
#include "core/format.h"
#include "views/column_steps.h"
#include "views/glyphs.h"
#include "views/ranks_history.h"
#include "views/step_axis.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

constexpr int kMaxLabel = 20;
// Lines below the map: the step axis always, the legend and the selection's readout when the
// canvas has the rows.
constexpr int kLegendFrom = 8;
constexpr int kReadoutFrom = 9;
// A column's extreme is a spike (dip) beyond the ramp and this many scaled MADs of the page's
// column maxima (minima) away from their median.
constexpr double kSpikeMads = 6.0;

// "r3", "job:r3" across runs; a series without a rank by its run.
std::string row_label(const ViewModel& model, const RunRank& rr, bool many_runs) {
    if (rr.rank == kNoRank) return model.run_label(rr.run);
    const std::string rank = fmt::format("r{}", rr.rank);
    return many_runs ? model.run_label(rr.run) + ":" + rank : rank;
}

// The tag's card; for "" or a tag the filter now hides, the first card's.
const TagGroup* find_group(const ViewModel& model, const std::string& tag) {
    if (const TagGroup* g = model.group(tag)) return g;
    return model.groups().empty() ? nullptr : &model.groups().front();
}

bool spans_runs(const ViewModel& model, const TagGroup& g) {
    for (SeriesId id : g.series)
        if (model.store().at(id).key().run != model.store().at(g.series[0]).key().run) return true;
    return false;
}

// The ramp: values to levels 0..9, in the scale chosen, and what counts as a spike or dip.
struct Ramp {
    bool log = false;
    double lo = 0, hi = 1;  // in scale: the 1st and 99th percentile of the column means
    double spike_above = std::numeric_limits<double>::infinity();  // a column max beyond
    double dip_below = -std::numeric_limits<double>::infinity();   // a column min below
    bool any = false;

    double scale(double v) const { return log ? std::log10(v) : v; }
    double unscale(double s) const { return log ? std::pow(10.0, s) : s; }
    int level(double v) const {
        const double t = (scale(v) - lo) / (hi - lo);
        if (!(t > 0)) return 0;  // also NaN
        return std::min(kHeatRoles - 1, static_cast<int>(t * kHeatRoles));
    }
};

double percentile(std::vector<double>& v, double p) {
    const auto k = static_cast<std::size_t>(std::lround(p * static_cast<double>(v.size() - 1)));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

// Median + max(k scaled MADs, the ramp's width) of `v` (in scale): beyond it an extreme stands
// out from the page's others.
double robust_edge(std::vector<double> v, double width, int sign) {
    if (v.size() < 3) return sign * std::numeric_limits<double>::infinity();
    const double median = percentile(v, 0.5);
    for (double& x : v) x = std::fabs(x - median);
    const double mad = percentile(v, 0.5);
    return median + sign * std::max(kSpikeMads * kMadToSigma * mad, width);
}

// The ramp of the page's columns, log as `log` says or (nullopt) when every value is positive
// and they span two decades; a log ramp ranks the positive columns (the rest sit at its foot).
Ramp make_ramp(const std::vector<std::vector<ColumnSummary>>& rows, std::optional<bool> log) {
    Ramp r;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, lo_positive = lo;
    for (const auto& row : rows)
        for (const ColumnSummary& c : row)
            if (has_finite(c)) {
                lo = std::min(lo, c.min);
                hi = std::max(hi, c.max);
                if (c.min > 0) lo_positive = std::min(lo_positive, c.min);
            }
    if (!(lo <= hi)) return r;
    r.any = true;
    r.log = log ? *log && hi > 0 && std::isfinite(lo_positive) : lo > 0 && hi > 100 * lo;
    std::vector<double> means, maxes, mins;
    for (const auto& row : rows)
        for (const ColumnSummary& c : row)
            if (has_finite(c) && (!r.log || c.min > 0)) {
                means.push_back(r.scale(c.mean));
                maxes.push_back(r.scale(c.max));
                mins.push_back(r.scale(c.min));
            }
    r.lo = percentile(means, 0.01);
    r.hi = percentile(means, 0.99);
    if (!(r.hi > r.lo)) {  // one level everywhere: it sits mid-ramp
        const double d = r.lo == 0 ? 1 : std::fabs(r.lo) / 10;
        r.lo -= d;
        r.hi += d;
    }
    const double width = r.hi - r.lo;
    r.spike_above = std::max(r.hi, robust_edge(std::move(maxes), width, 1));
    r.dip_below = std::min(r.lo, robust_edge(std::move(mins), width, -1));
    return r;
}

enum class CellKind { kEmpty, kLevel, kNan, kSpike, kDip };
struct HeatCell {
    CellKind kind = CellKind::kEmpty;
    int level = 0;
};

HeatCell classify(const ColumnSummary& c, const Ramp& r) {
    if (c.empty()) return {};
    if (non_finite(c)) return {CellKind::kNan};
    if (!has_finite(c)) return {};
    if (r.scale(c.max) > r.spike_above) return {CellKind::kSpike, r.level(c.max)};
    if (r.scale(c.min) < r.dip_below) return {CellKind::kDip, r.level(c.min)};
    return {CellKind::kLevel, r.level(c.mean)};
}

// The first step an anomaly record of series `id` names in [a, b), if any.
std::optional<std::int64_t> first_record_step(const ViewModel& model, SeriesId id, std::int64_t a,
                                              std::int64_t b) {
    std::optional<std::int64_t> first;
    for (const AnomalyRecord& r : model.analyzer().log().records())
        if (r.series == id && r.step >= a && r.step < b && (!first || r.step < *first))
            first = r.step;
    return first;
}

// Everything a frame needs: the geometry and the page's columns.
struct Frame {
    HeatmapLayout l;
    bool many_runs = false;
    std::vector<std::vector<ColumnSummary>> cols;  // per page row
    // Per series of the tag, its columns: queried when the rows need every rank (bins, outliers
    // first), else empty.
    const std::vector<std::vector<ColumnSummary>>* all = nullptr;
    Ramp ramp;
};

// The rows: a row per series while they fit (and `o` does not ask to judge them), else every
// rank judged against the others in each column (its worst, rank_outlier_score) and the rows
// laid out by rank_rows.
void lay_out_rows(Frame& f, const HeatmapState& state, const ViewModel& model, int room) {
    HeatmapLayout& l = f.l;
    const auto& series = l.group->series;
    const int n = static_cast<int>(series.size());
    const bool judge = (state.binned && n > room) || state.outliers_first;
    if (!judge) {
        l.lines.resize(n);
        for (int i = 0; i < n; ++i) l.lines[i].members = {i};
    } else {
        // Every series of the tag queried over the map's columns, and judged: kept while
        // nothing changes (a key's frame then queries nothing).
        thread_local ColumnsCache cache;
        f.all = &cache.get(model.store(), l.group->series, l.lo, l.hi, l.columns);
        const std::vector<double>& scores = cache.scores();
        l.lines =
            rank_rows(scores, {room, model.ranks_per_node(), state.binned, state.outliers_first});
    }
    l.rows = static_cast<int>(l.lines.size());
    for (const RankRow& r : l.lines) {
        if (r.bin()) l.binned += static_cast<int>(r.members.size());
        l.outliers += r.outlier;
    }
}

// A row's columns: its series' (queried now unless every series was), or its bin's merged.
std::vector<ColumnSummary> row_columns(const Frame& f, const ViewModel& model, int r) {
    const HeatmapLayout& l = f.l;
    const RankRow& line = l.lines[r];
    std::vector<ColumnSummary> out(l.columns);
    if (!f.all) {
        model.store().at(l.group->series[line.members.front()]).query(l.lo, l.hi + 1, out);
        return out;
    }
    for (int m : line.members)
        for (int c = 0; c < l.columns; ++c) merge_into(out[c], (*f.all)[m][c]);
    return out;
}

Frame make_frame(const HeatmapState& state, const ViewModel& model, int width, int height,
                 bool query) {
    Frame f;
    HeatmapLayout& l = f.l;
    l.group = find_group(model, state.tag);
    if (!l.group) return f;
    const TagGroup& g = *l.group;
    f.many_runs = spans_runs(model, g);

    bool any = false;
    int label_w = 4;  // "step"
    for (SeriesId id : g.series) {
        const Series& s = model.store().at(id);
        label_w =
            std::max(label_w, display_width(row_label(model, model.run_rank(id), f.many_runs)));
        if (s.empty()) continue;
        l.lo = any ? std::min(l.lo, s.first_step()) : s.first_step();
        l.hi = any ? std::max(l.hi, s.last_step()) : s.last_step();
        any = true;
    }
    // The title, the map, then right under it the axis, the legend and the readout; the
    // status line at the bottom.
    const bool legend = height >= kLegendFrom, readout = height >= kReadoutFrom;
    l.body_y = 1;
    const int avail = std::max(1, height - 1 - l.body_y - 1 - legend - readout);
    // A bin's label: two ranks ("r1000-1023").
    if (state.binned && static_cast<int>(g.series.size()) > avail)
        label_w = std::max(label_w, 2 * label_w - 1);
    l.label_w = std::min({label_w, kMaxLabel, std::max(4, width / 4)});
    l.map_x = l.label_w + 1;
    const auto span = static_cast<std::uint64_t>(l.hi) - static_cast<std::uint64_t>(l.lo) + 1;
    l.columns = static_cast<int>(
        std::max<std::uint64_t>(1, std::min<std::uint64_t>(span, std::max(1, width - l.map_x))));
    l.column = state.step ? l.column_of(*state.step) : l.columns - 1;
    if (any) {
        lay_out_rows(f, state, model, avail);
    } else {
        l.rows = static_cast<int>(g.series.size());
        l.lines.resize(l.rows);
        for (int i = 0; i < l.rows; ++i) l.lines[i].members = {i};
    }
    l.row = std::clamp(state.row, 0, std::max(0, l.rows - 1));
    l.body_rows = std::clamp(l.rows, 1, avail);
    int y = l.body_y + l.body_rows;
    l.axis_y = y++;
    if (legend) l.legend_y = y++;
    if (readout) l.readout_y = y;
    l.first = l.row / l.body_rows * l.body_rows;
    if (!query || !any) return f;
    for (int i = l.first; i < std::min(l.rows, l.first + l.body_rows); ++i)
        f.cols.push_back(row_columns(f, model, i));
    f.ramp = make_ramp(f.cols, state.log);
    return f;
}

// A row's label: the rank's ("r3", "job:r3"), or its bin's ("r0-23").
std::string line_label(const Frame& f, const ViewModel& model, int r) {
    const RankRow& line = f.l.lines[r];
    const SeriesId first = f.l.group->series[line.members.front()];
    if (!line.bin()) return row_label(model, model.run_rank(first), f.many_runs);
    const SeriesId last = f.l.group->series[line.members.back()];
    return row_label(model, model.run_rank(first), f.many_runs) + "-" +
           (f.many_runs && model.store().at(last).key().run != model.store().at(first).key().run
                ? row_label(model, model.run_rank(last), true)
                : std::to_string(model.store().at(last).key().rank));
}

// ---- drawing

void draw_title(Canvas& canvas, const Frame& f, const ViewModel& model) {
    const HeatmapLayout& l = f.l;
    const bool ascii = model.ascii();
    const std::string dash = ascii ? "-" : "–";
    const std::string x = ascii ? "x" : "×";
    const std::uint64_t span = static_cast<std::uint64_t>(l.hi - l.lo) + 1;
    std::vector<Piece> pieces = {{l.group->tag, {Role::kTitle, true}}};
    const int n = static_cast<int>(l.group->series.size());
    std::string what =
        fmt::format("{} {}", n, f.many_runs ? "series" : (n == 1 ? "rank" : "ranks"));
    if (l.binned > 0) what += fmt::format(" in {} rows", l.rows);
    what += fmt::format(" {} steps {}{}{}", x, short_step(l.lo), dash, short_step(l.hi));
    pieces.push_back({what, {Role::kDim}});
    if (l.binned > 0 || l.outliers > 0)
        pieces.push_back({fmt::format("{}{}{} apart{}", l.binned > 0 ? "neighbours binned, " : "",
                                      l.outliers, l.outliers == 1 ? " outlier" : " outliers",
                                      l.lines.front().outlier ? ", on top" : ""),
                          {l.outliers > 0 ? Role::kAlert : Role::kDim, l.outliers > 0}});
    const double per = static_cast<double>(span) / l.columns;
    pieces.push_back(
        {per <= 1 ? std::string("1 step a column")
                  : fmt::format("{} steps a column", short_value(std::round(per * 10) / 10)),
         {Role::kDim}});
    draw_pieces(canvas, 0, 0, canvas.width(), pieces, ascii);
}

char32_t cell_glyph(const HeatCell& c, GlyphTier tier) {
    switch (c.kind) {
        case CellKind::kEmpty:
            return U' ';
        case CellKind::kNan:
            return marks(tier).nan;
        case CellKind::kSpike:
            return marks(tier).clipped_up;
        case CellKind::kDip:
            return marks(tier).clipped_down;
        case CellKind::kLevel:
            break;
    }
    return heat_glyph(c.level, tier);
}

Style cell_style(const HeatCell& c) {
    switch (c.kind) {
        case CellKind::kNan:
            return {Role::kNan, true};
        case CellKind::kSpike:
        case CellKind::kDip:
            return {Role::kWarn, true};
        default:
            return {heat_role(c.level)};
    }
}

void draw_map(Canvas& canvas, const Frame& f, const ViewModel& model) {
    const HeatmapLayout& l = f.l;
    const GlyphTier tier = model.glyphs();
    const bool ascii = model.ascii();
    for (std::size_t i = 0; i < f.cols.size(); ++i) {
        const int r = l.first + static_cast<int>(i);
        const int y = l.body_y + static_cast<int>(i);
        AlertLevel alert = AlertLevel::kOk;
        for (int m : l.lines[r].members)
            alert = std::max(alert, model.analyzer().series_state(l.group->series[m]).level);
        Style label = alert == AlertLevel::kAlert  ? Style{Role::kAlert, true}
                      : alert == AlertLevel::kWarn ? Style{Role::kWarn, true}
                      : l.lines[r].bin()           ? Style{Role::kDim}
                                                   : Style{Role::kText};
        if (r == l.row) {
            label = {Role::kAccent, true, true};
            canvas.fill(0, y, l.label_w, 1, U' ', label);
        }
        canvas.text(0, y, fit(line_label(f, model, r), l.label_w, ascii), label);
        for (int c = 0; c < l.columns; ++c) {
            const HeatCell cell = classify(f.cols[i][c], f.ramp);
            if (r == l.row && c == l.column)
                canvas.put(l.map_x + c, y, ascii ? U'O' : U'◆', {Role::kAccent, true});
            else
                canvas.put(l.map_x + c, y, cell_glyph(cell, tier), cell_style(cell));
        }
    }
}

void draw_axis(Canvas& canvas, const Frame& f, bool ascii) {
    const HeatmapLayout& l = f.l;
    draw_step_axis(canvas, {l.axis_y, l.label_w, l.map_x, l.columns, l.lo, l.hi, l.column}, ascii);
}

void draw_legend(Canvas& canvas, const Frame& f, const ViewModel& model) {
    const HeatmapLayout& l = f.l;
    const bool ascii = model.ascii();
    const GlyphTier tier = model.glyphs();
    const int y = l.legend_y;
    const int w = canvas.width();
    if (!f.ramp.any) {
        canvas.text(0, y, "no finite values", {Role::kDim}, w);
        return;
    }
    int x = draw_pieces(canvas, 0, y, w,
                        {{"mean of a column:", {Role::kDim}},
                         {short_value(f.ramp.unscale(f.ramp.lo)), {Role::kText}, 1}},
                        ascii);
    if (x + 1 + kHeatRoles > w) return;
    ++x;
    for (int level = 0; level < kHeatRoles; ++level)
        canvas.put(x++, y, heat_glyph(level, tier), {heat_role(level)});
    std::vector<Piece> rest = {
        {short_value(f.ramp.unscale(f.ramp.hi)) + (f.ramp.log ? " (log)" : ""), {Role::kText}, 1},
    };
    std::string arrows;
    append_utf8(arrows, marks(tier).clipped_up);
    append_utf8(arrows, marks(tier).clipped_down);
    std::string nan;
    append_utf8(nan, marks(tier).nan);
    rest.push_back({arrows + " spike/dip in a column", {Role::kWarn, true}});
    rest.push_back({nan + " nan/inf", {Role::kNan, true}});
    rest.push_back({"blank: no points", {Role::kDim}});
    draw_pieces(canvas, x + 1, y, w, rest, ascii);
}

void draw_readout(Canvas& canvas, const Frame& f, const ViewModel& model) {
    const HeatmapLayout& l = f.l;
    const int i = l.row - l.first;
    if (i < 0 || i >= static_cast<int>(f.cols.size())) return;
    const bool ascii = model.ascii();
    const ColumnSummary& c = f.cols[i][l.column];
    const std::string dash = ascii ? "-" : "–";
    const std::int64_t a = l.bucket_start(l.column), b = l.bucket_start(l.column + 1) - 1;
    const RankRow& line = l.lines[l.row];
    std::string where = line_label(f, model, l.row);
    if (line.bin()) where += fmt::format(" ({} ranks)", line.members.size());
    where +=
        (a == b ? " step " + short_step(a) : " steps " + short_step(a) + dash + short_step(b)) +
        ":";
    std::vector<Piece> pieces = {{where, {Role::kTitle, true}}};
    if (c.empty()) {
        pieces.push_back({"no points", {Role::kDim}, 1});
    } else {
        const HeatCell cell = classify(c, f.ramp);
        if (has_finite(c)) {
            const bool one = c.count == 1;
            pieces.push_back(
                {(one ? "value " : "mean ") + short_value(c.mean),
                 {cell.kind == CellKind::kLevel ? heat_role(cell.level) : Role::kText, true},
                 1});
            if (!one && c.min != c.max) {
                // A bin's extremes name their rank.
                auto whose = [&](double v, bool max) -> std::string {
                    if (!line.bin() || !f.all) return "";
                    for (int m : line.members) {
                        const ColumnSummary& x = (*f.all)[m][l.column];
                        if (has_finite(x) && (max ? x.max : x.min) == v)
                            return " (" +
                                   row_label(model, model.run_rank(l.group->series[m]),
                                             f.many_runs) +
                                   ")";
                    }
                    return "";
                };
                pieces.push_back({", min " + short_value(c.min) + whose(c.min, false) + ", max " +
                                      short_value(c.max) + whose(c.max, true),
                                  {Role::kText},
                                  0});
            }
        }
        pieces.push_back(
            {fmt::format("({} point{})", c.count, c.count == 1 ? "" : "s"), {Role::kDim}, 1});
        if (line.outlier) pieces.push_back({"· a rank off its peers", {Role::kAlert, true}, 1});
        if (non_finite(c)) {
            std::string text;
            if (c.nan) text += fmt::format("{} nan", c.nan);
            if (c.pos_inf) text += fmt::format("{}{} inf", text.empty() ? "" : ", ", c.pos_inf);
            if (c.neg_inf) text += fmt::format("{}{} -inf", text.empty() ? "" : ", ", c.neg_inf);
            pieces.push_back({text, {Role::kNan, true}});
        }
        if (cell.kind == CellKind::kSpike || cell.kind == CellKind::kDip) {
            std::string text;
            append_utf8(text, cell_glyph(cell, model.glyphs()));
            text += cell.kind == CellKind::kSpike ? " a spike" : " a dip";
            pieces.push_back({text, {Role::kWarn, true}});
        }
    }
    draw_pieces(canvas, 0, l.readout_y, canvas.width(), pieces, ascii);
}

}  // namespace

std::int64_t HeatmapLayout::bucket_start(int c) const {
    return column_start(lo, hi + 1, static_cast<unsigned>(std::max(1, columns)),
                        static_cast<unsigned>(c));
}

int HeatmapLayout::column_of(std::int64_t step) const {
    if (columns <= 1 || step <= lo) return 0;
    if (step >= hi) return columns - 1;
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    int c = std::clamp(static_cast<int>(static_cast<unsigned __int128>(step - lo) * columns / span),
                       0, columns - 1);
    // As bucket_start splits (its rounding may differ by one).
    while (c + 1 < columns && bucket_start(c + 1) <= step) ++c;
    while (c > 0 && bucket_start(c) > step) --c;
    return c;
}

SeriesId HeatmapLayout::row_series(int r) const {
    if (!group || r < 0 || r >= rows || lines[r].bin()) return kNoSeries;
    return group->series[lines[r].members.front()];
}

HeatmapLayout heatmap_layout(const HeatmapState& state, const ViewModel& model, int width,
                             int height) {
    return make_frame(state, model, width, height, false).l;
}

char32_t heat_glyph(int level, GlyphTier tier) {
    static constexpr char32_t kShades[kHeatRoles] = {U'░', U'░', U'░', U'▒', U'▒',
                                                     U'▓', U'▓', U'▓', U'█', U'█'};
    static constexpr char32_t kAscii[kHeatRoles] = {U'.', U',', U':', U'-', U'=',
                                                    U'+', U'*', U'#', U'%', U'@'};
    const int i = std::clamp(level, 0, kHeatRoles - 1);
    return tier == GlyphTier::kAscii ? kAscii[i] : kShades[i];
}

void draw_heatmap(Canvas& canvas, const ViewModel& model, const HeatmapState& state) {
    canvas.clear();
    if (too_small(canvas)) {
        draw_too_small(canvas, "heatmap");
        return;
    }
    const Frame f = make_frame(state, model, canvas.width(), canvas.height(), true);
    const HeatmapLayout& l = f.l;
    if (!l.group || f.cols.empty()) {
        const std::string text =
            l.group ? l.group->tag + ": no points yet"
            : model.hidden() > 0
                ? fmt::format("no series match the filter ({} hidden)", model.hidden())
                : std::string("no scalar series read yet");
        canvas.text(1, 1, fit(text, canvas.width() - 2, model.ascii()), {Role::kDim});
        draw_status(canvas, model, "heatmap");
        return;
    }
    draw_title(canvas, f, model);
    draw_map(canvas, f, model);
    draw_axis(canvas, f, model.ascii());
    if (l.legend_y >= 0) draw_legend(canvas, f, model);
    if (l.readout_y >= 0) draw_readout(canvas, f, model);

    std::string right;
    if (l.rows > l.body_rows)
        right = fmt::format("rows {}-{} of {}, ", l.first + 1,
                            std::min(l.rows, l.first + l.body_rows), l.rows);
    if (l.binned > 0) right += "b: a row per rank, ";
    const auto& groups = model.groups();
    const auto index = static_cast<int>(l.group - groups.data());
    right += fmt::format("tag {}/{}", index + 1, groups.size());
    draw_status(canvas, model, right);
}

bool heatmap_handle(HeatmapState& state, Action action, const ViewModel& model, int width,
                    int height) {
    const HeatmapLayout l = heatmap_layout(state, model, width, height);
    if (!l.group) return false;
    const HeatmapState before = state;
    int row = l.row, column = l.column;
    if (action == Action::kNextSeries || action == Action::kPreviousSeries) {
        const auto& groups = model.groups();
        const int n = static_cast<int>(groups.size());
        const int i = static_cast<int>(l.group - groups.data());
        state.tag = groups[(i + (action == Action::kNextSeries ? 1 : n - 1)) % n].tag;
    } else if (action == Action::kToggleRankBins || action == Action::kToggleOutliersFirst) {
        // The selection follows its rank into the new rows (a bin: its first member).
        const int member = l.rows > 0 ? l.lines[l.row].members.front() : 0;
        if (action == Action::kToggleRankBins)
            state.binned = !state.binned;
        else
            state.outliers_first = !state.outliers_first;
        const HeatmapLayout after = heatmap_layout(state, model, width, height);
        state.row = 0;
        for (int r = 0; r < after.rows; ++r) {
            const auto& m = after.lines[r].members;
            if (std::find(m.begin(), m.end(), member) != m.end()) state.row = r;
        }
        return true;
    } else if (!move_in_table(action, row, column, l.rows, l.body_rows)) {
        return false;
    }
    state.row = std::clamp(row, 0, std::max(0, l.rows - 1));
    column = std::clamp(column, 0, l.columns - 1);
    // The last column follows the newest steps as they arrive; another keeps its step.
    if (column == l.columns - 1)
        state.step.reset();
    else if (column != l.column || state.step)
        state.step = l.bucket_start(column);
    return state.row != before.row || state.step != before.step || state.tag != before.tag;
}

std::string heatmap_toggle_log(HeatmapState& state, const ViewModel& model, int width, int height) {
    const Frame f = make_frame(state, model, width, height, true);
    if (!f.ramp.any) return "no finite values to scale";
    HeatmapState log = state;
    log.log = true;
    if (!f.ramp.log && !make_frame(log, model, width, height, true).ramp.log)
        return "log scale needs positive values: linear kept";
    state.log = !f.ramp.log;
    return f.ramp.log ? "linear colour ramp (l: log)" : "log colour ramp (l: linear)";
}

namespace {

bool heatmap_click(HeatmapState& state, int x, int y, const ViewModel& model, int width,
                   int height) {
    if (width < kMinWidth || height < kMinHeight) return false;
    const HeatmapLayout l = heatmap_layout(state, model, width, height);
    if (!l.group) return false;
    const int r = l.first + y - l.body_y;
    if (y < l.body_y || y >= l.body_y + l.body_rows || r >= l.rows) return false;
    const HeatmapState before = state;
    state.row = r;
    if (x >= l.map_x && x < l.map_x + l.columns) {
        const int c = x - l.map_x;
        if (c == l.columns - 1)
            state.step.reset();
        else
            state.step = l.bucket_start(c);
    }
    return state.row != before.row || state.step != before.step;
}

}  // namespace

namespace {

// The member of the selected bin that tells in the selected column: one with a NaN/Inf, the
// one holding the spike's max (the dip's min), else the one furthest from the bin's mean.
SeriesId bin_member(const HeatmapState& state, const ViewModel& model, int width, int height) {
    const Frame f = make_frame(state, model, width, height, true);
    const HeatmapLayout& l = f.l;
    const RankRow& line = l.lines[l.row];
    const int i = l.row - l.first;
    SeriesId best = l.group->series[line.members.front()];
    if (!f.all || i < 0 || i >= static_cast<int>(f.cols.size())) return best;
    const ColumnSummary& merged = f.cols[i][l.column];
    const CellKind kind = classify(merged, f.ramp).kind;
    double far = -1;
    for (int m : line.members) {
        const ColumnSummary& x = (*f.all)[m][l.column];
        if (x.empty()) continue;
        const SeriesId id = l.group->series[m];
        if (kind == CellKind::kNan) {
            if (non_finite(x)) return id;
            continue;
        }
        if (!has_finite(x)) continue;
        if (kind == CellKind::kSpike && x.max == merged.max) return id;
        if (kind == CellKind::kDip && x.min == merged.min) return id;
        const double off = std::fabs(x.mean - merged.mean);
        if (off > far) {
            far = off;
            best = id;
        }
    }
    return best;
}

}  // namespace

HeatmapSelection heatmap_selection(const HeatmapState& state, const ViewModel& model, int width,
                                   int height) {
    const HeatmapLayout l = heatmap_layout(state, model, width, height);
    HeatmapSelection s;
    s.group = l.group;
    if (!l.group || l.rows == 0) return s;
    s.series = l.row_series(l.row);
    if (s.series == kNoSeries) s.series = bin_member(state, model, width, height);
    const Series& series = model.store().at(s.series);
    if (series.empty()) return s;
    const std::int64_t a = l.bucket_start(l.column), b = l.bucket_start(l.column + 1);
    ColumnSummary c;
    series.query(a, b, {&c, 1});
    if (c.empty()) {
        s.step = a;
        return s;
    }
    if (const std::optional<std::int64_t> recorded = first_record_step(model, s.series, a, b)) {
        s.step = *recorded;
        return s;
    }
    const Frame f = make_frame(state, model, width, height, true);
    const int i = l.row - f.l.first;
    const HeatCell cell = i >= 0 && i < static_cast<int>(f.cols.size())
                              ? classify(f.cols[i][l.column], f.ramp)
                              : HeatCell{};
    if (cell.kind == CellKind::kNan)
        s.step = narrow_to_step(series, a, b, [](const ColumnSummary& x) { return non_finite(x); });
    else if (cell.kind == CellKind::kSpike)
        s.step = narrow_to_step(
            series, a, b, [&](const ColumnSummary& x) { return has_finite(x) && x.max == c.max; });
    else if (cell.kind == CellKind::kDip)
        s.step = narrow_to_step(
            series, a, b, [&](const ColumnSummary& x) { return has_finite(x) && x.min == c.min; });
    s.step = s.step.value_or(c.last_step);
    return s;
}

std::string heatmap_rows_note(const HeatmapState& state, const ViewModel& model, int width,
                              int height) {
    const HeatmapLayout l = heatmap_layout(state, model, width, height);
    if (!l.group) return "no tag shown";
    return rank_rows_note({l.body_rows, model.ranks_per_node(), state.binned, state.outliers_first},
                          static_cast<int>(l.group->series.size()), l.rows, l.binned, l.outliers);
}

std::string heatmap_go_to_step(HeatmapState& state, std::int64_t step, const ViewModel& model,
                               int width, int height) {
    const HeatmapLayout l = heatmap_layout(state, model, width, height);
    if (!l.group) return "no tag to go to a step in";
    const std::string note = clamp_step(step, l.lo, l.hi, "the tag's steps");
    const int c = l.column_of(step);
    if (c == l.columns - 1)
        state.step.reset();
    else
        state.step = step;
    const std::int64_t a = l.bucket_start(c), b = l.bucket_start(c + 1) - 1;
    return note + (a == b ? fmt::format("step {}", a)
                          : fmt::format("step {}: the column of steps {}-{}", step, a, b));
}

std::string heatmap_next_mark(HeatmapState& state, int direction, const ViewModel& model, int width,
                              int height) {
    const HeatmapLayout l = heatmap_layout(state, model, width, height);
    if (!l.group) return "no tag shown";
    // Every marked cell as (column, row), page by page with each page's own ramp.
    std::vector<std::pair<int, int>> marked;
    HeatmapState page = state;
    for (int first = 0; first < l.rows; first += l.body_rows) {
        page.row = first;
        const Frame f = make_frame(page, model, width, height, true);
        for (std::size_t i = 0; i < f.cols.size(); ++i)
            for (int c = 0; c < f.l.columns; ++c) {
                const CellKind k = classify(f.cols[i][c], f.ramp).kind;
                if (k == CellKind::kNan || k == CellKind::kSpike || k == CellKind::kDip)
                    marked.emplace_back(c, f.l.first + static_cast<int>(i));
            }
    }
    if (marked.empty()) return "no marked cell (spike, dip, nan) in this tag";
    std::sort(marked.begin(), marked.end());
    const std::pair<int, int> at{l.column, l.row};
    auto it = direction > 0 ? std::upper_bound(marked.begin(), marked.end(), at)
                            : std::lower_bound(marked.begin(), marked.end(), at);
    if (direction > 0 && it == marked.end())
        return fmt::format("no marked cell after this one ({} in this tag)", marked.size());
    if (direction < 0 && it == marked.begin())
        return fmt::format("no marked cell before this one ({} in this tag)", marked.size());
    if (direction < 0) --it;
    if (it->first == l.columns - 1)
        state.step.reset();
    else
        state.step = l.bucket_start(it->first);
    state.row = it->second;
    return fmt::format("marked cell {} of {}", static_cast<int>(it - marked.begin()) + 1,
                       marked.size());
}

Pointer heatmap_mouse(HeatmapState& state, const InputEvent& event, const ViewModel& model,
                      int width, int height) {
    bool changed = false;
    if (event.button == MouseButton::kWheelUp || event.button == MouseButton::kWheelDown)
        changed = heatmap_handle(
            state, event.button == MouseButton::kWheelUp ? Action::kUp : Action::kDown, model,
            width, height);
    else if (event.button == MouseButton::kLeft)
        changed = heatmap_click(state, event.x, event.y, model, width, height);
    return changed ? Pointer::kChanged : Pointer::kNothing;
}

ViewSelection heatmap_selected(const HeatmapState& state, const ViewModel& model, int width,
                               int height) {
    const HeatmapSelection s = heatmap_selection(state, model, width, height);
    if (!s.group) return {};
    return {
        s.group, ChartTarget{s.group->tag, focus_of(model, s.series), s.step, std::nullopt}, {}};
}

}  // namespace runtop::ui
