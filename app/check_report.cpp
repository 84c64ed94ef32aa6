#include "app/check_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "app/inputs.h"
#include "core/format.h"
#include "core/json/json_writer.h"

namespace runtop {
namespace {

std::string rank_text(int rank) {
    return rank == kNoRank ? std::string("-") : std::to_string(rank);
}

// How far off, as the tables show it: "23.1x", "NaN" / "Inf" for non-finite, "-" when unknown.
std::string off_text(const AnomalyRecord& r) {
    const double d = deviation(r);
    if (!std::isfinite(r.value)) return std::isnan(r.value) ? "NaN" : "Inf";
    if (d >= kDeviationCap) return r.rule == "nonfinite" ? "NaN" : "huge";
    if (d <= 1) return "-";
    return fmt::format("{:.3g}x", d);
}

// Rows of cells, aligned, each followed by its free-text last column.
struct Table {
    std::vector<std::string> heads;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> last;  // per row; the heading's is heads.back()

    void print(std::string& out, std::string_view indent = "") const {
        const std::size_t n = heads.size() - 1;
        std::vector<std::size_t> width(n);
        for (std::size_t c = 0; c < n; ++c) width[c] = heads[c].size();
        for (const auto& row : rows)
            for (std::size_t c = 0; c < n; ++c) width[c] = std::max(width[c], row[c].size());
        auto line = [&](auto cell, std::string_view tail) {
            out += indent;
            for (std::size_t c = 0; c < n; ++c) {
                std::string_view text = cell(c);
                out += text;
                out.append(width[c] - std::min(width[c], text.size()) + 2, ' ');
            }
            out += tail;
            out += '\n';
        };
        line([&](std::size_t c) { return std::string_view(heads[c]); }, heads.back());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            line([&](std::size_t c) { return std::string_view(rows[i][c]); }, last[i]);
            flush_output(out, false);
        }
    }
};

std::vector<std::string> member_cells(const AnomalyRecord& r, const LogEntry& e) {
    return {anomaly_steps_text(r),
            visible(r.run),
            rank_text(r.rank),
            r.tag.empty() ? std::string("-") : visible(r.tag),
            visible(r.rule),
            std::string(severity_name(e.severity)),
            format_value(r.value),
            off_text(r),
            std::string(anomaly_source_name(r.source))};
}

// Where a record is, as every object of check's JSON names it.
void place_json(JsonWriter& w, const AnomalyRecord& r) {
    w.key("run").string(r.run);
    w.key("rank");
    r.rank == kNoRank ? w.null() : w.integer(r.rank);
    w.key("tag").string(r.tag);
    w.key("step").integer(r.step);
}

void member_json(JsonWriter& w, const AnomalyLog& log, const LogEntry& e) {
    const AnomalyRecord& r = log.records()[e.index];
    w.begin_object();
    place_json(w, r);
    w.key("last_step").integer(r.last_step);
    w.key("count").integer(r.count);
    w.key("micro_step").integer(r.micro_step);
    w.key("rule").string(r.rule);
    w.key("severity").string(severity_name(e.severity));
    w.key("value").number(r.value);
    w.key("deviation").number(deviation(r));
    w.key("message").string(r.message);
    w.key("source").string(anomaly_source_name(r.source));
    w.key("also_runtop").boolean(e.also_runtop);
    w.end_object();
}

// "actv_grad/.input:0 (min, max, mean, norm, zeros, nans)": the series and the ops it covers.
std::string condition_name(const AnomalyLog& log, const Condition& c) {
    if (c.records.size() <= 1) return log.records()[c.record].tag;
    std::string ops;
    for (std::size_t i : c.records) {
        const std::string& tag = log.records()[i].tag;
        ops += (ops.empty() ? "" : ", ") + tag.substr(tag.rfind('/') + 1);
    }
    return c.series + " (" + ops + ")";
}

}  // namespace

Result<FailOn> parse_fail_on(std::string_view text) {
    if (text == "minor") return FailOn::kMinor;
    if (text == "warn") return FailOn::kWarn;
    if (text == "alert") return FailOn::kAlert;
    return Error{fmt::format("--fail-on must be minor, warn or alert, not '{}'", visible(text))};
}

bool incident_fails(const Incident& incident, FailOn fail_on) {
    switch (fail_on) {
        case FailOn::kMinor:
            return true;
        case FailOn::kWarn:
            return incident.major;
        case FailOn::kAlert:
            return incident.major && incident.severity == Severity::kAlert;
    }
    return true;
}

void print_check_text(const AnomalyLog& log, const IncidentReport& report, bool members,
                      std::string& out) {
    const auto& ordered = log.ordered();
    if (!report.incidents.empty()) {
        Table t;
        t.heads = {"STEP",  "RUN", "RANK",    "TAG",      "RULE",   "SEVERITY",
                   "VALUE", "OFF", "MEMBERS", "INCIDENT", "MESSAGE"};
        for (const Incident& inc : report.incidents) {
            const LogEntry& e = ordered[inc.root()];
            const AnomalyRecord& r = log.records()[e.index];
            std::vector<std::string> cells = member_cells(r, e);
            cells.pop_back();  // the source: the message says it
            cells.push_back(std::to_string(inc.members.size()));
            cells.push_back(inc.major ? "major" : "minor");
            t.rows.push_back(std::move(cells));
            t.last.push_back(visible(anomaly_message_text(log, e)));
        }
        if (!members) {
            t.print(out);
        } else {
            // Each incident's table row, then its members under it.
            for (std::size_t i = 0; i < report.incidents.size(); ++i) {
                Table one{t.heads, {t.rows[i]}, {t.last[i]}};
                one.print(out);
                Table m;
                m.heads = {"STEP",     "RUN",   "RANK", "TAG",    "RULE",
                           "SEVERITY", "VALUE", "OFF",  "SOURCE", "MESSAGE"};
                for (std::size_t k : report.incidents[i].members) {
                    const LogEntry& e = ordered[k];
                    m.rows.push_back(member_cells(log.records()[e.index], e));
                    m.last.push_back(visible(anomaly_message_text(log, e)));
                }
                m.print(out, "    ");
            }
        }
    }
    if (!report.conditions.empty()) {
        if (!report.incidents.empty()) out += '\n';
        out += "Conditions (from the first point on, never ended):\n";
        Table c;
        c.heads = {"SINCE", "RUN", "RANK", "TAG", "RULE", "VALUE", "RECORDS", "MESSAGE"};
        for (const Condition& cond : report.conditions) {
            const AnomalyRecord& r = log.records()[cond.record];
            c.rows.push_back({std::to_string(cond.since_step), visible(r.run), rank_text(r.rank),
                              visible(condition_name(log, cond)), visible(r.rule),
                              format_value(r.value), std::to_string(cond.entries.size())});
            c.last.push_back(
                visible(r.message) +
                (r.count > 1 ? fmt::format(" ({} points through step {})", r.count, r.last_step)
                             : std::string()));
        }
        c.print(out);
    }
}

void print_check_json(const AnomalyLog& log, const IncidentReport& report, std::string& out) {
    const auto& ordered = log.ordered();
    JsonWriter w(out);
    w.begin_object().key("incidents").begin_array();
    for (const Incident& inc : report.incidents) {
        const LogEntry& root = ordered[inc.root()];
        const AnomalyRecord& r = log.records()[root.index];
        w.next_line().begin_object();
        w.key("step").integer(inc.step);
        w.key("last_step").integer(inc.last_step);
        w.key("run").string(inc.run);
        w.key("major").boolean(inc.major);
        w.key("severity").string(severity_name(inc.severity));
        w.key("strength").number(inc.strength);
        w.key("root").begin_object();
        place_json(w, r);
        w.key("rule").string(r.rule);
        w.key("value").number(r.value);
        w.key("reference").number(r.reference);
        w.key("deviation").number(deviation(r));
        w.key("stage").string(flow_stage_name(flow_stage(r)));
        w.end_object();
        w.key("members").begin_array();
        for (std::size_t k : inc.members) {
            w.next_line();
            member_json(w, log, ordered[k]);
        }
        w.newline().end_array();
        w.end_object();
        flush_output(out, false);
    }
    if (!report.incidents.empty()) w.newline();
    w.end_array();
    w.key("conditions").begin_array();
    for (const Condition& c : report.conditions) {
        const AnomalyRecord& r = log.records()[c.record];
        w.next_line().begin_object();
        w.key("run").string(r.run);
        w.key("rank");
        r.rank == kNoRank ? w.null() : w.integer(r.rank);
        w.key("tag").string(c.series);
        w.key("tags").begin_array();
        for (std::size_t i : c.records) w.string(log.records()[i].tag);
        w.end_array();
        w.key("rule").string(r.rule);
        w.key("since_step").integer(c.since_step);
        w.key("last_step").integer(r.last_step);
        w.key("value").number(r.value);
        w.key("records").integer(c.entries.size());
        w.end_object();
    }
    if (!report.conditions.empty()) w.newline();
    w.end_array();
    w.key("first");
    report.first_major ? w.integer(*report.first_major) : w.null();
    // Every anomaly, flat, as before incidents: scripts written for it keep working.
    w.key("anomalies").begin_array();
    for (const LogEntry& e : ordered) {
        w.next_line();
        member_json(w, log, e);
        flush_output(out, false);
    }
    if (!ordered.empty()) w.newline();
    w.end_array().end_object();
    out += '\n';
}

std::string incidents_summary(const AnomalyLog& log, const IncidentReport& report) {
    std::size_t major = 0, imported = 0;
    for (const Incident& inc : report.incidents) major += inc.major;
    for (const LogEntry& e : log.ordered())
        imported += log.records()[e.index].source == AnomalySource::kMsProbe;
    const std::size_t n = report.incidents.size(), shown = log.ordered().size();
    std::string s = fmt::format(
        "{} incident{} ({} major, {} minor), {} condition{}; from {} anomal{} ({} imported from "
        "msProbe, {} of runtop's merged into them)",
        n, n == 1 ? "" : "s", major, n - major, report.conditions.size(),
        report.conditions.size() == 1 ? "" : "s", shown, shown == 1 ? "y" : "ies", imported,
        log.merged_count());
    if (report.first_major)
        s += "; first major: " +
             visible(incident_root_text(log, report.incidents[*report.first_major])) + " in " +
             visible(report.incidents[*report.first_major].run);
    return s;
}

std::string incident_line(const AnomalyLog& log, const Incident& incident) {
    return fmt::format("runtop: {} incident at step {} in {}: {} ({} member{}, strength {:.3g})",
                       incident.major ? "major" : "minor", incident.step, visible(incident.run),
                       visible(incident_root_text(log, incident)), incident.members.size(),
                       incident.members.size() == 1 ? "" : "s", incident.strength);
}

}  // namespace runtop
