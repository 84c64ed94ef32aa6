// The subcommands (DESIGN.md §4). Each returns the process exit code.
#pragma once

#include <vector>

#include "app/args.h"

namespace runtop {

extern const std::vector<OptionSpec> kLsOptions;
extern const std::vector<OptionSpec> kDumpOptions;
extern const std::vector<OptionSpec> kCheckOptions;
extern const std::vector<OptionSpec> kDemoOptions;
extern const std::vector<OptionSpec> kSnapshotOptions;
extern const std::vector<OptionSpec> kDashboardOptions;
extern const std::vector<OptionSpec> kDiffOptions;
extern const std::vector<OptionSpec> kPrintConfigOptions;
extern const std::vector<OptionSpec> kVersionOptions;
extern const std::vector<OptionSpec> kFormatsOptions;

int cmd_ls(const Args& args);
int cmd_dump(const Args& args);
int cmd_check(const Args& args);
int cmd_demo(const Args& args);
int cmd_snapshot(const Args& args);
int cmd_dashboard(const Args& args);
int cmd_diff(const Args& args);
int cmd_print_config(const Args& args);
int cmd_version(const Args& args);
int cmd_formats(const Args& args);

// Exit codes shared by every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFound = 1;  // `check`: anomalies found; `diff`: tags diverge
inline constexpr int kExitError = 2;  // usage errors, nothing readable

}  // namespace runtop
