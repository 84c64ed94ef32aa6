#include "views/ranks_view.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/format.h"
#include "views/glyphs.h"
#include "views/ranks_history.h"
#include "views/sparkline.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

enum Stat { kMean, kStd, kMin, kMax, kOutliers, kStats };
constexpr std::array<const char*, kStats> kStatHeads = {"MEAN", "STD", "MIN", "MAX", "OUTLIERS"};
// Which statistics give way first on a narrow canvas: the outliers say the most.
constexpr std::array<Stat, kStats> kStatDrop = {kStd, kMin, kMax, kMean, kOutliers};
constexpr int kMaxCell = 9;       // the widest short_value ("-1.235e-7")
constexpr int kMaxOutliers = 16;  // "3 (job:r12 worst)" is cut there
constexpr int kMaxTag = 40;
constexpr int kMinRankCells = 4;  // statistics give way before the page shows fewer ranks
constexpr int kSparkLast = 9;     // sparkline mode: LAST and VS MEDIAN columns
constexpr int kSparkDev = 9;

// Lines at the bottom: the status line always, the selection's readout and the legend when
// the canvas has the rows.
constexpr int kReadoutFrom = 8;
constexpr int kLegendFrom = 10;

// "r3", or "job:r3" when the columns span runs; a run without ranks by its name.
std::string column_name(const ViewModel& model, const RunRank& rr, bool many_runs) {
    if (rr.rank == kNoRank) return rr.run.empty() ? "no rank" : model.run_label(rr.run);
    const std::string rank = fmt::format("r{}", rr.rank);
    return many_runs ? model.run_label(rr.run) + ":" + rank : rank;
}

// The header cell: the rank alone (with several runs, the row above names the run).
std::string column_head(const ViewModel& model, const RunRank& rr) {
    if (rr.rank == kNoRank) return rr.run.empty() ? "-" : model.run_label(rr.run);
    return fmt::format("r{}", rr.rank);
}

// One tag across every column: its series, newest values and the statistics of the ranks.
struct Row {
    const TagGroup* group = nullptr;
    std::vector<SeriesId> series;  // per column, kNoSeries when that rank has no such tag
    std::vector<double> last;      // per column, the newest value (NaN when none)
    std::vector<std::int64_t> step;
    CrossRankStats stats;
    // Per column, as the cells show them besides the newest value (RanksState::cells).
    std::vector<WorstDeviation> worst;
    std::vector<AnomalyTally> tally;
};

// The column of (run, rank), -1 when none: by rank alone when the runs share the columns.
// The series' column (its key's run and rank; no RunRank made: rows of 1,024 ranks a frame).
int column_of(const std::vector<RunRank>& columns, bool by_rank, const SeriesKeyRef& key) {
    const auto it = by_rank
                        ? std::lower_bound(columns.begin(), columns.end(), key.rank,
                                           [](const RunRank& a, int rank) { return a.rank < rank; })
                        : std::lower_bound(columns.begin(), columns.end(), key,
                                           [](const RunRank& a, const SeriesKeyRef& k) {
                                               const int by_run = a.run.compare(k.run);
                                               return by_run != 0 ? by_run < 0 : a.rank < k.rank;
                                           });
    if (it == columns.end() || it->rank != key.rank || (!by_rank && it->run != key.run)) return -1;
    return static_cast<int>(it - columns.begin());
}

Row make_row(const ViewModel& model, const TagGroup& group, const std::vector<RunRank>& columns,
             bool by_rank, CrossRankScratch& scratch) {
    Row row;
    row.group = &group;
    row.series.assign(columns.size(), kNoSeries);
    row.last.assign(columns.size(), kNaN);
    row.step.assign(columns.size(), 0);
    std::vector<RankValue> values;
    values.reserve(group.series.size());
    for (SeriesId id : group.series) {
        const Series& s = model.store().at(id);
        if (s.empty()) continue;
        const int c = column_of(columns, by_rank, s.key());
        if (c < 0) continue;
        const Point p = s.back();
        row.series[c] = id;
        row.last[c] = p.value;
        row.step[c] = p.step;
        values.push_back({c, p.value});  // the column as the rank: outliers name columns
    }
    compute_cross_rank(values, {}, scratch, row.stats);
    return row;
}

// The column of the finite outlier furthest from the median, -1 when none.
int worst_outlier(const Row& row) {
    int worst = -1;
    double far = -1;
    for (int c : row.stats.outlier_ranks) {
        const double off = std::fabs(row.last[c] - row.stats.median);
        if (off > far) {
            far = off;
            worst = c;
        }
    }
    return worst;
}

struct StatCell {
    std::string text;
    Style style;
};

StatCell stat_cell(const ViewModel& model, const Row& row, Stat stat,
                   const std::vector<RunRank>& columns, bool many_runs) {
    const CrossRankStats& s = row.stats;
    const bool none = s.finite == 0;
    switch (stat) {
        case kMean:
            return {none ? "-" : short_value(s.mean), {none ? Role::kDim : Role::kText}};
        case kStd:
            return {none ? "-" : short_value(s.std), {none ? Role::kDim : Role::kText}};
        case kMin:
            return {none ? "-" : short_value(s.min), {none ? Role::kDim : Role::kText}};
        case kMax:
            return {none ? "-" : short_value(s.max), {none ? Role::kDim : Role::kText}};
        case kOutliers:
        case kStats:
            break;
    }
    const std::size_t n = s.outlier_ranks.size();
    const int bad = s.non_finite;
    if (n == 0 && bad == 0) return {"0", {Role::kDim}};
    std::string text;
    if (n == 1) {
        text = "1 " + column_name(model, columns[worst_outlier(row)], many_runs);
    } else if (n > 1) {
        text = fmt::format("{} ({} worst)", n,
                           column_name(model, columns[worst_outlier(row)], many_runs));
    }
    if (bad > 0) {
        if (n == 0)
            text = fmt::format("{} nan {}", bad,
                               column_name(model, columns[s.non_finite_ranks.front()], many_runs));
        else
            text += fmt::format(" +{} nan", bad);
    }
    return {text, n > 0 ? Style{Role::kAlert, true} : Style{Role::kNan, true}};
}

// The distance from the median as a person reads it: "+2.1%", "-35%", "×30" far off, or a
// plain difference when the median is 0.
std::string deviation_text(double value, double median, bool ascii) {
    if (!std::isfinite(value) || !std::isfinite(median)) return "-";
    const double diff = value - median;
    if (median == 0) return (diff >= 0 ? "+" : "") + short_value(diff);
    const double rel = diff / std::fabs(median);
    if (std::fabs(rel) < 0.9995) return fmt::format("{:+.1f}%", rel * 100);
    if (std::fabs(rel) < 9.995) return fmt::format("{:+.0f}%", rel * 100);
    return (ascii ? "x" : "×") + fmt::format("{:.3g}", value / median);
}

std::string_view level_words(CellLevel level) {
    switch (level) {
        case CellLevel::kOk:
            return "near the median";
        case CellLevel::kOff:
            return "off the median";
        case CellLevel::kOutlier:
            return "an outlier";
        case CellLevel::kNonFinite:
            return "not a number";
    }
    return "";
}

// Everything a frame needs: the geometry (what handle and click use too) and the page's data.
struct Frame {
    RanksLayout l;
    std::vector<Row> rows;  // table: the page's tags; sparklines: the selected tag's row
    // Table: the statistics columns.
    std::array<bool, kStats> shown{};
    std::array<int, kStats> stat_w{};
    int rule_x = -1;          // the "│" before them, -1 when none is shown
    std::optional<bool> log;  // the sparklines' scale as chosen (RanksState::log)
    RankCells cells = RankCells::kNewest;
    // Sparklines judged for bins: every rank's columns over the row's steps, else nullptr.
    const std::vector<std::vector<ColumnSummary>>* all = nullptr;
};

// Rows for `count` lines from `top`, the legend and readout right under them (the status line
// stays at the bottom).
int body_rows_for(int height, int top, int count, bool readout, RanksLayout& l) {
    const bool has_readout = readout && height >= kReadoutFrom;
    const bool has_legend = height >= kLegendFrom;
    const int avail = std::max(1, height - 1 - top - has_readout - has_legend);
    const int rows = std::clamp(count, 1, avail);
    int y = top + rows;
    if (has_legend) l.legend_y = y++;
    if (has_readout) l.readout_y = y;
    return rows;
}

// The steps a row's series span, [lo, hi]; nullopt when none has a point.
std::optional<std::pair<std::int64_t, std::int64_t>> row_steps(const ViewModel& model,
                                                               const Row& row) {
    std::optional<std::pair<std::int64_t, std::int64_t>> out;
    for (SeriesId id : row.series) {
        if (id == kNoSeries || model.store().at(id).empty()) continue;
        const Series& s = model.store().at(id);
        out = out ? std::pair(std::min(out->first, s.first_step()),
                              std::max(out->second, s.last_step()))
                  : std::pair(s.first_step(), s.last_step());
    }
    return out;
}

// Time columns a rank's history is judged over: fewer when there are many ranks, so a page of
// rows over 1,024 ranks stays a few thousand queries.
int history_columns(std::size_t ranks) {
    return static_cast<int>(std::clamp<std::size_t>(8192 / std::max<std::size_t>(ranks, 1), 8, 64));
}

// What the cells show besides the newest value, for the page's rows.
void add_history(Frame& f, const ViewModel& model) {
    if (f.cells == RankCells::kAnomalies) {
        const auto tally = tally_anomalies(model.analyzer().log());
        for (Row& r : f.rows) {
            r.tally.assign(r.series.size(), {});
            for (std::size_t c = 0; c < r.series.size(); ++c)
                if (auto it = tally.find(r.series[c]); it != tally.end()) r.tally[c] = it->second;
        }
    } else if (f.cells == RankCells::kWorst) {
        for (Row& r : f.rows) {
            const auto steps =
                row_steps(model, r).value_or(std::pair<std::int64_t, std::int64_t>(0, -1));
            r.worst = worst_deviations(model.store(), r.series, steps.first, steps.second,
                                       history_columns(r.series.size()));
        }
    }
}

// A cell's text in the frame's mode.
std::string cell_text(const Frame& f, const Row& row, int c, bool ascii) {
    switch (f.cells) {
        case RankCells::kNewest:
            break;
        case RankCells::kWorst: {
            const WorstDeviation& w = row.worst[c];
            if (w.non_finite) return "nan";
            if (!w.any) return ascii ? "-" : "·";
            return deviation_text(w.value, w.median, ascii);
        }
        case RankCells::kAnomalies:
            return std::to_string(row.tally[c].count);
    }
    return short_value(row.last[c]);
}

Style cell_style_in(const Frame& f, const Row& row, int c) {
    switch (f.cells) {
        case RankCells::kNewest:
            break;
        case RankCells::kWorst: {
            const WorstDeviation& w = row.worst[c];
            if (w.non_finite) return cell_style(CellLevel::kNonFinite);
            if (!w.any) return {Role::kDim};
            return cell_style(w.ratio > 1     ? CellLevel::kOutlier
                              : w.ratio > 0.5 ? CellLevel::kOff
                                              : CellLevel::kOk);
        }
        case RankCells::kAnomalies: {
            const AnomalyTally& t = row.tally[c];
            if (t.count == 0) return {Role::kDim};
            return {t.alert ? Role::kAlert : Role::kWarn, true};
        }
    }
    return cell_style(rank_deviation(row.last[c], row.stats).level);
}

void table_frame(Frame& f, const ViewModel& model, int width, int height) {
    RanksLayout& l = f.l;
    const auto& groups = model.groups();
    const int ncols = static_cast<int>(l.columns.size());
    l.body_y = 2;  // a caption (or run names) row, then the heads
    l.body_rows = body_rows_for(height, l.body_y, l.rows, true, l);
    l.first = l.row / l.body_rows * l.body_rows;
    CrossRankScratch scratch;
    for (int i = l.first; i < std::min(l.rows, l.first + l.body_rows); ++i)
        f.rows.push_back(make_row(model, groups[i], l.columns, l.by_rank, scratch));
    add_history(f, model);

    // The tag column fits every tag (not only the page's: it must not jump between pages).
    int tag_w = 3;
    for (const TagGroup& g : groups) tag_w = std::max(tag_w, display_width(g.tag));
    l.tag_w = std::min({tag_w, kMaxTag, std::max(12, width / 4)});

    // Cells fit the page's values and every head.
    int cell_w = 2;
    for (const RunRank& rr : l.columns)
        cell_w = std::max(cell_w, display_width(column_head(model, rr)));
    for (const Row& r : f.rows)
        for (int c = 0; c < ncols; ++c)
            if (r.series[c] != kNoSeries)
                cell_w = std::max(cell_w, display_width(cell_text(f, r, c, false)));
    l.cell_w = std::min(cell_w, kMaxCell);

    for (int s = 0; s < kStats; ++s) {
        f.shown[s] = true;
        int w = display_width(kStatHeads[s]);
        for (const Row& r : f.rows)
            w = std::max(w,
                         display_width(stat_cell(model, r, Stat(s), l.columns, l.many_runs).text));
        f.stat_w[s] = std::min(w, s == kOutliers ? kMaxOutliers : kMaxCell);
    }
    auto stats_width = [&] {
        int w = 0;
        for (int s = 0; s < kStats; ++s)
            if (f.shown[s]) w += f.stat_w[s] + 1;
        return w > 0 ? w + 1 : 0;  // "│ " before them, no gap after the last
    };
    l.cell_x = l.tag_w + 1;
    const int avail = width - l.cell_x;
    // Every rank on one page is worth the statistics (the cells show the outliers); when they
    // cannot all fit anyway, the statistics stay down to kMinRankCells ranks a page.
    const int want =
        std::max(1, ncols <= avail / (l.cell_w + 1) ? ncols : std::min(ncols, kMinRankCells));
    // Two columns between cells when every rank fits so, one otherwise.
    auto pitch = [&] { return avail - stats_width() >= ncols * (l.cell_w + 2) ? 2 : 1; };
    for (Stat s : kStatDrop) {
        if ((avail - stats_width()) / (l.cell_w + pitch()) >= want) break;
        f.shown[s] = false;
    }
    l.pitch = l.cell_w + pitch();
    l.per_page = std::clamp((avail - stats_width()) / l.pitch, 1, std::max(1, ncols));
    l.first_column = l.column / l.per_page * l.per_page;
    if (stats_width() > 0) f.rule_x = l.cell_x + l.per_page * l.pitch;
}

void sparkline_frame(Frame& f, const ViewModel& model, const RanksState& state, int width,
                     int height) {
    RanksLayout& l = f.l;
    const int ncols = static_cast<int>(l.columns.size());
    l.body_y = 2;  // the title, then the heads
    // Each rank's row says what the readout would.
    const int room = body_rows_for(height, l.body_y, ncols, false, l);
    CrossRankScratch scratch;
    if (l.rows > 0)
        f.rows.push_back(make_row(model, model.groups()[l.row], l.columns, l.by_rank, scratch));
    const bool bins = state.binned && ncols > room;
    int label_w = 4;  // "RANK"
    for (const RunRank& rr : l.columns)
        label_w = std::max(label_w, display_width(column_name(model, rr, l.many_runs)));
    if (bins) label_w = 2 * label_w - 1;  // "r1000-1023"
    l.label_w = std::min(label_w, std::max(6, width / 4));
    l.spark_x = l.label_w + 1;
    l.spark_w = width - l.spark_x - (kSparkLast + 1) - (kSparkDev + 1);
    if (l.spark_w < 8) l.spark_w = width - l.spark_x - (kSparkLast + 1);
    if (l.spark_w < 4) l.spark_w = width - l.spark_x;
    l.spark_w = std::max(1, l.spark_w);

    // The rows: a row per rank while they fit (and `o` does not ask to judge them); else each
    // rank judged against the others over the sparkline's own columns.
    const auto steps = (f.rows.empty() ? std::nullopt : row_steps(model, f.rows[0]))
                           .value_or(std::pair<std::int64_t, std::int64_t>(0, -1));
    if ((bins || state.outliers_first) && steps.second >= steps.first) {
        thread_local ColumnsCache cache;
        f.all = &cache.get(model.store(), f.rows[0].series, steps.first, steps.second,
                           spark_columns(l.spark_w, model.glyphs()));
        const std::vector<double>& scores = cache.scores();
        l.lines =
            rank_rows(scores, {room, model.ranks_per_node(), state.binned, state.outliers_first});
    } else {
        l.lines.resize(ncols);
        for (int c = 0; c < ncols; ++c) l.lines[c].members = {c};
    }
    for (std::size_t r = 0; r < l.lines.size(); ++r) {
        const RankRow& line = l.lines[r];
        if (line.bin()) l.binned += static_cast<int>(line.members.size());
        l.outliers += line.outlier;
        if (std::find(line.members.begin(), line.members.end(), l.column) != line.members.end())
            l.line = static_cast<int>(r);
    }
    l.legend_y = l.readout_y = -1;
    l.body_rows = body_rows_for(height, l.body_y, static_cast<int>(l.lines.size()), false, l);
    l.first = l.line / l.body_rows * l.body_rows;
}

// The columns and the cursor: what the selection needs, without a row's values.
RanksLayout cursor_layout(const RanksState& state, const ViewModel& model) {
    RanksLayout l;
    l.columns = rank_columns(model, &l.by_rank);
    for (std::size_t i = 1; i < l.columns.size(); ++i)
        l.many_runs |= !l.by_rank && l.columns[i].run != l.columns[0].run;
    l.rows = static_cast<int>(model.groups().size());
    l.row = std::clamp(state.row, 0, std::max(0, l.rows - 1));
    l.column = std::clamp(state.column, 0, std::max(0, static_cast<int>(l.columns.size()) - 1));
    return l;
}

Frame make_frame(const RanksState& state, const ViewModel& model, int width, int height) {
    Frame f;
    f.log = state.log;
    f.cells = state.cells;
    f.l = cursor_layout(state, model);
    if (state.sparklines)
        sparkline_frame(f, model, state, width, height);
    else
        table_frame(f, model, width, height);
    return f;
}

// ---- drawing: the table

// The row above the heads: what the cells are (one run) or whose they are (several runs), and
// what the statistics are over.
void draw_caption(Canvas& canvas, const ViewModel& model, const Frame& f, bool ascii) {
    const RanksLayout& l = f.l;
    const char32_t rule = ascii ? U'-' : U'─';
    const int ncols = static_cast<int>(l.columns.size());
    const int last = std::min(ncols, l.first_column + l.per_page);
    const int cells_end = l.cell_x + (last - l.first_column) * l.pitch - 1;
    auto label = [&](int x, int end, const std::string& text, Style style) {
        if (end - x < 2) return;
        const int used = canvas.text(x, 0, fit(text, end - x, ascii), style);
        if (x + used + 1 < end)
            canvas.fill(x + used + 1, 0, end - x - used - 1, 1, rule, {Role::kDim});
    };
    if (!l.many_runs) {
        label(l.cell_x, cells_end, std::string(rank_cells_caption(f.cells)), {Role::kDim});
    } else {
        // A run's name over the span of its columns on this page.
        for (int c = l.first_column; c < last;) {
            int e = c;
            while (e < last && l.columns[e].run == l.columns[c].run) ++e;
            const int x = l.cell_x + (c - l.first_column) * l.pitch;
            const int end = l.cell_x + (e - l.first_column) * l.pitch - 1;
            label(x, end, model.run_label(l.columns[c].run), {Role::kTitle});
            c = e;
        }
    }
    if (f.rule_x >= 0)
        label(f.rule_x + 2, canvas.width(),
              fmt::format("across all {} {}", ncols,
                          l.many_runs ? "columns" : (ncols == 1 ? "rank" : "ranks")),
              {Role::kDim});
}

// The x of each shown statistic, in order.
std::array<int, kStats> stat_xs(const Frame& f) {
    std::array<int, kStats> xs{};
    int x = f.rule_x + 2;
    for (int s = 0; s < kStats; ++s) {
        xs[s] = x;
        if (f.shown[s]) x += f.stat_w[s] + 1;
    }
    return xs;
}

void draw_heads(Canvas& canvas, const ViewModel& model, const Frame& f) {
    const RanksLayout& l = f.l;
    const int y = l.body_y - 1;
    const Style head{Role::kTitle, true};
    canvas.text(0, y, "TAG", head);
    const int last = std::min(static_cast<int>(l.columns.size()), l.first_column + l.per_page);
    for (int c = l.first_column; c < last; ++c) {
        const int x = l.cell_x + (c - l.first_column) * l.pitch;
        const Style style = c == l.column ? Style{Role::kAccent, true, true} : head;
        canvas.text_right(x + l.cell_w, y, fit(column_head(model, l.columns[c]), l.cell_w), style);
    }
    if (f.rule_x < 0) return;
    const std::array<int, kStats> xs = stat_xs(f);
    for (int s = 0; s < kStats; ++s) {
        if (!f.shown[s]) continue;
        if (s == kOutliers)
            canvas.text(xs[s], y, kStatHeads[s], head, f.stat_w[s]);
        else
            canvas.text_right(xs[s] + f.stat_w[s], y, kStatHeads[s], head);
    }
}

void draw_row(Canvas& canvas, const ViewModel& model, const Frame& f, const Row& row, int index,
              int y, bool ascii) {
    const RanksLayout& l = f.l;
    const bool selected_row = index == l.row;
    const Style tag_style =
        selected_row ? Style{Role::kAccent, true, true} : Style{Role::kText, false};
    if (selected_row) canvas.fill(0, y, l.tag_w, 1, U' ', tag_style);
    canvas.text(0, y, fit(row.group->tag, l.tag_w, ascii), tag_style);
    const int last = std::min(static_cast<int>(l.columns.size()), l.first_column + l.per_page);
    for (int c = l.first_column; c < last; ++c) {
        const int x = l.cell_x + (c - l.first_column) * l.pitch;
        const bool selected = selected_row && c == l.column;
        std::string text;
        Style style;
        if (row.series[c] == kNoSeries) {
            text = ascii ? "-" : "·";
            style = {Role::kDim};
        } else {
            text = cell_text(f, row, c, ascii);
            style = cell_style_in(f, row, c);
        }
        if (selected) {
            style = {Role::kAccent, true, true};
            canvas.fill(x, y, l.cell_w, 1, U' ', style);
        }
        canvas.text_right(x + l.cell_w, y, fit(text, l.cell_w, ascii), style);
    }
    if (f.rule_x < 0) return;
    const std::array<int, kStats> xs = stat_xs(f);
    for (int s = 0; s < kStats; ++s) {
        if (!f.shown[s]) continue;
        const StatCell cell = stat_cell(model, row, Stat(s), l.columns, l.many_runs);
        if (s == kOutliers)
            canvas.text(xs[s], y, fit(cell.text, f.stat_w[s], ascii), cell.style);
        else
            canvas.text_right(xs[s] + f.stat_w[s], y, fit(cell.text, f.stat_w[s], ascii),
                              cell.style);
    }
}

// The legend: what the colours (and, without colour, the attributes) of a cell mean.
void draw_legend(Canvas& canvas, int y, bool ascii, bool sparklines,
                 RankCells cells = RankCells::kNewest) {
    if (cells == RankCells::kAnomalies) {
        draw_pieces(canvas, 0, y, canvas.width(),
                    {{"cells: anomalies recorded on each rank over every step, by the worst:",
                      {Role::kDim}},
                     {"alert", {Role::kAlert, true}, 1},
                     {"warn", {Role::kWarn, true}},
                     {"0 none", {Role::kDim}},
                     {"(c: next cells)", {Role::kDim}}},
                    ascii);
        return;
    }
    std::vector<Piece> pieces = {
        {sparklines                   ? "last values vs the median of the ranks:"
         : cells == RankCells::kWorst ? "cells: each rank's worst vs the median:"
                                      : "cells vs the median of the ranks:",
         {Role::kDim}},
        {"near", cell_style(CellLevel::kOk), 1},
        {"off", cell_style(CellLevel::kOff)},
        {"outlier", cell_style(CellLevel::kOutlier)},
        {"(beyond 5 MAD and 5%; off: half that)", {Role::kDim}, 1},
        {"nan/inf", cell_style(CellLevel::kNonFinite)},
        {ascii ? "- no data" : "· no data", {Role::kDim}},
    };
    draw_pieces(canvas, 0, y, canvas.width(), pieces, ascii);
}

// The selected cell in words: value, step, median, distance and verdict.
void draw_readout(Canvas& canvas, const Frame& f, const ViewModel& model, int y, bool ascii) {
    const RanksLayout& l = f.l;
    const int r = l.row - l.first;
    if (r < 0 || r >= static_cast<int>(f.rows.size()) || l.columns.empty()) return;
    const Row& row = f.rows[r];
    const int c = l.column;
    std::vector<Piece> pieces;
    std::string who = column_name(model, l.columns[c], l.many_runs);
    if (row.series[c] != kNoSeries && l.by_rank && model.runs() > 1)
        who += " (" + model.run_label(model.store().at(row.series[c]).key().run) + ")";
    pieces.push_back({row.group->tag + " " + who + ":", {Role::kTitle, true}});
    if (row.series[c] == kNoSeries) {
        pieces.push_back({"no points of this tag on this rank", {Role::kDim}, 1});
    } else if (f.cells == RankCells::kAnomalies) {
        const AnomalyTally& t = row.tally[c];
        pieces.push_back({t.count == 0 ? std::string("no anomaly recorded")
                                       : fmt::format("{} anomal{} recorded{}", t.count,
                                                     t.count == 1 ? "y" : "ies",
                                                     t.alert ? ", an alert among them" : ""),
                          cell_style_in(f, row, c), 1});
    } else if (f.cells == RankCells::kWorst && row.worst[c].any) {
        const WorstDeviation& w = row.worst[c];
        const std::string dash = ascii ? "-" : "–";
        pieces.push_back({"worst " + short_value(w.value), cell_style_in(f, row, c), 1});
        pieces.push_back({w.from == w.to
                              ? "at step " + short_step(w.from)
                              : "in steps " + short_step(w.from) + dash + short_step(w.to),
                          {Role::kText},
                          1});
        pieces.push_back({"· " + deviation_text(w.value, w.median, ascii) + " vs the median " +
                              short_value(w.median) + fmt::format(" of {} ranks", w.ranks),
                          {Role::kText},
                          1});
        if (w.non_finite) pieces.push_back({"· nan/inf on this rank", {Role::kNan, true}, 1});
    } else {
        const double v = row.last[c];
        const CellDeviation d = rank_deviation(v, row.stats);
        pieces.push_back({short_value(v), cell_style(d.level), 1});
        pieces.push_back({"at step " + short_step(row.step[c]), {Role::kText}, 1});
        if (row.stats.finite > 0) {
            const std::string median = fmt::format("the median {} of {} ranks",
                                                   short_value(row.stats.median), row.stats.finite);
            pieces.push_back(
                {"· " +
                     (std::isfinite(v) ? deviation_text(v, row.stats.median, ascii) + " vs "
                                       : std::string()) +
                     median,
                 {Role::kText},
                 1});
        }
        pieces.push_back({"· " + std::string(level_words(d.level)), cell_style(d.level), 1});
        const AlertLevel a = model.analyzer().series_state(row.series[c]).level;
        if (a != AlertLevel::kOk)
            pieces.push_back({std::string("· series in ") + std::string(alert_level_name(a)),
                              {a == AlertLevel::kAlert ? Role::kAlert : Role::kWarn, true},
                              1});
    }
    draw_pieces(canvas, 0, y, canvas.width(), pieces, ascii);
}

std::string table_status(const RanksLayout& l) {
    const int ncols = static_cast<int>(l.columns.size());
    bool ranked = !l.many_runs;
    for (const RunRank& rr : l.columns) ranked &= rr.rank != kNoRank;
    const std::string what = ranked ? (ncols == 1 ? "rank" : "ranks") : "columns";
    std::string cols;
    if (ncols <= l.per_page) {
        cols = fmt::format("{} {}", ncols, what);
    } else {
        const int last = std::min(ncols, l.first_column + l.per_page) - 1;
        cols = ranked ? fmt::format("ranks {}-{} of {}", l.columns[l.first_column].rank,
                                    l.columns[last].rank, ncols)
                      : fmt::format("columns {}-{} of {}", l.first_column + 1, last + 1, ncols);
    }
    return fmt::format("{}, tag {}/{}", cols, l.row + 1, l.rows);
}

void draw_table(Canvas& canvas, const ViewModel& model, const Frame& f) {
    const RanksLayout& l = f.l;
    const bool ascii = model.ascii();
    draw_caption(canvas, model, f, ascii);
    draw_heads(canvas, model, f);
    const char32_t bar = ascii ? U'|' : U'│';
    if (f.rule_x >= 0)
        for (int y = l.body_y - 1; y < l.body_y + static_cast<int>(f.rows.size()); ++y)
            canvas.put(f.rule_x, y, bar, {Role::kBorder});
    for (std::size_t i = 0; i < f.rows.size(); ++i)
        draw_row(canvas, model, f, f.rows[i], l.first + static_cast<int>(i),
                 l.body_y + static_cast<int>(i), ascii);
    if (l.readout_y >= 0) draw_readout(canvas, f, model, l.readout_y, ascii);
    if (l.legend_y >= 0) draw_legend(canvas, l.legend_y, ascii, false, f.cells);
    draw_status(canvas, model, table_status(l));
}

// ---- drawing: one sparkline per rank

struct SparkData {
    std::int64_t lo = 0, hi = 0;
    SparkRange range;
    bool any = false;
    std::vector<std::vector<ColumnSummary>> page;  // per rank of the page; empty: no series
};

// The q-quantile of v (reordered).
double quantile(std::vector<double>& v, double q) {
    const auto k = static_cast<std::size_t>(std::lround(q * static_cast<double>(v.size() - 1)));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

// The tag's step range, the page's ranks queried over it, and the y range they share. The
// range is robust: from the 1st percentile of the columns' minima to the 99th of their maxima
// (once there are enough columns for that to mean something), so one spike does not flatten
// every other rank into its bottom row; a column beyond is drawn clamped to the edge, so the
// spike still shows, as a column reaching the top. Log scale as `log` says, or (nullopt) when
// every value is positive and the range spans over a decade; a log scale takes its range from
// the positive values, and there is none without them.
SparkData spark_data(const ViewModel& model, const Frame& f, int cells, std::optional<bool> log) {
    SparkData d;
    if (f.rows.empty()) return d;
    const Row& row = f.rows[0];
    const RanksLayout& l = f.l;
    const auto steps = row_steps(model, row);
    if (!steps) return d;
    d.any = true;
    std::tie(d.lo, d.hi) = *steps;
    std::vector<double> mins, maxes;
    std::vector<ColumnSummary> all;
    const bool forced_log = log.value_or(false);
    const int last = std::min(static_cast<int>(l.lines.size()), l.first + l.body_rows);
    for (int r = l.first; r < last; ++r) {
        d.page.emplace_back();
        const RankRow& line = l.lines[r];
        if (f.all) {  // the columns every rank was judged by: a bin's merged
            for (int m : line.members) {
                const auto& cols = (*f.all)[m];
                if (cols.empty()) continue;
                d.page.back().resize(cols.size());
                for (std::size_t k = 0; k < cols.size(); ++k) merge_into(d.page.back()[k], cols[k]);
            }
        } else if (row.series[line.members.front()] != kNoSeries) {
            d.page.back().resize(cells);
            model.store().at(row.series[line.members.front()]).query(d.lo, d.hi + 1, d.page.back());
        }
        for (const ColumnSummary& col : d.page.back()) {
            if (col.empty() || !std::isfinite(col.min) || !std::isfinite(col.max)) continue;
            if (forced_log && col.max <= 0) continue;
            if (!forced_log || col.min > 0) mins.push_back(col.min);
            maxes.push_back(col.max);
            all.push_back(col);
        }
    }
    d.range = spark_range(all, forced_log);
    if (mins.size() >= 50) {
        const double lo = quantile(mins, 0.01), hi = quantile(maxes, 0.99);
        if (hi > lo) d.range = {lo, hi, d.range.log};
    }
    d.range.log = log ? *log && d.range.lo > 0 : d.range.lo > 0 && d.range.hi > 10 * d.range.lo;
    return d;
}

// Per cell: 1 (-1) when a column of it goes beyond the range's top (bottom) by more than the
// range's own span: a spike the clamped sparkline would draw like any peak at the edge. On a
// log scale, by that span in the values or in their logs: the logs of a range spanning decades
// are wide, and a loss spiking to twice the top (4.8 on 0.06-2.3) stays "near" in them.
std::vector<int> far_beyond(std::span<const ColumnSummary> columns, const SparkRange& r,
                            GlyphTier tier) {
    const std::size_t per_cell = tier == GlyphTier::kBraille ? 2 : 1;
    std::vector<int> out((columns.size() + per_cell - 1) / per_cell, 0);
    const double span = r.hi - r.lo;
    const double log_lo = r.log ? std::log(r.lo) : 0, log_hi = r.log ? std::log(r.hi) : 0;
    const double log_span = log_hi - log_lo;
    auto above = [&](double v) {
        return v > r.hi + span || (r.log && v > 0 && std::log(v) > log_hi + log_span);
    };
    auto below = [&](double v) {
        return v < r.lo - span || (r.log && (v <= 0 || std::log(v) < log_lo - log_span));
    };
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const ColumnSummary& c = columns[i];
        if (c.empty() || !std::isfinite(c.min) || !std::isfinite(c.max)) continue;
        if (above(c.max))
            out[i / per_cell] = 1;
        else if (below(c.min) && out[i / per_cell] == 0)
            out[i / per_cell] = -1;
    }
    return out;
}

// A row's label: the rank's name, or its bin's ("r0-23", "job:r0-23").
std::string line_name(const ViewModel& model, const RanksLayout& l, const RankRow& line) {
    const RunRank& first = l.columns[line.members.front()];
    if (!line.bin()) return column_name(model, first, l.many_runs);
    const RunRank& last = l.columns[line.members.back()];
    if (first.rank == kNoRank || last.rank == kNoRank || first.run != last.run)
        return column_name(model, first, l.many_runs) + "-" + column_name(model, last, l.many_runs);
    return column_name(model, first, l.many_runs) + "-" + std::to_string(last.rank);
}

// The member of a row that LAST and VS MEDIAN speak for: the rank itself, or the bin's member
// furthest from the median of the ranks (a NaN first).
int speaking_member(const Row& row, const RankRow& line) {
    int best = line.members.front();
    double far = -1;
    for (int m : line.members) {
        if (row.series[m] == kNoSeries) continue;
        const CellDeviation d = rank_deviation(row.last[m], row.stats);
        const double off =
            d.level == CellLevel::kNonFinite ? std::numeric_limits<double>::infinity() : d.ratio;
        if (off > far) {
            far = off;
            best = m;
        }
    }
    return best;
}

void draw_sparklines(Canvas& canvas, const ViewModel& model, const Frame& f) {
    const RanksLayout& l = f.l;
    const bool ascii = model.ascii();
    const GlyphTier tier = model.glyphs();
    const int w = canvas.width();
    if (f.rows.empty()) return;
    const Row& row = f.rows[0];
    const int ncols = static_cast<int>(l.columns.size());
    const int nlines = static_cast<int>(l.lines.size());
    const SparkData d = spark_data(model, f, spark_columns(l.spark_w, tier), f.log);
    const bool has_last = l.spark_x + l.spark_w + 1 + kSparkLast <= w;
    const bool has_dev = l.spark_x + l.spark_w + 2 + kSparkLast + kSparkDev <= w;
    const int last_x = l.spark_x + l.spark_w + 1;
    const int dev_x = last_x + kSparkLast + 1;

    // Title: the tag, what the rows are, the shared ranges.
    {
        std::string arrows;
        append_utf8(arrows, marks(tier).clipped_up);
        append_utf8(arrows, marks(tier).clipped_down);
        std::vector<Piece> pieces = {{row.group->tag, {Role::kTitle, true}}};
        if (d.any) {
            const std::string dash = ascii ? "-" : "–";
            pieces.push_back({l.binned > 0
                                  ? fmt::format("{} ranks in {} rows, steps {}{}{}", ncols, nlines,
                                                short_step(d.lo), dash, short_step(d.hi))
                                  : "one sparkline per rank, steps " + short_step(d.lo) + dash +
                                        short_step(d.hi),
                              {Role::kDim}});
            if (l.binned > 0 || l.outliers > 0)
                pieces.push_back(
                    {fmt::format("{}{} {} apart{}", l.binned > 0 ? "· neighbours binned, " : "· ",
                                 l.outliers, l.outliers == 1 ? "outlier" : "outliers",
                                 l.lines.front().outlier ? ", on top" : ""),
                     {l.outliers > 0 ? Role::kAlert : Role::kDim, l.outliers > 0},
                     1});
            pieces.push_back({"· y " + short_value(d.range.lo) + dash + short_value(d.range.hi) +
                                  " shared" + (d.range.log ? " (log)" : "") +
                                  ", far beyond: " + arrows,
                              {Role::kDim},
                              1});
        }
        draw_pieces(canvas, 0, 0, w, pieces, ascii);
    }
    // Heads.
    const int hy = l.body_y - 1;
    const Style head{Role::kTitle, true};
    canvas.text(0, hy, "RANK", head, l.label_w);
    if (d.any && l.spark_w >= 12) {
        canvas.text(l.spark_x, hy, short_step(d.lo), {Role::kDim});
        canvas.text_right(l.spark_x + l.spark_w, hy, short_step(d.hi), {Role::kDim});
        const std::string mid = "step";
        canvas.text(l.spark_x + (l.spark_w - 4) / 2, hy, mid, {Role::kDim});
    }
    if (has_last) canvas.text_right(last_x + kSparkLast, hy, "LAST", head);
    if (has_dev) canvas.text_right(dev_x + kSparkDev, hy, "VS MEDIAN", head);

    for (int i = 0; i < l.body_rows && l.first + i < nlines; ++i) {
        const RankRow& line = l.lines[l.first + i];
        const int c = speaking_member(row, line);
        const int y = l.body_y + i;
        const bool selected = l.first + i == l.line;
        const SeriesId id = row.series[c];
        const CellDeviation dev =
            id == kNoSeries ? CellDeviation{} : rank_deviation(row.last[c], row.stats);
        Style label_style = selected     ? Style{Role::kAccent, true, true}
                            : line.bin() ? Style{Role::kDim}
                                         : Style{Role::kText};
        if (!selected && id != kNoSeries && dev.level != CellLevel::kOk)
            label_style = cell_style(dev.level);
        if (selected) canvas.fill(0, y, l.label_w, 1, U' ', label_style);
        canvas.text(0, y, fit(line_name(model, l, line), l.label_w, ascii), label_style);
        if (id == kNoSeries || d.page[i].empty()) {
            canvas.text(l.spark_x, y, ascii ? "- no points of this tag" : "· no points of this tag",
                        {Role::kDim}, l.spark_w);
            continue;
        }
        const std::vector<SparkCell> spark = sparkline(d.page[i], d.range, tier);
        const std::vector<int> beyond = far_beyond(d.page[i], d.range, tier);
        const Style line_style = dev.level == CellLevel::kOutlier ? Style{Role::kAlert}
                                 : dev.level == CellLevel::kOff   ? Style{Role::kWarn}
                                                                  : Style{Role::kText};
        for (std::size_t k = 0; k < spark.size(); ++k) {
            const int x = l.spark_x + static_cast<int>(k);
            if (spark[k].nan)
                canvas.put(x, y, marks(tier).nan, {Role::kNan, true});
            else if (beyond[k] != 0)
                canvas.put(x, y, beyond[k] > 0 ? marks(tier).clipped_up : marks(tier).clipped_down,
                           {Role::kWarn, true});
            else
                canvas.put(x, y, spark[k].ch, line_style);
        }
        if (has_last)
            canvas.text_right(last_x + kSparkLast, y, short_value(row.last[c]),
                              cell_style(dev.level));
        if (has_dev)
            canvas.text_right(
                dev_x + kSparkDev, y, deviation_text(row.last[c], row.stats.median, ascii),
                dev.level == CellLevel::kOk ? Style{Role::kDim} : cell_style(dev.level));
    }
    if (l.legend_y >= 0) draw_legend(canvas, l.legend_y, ascii, true);
    std::string right;
    if (nlines > l.body_rows) {
        const int last = std::min(nlines, l.first + l.body_rows) - 1;
        right = fmt::format("rows {}-{} of {}, ", l.first + 1, last + 1, nlines);
    }
    if (l.binned > 0) right += "b: a row per rank, ";
    right += fmt::format("tag {}/{}", l.row + 1, l.rows);
    draw_status(canvas, model, right);
}

}  // namespace

std::vector<RunRank> rank_columns(const ViewModel& model, bool* by_rank) {
    std::vector<RunRank> out = model.run_ranks();  // sorted
    // Runs share the columns when no tag has a rank in two of them (one run always does).
    bool shared = true;
    std::vector<int> ranks;
    const bool single_run = out.empty() || out.front().run == out.back().run;
    for (const TagGroup& g : model.groups()) {
        if (single_run || !shared) break;
        ranks.clear();
        for (SeriesId id : g.series) ranks.push_back(model.store().at(id).key().rank);
        std::sort(ranks.begin(), ranks.end());
        shared &= std::adjacent_find(ranks.begin(), ranks.end()) == ranks.end();
    }
    if (by_rank) *by_rank = shared;
    if (!shared) return out;
    // One column per rank, named by its run when it has one run only.
    std::stable_sort(out.begin(), out.end(),
                     [](const RunRank& a, const RunRank& b) { return a.rank < b.rank; });
    std::vector<RunRank> merged;
    for (RunRank& rr : out) {
        if (!merged.empty() && merged.back().rank == rr.rank) {
            merged.back().run.clear();
            continue;
        }
        merged.push_back(std::move(rr));
    }
    bool one_run = true;
    for (const RunRank& rr : merged) one_run &= rr.run == merged.front().run;
    // Several runs: the cells name their run in the readout, the heads only the rank.
    if (!one_run)
        for (RunRank& rr : merged)
            if (rr.rank != kNoRank) rr.run.clear();
    return merged;
}

Style cell_style(CellLevel level) {
    switch (level) {
        case CellLevel::kOk:
            return {Role::kOk};
        case CellLevel::kOff:
            return {Role::kWarn, true, false, true};
        case CellLevel::kOutlier:
            return {Role::kAlert, true, true};
        case CellLevel::kNonFinite:
            return {Role::kNan, true};
    }
    return {};
}

RanksLayout ranks_layout(const RanksState& state, const ViewModel& model, int width, int height) {
    return make_frame(state, model, width, height).l;
}

void draw_ranks(Canvas& canvas, const ViewModel& model, const RanksState& state) {
    canvas.clear();
    if (too_small(canvas)) {
        draw_too_small(canvas, "ranks");
        return;
    }
    const Frame f = make_frame(state, model, canvas.width(), canvas.height());
    if (f.l.rows == 0) {
        const std::string text =
            model.hidden() > 0
                ? fmt::format("no series match the filter ({} hidden)", model.hidden())
                : std::string("no scalar series read yet");
        canvas.text(1, 1, fit(text, canvas.width() - 2, model.ascii()), {Role::kDim});
        draw_status(canvas, model, "0 tags");
        return;
    }
    if (state.sparklines)
        draw_sparklines(canvas, model, f);
    else
        draw_table(canvas, model, f);
}

std::string_view rank_cells_caption(RankCells cells) {
    switch (cells) {
        case RankCells::kNewest:
            break;
        case RankCells::kWorst:
            return "worst vs the median, every step";
        case RankCells::kAnomalies:
            return "anomalies";
    }
    return "newest value of each rank";
}

bool ranks_handle(RanksState& state, Action action, const ViewModel& model, int width, int height) {
    const RanksLayout l = ranks_layout(state, model, width, height);
    const RanksState before = state;
    const int ncols = static_cast<int>(l.columns.size());
    int row = l.row, column = l.column;
    if (action == Action::kToggleRankSparklines) {
        state.sparklines = !state.sparklines;
    } else if (action == Action::kCycleRankCells) {
        state.cells = state.cells == RankCells::kNewest  ? RankCells::kWorst
                      : state.cells == RankCells::kWorst ? RankCells::kAnomalies
                                                         : RankCells::kNewest;
        state.sparklines = false;  // the cells are the table's
        return true;
    } else if (action == Action::kToggleRankBins || action == Action::kToggleOutliersFirst) {
        if (!state.sparklines) return false;  // the table pages its ranks
        if (action == Action::kToggleRankBins)
            state.binned = !state.binned;
        else
            state.outliers_first = !state.outliers_first;
        return true;  // the selected rank stays: the new rows find its row
    } else if (state.sparklines) {
        // Rows are ranks (or bins of them: a row's first rank is selected); left and right step
        // through the tags.
        const int nlines = static_cast<int>(l.lines.size());
        int line = l.line;
        switch (action) {
            case Action::kUp:
                --line;
                break;
            case Action::kDown:
                ++line;
                break;
            case Action::kPageUp:
                line -= l.body_rows;
                break;
            case Action::kPageDown:
                line += l.body_rows;
                break;
            case Action::kFirst:
                line = 0;
                break;
            case Action::kLast:
                line = nlines - 1;
                break;
            case Action::kLeft:
                --row;
                break;
            case Action::kRight:
                ++row;
                break;
            default:
                return false;
        }
        line = std::clamp(line, 0, std::max(0, nlines - 1));
        if (line != l.line) column = l.lines[line].members.front();
    } else if (action == Action::kPanLeft || action == Action::kPanRight) {
        column += action == Action::kPanLeft ? -l.per_page : l.per_page;
    } else if (!move_in_table(action, row, column, l.rows, l.body_rows)) {
        return false;
    }
    state.row = std::clamp(row, 0, std::max(0, l.rows - 1));
    state.column = std::clamp(column, 0, std::max(0, ncols - 1));
    return state.row != before.row || state.column != before.column ||
           state.sparklines != before.sparklines;
}

std::string ranks_rows_note(const RanksState& state, const ViewModel& model, int width,
                            int height) {
    if (!state.sparklines) return "bins and outliers are for the sparklines: v shows them";
    const RanksLayout l = ranks_layout(state, model, width, height);
    return rank_rows_note({l.body_rows, model.ranks_per_node(), state.binned, state.outliers_first},
                          static_cast<int>(l.columns.size()), static_cast<int>(l.lines.size()),
                          l.binned, l.outliers);
}

std::string ranks_toggle_log(RanksState& state, const ViewModel& model, int width, int height) {
    if (!state.sparklines) return "log scale is for the sparklines: v shows them";
    const Frame f = make_frame(state, model, width, height);
    if (f.rows.empty()) return "no tag to draw";
    auto log_shown = [&](std::optional<bool> choice) {
        return spark_data(model, f, spark_columns(f.l.spark_w, model.glyphs()), choice).range.log;
    };
    const bool shown = log_shown(state.log);
    if (!shown && !log_shown(true)) return "log scale needs positive values: linear kept";
    state.log = !shown;
    return shown ? "linear y scale (l: log)" : "log y scale (l: linear)";
}

namespace {

bool ranks_click(RanksState& state, int x, int y, const ViewModel& model, int width, int height) {
    if (width < kMinWidth || height < kMinHeight) return false;
    const RanksLayout l = ranks_layout(state, model, width, height);
    const int ncols = static_cast<int>(l.columns.size());
    const RanksState before = state;
    const int body = y - l.body_y;
    if (state.sparklines) {
        if (body < 0 || body >= l.body_rows || l.first + body >= static_cast<int>(l.lines.size()))
            return false;
        state.row = l.row;
        state.column = l.lines[l.first + body].members.front();
    } else {
        int column = -1;
        if (x >= l.cell_x && (x - l.cell_x) % l.pitch < l.cell_w) {
            const int c = l.first_column + (x - l.cell_x) / l.pitch;
            if (c < std::min(ncols, l.first_column + l.per_page)) column = c;
        }
        if (body == -1 && column >= 0) {  // a rank's head
            state.column = column;
        } else if (body >= 0 && body < l.body_rows && l.first + body < l.rows) {
            state.row = l.first + body;
            if (column >= 0) state.column = column;
        } else {
            return false;
        }
        state.row = std::clamp(state.row, 0, std::max(0, l.rows - 1));
    }
    return state.row != before.row || state.column != before.column;
}

}  // namespace

RanksSelection ranks_selection(const RanksState& state, const ViewModel& model) {
    // The cursor is enough, not the page's rows (a table of 1,024 ranks a row).
    const RanksLayout l = cursor_layout(state, model);
    RanksSelection s;
    if (l.rows == 0) return s;
    s.group = &model.groups()[l.row];
    if (l.columns.empty()) return s;
    for (SeriesId id : s.group->series)
        if (column_of(l.columns, l.by_rank, model.store().at(id).key()) == l.column) s.series = id;
    return s;
}

Pointer ranks_mouse(RanksState& state, const InputEvent& event, const ViewModel& model, int width,
                    int height) {
    bool changed = false;
    if (event.button == MouseButton::kWheelUp || event.button == MouseButton::kWheelDown)
        changed =
            ranks_handle(state, event.button == MouseButton::kWheelUp ? Action::kUp : Action::kDown,
                         model, width, height);
    else if (event.button == MouseButton::kLeft)
        changed = ranks_click(state, event.x, event.y, model, width, height);
    return changed ? Pointer::kChanged : Pointer::kNothing;
}

ViewSelection ranks_selected(const RanksState& state, const ViewModel& model, int /*width*/,
                             int /*height*/) {
    const RanksSelection s = ranks_selection(state, model);
    if (!s.group) return {};
    return {s.group,
            ChartTarget{s.group->tag, focus_of(model, s.series), std::nullopt, std::nullopt},
            {}};
}

}  // namespace runtop::ui
