#include "views/view_common.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "core/format.h"
#include "views/tag_title.h"

namespace runtop::ui {
namespace {

std::string badge_text(AlertLevel level, GlyphTier tier, std::string_view text) {
    if (level == AlertLevel::kOk) return {};
    std::string out;
    append_utf8(out, level == AlertLevel::kAlert ? marks(tier).alert : marks(tier).warn);
    if (!text.empty()) {
        out += ' ';
        out += text;
    }
    return out;
}

std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
    return short_step(static_cast<std::int64_t>(n)) + " " + std::string(n == 1 ? one : many);
}

// "<1m", "12m", "3h20m", "2d": how long a run has been quiet, to the minute (the dashboard
// redraws a stall only when its minute changes).
std::string short_duration(double seconds) {
    const long s = static_cast<long>(seconds);
    if (s < 60) return "<1m";
    if (s < 3600) return fmt::format("{}m", s / 60);
    if (s < 86400) return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
    return fmt::format("{}d", s / 86400);
}

}  // namespace

std::string series_label(const ViewModel& model, SeriesId id, bool many_runs, int run_columns) {
    const RunRank rr = model.run_rank(id);
    std::string rank = rr.rank == kNoRank ? std::string() : fmt::format("r{}", rr.rank);
    std::string run = model.run_label(rr.run, run_columns);
    if (!many_runs) return rank.empty() ? run : rank;
    return rank.empty() ? run : run + " " + rank;
}

std::string count_text(const ViewModel& model, const std::vector<SeriesId>& ids) {
    std::set<std::string_view> runs;
    std::set<int> ranks;
    for (SeriesId id : ids) {
        const SeriesKeyRef k = model.store().at(id).key();
        runs.insert(k.run);
        if (k.rank != kNoRank) ranks.insert(k.rank);
    }
    if (runs.size() <= 1) {
        if (ids.size() == 1) {
            const SeriesKeyRef k = model.store().at(ids[0]).key();
            return k.rank == kNoRank ? model.run_label(k.run) : fmt::format("rank {}", k.rank);
        }
        if (ranks.size() == ids.size()) return fmt::format("{} ranks", ids.size());
        return fmt::format("{} series", ids.size());
    }
    if (ranks.empty() && runs.size() == ids.size()) return fmt::format("{} runs", runs.size());
    return fmt::format("{} runs, {} series", runs.size(), ids.size());
}

bool move_in_table(Action action, int& row, int& column, int rows, int page_rows) {
    switch (action) {
        case Action::kUp:
            --row;
            return true;
        case Action::kDown:
            ++row;
            return true;
        case Action::kPageUp:
            row -= page_rows;
            return true;
        case Action::kPageDown:
            row += page_rows;
            return true;
        case Action::kFirst:
            row = 0;
            return true;
        case Action::kLast:
            row = rows - 1;
            return true;
        case Action::kLeft:
            --column;
            return true;
        case Action::kRight:
            ++column;
            return true;
        default:
            return false;
    }
}

int draw_pieces(Canvas& canvas, int x, int y, int end, const std::vector<Piece>& pieces,
                bool ascii) {
    bool first = true;
    for (const Piece& p : pieces) {
        const int at = first ? x : x + p.gap;
        const int room = end - at;
        if (display_width(p.text) > room) {
            if (first || room >= 8) canvas.text(at, y, fit(p.text, room, ascii), p.style);
            return end;
        }
        x = at + canvas.text(at, y, p.text, p.style);
        first = false;
    }
    return x;
}

int pieces_width(const std::vector<Piece>& pieces) {
    int w = 0;
    for (std::size_t i = 0; i < pieces.size(); ++i)
        w += (i > 0 ? pieces[i].gap : 0) + display_width(pieces[i].text);
    return w;
}

PanelRows::PanelRows(Canvas& c, int sep, int top, int bottom_row, bool ascii_text)
    : canvas(c), x(sep + 2), w(c.width() - sep - 2), y(top), bottom(bottom_row), ascii(ascii_text) {
    for (int row = top; row < bottom; ++row)
        canvas.put(sep, row, ascii ? U'|' : U'│', {Role::kBorder});
}

void PanelRows::line(const std::string& left, Style left_style, const std::string& right,
                     Style right_style) {
    if (y >= bottom) return;
    canvas.fill(x, y, w, 1, U' ');
    const int rw = display_width(right);
    canvas.text(x, y, fit(left, std::max(0, w - rw - 1), ascii), left_style);
    if (!right.empty()) canvas.text_right(x + w, y, fit(right, w, ascii), right_style);
    ++y;
}

std::string log_y_text(bool nothing_positive, std::uint64_t non_positive, bool ascii) {
    std::string t = nothing_positive ? "log-Y: nothing > 0" : "log-Y";
    if (non_positive > 0)
        t += " (" + short_step(static_cast<std::int64_t>(non_positive)) + (ascii ? " <=0" : " ≤0") +
             " at bottom)";
    return t;
}

bool too_small(const Canvas& canvas) {
    return canvas.width() < kMinWidth || canvas.height() < kMinHeight;
}

void draw_too_small(Canvas& canvas, std::string_view view_name) {
    canvas.clear();
    const std::string lines[] = {
        "too small",
        fmt::format("{}x{}, {} needs {}x{}", canvas.width(), canvas.height(), view_name, kMinWidth,
                    kMinHeight),
    };
    const int h = canvas.height();
    const int top = std::max(0, (h - 2) / 2);
    for (int i = 0; i < 2 && top + i < h; ++i) {
        const std::string text = fit(lines[i], canvas.width(), true);
        const int x = std::max(0, (canvas.width() - display_width(text)) / 2);
        canvas.text(x, top + i, text, {i == 0 ? Role::kWarn : Role::kDim, i == 0});
    }
}

namespace {

// "▲ 5 alert", "△ 2 warn": a count of series in a state, behind its badge.
std::string level_count(AlertLevel level, GlyphTier tier, std::size_t n) {
    return badge_text(level, tier,
                      fmt::format("{} {}", n, level == AlertLevel::kAlert ? "alert" : "warn"));
}

}  // namespace

std::string first_incident_text(const ViewModel& model) {
    const IncidentReport& report = model.incidents();
    if (!report.first_major) return {};
    const AnomalyLog& log = model.analyzer().log();
    const Incident& incident = report.incidents[*report.first_major];
    const AnomalyRecord& r = log.records()[log.ordered()[incident.root()].index];
    std::string text = "first: step " + short_step(r.step);
    if (r.rank != kNoRank) text += " rank " + std::to_string(r.rank);
    // The tag's layer and op stay when a long one is cut: the line has other things to say.
    constexpr int kTagBudget = 32;
    text += " " + (r.tag.empty() ? r.rule : fit_tag(r.tag, kTagBudget, model.ascii()));
    return text;
}

void draw_status(Canvas& canvas, const ViewModel& model, std::string_view right) {
    const int y = canvas.height() - 1;
    const int w = canvas.width();
    const Style base{Role::kStatus};
    canvas.fill(0, y, w, 1, U' ', base);
    int end = w;
    if (!right.empty()) {
        const int used = canvas.text_right(w, y, fit(right, w / 2, model.ascii()), base);
        end = w - used - 2;
    }

    struct Segment {
        std::string text;
        Style style;
    };
    std::vector<Segment> segments;
    const AlertCounts alerts = model.alert_counts();
    // Series a filter at ingest dropped were never judged: "no alerts" would claim too much.
    const bool unjudged = model.ingest.skipped_series > 0;
    if (alerts.alert == 0 && alerts.warn == 0) {
        std::string text = alerts.acknowledged ? "no new alerts" : "no alerts";
        if (unjudged || alerts.hidden_alert + alerts.hidden_warn > 0) text += " in the filter";
        segments.push_back({std::move(text), {Role::kOk}});
    } else {
        if (alerts.alert > 0)
            segments.push_back({level_count(AlertLevel::kAlert, model.glyphs(), alerts.alert),
                                {Role::kAlert, true, true}});
        if (alerts.warn > 0)
            segments.push_back({level_count(AlertLevel::kWarn, model.glyphs(), alerts.warn),
                                {Role::kWarn, true, true}});
    }
    if (alerts.acknowledged > 0)
        segments.push_back({fmt::format("{} ack", alerts.acknowledged), {Role::kDim}});
    // What the filter hides stays in sight: a filtered view must not read as a calm job.
    if (alerts.hidden_alert + alerts.hidden_warn > 0) {
        std::string text;
        if (alerts.hidden_alert > 0)
            text = level_count(AlertLevel::kAlert, model.glyphs(), alerts.hidden_alert);
        if (alerts.hidden_warn > 0)
            text += (text.empty() ? "" : " ") +
                    level_count(AlertLevel::kWarn, model.glyphs(), alerts.hidden_warn);
        segments.push_back({"the filter hides " + text,
                            {alerts.hidden_alert > 0 ? Role::kAlert : Role::kWarn, true}});
    }
    // A run that stopped writing is trouble of its own: named right after the alerts.
    const IngestInfo& in = model.ingest;
    for (const RunStatus& run : model.analyzer().runs()) {
        if (!run.stalled) continue;
        const double quiet = in.now - run.last_arrival;
        std::string text =
            "stalled " + (run.name.empty() ? std::string("run") : model.run_label(run.name));
        if (run.last_arrival >= 0 && quiet > 0) text += " " + short_duration(quiet);
        segments.push_back({std::move(text), {Role::kWarn, true, true}});
    }
    // Paused is a state the user must not forget: early in the line.
    if (in.live && !in.following) {
        std::string paused = "paused";
        if (in.waiting > 0)
            paused += ", " + short_value(static_cast<double>(in.waiting)) + " waiting";
        segments.push_back({std::move(paused), {Role::kWarn, true}});
    }
    // What the filter hides changes everything else: it comes right after the alerts.
    if (!model.filter_tags().empty())
        segments.push_back({"filter " + model.filter_tags(), {Role::kAccent}});
    if (!model.filter_ranks().empty())
        segments.push_back({"ranks " + model.filter_ranks(), {Role::kAccent}});
    if (!model.filter_runs().empty())
        segments.push_back({"runs " + model.filter_runs(), {Role::kAccent}});
    segments.push_back({plural(model.runs(), "run", "runs"), base});
    std::string series = plural(model.selected_count(), "series", "series");
    if (model.hidden() > 0)
        series += unjudged ? fmt::format(" ({} hidden, not judged)", model.hidden())
                           : fmt::format(" ({} hidden)", model.hidden());
    segments.push_back({std::move(series), base});
    segments.push_back({plural(model.points(), "point", "points"), base});
    if (model.ingest.roots > 0)
        segments.push_back({plural(model.ingest.roots, "root", "roots") + ", " +
                                plural(model.ingest.files, "file", "files"),
                            base});
    // The rate last of the counts: its width changes every second, and nothing after it should
    // move (every shifted cell is bytes on the wire).
    if (in.live && in.following) {
        std::string live = in.backfilling ? "loading" : "live";
        if (in.rate > 0) live += " " + short_value(in.rate) + " pts/s";
        segments.push_back({std::move(live), in.backfilling ? Style{Role::kAccent} : base});
    }
    // Where to look first: the first major incident's root, shortly (the anomalies view, 4,
    // lists them all). After the counts and the live rate, which the user and the tests read
    // for the state of the job: on a short line it is cut (with an ellipsis) or left out.
    if (const std::string first = first_incident_text(model); !first.empty())
        segments.push_back({first, {Role::kAlert}});
    if (in.warnings > 0)
        segments.push_back({plural(in.warnings, "warning", "warnings") +
                                (in.note.empty() ? std::string() : ": " + in.note),
                            {Role::kWarn}});

    int x = 0;
    for (const Segment& s : segments) {
        if (x >= end) break;
        x += canvas.text(x, y, fit(s.text, end - x, model.ascii()), s.style);
        x += 2;
    }
}

std::string clamp_step(std::int64_t& step, std::int64_t lo, std::int64_t hi,
                       std::string_view whose) {
    if (step >= lo && step <= hi) return {};
    std::string note = fmt::format("step {} is outside {} ({}-{}): ", step, whose, lo, hi);
    step = std::clamp(step, lo, hi);
    return note;
}

char32_t trend_glyph(int direction, bool ascii) {
    if (direction > 0) return ascii ? U'^' : U'↑';
    if (direction < 0) return ascii ? U'v' : U'↓';
    return ascii ? U'-' : U'→';
}

int trend_direction(double before, double now) {
    if (!std::isfinite(before) || !std::isfinite(now)) return 0;
    const double scale = std::max(std::fabs(before), std::fabs(now));
    if (scale == 0 || std::fabs(now - before) < 0.02 * scale) return 0;
    return now > before ? 1 : -1;
}

int badge_width(AlertLevel level, GlyphTier tier, std::string_view text) {
    return display_width(badge_text(level, tier, text));
}

int draw_badge(Canvas& canvas, int x, int y, AlertLevel level, GlyphTier tier,
               std::string_view text) {
    if (level == AlertLevel::kOk) return 0;
    const Style style{level == AlertLevel::kAlert ? Role::kAlert : Role::kWarn, true, true};
    return canvas.text(x, y, badge_text(level, tier, text), style);
}

}  // namespace runtop::ui
