// `runtop diff`: two roots read once, each run of one compared with its partner in the other
// (core/compare/run_compare.h, core/config/config_diff.h), printed as text, csv or json
// (docs/diff.md). Exit 0 when no tag diverges, 1 when some do, 2 on usage errors, a root that
// cannot be read, or (unless
// --allow-unreadable) a data file or directory below a root that cannot.
//
// --smooth W smooths both runs with TensorBoard's EMA before comparing (CompareOptions::
// smoothing), so that runs of other seeds can be held to a trend: "within 5% at W = 0.9".
//
// Pairing: each root normally holds one run, and the two are compared whatever their names.
// When a root holds several runs (sub-directories with data), runs are paired by their path
// below the root (A's `seed1/` with B's `seed1/`); runs without a partner are reported.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "app/commands.h"
#include "app/compare_options.h"
#include "app/diff_report.h"
#include "app/inputs.h"
#include "app/read_summary.h"
#include "core/compare/run_compare.h"
#include "core/config/config_diff.h"
#include "core/format.h"
#include "core/identity.h"
#include "core/series_filter.h"
#include "core/store/store.h"
#include "readers/source_set.h"

namespace runtop {

const std::vector<OptionSpec> kDiffOptions = {
    {"format", "text|csv|json", "output format (default text)"},
    kToleranceOption,
    kSmoothOption,
    kAlignOption,
    kByOption,
    {"filter", "RE",
     "only tags matching the regex (RE2, case-insensitive); config is not filtered"},
    kRanksOption,
    kRanksPerNodeOption,
    kMemoryOption,
    kLogFormatOption,
    {"allow-unreadable", "",
     "compare what could be read when some data files or directories under a root cannot be "
     "(default: exit 2, whatever the comparison says)"},
    {"help", "", "show this help"},
};

namespace {

int usage_error(const std::string& message) {
    std::fprintf(stderr, "runtop diff: %s\n", visible(message).c_str());
    return kExitError;
}

bool path_exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

// Run names are "<root name>[/<path below the root>]", and both roots go into one Store: names
// that are equal, or one a directory prefix of the other, would mix the runs. Such names get
// "#1" and "#2" (the same root twice: `runtop diff X X`).
void separate_names(RootSpec& a, RootSpec& b) {
    if (run_in_root(a.name, b.name) || run_in_root(b.name, a.name)) {
        a.name += "#1";
        b.name += "#2";
    }
}

// The runs the Store holds below a root: series or configuration.
std::set<std::string> runs_of(const Store& store, const std::string& root_name) {
    auto mine = [&](std::string_view run) { return run_in_root(run, root_name); };
    std::set<std::string> runs;
    for (SeriesId id = 0; id < store.series_count(); ++id)
        if (mine(store.at(id).key().run)) runs.insert(std::string(store.at(id).key().run));
    for (const ConfigText& t : store.config_texts())
        if (mine(t.run)) runs.insert(t.run);
    return runs;
}

// Reads one root; an unreadable root is an error naming it, other problems are warnings.
// Returns what could not be read below it (files and directories).
Result<IngestTotals> read_root(Store& store, const RootSpec& root) {
    struct stat st;
    if (::stat(root.path.c_str(), &st) != 0) return Error{root.path + ": " + std::strerror(errno)};
    SourceSet sources(store);
    sources.add_root(root);
    sources.rescan();
    sources.poll();
    std::vector<std::string> messages = sources.take_messages();
    if (sources.readable_roots() == 0) {
        for (const std::string& m : messages)
            if (m.starts_with(root.path)) return Error{m};
        return Error{root.path + ": cannot be read"};
    }
    for (const std::string& m : messages) std::fprintf(stderr, "runtop: %s\n", visible(m).c_str());
    for (const std::string& p : sources.pending())
        std::fprintf(stderr, "runtop: waiting: %s\n", visible(p).c_str());
    return sources.totals();
}

struct Pairing {
    std::vector<std::pair<std::string, std::string>> pairs;
    std::vector<std::string> only_a, only_b;
};

Pairing pair_runs(const std::set<std::string>& runs_a, const RootSpec& a,
                  const std::set<std::string>& runs_b, const RootSpec& b) {
    Pairing p;
    if (runs_a.size() == 1 && runs_b.size() == 1) {
        p.pairs.emplace_back(*runs_a.begin(), *runs_b.begin());
        return p;
    }
    std::set<std::string> matched_b;
    for (const std::string& run : runs_a) {
        const std::string_view below = path_below_root(run, a.name);
        const std::string partner = b.name + (below.empty() ? "" : "/") + std::string(below);
        if (runs_b.count(partner)) {
            p.pairs.emplace_back(run, partner);
            matched_b.insert(partner);
        } else {
            p.only_a.push_back(run);
        }
    }
    for (const std::string& run : runs_b)
        if (!matched_b.count(run)) p.only_b.push_back(run);
    return p;
}

}  // namespace

int cmd_diff(const Args& args) {
    const std::string format = args.get("format", "text");
    if (format != "text" && format != "csv" && format != "json")
        return usage_error("--format must be text, csv or json, not '" + format + "'");
    Result<CompareOptions> options = compare_options_from_args(args);
    if (!options) return usage_error(options.error().message);
    Result<int> per_node = ranks_per_node_from_args(args);
    if (!per_node) return usage_error(per_node.error().message);
    Result<SeriesFilter> filter =
        SeriesFilter::make(args.get("filter"), args.get("ranks"), {}, *per_node);
    if (!filter) return usage_error(filter.error().message);
    if (Status formats = log_formats_from_args(args); !formats)
        return usage_error(formats.error().message);
    Result<StoreLimits> limits = store_limits_from_args(args);
    if (!limits) return usage_error(limits.error().message);
    if (args.positional.size() != 2)
        return usage_error("needs two roots, [NAME=]PATH [NAME=]PATH, not " +
                           std::to_string(args.positional.size()) + " (see --help)");
    std::vector<RootSpec> roots;
    for (const std::string& arg : args.positional) {
        Result<RootSpec> root = parse_root_spec(arg, path_exists);
        if (!root) return usage_error(root.error().message);
        roots.push_back(std::move(*root));
    }
    separate_names(roots[0], roots[1]);

    Store store(*limits);
    bound_whole_process(store);
    std::set<std::string> runs[2];
    std::string unreadable;  // "<what> under <root>" for each root where something was
    for (int i = 0; i < 2; ++i) {
        Result<IngestTotals> read = read_root(store, roots[i]);
        if (!read) return usage_error(read.error().message);
        if (unreadable_count(*read) > 0)
            unreadable += (unreadable.empty() ? "" : ", ") + unreadable_text(*read) + " under " +
                          roots[i].path;
        runs[i] = runs_of(store, roots[i].name);
        if (runs[i].empty())
            return usage_error(roots[i].path + ": no series or configuration found");
    }
    Pairing pairing = pair_runs(runs[0], roots[0], runs[1], roots[1]);
    if (pairing.pairs.empty())
        return usage_error("no run below " + roots[0].path + " has a partner below " +
                           roots[1].path + " (runs are paired by their path below the root)");

    DiffReport report;
    report.name_a = roots[0].name;
    report.name_b = roots[1].name;
    report.path_a = roots[0].path;
    report.path_b = roots[1].path;
    report.options = *options;
    report.runs_only_a = std::move(pairing.only_a);
    report.runs_only_b = std::move(pairing.only_b);
    for (const auto& [run_a, run_b] : pairing.pairs) {
        DiffPair& p = report.pairs.emplace_back();
        p.run_a = run_a;
        p.run_b = run_b;
        p.comparison = compare_runs(store, run_a, run_b, *options, &*filter);
        p.tags = tag_rows(p.comparison);
        p.config = diff_configs(run_config(store, run_a), run_config(store, run_b));
    }

    std::string out;
    if (format == "csv")
        print_diff_csv(report, out);
    else if (format == "json")
        print_diff_json(report, out);
    else
        print_diff_text(report, out);
    flush_output(out, true);
    // A gate that could not read part of a run must not say the runs agree.
    if (!unreadable.empty()) {
        if (!args.has("allow-unreadable"))
            return usage_error(unreadable +
                               " could not be read: the comparison is incomplete, the gate did "
                               "not pass (--allow-unreadable compares the rest)");
        std::fprintf(stderr,
                     "runtop diff: %s could not be read, skipped (--allow-unreadable): compared "
                     "what could be read\n",
                     visible(unreadable).c_str());
    }
    return report.diverging_tags() > 0 ? kExitFound : kExitOk;
}

}  // namespace runtop
