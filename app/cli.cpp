#include "app/cli.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "app/commands.h"

#ifndef RUNTOP_VERSION
#define RUNTOP_VERSION "0.0.0"
#endif

namespace runtop {

std::span<const Command> commands() {
    static const std::vector<Command> table = {
        {"", "[NAME=]PATH...",
         "the interactive dashboard (keys: ? inside; docs/keys.md); two roots open on the "
         "comparison",
         &kDashboardOptions, cmd_dashboard},
        {"ls", "[NAME=]PATH...",
         "list every series: run, rank, tag, points, first and last step, last value, source",
         &kLsOptions, cmd_ls},
        {"dump", "[NAME=]PATH...",
         "print every point (run,rank,tag,step,wall_time,value), series by series", &kDumpOptions,
         cmd_dump},
        {"check", "[NAME=]PATH...",
         "evaluate the alert rules; print anomalies first failure first; exit 0 none, 1 found, "
         "2 error",
         &kCheckOptions, cmd_check},
        {"snapshot", "[NAME=]PATH...",
         "render one frame of a dashboard view to stdout as text (no terminal needed)",
         &kSnapshotOptions, cmd_snapshot},
        {"diff", "[NAME=]PATH [NAME=]PATH",
         "compare two runs tag by tag (steps in common, last values, delta, ratio, first "
         "divergence) and their configuration; exit 0 none diverge, 1 some do, 2 error "
         "(docs/diff.md)",
         &kDiffOptions, cmd_diff},
        {"formats", "",
         "list the log formats text logs are read with (yours from "
         "$XDG_CONFIG_HOME/runtop/formats/, then the built-in ones); --test FILE shows what "
         "each line of a file yields",
         &kFormatsOptions, cmd_formats},
        {"demo", "", "write a simulated multi-rank training run live, with injected trouble",
         &kDemoOptions, cmd_demo},
        {"--print-config", "",
         "print the dashboard's effective configuration as a commented config.json (defaults, "
         "then the config file; docs/config.md)",
         &kPrintConfigOptions, cmd_print_config},
        {"--version", "", "print runtop's version and the git commit it was built from",
         &kVersionOptions, cmd_version},
    };
    return table;
}

std::string synopsis(const Command& c) {
    std::string out = "runtop";
    if (!c.name.empty()) out += " " + std::string(c.name);
    for (const OptionSpec& o : *c.options) {
        if (o.name == "help") continue;  // every command has it; --help says so
        out += " [" + option_usage(o) + "]";
    }
    if (!c.operands.empty()) out += " " + std::string(c.operands);
    return out;
}

std::string_view version() {
    return RUNTOP_VERSION;
}

namespace {

void print_usage(std::FILE* out) {
    std::fprintf(out,
                 "runtop %s - a terminal dashboard for deep-learning training runs\n\n"
                 "usage:\n",
                 RUNTOP_VERSION);
    for (const Command& c : commands()) std::fprintf(out, "  %s\n", synopsis(c).c_str());
    std::fprintf(out, "\ncommands:\n");
    int width = 0;
    for (const Command& c : commands())
        width = std::max(width, static_cast<int>(c.name.empty() ? 7 : c.name.size()));
    for (const Command& c : commands()) {
        const std::string name = c.name.empty() ? "PATH..." : std::string(c.name);
        std::fprintf(out, "  %-*s  %.*s\n", width, name.c_str(), static_cast<int>(c.summary.size()),
                     c.summary.data());
    }
    std::fprintf(out,
                 "\nPATH is a log directory or file; NAME=PATH names it. Runs are the directories "
                 "holding data files,\nwith rank directories (rank_3, rank3, <ts>-rank3-<uuid>) "
                 "folded into ranks of one run.\n"
                 "Reads TensorBoard event files (PyTorch, tensorboardX, TF/Keras, DeepSpeed, "
                 "MindSpore),\nmsProbe monitor CSVs and anomaly.json, DeepSpeed csv_monitor, "
                 "Lightning metrics.csv, Hugging Face\ntrainer_state.json, Oumi telemetry, "
                 "and training logs (*.log, *.out, *.err, *.txt: Megatron,\nMindFormers, "
                 "NeMo, DeepSpeed, torchtitan, Hugging Face, nanoGPT, msProbe alarms; runtop "
                 "formats).\n"
                 "'runtop COMMAND --help' describes a command; man runtop has it all.\n\n"
                 "dashboard options:\n%s",
                 options_help(kDashboardOptions).c_str());
}

void print_command_help(const Command& c) {
    std::printf("usage: %s\n\n%.*s\n\noptions:\n%s", synopsis(c).c_str(),
                static_cast<int>(c.summary.size()), c.summary.data(),
                options_help(*c.options).c_str());
}

// Each live file keeps its descriptor open (like RustBoard), and a job with many ranks and
// restarts has thousands of files: lift the soft limit to the hard one.
void raise_file_limit() {
    struct rlimit limit;
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &limit);
    }
}

}  // namespace

int run_cli(int argc, char** argv) {
    raise_file_limit();
    std::vector<std::string> argv_rest(argv + (argc > 0 ? 1 : 0), argv + argc);
    if (argv_rest.empty()) {
        print_usage(stderr);
        return kExitError;
    }
    std::string first = argv_rest.front();
    if (first == "--help" || first == "-h" || first == "help") {
        print_usage(stdout);
        return kExitOk;
    }
    for (const Command& c : commands()) {
        if (c.name != first) continue;
        argv_rest.erase(argv_rest.begin());
        Result<Args> args = parse_args(argv_rest, *c.options);
        if (!args) {
            std::fprintf(stderr, "runtop %s: %s\n", first.c_str(), args.error().message.c_str());
            return kExitError;
        }
        if (args->has("help")) {
            print_command_help(c);
            return kExitOk;
        }
        return c.run(*args);
    }
    // Not a command: the dashboard, over the paths given.
    Result<Args> args = parse_args(argv_rest, kDashboardOptions);
    if (!args) {
        std::fprintf(stderr, "runtop: %s\n", args.error().message.c_str());
        return kExitError;
    }
    if (args->has("help")) {
        print_command_help(commands().front());
        return kExitOk;
    }
    return cmd_dashboard(*args);
}

}  // namespace runtop
