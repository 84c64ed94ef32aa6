#include "views/compare/compare_view.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/format.h"
#include "views/compare/compare_chart.h"
#include "views/compare/compare_config.h"
#include "views/compare/compare_spark.h"
#include "views/glyphs.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

enum Column { kRanks, kSteps, kLastA, kLastB, kDelta, kRatio, kFirstDiv, kColumns };
constexpr std::array<const char*, kColumns> kHeads = {"RANKS", "STEPS", "LAST A",   "LAST B",
                                                      "Δ B-A", "RATIO", "FIRST DIV"};
constexpr std::array<const char*, kColumns> kAsciiHeads = {"RANKS", "STEPS", "LAST A",   "LAST B",
                                                           "B-A",   "RATIO", "FIRST DIV"};
// The widest a cell gets (short_value is at most 9 columns; a first divergence adds a rank).
constexpr std::array<int, kColumns> kCaps = {7, 6, 9, 9, 10, 9, 13};
// Which columns give way first when the sparkline would get too narrow: the first divergence
// and Δ are what the view is for.
constexpr std::array<Column, 5> kDropOrder = {kRanks, kRatio, kSteps, kLastA, kLastB};
constexpr int kMark = 2;       // "▲ " before a diverging tag
constexpr int kMinSpark = 12;  // narrower than this, the sparkline gives way
constexpr int kMaxTag = 40;
constexpr int kReadoutFrom = 10;  // canvas heights from which the readout line is drawn
constexpr int kOnlyFrom = 12;     // ... and the "only in" lines
constexpr int kPreviewFrom = 12;  // spare rows from which the selected tag's chart is drawn
constexpr int kPreviewWidth = 60;

Style run_style(const ViewModel& model, const std::string& run, bool bold = false) {
    const int colour = model.run_colour(run);
    return {colour < 0 ? Role::kText : series_role(colour), bold};
}

std::string dash(bool ascii) {
    return ascii ? "-" : "—";
}

std::string first_div_text(const TagComparison& t, bool ascii) {
    if (!t.diverges()) return dash(ascii);
    std::string text = short_step(*t.head.first_divergence);
    // The rank, when several are compared: which one went first is the lead to follow.
    if (t.compared > 1 && t.head.rank != kNoRank) text += fmt::format(" r{}", t.head.rank);
    return text;
}

std::string ratio_text(const TagComparison& t, bool ascii) {
    if (!t.has_common()) return dash(ascii);
    const SeriesComparison& h = t.head;
    // Both 0: the same, not "nan".
    if (std::isnan(h.ratio) && !std::isnan(h.a) && !std::isnan(h.b)) return dash(ascii);
    return short_value(h.ratio);
}

std::string delta_text(const TagComparison& t, bool ascii) {
    if (!t.has_common()) return dash(ascii);
    const double d = t.head.delta;
    return (d > 0 ? "+" : "") + short_value(d);
}

std::string ranks_text(const TagComparison& t) {
    if (t.ranks_a == t.ranks_b) return std::to_string(t.ranks_a);
    return fmt::format("{}/{}", t.ranks_a, t.ranks_b);
}

std::array<std::string, kColumns> cells_of(const TagComparison& t, bool ascii) {
    const bool any = t.compared > 0;
    return {ranks_text(t),
            any ? short_step(static_cast<std::int64_t>(t.head.common_steps)) : "0",
            any ? short_value(t.head.last_a) : dash(ascii),
            any ? short_value(t.head.last_b) : dash(ascii),
            delta_text(t, ascii),
            ratio_text(t, ascii),
            first_div_text(t, ascii)};
}

// The columns and their widths on this page.
struct Table {
    std::array<bool, kColumns> shown{};
    std::array<int, kColumns> width{};
    std::array<int, kColumns> x{};
    int tag_w = 3;
    int spark_x = 0, spark_w = 0;  // spark_w 0: no sparkline
};

Table table_columns(const CompareRows& rows, const CompareLayout& l, int width, bool ascii) {
    Table t;
    for (const TagComparison& tag : rows.tags) t.tag_w = std::max(t.tag_w, display_width(tag.tag));
    t.tag_w = std::min({t.tag_w, kMaxTag, std::max(12, width / 4)});
    for (int c = 0; c < kColumns; ++c) {
        t.shown[c] = true;
        t.width[c] = display_width(ascii ? kAsciiHeads[c] : kHeads[c]);
    }
    for (int i = l.first; i < std::min(l.rows, l.first + l.body_rows); ++i) {
        const std::array<std::string, kColumns> cells = cells_of(rows.row(i), ascii);
        for (int c = 0; c < kColumns; ++c)
            t.width[c] = std::max(t.width[c], std::min(display_width(cells[c]), kCaps[c]));
    }
    auto used = [&] {
        int u = kMark + t.tag_w;
        for (int c = 0; c < kColumns; ++c)
            if (t.shown[c]) u += 2 + t.width[c];
        return u + 2;  // the gap before the sparkline
    };
    for (Column c : kDropOrder) {
        if (width - used() >= kMinSpark) break;
        t.shown[c] = false;
    }
    // Still too narrow: the tag column shrinks (down to 8), then the sparkline goes.
    if (width - used() < kMinSpark) t.tag_w = std::max(8, t.tag_w - (kMinSpark - (width - used())));
    int x = kMark + t.tag_w;
    for (int c = 0; c < kColumns; ++c) {
        if (!t.shown[c]) continue;
        t.x[c] = x + 2;
        x += 2 + t.width[c];
    }
    t.spark_x = x + 2;
    t.spark_w = width - t.spark_x >= kMinSpark ? width - t.spark_x : 0;
    return t;
}

// --- the lines around the table

// The title: the runs, how they are compared, and the verdict. The verdict is what the view is
// for, so on a narrow canvas the description of the options shortens, then goes, before the
// verdict is cut.
void draw_title(Canvas& canvas, const ViewModel& model, const CompareRows& rows) {
    const bool ascii = model.ascii();
    const CompareOptions& o = rows.options;
    const bool by_step = o.align == CompareAlign::kStep;
    const bool per_rank = o.ranks == CompareRanks::kPerRank;
    std::vector<Piece> pieces = {
        {"compare", {Role::kTitle, true}},
        {"A " + model.run_label(rows.run_a), run_style(model, rows.run_a, true)},
        {"vs", {Role::kDim}, 1},
        {"B " + model.run_label(rows.run_b), run_style(model, rows.run_b, true), 1},
    };
    std::string verdict = fmt::format("{} of {} {} diverge", rows.diverging, rows.rows(),
                                      rows.rows() == 1 ? "tag" : "tags");
    if (rows.first >= 0) {
        const TagComparison& f = rows.tags[rows.first];
        verdict += ", first at step " + short_step(*f.head.first_divergence) + " (" + f.tag +
                   (f.compared > 1 && f.head.rank != kNoRank ? fmt::format(" r{}", f.head.rank)
                                                             : std::string()) +
                   ")";
    }
    const Piece verdict_piece{
        verdict, rows.diverging > 0 ? Style{Role::kAlert, true} : Style{Role::kOk, true}};
    const std::string tolerance = short_value(o.tolerance);
    for (const std::string& options :
         {fmt::format("by {}, {}, tolerance {}", by_step ? "step" : "wall time since start",
                      per_rank ? "rank to rank" : "mean of ranks", tolerance),
          fmt::format("{}, {}, tol {}", by_step ? "step" : "wall", per_rank ? "ranks" : "mean",
                      tolerance),
          std::string()}) {
        std::vector<Piece> line = pieces;
        if (!options.empty()) line.push_back({options, {Role::kDim}});
        line.push_back(verdict_piece);
        if (options.empty() || pieces_width(line) <= canvas.width()) {
            draw_pieces(canvas, 0, 0, canvas.width(), line, ascii);
            return;
        }
    }
}

void draw_heads(Canvas& canvas, const ViewModel& model, const CompareRows& rows, const Table& t,
                int y) {
    const bool ascii = model.ascii();
    const Style head{Role::kTitle, true};
    canvas.text(kMark, y, "TAG", head);
    for (int c = 0; c < kColumns; ++c) {
        if (!t.shown[c]) continue;
        const char* text = ascii ? kAsciiHeads[c] : kHeads[c];
        const Style style = c == kLastA   ? run_style(model, rows.run_a, true)
                            : c == kLastB ? run_style(model, rows.run_b, true)
                                          : head;
        if (c == kFirstDiv)
            canvas.text(t.x[c], y, text, style);
        else
            canvas.text_right(t.x[c] + t.width[c], y, text, style);
    }
    if (t.spark_w == 0) return;
    // What the sparkline's halves are, in the runs' colours.
    std::vector<Piece> pieces = {
        {"A", run_style(model, rows.run_a, true)},
        {"|", {Role::kDim}, 0},
        {"B", run_style(model, rows.run_b, true), 0},
        {rows.options.align == CompareAlign::kStep ? "over the steps both have"
                                                   : "each from its start",
         {Role::kDim},
         1},
    };
    draw_pieces(canvas, t.spark_x, y, t.spark_x + t.spark_w, pieces, ascii);
}

void draw_row(Canvas& canvas, const ViewModel& model, const CompareState& state,
              const CompareRows& rows, const Table& t, int index, int y, bool selected) {
    const bool ascii = model.ascii();
    const TagComparison& tag = rows.row(index);
    const std::array<std::string, kColumns> cells = cells_of(tag, ascii);
    const bool bad = tag.diverges();
    const Style sel{Role::kAccent, true, true};
    if (selected) canvas.fill(0, y, t.spark_x - 1, 1, U' ', sel);
    if (bad) {
        std::string mark;
        append_utf8(mark, marks(model.glyphs()).alert);
        canvas.text(0, y, mark, selected ? sel : Style{Role::kAlert, true});
    }
    canvas.text(kMark, y, fit(tag.tag, t.tag_w, ascii),
                selected ? sel : Style{bad ? Role::kAlert : Role::kText, bad});
    for (int c = 0; c < kColumns; ++c) {
        if (!t.shown[c]) continue;
        Style style{Role::kText};
        if (c == kLastA) style = run_style(model, rows.run_a);
        if (c == kLastB) style = run_style(model, rows.run_b);
        if (c == kRanks && tag.ranks_a != tag.ranks_b) style = {Role::kWarn, true};
        if ((c == kDelta || c == kRatio) && tag.has_common())
            style = bad ? Style{Role::kAlert} : Style{Role::kDim};
        if (c == kFirstDiv) style = bad ? Style{Role::kAlert, true, true} : Style{Role::kDim};
        if (cells[c] == dash(ascii)) style = {Role::kDim};
        if (selected) style = sel;
        const std::string text = fit(cells[c], t.width[c], ascii);
        if (c == kFirstDiv)
            canvas.text(t.x[c], y, text, style);
        else
            canvas.text_right(t.x[c] + t.width[c], y, text, style);
    }
    if (t.spark_w == 0) return;
    const int columns = compare_spark_columns(t.spark_w, model.glyphs());
    const SparkColumns& s = cached_compare_spark(state, model, rows, tag, columns);
    draw_compare_spark(canvas, t.spark_x, y, t.spark_w, s, model.glyphs(),
                       run_style(model, rows.run_a), run_style(model, rows.run_b));
}

// "only in A base (2): eval/accuracy, train/tokens (2/4 ranks)" in one line.
void draw_only(Canvas& canvas, const ViewModel& model, const CompareRows& rows, bool a, int y) {
    const bool ascii = model.ascii();
    const std::vector<int>& list = a ? rows.only_a : rows.only_b;
    const std::string& run = a ? rows.run_a : rows.run_b;
    const int w = canvas.width();
    int x = canvas.text(0, y, fmt::format("only in {} ", a ? "A" : "B"), {Role::kDim});
    x += canvas.text(x, y, model.run_label(run, std::max(4, w / 4)), run_style(model, run, true));
    x += canvas.text(x, y, fmt::format(" ({}):", list.size()), {Role::kDim});
    for (std::size_t i = 0; i < list.size(); ++i) {
        const TagComparison& t = rows.tags[list[i]];
        const std::string more = fmt::format(" +{} more", list.size() - i);
        std::string text = (i ? ", " : " ") + t.tag;
        const int room = w - x - (i + 1 < list.size() ? display_width(more) : 0);
        if (display_width(text) > room) {
            canvas.text(x, y, fit(more, w - x, ascii), {Role::kDim});
            return;
        }
        x += canvas.text(x, y, text, {Role::kText});
    }
}

std::string percent(double rel) {
    if (!std::isfinite(rel)) return "NaN/Inf on one side only";
    return fmt::format("up to {:.3g}% apart", rel * 100);
}

// The selected row in words.
// The selected tag as Enter opens it, but whole (no window: every step, following the
// newest), drawn on a canvas of its own one row taller than the room (its status line is
// the view's) and copied in.
void draw_preview(Canvas& canvas, const ViewModel& model, const CompareState& state, int y, int h) {
    std::optional<CompareSelection> s = compare_selection(state, model);
    if (!s) return;
    DetailState detail;
    open_compare_detail(detail, model, std::move(s->tag), std::move(s->detail), std::nullopt);
    Canvas chart(canvas.width(), h + 1);
    if (too_small(chart))
        draw_too_small(chart, "detail");
    else
        draw_compare_detail(chart, model, detail);
    canvas.copy_rows(chart, 0, h, y);
}

void draw_readout(Canvas& canvas, const ViewModel& model, const CompareRows& rows, int index,
                  int y) {
    const bool ascii = model.ascii();
    const TagComparison& t = rows.row(index);
    const SeriesComparison& h = t.head;
    std::string who = t.tag;
    if (t.compared > 1 && h.rank != kNoRank && t.diverges()) who += fmt::format(" r{}", h.rank);
    std::vector<Piece> pieces = {{who + ":", {Role::kTitle, true}}};
    const std::string sep = ascii ? "- " : "· ";
    if (t.compared == 0) {
        pieces.push_back(
            {"the runs have it on different ranks: no pair to compare", {Role::kWarn}, 1});
    } else if (!h.last_common_step) {
        pieces.push_back({fmt::format("no step in common (A's last {}, B's last {})",
                                      short_step(h.last_step_a), short_step(h.last_step_b)),
                          {Role::kWarn},
                          1});
    } else if (t.diverges()) {
        std::string first = "diverges first at step " + short_step(*h.first_divergence);
        if (h.first_divergence_time)
            first += fmt::format(" ({}s into A)", short_value(*h.first_divergence_time));
        pieces.push_back({first, {Role::kAlert, true}, 1});
        if (t.compared > 1)
            pieces.push_back({sep + fmt::format("{} of {} ranks diverge", t.diverging, t.compared),
                              {Role::kText},
                              1});
        pieces.push_back({sep + percent(h.max_relative_difference), {Role::kText}, 1});
    } else {
        pieces.push_back({fmt::format("the same within {} over {} common steps",
                                      short_value(rows.options.tolerance),
                                      short_step(static_cast<std::int64_t>(h.common_steps))),
                          {Role::kOk},
                          1});
    }
    if (t.has_common())
        pieces.push_back({sep + "at step " + short_step(*h.last_common_step) + ": A " +
                              short_value(h.a) + ", B " + short_value(h.b),
                          {Role::kText},
                          1});
    if (t.compared > 0 && h.folded > 0)
        pieces.push_back({sep + fmt::format("{} folded points not compared",
                                            short_value(static_cast<double>(h.folded))),
                          {Role::kDim},
                          1});
    draw_pieces(canvas, 0, y, canvas.width(), pieces, ascii);
}

void draw_notice(Canvas& canvas, const ViewModel& model) {
    const bool ascii = model.ascii();
    const int w = canvas.width();
    canvas.text(1, 1, fit("compare needs two runs", w - 2, ascii), {Role::kTitle, true});
    canvas.text(1, 2,
                fit("give runtop two roots, base first: runtop base=PATH new=PATH", w - 2, ascii),
                {Role::kText});
    std::string read;
    for (const std::string& r : model.run_names())
        read += (read.empty() ? "" : ", ") + model.run_label(r);
    read = read.empty() ? "no run read yet" : "runs read: " + read;
    canvas.text(1, 3, fit(read, w - 2, ascii), {Role::kDim});
    draw_status(canvas, model, "compare");
}

int clamp_first(int scroll, int selected, int body_rows, int rows) {
    int first = std::clamp(scroll, selected - body_rows + 1, selected);
    return std::clamp(first, 0, std::max(0, rows - body_rows));
}

// The selected row's tag ("" when none), to find it again after the rows change.
std::string selected_tag(const CompareState& state, const ViewModel& model) {
    const CompareRows& rows = compare_rows(state, model);
    if (rows.rows() == 0) return {};
    return rows.row(std::clamp(state.selected, 0, rows.rows() - 1)).tag;
}

bool cycle_run(CompareState& state, const ViewModel& model, bool a) {
    const std::vector<std::string>& names = model.run_names();
    auto [run_a, run_b] = compare_runs_of(state, model);
    const std::string& mine = a ? run_a : run_b;
    const std::string& other = a ? run_b : run_a;
    const auto at = std::find(names.begin(), names.end(), mine);
    const int n = static_cast<int>(names.size());
    const int from = at == names.end() ? -1 : static_cast<int>(at - names.begin());
    for (int i = 1; i <= n; ++i) {
        const std::string& candidate = names[((from + i) % n + n) % n];
        if (candidate == other || candidate == mine || !model.filter().selects_run(candidate))
            continue;
        // Both pinned, so the other side stays what it is.
        state.run_a = a ? candidate : run_a;
        state.run_b = a ? run_b : candidate;
        return true;
    }
    return false;
}

}  // namespace

CompareLayout compare_layout(const CompareState& state, const ViewModel& model, int width,
                             int height) {
    CompareLayout l;
    const CompareRows& rows = compare_rows(state, model);
    l.table = rows.two_runs();
    if (!l.table) return l;
    l.rows = rows.rows();
    l.selected = std::clamp(state.selected, 0, std::max(0, l.rows - 1));
    const int readout = height >= kReadoutFrom && l.rows > 0 ? 1 : 0;
    l.only_lines = height >= kOnlyFrom ? !rows.only_a.empty() + !rows.only_b.empty() : 0;
    const int avail = std::max(1, height - 1 - l.body_y - l.only_lines - readout);
    const int want = std::max(1, l.rows);
    if (state.config && avail >= 5) {
        // The table keeps half of the room (or what it needs), the panel takes the rest.
        l.body_rows = std::clamp(want, 1, std::max(1, avail / 2));
        l.panel_h = avail - l.body_rows;
    } else {
        l.body_rows = std::clamp(want, 1, avail);
        const int spare = avail - l.body_rows;
        if (readout && spare >= kPreviewFrom && width >= kPreviewWidth) l.preview_h = spare - 1;
    }
    l.first = clamp_first(state.scroll, l.selected, l.body_rows, l.rows);
    int y = l.body_y + l.body_rows;
    if (l.only_lines > 0) {
        l.only_y = y;
        y += l.only_lines;
    }
    if (l.panel_h > 0) {
        l.panel_y = y;
        y += l.panel_h;
    }
    if (readout) l.readout_y = y++;
    if (l.preview_h > 0) l.preview_y = y + 1;  // a blank row apart from the readout
    return l;
}

void draw_compare(Canvas& canvas, const ViewModel& model, const CompareState& state) {
    canvas.clear();
    if (too_small(canvas)) {
        draw_too_small(canvas, "compare");
        return;
    }
    const CompareRows& rows = compare_rows(state, model);
    if (!rows.two_runs()) {
        draw_notice(canvas, model);
        return;
    }
    const int w = canvas.width();
    const bool ascii = model.ascii();
    const CompareLayout l = compare_layout(state, model, w, canvas.height());
    draw_title(canvas, model, rows);
    const Table t = table_columns(rows, l, w, ascii);
    draw_heads(canvas, model, rows, t, l.body_y - 1);
    if (l.rows == 0) {
        std::string text = "no tag is in both runs";
        if (model.hidden() > 0)
            text += fmt::format(" ({} series hidden by the filter)", model.hidden());
        canvas.text(kMark, l.body_y, fit(text, w - kMark, ascii), {Role::kDim});
    }
    for (int i = 0; i < l.body_rows && l.first + i < l.rows; ++i)
        draw_row(canvas, model, state, rows, t, l.first + i, l.body_y + i,
                 l.first + i == l.selected);
    sweep_compare_spark(state);
    if (l.only_y >= 0) {
        int y = l.only_y;
        if (!rows.only_a.empty()) draw_only(canvas, model, rows, true, y++);
        if (!rows.only_b.empty()) draw_only(canvas, model, rows, false, y);
    }
    if (l.panel_y >= 0) draw_config_panel(canvas, model, state, rows, l.panel_y, l.panel_h);
    if (l.readout_y >= 0) draw_readout(canvas, model, rows, l.selected, l.readout_y);
    if (l.preview_y >= 0 && l.rows > 0)
        draw_preview(canvas, model, state, l.preview_y, l.preview_h);
    std::string right =
        l.rows > 0 ? fmt::format("tag {}/{}", l.selected + 1, l.rows) : std::string("0 tags");
    right += fmt::format(" {} sort {}", ascii ? "-" : "·", compare_sort_name(state.sort, ascii));
    draw_status(canvas, model, right);
}

bool compare_handle(CompareState& state, Action action, const ViewModel& model, int width,
                    int height) {
    const int selected_before = state.selected, scroll_before = state.scroll;
    // The tag to keep selected when the rows change under it (asked before the change, while
    // the comparer is still configured for what is on screen).
    const bool reorders = action == Action::kCycleRunA || action == Action::kCycleRunB ||
                          action == Action::kCycleCompareSort ||
                          action == Action::kToggleCompareAlign ||
                          action == Action::kToggleCompareMean;
    const std::string keep = reorders ? selected_tag(state, model) : std::string();
    switch (action) {
        case Action::kCycleRunA:
        case Action::kCycleRunB:
            if (!cycle_run(state, model, action == Action::kCycleRunA)) return false;
            break;
        case Action::kCycleCompareSort:
            state.sort = next_compare_sort(state.sort);
            break;
        case Action::kToggleCompareAlign:
            state.options.align = state.options.align == CompareAlign::kStep
                                      ? CompareAlign::kRelativeWall
                                      : CompareAlign::kStep;
            break;
        case Action::kToggleCompareMean:
            state.options.ranks = state.options.ranks == CompareRanks::kPerRank
                                      ? CompareRanks::kMean
                                      : CompareRanks::kPerRank;
            break;
        case Action::kToggleConfigDiff:
            state.config = !state.config;
            break;
        default: {
            const CompareLayout l = compare_layout(state, model, width, height);
            if (!l.table || l.rows == 0) return false;
            int row = l.selected, column = 0;
            if (action == Action::kLeft || action == Action::kRight ||
                !move_in_table(action, row, column, l.rows, l.body_rows))
                return false;
            state.selected = std::clamp(row, 0, l.rows - 1);
            state.scroll = clamp_first(l.first, state.selected, l.body_rows, l.rows);
            return state.selected != selected_before || state.scroll != scroll_before;
        }
    }
    if (!keep.empty()) {
        const int row = compare_row_of(compare_rows(state, model), keep);
        state.selected = std::max(0, row);
    }
    const CompareLayout l = compare_layout(state, model, width, height);
    state.scroll = l.first;
    return true;
}

namespace {

// The row at (x, y), -1 when none.
int compare_row_at(const CompareState& state, int x, int y, const ViewModel& model, int width,
                   int height) {
    (void)x;
    if (width < kMinWidth || height < kMinHeight) return -1;
    const CompareLayout l = compare_layout(state, model, width, height);
    if (!l.table || y < l.body_y || y >= l.body_y + l.body_rows) return -1;
    const int row = l.first + y - l.body_y;
    return row < l.rows ? row : -1;
}

// The wheel: `rows` down (negative: up); the selection stays on screen.
bool compare_scroll(CompareState& state, int rows, const ViewModel& model, int width, int height) {
    const CompareLayout l = compare_layout(state, model, width, height);
    if (!l.table || l.rows == 0) return false;
    const int selected_before = state.selected, scroll_before = state.scroll;
    state.scroll = std::clamp(l.first + rows, 0, std::max(0, l.rows - l.body_rows));
    state.selected = std::clamp(l.selected, state.scroll, state.scroll + l.body_rows - 1);
    return state.scroll != scroll_before || state.selected != selected_before;
}

}  // namespace

Pointer compare_mouse(CompareState& state, const InputEvent& event, const ViewModel& model,
                      int width, int height) {
    const bool up = event.button == MouseButton::kWheelUp;
    if (up || event.button == MouseButton::kWheelDown)
        return compare_scroll(state, up ? -3 : 3, model, width, height) ? Pointer::kChanged
                                                                        : Pointer::kNothing;
    if (event.button != MouseButton::kLeft) return Pointer::kNothing;
    const int row = compare_row_at(state, event.x, event.y, model, width, height);
    if (row < 0) return Pointer::kNothing;
    const CompareLayout l = compare_layout(state, model, width, height);
    // A click on the selected row opens it, as elsewhere.
    if (row == l.selected) return Pointer::kOpen;
    state.selected = row;
    state.scroll = l.first;
    return Pointer::kChanged;
}

ViewSelection compare_selected(const CompareState& state, const ViewModel& model, int /*width*/,
                               int /*height*/) {
    std::optional<CompareSelection> s = compare_selection(state, model);
    if (!s) return {};
    ViewSelection out;
    out.group = model.group(s->tag);
    out.chart = ChartTarget{std::move(s->tag), std::nullopt, s->step, std::move(s->detail)};
    return out;
}

std::optional<CompareSelection> compare_selection(const CompareState& state,
                                                  const ViewModel& model) {
    const CompareRows& rows = compare_rows(state, model);
    if (!rows.two_runs() || rows.rows() == 0) return std::nullopt;
    const TagComparison& t = rows.row(std::clamp(state.selected, 0, rows.rows() - 1));
    if (t.compared == 0) return std::nullopt;
    const bool mean = rows.options.ranks == CompareRanks::kMean;
    CompareSelection s;
    s.tag = t.tag;
    s.detail = CompareDetail{rows.run_a, rows.run_b,         mean ? kNoRank : t.head.rank,
                             mean,       rows.options.align, rows.options.tolerance};
    s.step = t.head.first_divergence;
    return s;
}

void compare_select_tag(CompareState& state, const ViewModel& model, std::string_view tag) {
    const int row = compare_row_of(compare_rows(state, model), tag);
    if (row >= 0) state.selected = row;
}

}  // namespace runtop::ui
