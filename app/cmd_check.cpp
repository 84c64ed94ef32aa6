// `runtop check`: read everything, evaluate the alert rules, print the incidents (each naming its
// root) and the conditions apart, exit 0 (none), 1 (an incident at or above --fail-on) or 2
// (error) — for gating a pipeline (DESIGN.md §4, docs/howto.md).
#include <algorithm>
#include <cstdio>

#include "app/check_follow.h"
#include "app/check_report.h"
#include "app/commands.h"
#include "app/inputs.h"
#include "app/read_summary.h"
#include "app/rules_file.h"
#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/filtering_sink.h"
#include "core/format.h"

namespace runtop {

const std::vector<OptionSpec> kCheckOptions = {
    {"rules", "FILE",
     "alert rules (JSON; docs/howto.md#the-rules-file); default: ~/.config/runtop/rules.json "
     "if it exists, else the built-in rules (NaN/Inf, robust spikes)"},
    {"format", "text|json", "output format (default text)"},
    {"fail-on", "minor|warn|alert",
     "what makes the exit code 1: minor (any incident or condition), warn (a major incident; the "
     "default), alert (a major incident with a NaN/Inf or an alert rule); all are printed either "
     "way"},
    {"members", "", "text: list each incident's members under it"},
    {"follow", "",
     "guard a live job: tail the files, print each new incident at or above --fail-on as it "
     "appears and exit 1 (docs/howto.md#guard-a-live-job)"},
    {"poll", "MS",
     "with --follow: poll with stat() every MS ms (default 500) instead of inotify; network "
     "filesystems are polled anyway",
     true},
    {"exec", "CMD",
     "with --follow: run CMD through /bin/sh -c once per new incident at or above --fail-on, "
     "with RUNTOP_STEP, RUNTOP_RUN, RUNTOP_RANK, RUNTOP_TAG, RUNTOP_RULE, RUNTOP_SEVERITY and "
     "RUNTOP_MESSAGE in its environment"},
    {"keep-going", "", "with --follow: do not exit on an incident, go on watching"},
    {"filter", "RE", "only tags matching the regex (RE2, case-insensitive)"},
    kRanksOption,
    kRanksPerNodeOption,
    kRunsOption,
    kLogFormatOption,
    {"allow-unreadable", "",
     "judge what could be read when some data files or directories under the roots cannot be "
     "(default: exit 2, the gate did not pass)"},
    {"help", "", "show this help"},
};

namespace {

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
    const Result<FailOn> fail_on = parse_fail_on(args.get("fail-on", "warn"));
    if (!fail_on) {
        std::fprintf(stderr, "runtop check: %s\n", fail_on.error().message.c_str());
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
    for (const char* option : {"poll", "exec", "keep-going"}) {
        if (args.has(option) && !args.has("follow")) {
            std::fprintf(stderr, "runtop check: --%s only applies with --follow\n", option);
            return kExitError;
        }
    }
    if (args.has("follow")) {
        if (format != "text") {
            std::fprintf(stderr,
                         "runtop check: --follow prints text lines; --format json "
                         "reads a finished run\n");
            return kExitError;
        }
        Result<WatchOptions> watch = watch_options_from_args(args);
        if (!watch) {
            std::fprintf(stderr, "runtop check: %s\n", watch.error().message.c_str());
            return kExitError;
        }
        GuardOptions guard_options{.fail_on = *fail_on,
                                   .exec = args.get("exec"),
                                   .keep_going = args.has("keep-going"),
                                   .watch = std::move(*watch)};
        return guard(*selection, std::move(rules->rules), guard_options);
    }

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
    const IncidentReport report = find_incidents(log);
    std::string out;
    if (format == "json")
        print_check_json(log, report, out);
    else
        print_check_text(log, report, args.has("members"), out);
    flush_output(out, true);

    const IngestTotals t = sources.totals();
    std::fprintf(stderr, "runtop: %s; rules: %s; %s; %s\n", incidents_summary(log, report).c_str(),
                 visible(rules->origin).c_str(),
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
    const bool fails =
        std::any_of(report.incidents.begin(), report.incidents.end(),
                    [&](const Incident& inc) { return incident_fails(inc, *fail_on); }) ||
        (*fail_on == FailOn::kMinor && !report.conditions.empty());
    return fails ? kExitFound : kExitOk;
}

}  // namespace runtop
