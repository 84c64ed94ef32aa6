// `runtop check`: read everything, evaluate the alert rules, print the anomalies first failure
// first, exit 0 (none), 1 (anomalies) or 2 (error) — for gating a pipeline (DESIGN.md §4).
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "app/commands.h"
#include "app/inputs.h"
#include "app/read_summary.h"
#include "app/rules_file.h"
#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/filtering_sink.h"
#include "core/format.h"
#include "core/json/json_writer.h"

namespace runtop {

const std::vector<OptionSpec> kCheckOptions = {
    {"rules", "FILE",
     "alert rules (JSON; docs/howto.md#the-rules-file); default: ~/.config/runtop/rules.json "
     "if it exists, else the built-in rules (NaN/Inf, robust spikes)"},
    {"format", "text|json", "output format (default text)"},
    {"fail-on", "warn|alert",
     "the least severity that makes the exit code 1 (default warn: any anomaly); every anomaly "
     "is printed either way"},
    {"filter", "RE", "only tags matching the regex (RE2, case-insensitive)"},
    kRanksOption,
    kRanksPerNodeOption,
    kRunsOption,
    {"allow-unreadable", "",
     "judge what could be read when some data files or directories under the roots cannot be "
     "(default: exit 2, the gate did not pass)"},
    {"help", "", "show this help"},
};

namespace {

void print_text(const AnomalyLog& log, std::string& out) {
    static constexpr const char* kHeads[] = {"STEP", "RUN",      "RANK",  "TAG",
                                             "RULE", "SEVERITY", "VALUE", "SOURCE"};
    constexpr int kColumns = 8;
    std::vector<std::array<std::string, kColumns>> rows;
    for (const LogEntry& e : log.ordered()) {
        const AnomalyRecord& r = log.records()[e.index];
        rows.push_back({anomaly_steps_text(r), visible(r.run),
                        r.rank == kNoRank ? std::string("-") : std::to_string(r.rank),
                        r.tag.empty() ? std::string("-") : visible(r.tag), visible(r.rule),
                        std::string(severity_name(e.severity)), format_value(r.value),
                        std::string(anomaly_source_name(r.source))});
    }
    std::size_t width[kColumns];
    for (int c = 0; c < kColumns; ++c) width[c] = std::string_view(kHeads[c]).size();
    for (const auto& row : rows)
        for (int c = 0; c < kColumns; ++c) width[c] = std::max(width[c], row[c].size());
    auto line = [&](auto cell, std::string_view message) {
        for (int c = 0; c < kColumns; ++c) {
            std::string_view text = cell(c);
            out += text;
            out.append(width[c] - std::min(width[c], text.size()) + 2, ' ');
        }
        out += message;
        out += '\n';
    };
    if (rows.empty()) return;
    line([](int c) { return std::string_view(kHeads[c]); }, "MESSAGE");
    std::size_t i = 0;
    for (const LogEntry& e : log.ordered()) {
        const auto& row = rows[i++];
        line([&](int c) { return std::string_view(row[c]); },
             visible(anomaly_message_text(log, e)));
        flush_output(out, false);
    }
}

void print_json(const AnomalyLog& log, std::string& out) {
    // One anomaly a line, so the output also reads line by line.
    JsonWriter w(out);
    w.begin_object().key("anomalies").begin_array();
    bool any = false;
    for (const LogEntry& e : log.ordered()) {
        const AnomalyRecord& r = log.records()[e.index];
        any = true;
        w.next_line().begin_object();
        w.key("run").string(r.run);
        w.key("rank");
        r.rank == kNoRank ? w.null() : w.integer(r.rank);
        w.key("tag").string(r.tag);
        w.key("step").integer(r.step);
        w.key("last_step").integer(r.last_step);
        w.key("count").integer(r.count);
        w.key("micro_step").integer(r.micro_step);
        w.key("rule").string(r.rule);
        w.key("severity").string(severity_name(e.severity));
        w.key("value").number(r.value);
        w.key("message").string(r.message);
        w.key("source").string(anomaly_source_name(r.source));
        w.key("also_runtop").boolean(e.also_runtop);
        w.end_object();
        flush_output(out, false);
    }
    if (any) w.newline();
    w.end_array().end_object();
    out += '\n';
}

std::string roots_text(const std::vector<RootSpec>& roots) {
    std::string out;
    for (const RootSpec& r : roots) out += (out.empty() ? "" : ", ") + r.path;
    return out;
}

}  // namespace

int cmd_check(const Args& args) {
    const std::string format = args.get("format", "text");
    if (format != "text" && format != "json") {
        std::fprintf(stderr, "runtop check: --format must be text or json, not '%s'\n",
                     visible(format).c_str());
        return kExitError;
    }
    const std::string fail_on = args.get("fail-on", "warn");
    if (fail_on != "warn" && fail_on != "alert") {
        std::fprintf(stderr, "runtop check: --fail-on must be warn or alert, not '%s'\n",
                     visible(fail_on).c_str());
        return kExitError;
    }
    Result<Selection> selection = selection_from_args(args);
    if (!selection) {
        std::fprintf(stderr, "runtop check: %s\n", selection.error().message.c_str());
        return kExitError;
    }
    Result<LoadedRules> rules = load_rules(args.get("rules"));
    if (!rules) {
        std::fprintf(stderr, "runtop check: %s\n", rules.error().message.c_str());
        return kExitError;
    }
    for (const std::string& w : rules->rules.warnings)
        std::fprintf(stderr, "runtop: %s\n", visible(w).c_str());

    // The rules see every selected point as it is read; nothing needs the points afterwards, so
    // check keeps no Store (and no memory budget applies). The other series are skipped at
    // ingest, their values not even decoded where the format allows.
    Analyzer analyzer(std::move(rules->rules));  // it sees only the selected series
    AnalyzingSink sink(analyzer);
    FilteringSink selected(selection->filter, sink);
    SourceSet sources(selected);
    const std::size_t warnings = read_once(sources, selection->roots);
    analyzer.finish();

    const AnomalyLog& log = analyzer.log();
    std::string out;
    if (format == "json")
        print_json(log, out);
    else
        print_text(log, out);
    flush_output(out, true);

    std::size_t alerts = 0, imported = 0;
    for (const LogEntry& e : log.ordered()) {
        alerts += e.severity == Severity::kAlert;
        imported += log.records()[e.index].source == AnomalySource::kMsProbe;
    }
    const std::size_t shown = log.ordered().size();
    const IngestTotals t = sources.totals();
    std::string first;
    if (shown > 0) {
        const AnomalyRecord& r = log.records()[log.ordered().front().index];
        first = fmt::format("; first: {}{}{} at step {} ({})", visible(r.run),
                            r.rank == kNoRank ? std::string() : fmt::format(" rank {}", r.rank),
                            r.tag.empty() ? std::string() : " " + visible(r.tag), r.step,
                            visible(r.rule));
    }
    std::fprintf(stderr,
                 "runtop: %zu anomal%s (%zu alert, %zu warn; %zu imported from msProbe, %zu of "
                 "runtop's merged into them)%s; rules: %s; %s; %s\n",
                 shown, shown == 1 ? "y" : "ies", alerts, shown - alerts, imported,
                 log.merged_count(), first.c_str(), visible(rules->origin).c_str(),
                 read_text(analyzer.selected_series(), analyzer.selected_points(), t).c_str(),
                 problems_text(t, warnings).c_str());
    if (sources.readable_roots() < selection->roots.size()) return kExitError;
    const std::string roots = visible(roots_text(selection->roots));
    // A gate that found nothing to judge must not pass: an empty log directory is usually a
    // job that never started, or a path with a typo below the root. Root by root: one run of
    // two that never wrote must not pass beside the other.
    const std::vector<IngestTotals> by_root = sources.totals_by_root();
    for (std::size_t i = 0; i < by_root.size(); ++i) {
        if (by_root[i].files > 0) continue;
        std::fprintf(stderr, "runtop check: no data files under %s: nothing was checked there\n",
                     visible(selection->roots[i].path).c_str());
        return kExitError;
    }
    // Nor one that could not read part of what it was asked to judge: the NaN may be in the
    // file it could not open.
    if (unreadable_count(t) > 0) {
        if (!args.has("allow-unreadable")) {
            std::fprintf(stderr,
                         "runtop check: %s under %s could not be read: the gate did not pass "
                         "(--allow-unreadable judges the rest)\n",
                         unreadable_text(t).c_str(), roots.c_str());
            return kExitError;
        }
        std::fprintf(stderr,
                     "runtop check: %s could not be read, skipped (--allow-unreadable): judged "
                     "what could be read\n",
                     unreadable_text(t).c_str());
    }
    // Nor one whose files hold nothing of their format (/etc/passwd, a garbage event file).
    for (std::size_t i = 0; i < by_root.size(); ++i) {
        const IngestTotals& r = by_root[i];
        if (r.files_with_records > 0) continue;
        std::fprintf(stderr,
                     "runtop check: no readable data under %s: %llu data file%s, none holding "
                     "a valid record of its format; nothing was checked there\n",
                     visible(selection->roots[i].path).c_str(),
                     static_cast<unsigned long long>(r.files), r.files == 1 ? "" : "s");
        return kExitError;
    }
    const std::size_t failing = fail_on == "alert" ? alerts : shown;
    return failing > 0 ? kExitFound : kExitOk;
}

}  // namespace runtop
