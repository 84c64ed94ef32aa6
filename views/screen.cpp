#include "views/screen.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>

#include "core/series_filter.h"
#include "views/anomaly_view.h"
#include "views/detail_view.h"
#include "views/view_common.h"
#include "views/view_table.h"

namespace runtop::ui {

std::string_view view_name(ViewId view) {
    return view_row(view).name;
}

std::optional<ViewId> view_named(std::string_view name) {
    for (const ViewRow& row : view_rows())
        if (row.name == name) return row.id;
    return std::nullopt;
}

std::string view_names(std::string_view separator) {
    std::string names;
    for (const ViewRow& row : view_rows()) {
        if (!names.empty()) names += separator;
        names += row.name;
    }
    return names;
}

ViewId initial_view(std::size_t roots) {
    return roots == 2 ? ViewId::kCompare : ViewId::kOverview;
}

namespace {

void switch_view(UiState& state, ViewId to, const ViewModel& model, int w, int h) {
    if (to == state.view) return;
    const ViewSelection from = view_row(state.view).selected(state, model, w, h);
    if (from.group) {
        // The tag the user is looking at goes along, to the views that take it.
        const int index = static_cast<int>(from.group - model.groups().data());
        for (const ViewRow& row : view_rows()) {
            const bool own = row.id == state.view;
            const bool takes = row.takes == TakesTag::kAlways ||
                               (row.takes == TakesTag::kFromOthers && !own) ||
                               (row.takes == TakesTag::kWhenShown && row.id == to);
            if (takes) row.take_tag(state, *from.group, index, model, w, h);
        }
    }
    state.view = to;
}

// Opens the detail chart on what a view selected; a selection with no chart says why.
bool open_target(UiState& state, const ViewModel& model, ViewSelection selection) {
    if (!selection.chart) {
        if (selection.no_chart.empty()) return false;
        state.flash = std::move(selection.no_chart);
        return true;
    }
    if (state.view != ViewId::kDetail) state.detail_from = state.view;
    // open_chart keeps how the user likes charts (log-Y, x axis, smoothing): they carry over
    // from chart to chart.
    open_chart(state.detail, model, std::move(*selection.chart));
    state.view = ViewId::kDetail;
    return true;
}

bool open_selection(UiState& state, const ViewModel& model, int w, int h) {
    return open_target(state, model, view_row(state.view).selected(state, model, w, h));
}

// n / N: the next or previous incident (core/analysis/incidents.h) in step order, majors and
// minors alike, its root opened in the detail chart.
bool step_anomaly(UiState& state, const ViewModel& model, int direction, int w, int h) {
    const std::vector<AnomalyRow> rows = anomaly_rows(model, state.anomalies);
    std::vector<int> heads;  // the incidents' rows, in step order
    for (int r = 0; r < static_cast<int>(rows.size()); ++r)
        if (rows[r].kind == AnomalyRowKind::kIncident) heads.push_back(r);
    const int total = static_cast<int>(heads.size());
    if (total == 0) {
        state.flash = rows.empty() ? "no anomalies" : "no incidents (conditions only)";
        return true;
    }
    // From the grid views n starts at the first incident (N at the last); from the anomaly list
    // or a chart it steps on from the selected one's.
    const bool fresh = !view_row(state.view).anomaly_steps_on;
    int from = 0;
    if (const std::optional<int> head = incident_row_of(rows, state.anomalies.selected))
        from = static_cast<int>(std::find(heads.begin(), heads.end(), *head) - heads.begin());
    else if (state.anomalies.selected >= heads.back())  // a condition: after every incident
        from = total;
    const int sel =
        fresh ? (direction > 0 ? 0 : total - 1) : std::clamp(from + direction, 0, total - 1);
    state.anomalies.selected = heads[sel];
    open_target(state, model, anomalies_selected(state.anomalies, model, w, h));
    // Past either end the chart stays where it is: say why nothing moved.
    const char* size = rows[heads[sel]].major ? "major" : "minor";
    const bool at_end = !fresh && sel == from;
    state.flash = at_end ? fmt::format("{} incident ({} of {}, {})",
                                       direction > 0 ? "last" : "first", sel + 1, total, size)
                         : fmt::format("incident {}/{} ({})", sel + 1, total, size);
    return true;
}

void acknowledge(UiState& state, const ViewModel& model, Analyzer& analyzer) {
    const std::vector<std::size_t> records = anomaly_selected_records(state.anomalies, model);
    if (records.empty()) return;
    std::string later;  // what fired later on a series acknowledged, which still counts
    for (std::size_t index : records) {
        state.anomalies.acknowledged.insert(index);
        const AnomalyRecord& r = model.analyzer().log().records()[index];
        if (r.series != kNoSeries && !analyzer.acknowledge_record(index) && later.empty())
            later = fmt::format("; what fired on {} later (step {}) still counts",
                                records.size() == 1 ? std::string("it") : r.tag,
                                model.analyzer().series_state(r.series).last_step);
    }
    const AnomalyRecord& r = model.analyzer().log().records()[records.front()];
    state.flash = "acknowledged: " + r.tag + " " + r.rule + " at step " + std::to_string(r.step);
    if (records.size() > 1) state.flash += fmt::format(" and {} more", records.size() - 1);
    state.flash += " (still listed)" + later;
}

// --- the filter prompts ---

void start_prompt(UiState& state, const ViewModel& model, Prompt::Kind kind) {
    state.prompt.kind = kind;
    state.prompt.before_tags = model.filter_tags();
    state.prompt.before_ranks = model.filter_ranks();
    state.prompt.before_runs = model.filter_runs();
    state.prompt.text = kind == Prompt::Kind::kTags    ? model.filter_tags()
                        : kind == Prompt::Kind::kRanks ? model.filter_ranks()
                                                       : model.filter_runs();
    state.prompt.error.clear();
}

// Applies the prompt's text as it stands; a text that does not parse leaves the last good
// filter in place and says why.
void preview(UiState& state, ViewModel& model) {
    const Prompt::Kind kind = state.prompt.kind;
    const std::string& typed = state.prompt.text;
    const std::string tag_text = kind == Prompt::Kind::kTags ? typed : model.filter_tags();
    const std::string rank_text = kind == Prompt::Kind::kRanks ? typed : model.filter_ranks();
    const std::string run_text = kind == Prompt::Kind::kRuns ? typed : model.filter_runs();
    Result<SeriesFilter> filter =
        SeriesFilter::make(tag_text, rank_text, run_text, model.ranks_per_node());
    if (!filter) {
        state.prompt.error = filter.error().message;
        return;
    }
    state.prompt.error.clear();
    model.set_filter(std::move(*filter), tag_text, rank_text, run_text);
    model.update();
}

bool prompt_key(UiState& state, const InputEvent& event, ViewModel& model) {
    Prompt& p = state.prompt;
    if (event.kind != InputEvent::Kind::kKey) return false;
    if (event.key == "Esc" || event.key == "Ctrl-C") {
        Result<SeriesFilter> filter = SeriesFilter::make(p.before_tags, p.before_ranks,
                                                         p.before_runs, model.ranks_per_node());
        if (filter)
            model.set_filter(std::move(*filter), p.before_tags, p.before_ranks, p.before_runs);
        model.update();
        p = {};
        return true;
    }
    if (event.key == "Enter") {
        if (!p.error.empty()) return true;  // nothing to keep yet: the user fixes the text
        p = {};
        return true;
    }
    if (event.key == "Backspace") {
        // One UTF-8 code point.
        while (!p.text.empty() && (static_cast<unsigned char>(p.text.back()) & 0xc0) == 0x80)
            p.text.pop_back();
        if (!p.text.empty()) p.text.pop_back();
    } else if (event.key == "Ctrl-U") {
        p.text.clear();
    } else if (event.text) {
        p.text += event.key == "Space" ? std::string(" ") : event.key;
    } else {
        return false;
    }
    preview(state, model);
    return true;
}

// --- the go-to-step prompt (`g` where there are steps) ---

bool step_prompt_key(UiState& state, const InputEvent& event, const ViewModel& model, int w,
                     int h) {
    std::string& text = *state.go_to_step;
    if (event.kind != InputEvent::Kind::kKey) return false;
    if (event.key == "Esc" || event.key == "Ctrl-C") {
        state.go_to_step.reset();
        return true;
    }
    if (event.key == "Enter") {
        const std::string typed = text;
        state.go_to_step.reset();
        if (typed.empty()) return true;
        std::int64_t step = 0;
        const auto [end, ec] = std::from_chars(typed.data(), typed.data() + typed.size(), step);
        if (ec != std::errc() || end != typed.data() + typed.size()) {
            state.flash = "not a step: " + typed;
            return true;
        }
        state.flash = view_row(state.view).go_to_step(state, step, model, w, h);
        return true;
    }
    if (event.key == "Backspace") {
        if (!text.empty()) text.pop_back();
    } else if (event.key == "Ctrl-U") {
        text.clear();
    } else if (event.text && event.key.size() == 1 &&
               (std::isdigit(static_cast<unsigned char>(event.key[0])) ||
                (event.key == "-" && text.empty()))) {
        text += event.key;
    } else {
        return false;
    }
    return true;
}

Outcome mouse_event(UiState& state, const InputEvent& event, ViewModel& model, int w, int h) {
    Outcome out;
    if (state.help) {
        state.help = false;
        out.redraw = true;
        return out;
    }
    switch (view_row(state.view).mouse(state, event, model, w, h)) {
        case Pointer::kNothing:
            return out;
        case Pointer::kChanged:
            out.redraw = true;
            return out;
        case Pointer::kOpen: {
            const ViewRow& row = view_row(state.view);
            if (row.enter && row.enter(state, model, w, h)) return {true};
            return {open_selection(state, model, w, h)};
        }
    }
    return out;
}

}  // namespace

Outcome handle(UiState& state, const InputEvent& event, ViewModel& model, Analyzer& analyzer,
               int width, int height) {
    Outcome out;
    const bool had_flash = !state.flash.empty();
    state.flash.clear();
    out.redraw = had_flash;
    if (event.kind == InputEvent::Kind::kMouse) {
        Outcome m = mouse_event(state, event, model, width, height);
        m.redraw |= had_flash;
        return m;
    }
    if (state.prompt.kind != Prompt::Kind::kNone) {
        out.redraw |= prompt_key(state, event, model);
        return out;
    }
    if (state.go_to_step) {
        out.redraw |= step_prompt_key(state, event, model, width, height);
        return out;
    }
    if (state.help) {
        // The help screen scrolls; any other key closes it (and `q` there only closes it).
        if (event.key == "Down" || event.key == "j" || event.key == "PgDn" || event.key == "Space")
            state.help_scroll += event.key == "PgDn" || event.key == "Space" ? 10 : 1;
        else if (event.key == "Up" || event.key == "k" || event.key == "PgUp")
            state.help_scroll = std::max(0, state.help_scroll - (event.key == "PgUp" ? 10 : 1));
        else
            state.help = false;
        out.redraw = true;
        return out;
    }

    const ViewRow& view = view_row(state.view);
    const Binding* binding = binding_for_key(event.key, view.scope);
    if (!binding) {
        if (!event.key.empty()) state.flash = "no key " + event.key + " here: ? shows the keys";
        out.redraw = true;
        return out;
    }
    out.redraw = true;
    const Action action = binding->action;
    // A global action the view up answers itself (Esc and log-Y in the detail chart, log-Y in
    // the ranks view and the heatmap).
    if (std::find(view.own_globals.begin(), view.own_globals.end(), action) !=
        view.own_globals.end()) {
        Handled handled = view.handle(state, action, model, width, height);
        if (!handled.note.empty()) state.flash = std::move(handled.note);
        return {handled.redraw};
    }
    for (const ViewRow& row : view_rows())
        if (row.key == action) {
            switch_view(state, row.id, model, width, height);
            return out;
        }
    switch (action) {
        case Action::kOpenDetail:
            if (view.enter && view.enter(state, model, width, height)) return out;
            out.redraw = open_selection(state, model, width, height) || had_flash;
            return out;
        case Action::kBack:  // the detail chart answers it (own_globals); elsewhere nothing
            return out;
        case Action::kFilterTags:
            start_prompt(state, model, Prompt::Kind::kTags);
            return out;
        case Action::kFilterRanks:
            start_prompt(state, model, Prompt::Kind::kRanks);
            return out;
        case Action::kFilterRuns:
            start_prompt(state, model, Prompt::Kind::kRuns);
            return out;
        case Action::kCycleSmoothing:
            state.detail.smoothing = next_smoothing(state.detail.smoothing);
            state.flash = fmt::format("smoothing {}", state.detail.smoothing);
            return out;
        case Action::kToggleLogY:  // where no view answers it (own_globals): for the next chart
            state.detail.log_y = !state.detail.log_y;
            state.flash = std::string("log-Y ") + (state.detail.log_y ? "on" : "off") +
                          " for the detail chart (Enter opens it)";
            return out;
        case Action::kToggleFollow:
            state.follow = !state.follow;
            state.flash = state.follow ? "following the live tail"
                                       : "paused: new data waits, nothing is lost (f resumes)";
            return out;
        case Action::kAcknowledge:
            acknowledge(state, model, analyzer);
            return out;
        case Action::kGoToStep:
            if (view.go_to_step) state.go_to_step = std::string();
            return out;
        case Action::kNextAnomaly:
            step_anomaly(state, model, 1, width, height);
            return out;
        case Action::kPreviousAnomaly:
            step_anomaly(state, model, -1, width, height);
            return out;
        case Action::kRedraw:
            out.force = true;
            return out;
        case Action::kHelp:
            state.help = true;
            state.help_scroll = 0;
            return out;
        case Action::kQuit:
            out.quit = true;
            return out;
        default: {
            Handled handled = view.handle(state, action, model, width, height);
            if (!handled.note.empty()) state.flash = std::move(handled.note);
            out.redraw = handled.redraw || had_flash;
            return out;
        }
    }
}

// --- drawing ---

namespace {

std::string key_list(const Binding& b) {
    std::string keys;
    for (std::string_view k : b.keys) {
        if (!keys.empty()) keys += " ";
        keys += k;
    }
    return keys;
}

// The help screen: the action table itself, grouped, in a frame over the view.
void draw_help(Canvas& canvas, const ViewModel& model, int scroll) {
    struct Line {
        std::string keys, text, where;
        bool heading = false;
    };
    std::vector<Line> lines;
    std::string_view group;
    for (const Binding& b : bindings()) {
        if (b.group != group) {
            if (!lines.empty()) lines.push_back({});
            group = b.group;
            lines.push_back({std::string(group), "", "", true});
        }
        lines.push_back(
            {key_list(b), std::string(b.help),
             b.scope == Scope::kGlobal ? std::string() : std::string(scope_name(b.scope))});
    }
    lines.push_back({});
    lines.push_back({"Mouse", "", "", true});
    lines.push_back({"click", "select; click the selection again to open it", ""});
    lines.push_back({"wheel", "scroll (detail chart: zoom about the pointer)", ""});
    if (!model.ingest.watching.empty()) {  // live only: how many inotify watches, or polling
        lines.push_back({});
        lines.push_back({"Files", "", "", true});
        for (const std::string& w : model.ingest.watching)
            lines.push_back({lines.back().heading ? "watching" : "", w, ""});
    }

    const int w = std::min(canvas.width() - 2, 96), h = canvas.height() - 2;
    const int x0 = (canvas.width() - w) / 2, y0 = 1;
    const bool ascii = model.ascii();
    canvas.fill(x0, y0, w, h, U' ', {Role::kText});
    canvas.box(x0, y0, w, h, {Role::kBorder}, "runtop keys  (Esc closes, Up/Down scroll)", ascii);
    int key_width = 0;
    for (const Line& l : lines)
        if (!l.heading) key_width = std::max(key_width, display_width(l.keys));
    key_width = std::min(key_width, w / 3);
    const int rows = h - 2;
    const int first = std::clamp(scroll, 0, std::max(0, static_cast<int>(lines.size()) - rows));
    for (int i = 0; i < rows && first + i < static_cast<int>(lines.size()); ++i) {
        const Line& l = lines[first + i];
        const int y = y0 + 1 + i;
        if (l.heading) {
            canvas.text(x0 + 2, y, fit(l.keys, w - 4, ascii), {Role::kTitle, true});
            continue;
        }
        canvas.text(x0 + 2, y, fit(l.keys, key_width, ascii), {Role::kAccent, true});
        const int tx = x0 + 4 + key_width;
        const int room = x0 + w - 2 - tx;
        const int used = canvas.text(tx, y, fit(l.text, room, ascii), {Role::kText});
        if (!l.where.empty() && used + 3 + display_width(l.where) <= room)
            canvas.text_right(x0 + w - 2, y, "(" + l.where + ")", {Role::kDim});
    }
}

void draw_prompt(Canvas& canvas, const ViewModel& model, const Prompt& p) {
    const int y = canvas.height() - 1, w = canvas.width();
    const bool ascii = model.ascii();
    canvas.fill(0, y, w, 1, U' ', {Role::kStatus});
    const char* label = p.kind == Prompt::Kind::kTags    ? "filter tags (RE2): "
                        : p.kind == Prompt::Kind::kRanks ? "ranks (0-7,!3,n2): "
                                                         : "runs (glob,!glob): ";
    int x = canvas.text(0, y, label, {Role::kAccent, true});
    // The end of what is typed stays visible: it gets half the row, or all that is left of a
    // narrow one (the count and the hint give way first).
    std::string text = p.text;
    const int room = std::max(std::min(w - x - 1, std::max(8, w / 2 - x)), 1);
    while (display_width(text) > room - 1) text.erase(0, 1);
    x += canvas.text(x, y, text, {Role::kText, true});
    canvas.put(x, y, U' ', {Role::kText, false, true});  // the cursor
    std::string right;
    Style right_style{Role::kDim};
    if (!p.error.empty()) {
        right = p.error;
        right_style = {Role::kAlert, true};
    } else {
        right = fmt::format("{} of {} series  Enter keeps, Esc undoes", model.selected_count(),
                            model.selected_count() + model.hidden());
    }
    const int rx = x + 3;
    if (rx < w) canvas.text(rx, y, fit(right, w - rx, ascii), right_style);
}

void draw_step_prompt(Canvas& canvas, const std::string& text) {
    const int y = canvas.height() - 1, w = canvas.width();
    canvas.fill(0, y, w, 1, U' ', {Role::kStatus});
    int x = canvas.text(0, y, "go to step: ", {Role::kAccent, true});
    x += canvas.text(x, y, text, {Role::kText, true});
    canvas.put(x, y, U' ', {Role::kText, false, true});  // the cursor
    if (x + 3 < w) canvas.text(x + 3, y, "Enter goes, Esc cancels", {Role::kDim});
}

void draw_flash(Canvas& canvas, const ViewModel& model, const std::string& flash) {
    if (canvas.height() < 3) return;
    const int y = canvas.height() - 2, w = canvas.width();
    const std::string text = fit(" " + flash + " ", w, model.ascii());
    canvas.text(std::max(0, w - display_width(text)), y, text, {Role::kAccent, true, true});
}

}  // namespace

void draw_screen(Canvas& canvas, const ViewModel& model, const UiState& state) {
    view_row(state.view).draw(canvas, model, state);
    if (too_small(canvas)) return;
    if (state.help) draw_help(canvas, model, state.help_scroll);
    if (state.prompt.kind != Prompt::Kind::kNone) draw_prompt(canvas, model, state.prompt);
    if (state.go_to_step) draw_step_prompt(canvas, *state.go_to_step);
    if (!state.flash.empty()) draw_flash(canvas, model, state.flash);
}

std::vector<InputEvent> parse_key_script(std::string_view script) {
    static const std::array<std::string_view, 12> kNamed = {
        "Enter", "Esc",  "Backspace", "Tab",   "BackTab", "Space",
        "Up",    "Down", "Left",      "Right", "PgUp",    "PgDn"};
    auto is_name = [](std::string_view token) {
        if (std::find(kNamed.begin(), kNamed.end(), token) != kNamed.end()) return true;
        for (const Binding& b : bindings())
            if (std::find(b.keys.begin(), b.keys.end(), token) != b.keys.end()) return true;
        return token.starts_with("Ctrl-") || token.starts_with("Shift-");
    };
    std::vector<InputEvent> events;
    std::size_t i = 0;
    while (i < script.size()) {
        while (i < script.size() && script[i] == ' ') ++i;
        std::size_t j = i;
        while (j < script.size() && script[j] != ' ') ++j;
        const std::string_view token = script.substr(i, j - i);
        i = j;
        if (token.empty()) continue;
        if (token.size() == 1 || is_name(token)) {
            const bool text = token.size() == 1 || token == "Space";
            events.push_back(InputEvent::named(std::string(token), text));
            continue;
        }
        // Typed text, one event per UTF-8 code point.
        for (std::size_t k = 0; k < token.size();) {
            std::size_t n = 1;
            while (k + n < token.size() &&
                   (static_cast<unsigned char>(token[k + n]) & 0xc0) == 0x80)
                ++n;
            events.push_back(InputEvent::named(std::string(token.substr(k, n)), true));
            k += n;
        }
    }
    return events;
}

bool frame_owed(const UiState& state) {
    return state.view == ViewId::kOverview && overview_incomplete(state.overview);
}

void forget_queries(UiState& state) {
    state.overview.cache.reset();
    state.anomalies.layout_cache.reset();
    state.compare.cache = CompareMemo();
}

void show_view(UiState& state, ViewId view, const ViewModel& model, int width, int height) {
    switch_view(state, view, model, width, height);
}

}  // namespace runtop::ui
