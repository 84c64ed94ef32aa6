#include "views/anomaly_view.h"

#include <algorithm>
#include <array>
#include <string>

#include <fmt/format.h>

#include "views/anomaly_layout.h"
#include "views/anomaly_readout.h"
#include "views/tag_title.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

// What the rules watch, for the empty log: "16 series watched by nonfinite, spike, stall".
std::string watched_text(const ViewModel& model) {
    std::vector<std::string> names;
    for (const RuleConfig& rule : model.analyzer().rules().rules)
        if (std::find(names.begin(), names.end(), rule.name) == names.end())
            names.push_back(rule.name);
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    const std::size_t n = model.selected_count();
    if (names.empty()) return fmt::format("{} series, no rules enabled", n);
    return fmt::format("{} series watched by {}", n, list);
}

}  // namespace

int anomaly_rows_per_page(const ViewModel& model, const AnomalyState& state, int width,
                          int height) {
    return anomaly_layout(model, state, anomaly_rows(model, state), width, height).rows_per_page;
}

void draw_anomalies(Canvas& canvas, const ViewModel& model, const AnomalyState& state) {
    canvas.clear();
    if (too_small(canvas)) {
        draw_too_small(canvas, "anomalies");
        return;
    }
    const int w = canvas.width();
    const bool ascii = model.ascii();
    const AnomalyLog& log = model.analyzer().log();
    const std::vector<LogEntry>& ordered = log.ordered();
    const std::vector<AnomalyRow> rows = anomaly_rows(model, state);
    const int total = static_cast<int>(rows.size());

    if (total == 0) {
        int x = canvas.text(1, 1, "no anomalies", {Role::kOk, true});
        std::string why = watched_text(model);
        if (!ordered.empty()) why = fmt::format("{} hidden by the filter; {}", ordered.size(), why);
        canvas.text(x + 1, 1, fit(" " + why, std::max(0, w - x - 2), ascii), {Role::kDim});
        draw_status(canvas, model, "0 anomalies");
        return;
    }

    // The layout is the whole list's, so every page has the same columns.
    const AnomalyLayout layout = anomaly_layout(model, state, rows, w, canvas.height());
    const int per_page = layout.rows_per_page;
    const int selected = std::clamp(state.selected, 0, total - 1);
    const int page = selected / per_page;
    const int pages = (total + per_page - 1) / per_page;
    const int first = page * per_page;
    const int count = std::min(per_page, total - first);

    auto draw_row = [&](int y, auto cell, Style style, auto draw_severity, std::string_view msg) {
        int x = 0;
        for (int c = 0; c < kColumns; ++c) {
            if (!layout.shown[c]) continue;
            if (c == kSeverity)
                draw_severity(x, y);
            else if (c == kTag)  // the layer and the op stay when a long tag is cut
                canvas.text(x, y, fit_tag(cell(c), layout.width[c], ascii), style, layout.width[c]);
            else
                canvas.text(x, y, fit(cell(c), layout.width[c], ascii), style, layout.width[c]);
            x += layout.width[c] + kAnomalyGap;
        }
        if (layout.message_width > 0)
            canvas.text(x, y, fit(msg, layout.message_width, ascii), style);
    };

    const Style head{Role::kTitle, true};
    draw_row(
        0, [](int c) { return std::string(kAnomalyHeads[c]); }, head,
        [&](int x, int y) {
            canvas.text(x, y, layout.compact_severity ? "SEV" : kAnomalyHeads[kSeverity], head);
        },
        "MESSAGE");
    for (int i = 0; i < count; ++i) {
        const int y = 1 + i;
        const bool is_selected = first + i == selected;
        const AnomalyRow& row = rows[first + i];
        const LogEntry& entry = ordered[row.entry];
        const std::size_t index = entry.index;
        const std::array<std::string, kColumns> cells =
            anomaly_cells(log, row, layout.run_strip, ascii);
        const bool acked = state.acknowledged.count(index) > 0;
        // A minor incident (and its members) is listed, not shouted: dim like the acknowledged.
        const bool quiet = acked || (!row.major && row.kind != AnomalyRowKind::kCondition);
        const Style style = is_selected ? Style{Role::kAccent, true, true}
                                        : Style{quiet ? Role::kDim : Role::kText};
        if (is_selected) canvas.fill(0, y, w, 1, U' ', style);
        draw_row(
            y, [&](int c) { return cells[c]; }, style,
            [&](int x, int yy) {
                // Acknowledged: still listed, no longer shouting.
                if (acked)
                    canvas.text(x, yy,
                                fit(layout.compact_severity ? "ack" : "ack " + cells[kSeverity],
                                    layout.width[kSeverity], ascii),
                                style);
                else
                    draw_badge(canvas, x, yy, alert_level(entry.severity), model.glyphs(),
                               layout.compact_severity ? "" : cells[kSeverity]);
            },
            layout.message_width > 0 ? anomaly_message_text(log, entry) : std::string());
    }

    // The selected row whole, above the status line.
    if (layout.readout_lines > 0) {
        const LogEntry& entry = ordered[rows[selected].entry];
        const bool acked = state.acknowledged.count(entry.index) > 0;
        draw_anomaly_readout(canvas, anomaly_readout(log, entry, acked, model.glyphs(), w),
                             canvas.height() - 1 - layout.readout_lines, layout.readout_lines,
                             ascii);
    }

    const std::size_t incidents = model.incidents().incidents.size();
    std::string right = fmt::format("{} incident{}, row {}/{}", incidents,
                                    incidents == 1 ? "" : "s", selected + 1, total);
    if (pages > 1) right += fmt::format(", page {}/{}", page + 1, pages);
    draw_status(canvas, model, right);
}

}  // namespace runtop::ui

namespace runtop::ui {

bool anomalies_handle(AnomalyState& state, Action action, const ViewModel& model, int width,
                      int height) {
    const std::vector<AnomalyRow> rows = anomaly_rows(model, state);
    const int total = static_cast<int>(rows.size());
    if (total == 0) return false;
    const int per = anomaly_layout(model, state, rows, width, height).rows_per_page;
    const int before = std::clamp(state.selected, 0, total - 1);
    if (action == Action::kRight) return anomalies_unfold(state, model);
    if (action == Action::kLeft) {
        // Folds the incident the row is of, its row selected.
        const std::optional<int> head = incident_row_of(rows, before);
        if (!head || !rows[*head].expanded) return false;
        state.expanded.erase(incident_key(model, model.incidents().incidents[rows[*head].group]));
        state.selected = *head;
        return true;
    }
    int sel = before, column = 0;
    if (!move_in_table(action, sel, column, total, per)) return false;
    state.selected = std::clamp(sel, 0, total - 1);
    return state.selected != before;
}

bool anomalies_unfold(AnomalyState& state, const ViewModel& model) {
    const std::vector<AnomalyRow> rows = anomaly_rows(model, state);
    if (rows.empty()) return false;
    const AnomalyRow& row = rows[std::clamp(state.selected, 0, static_cast<int>(rows.size()) - 1)];
    if (row.kind != AnomalyRowKind::kIncident || row.members <= 1 || row.expanded) return false;
    state.expanded.insert(incident_key(model, model.incidents().incidents[row.group]));
    return true;
}

namespace {

// The row at screen line y (-1: none).
int anomaly_row_at(const AnomalyState& state, int y, const ViewModel& model, int width,
                   int height) {
    const std::vector<AnomalyRow> rows = anomaly_rows(model, state);
    const int total = static_cast<int>(rows.size());
    if (total == 0 || y < 1) return -1;
    const int per = anomaly_layout(model, state, rows, width, height).rows_per_page;
    const int first = std::clamp(state.selected, 0, total - 1) / per * per;
    const int row = first + y - 1;
    return y - 1 < per && row < total ? row : -1;
}

}  // namespace

std::optional<std::size_t> anomaly_selected_record(const AnomalyState& state,
                                                   const ViewModel& model) {
    const std::vector<AnomalyRow> rows = anomaly_rows(model, state);
    if (rows.empty()) return std::nullopt;
    const int sel = std::clamp(state.selected, 0, static_cast<int>(rows.size()) - 1);
    return model.analyzer().log().ordered()[rows[sel].entry].index;
}

std::vector<std::size_t> anomaly_selected_records(const AnomalyState& state,
                                                  const ViewModel& model) {
    const std::vector<AnomalyRow> rows = anomaly_rows(model, state);
    if (rows.empty()) return {};
    const AnomalyRow& row = rows[std::clamp(state.selected, 0, static_cast<int>(rows.size()) - 1)];
    const AnomalyLog& log = model.analyzer().log();
    std::vector<std::size_t> out;
    if (row.kind == AnomalyRowKind::kIncident && !row.expanded)
        for (std::size_t m : model.incidents().incidents[row.group].members)
            out.push_back(log.ordered()[m].index);
    else
        out.push_back(log.ordered()[row.entry].index);
    return out;
}

Pointer anomalies_mouse(AnomalyState& state, const InputEvent& event, const ViewModel& model,
                        int width, int height) {
    const bool up = event.button == MouseButton::kWheelUp;
    if (up || event.button == MouseButton::kWheelDown) {
        bool changed = false;
        for (int i = 0; i < 3; ++i)
            changed |=
                anomalies_handle(state, up ? Action::kUp : Action::kDown, model, width, height);
        return changed ? Pointer::kChanged : Pointer::kNothing;
    }
    if (event.button != MouseButton::kLeft) return Pointer::kNothing;
    const int row = anomaly_row_at(state, event.y, model, width, height);
    if (row < 0) return Pointer::kNothing;
    if (row == state.selected) return Pointer::kOpen;
    state.selected = row;
    return Pointer::kChanged;
}

ViewSelection anomalies_selected(const AnomalyState& state, const ViewModel& model, int /*width*/,
                                 int /*height*/) {
    ViewSelection out;
    const std::optional<std::size_t> index = anomaly_selected_record(state, model);
    if (!index) return out;
    const AnomalyRecord& r = model.analyzer().log().records()[*index];
    if (r.tag.empty())
        out.no_chart = "a run-level finding (" + r.rule + "): it has no chart";
    else
        out.chart = ChartTarget{r.tag, RunRank{r.run, r.rank}, r.step, std::nullopt};
    return out;
}

}  // namespace runtop::ui
