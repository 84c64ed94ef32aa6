// The command-line front door: picks the subcommand from one table that also writes --help
// and the man page (app/man_page.h).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/args.h"

namespace runtop {

struct Command {
    std::string_view name;      // empty: the dashboard (`runtop PATH...`)
    std::string_view operands;  // after the options: "[NAME=]PATH...", or "" for none
    std::string_view summary;
    const std::vector<OptionSpec>* options;
    int (*run)(const Args&);
};

// Every command, in the order --help lists them.
std::span<const Command> commands();

// "runtop ls [--format text|csv] ... [NAME=]PATH...": from the command's option table, in its
// order (--help left out), so usage lines, --help and the man page cannot drift from it.
std::string synopsis(const Command& c);

// "0.1.0", or with the git description the build was configured from: "0.1.0 (v0.1-12-gabc)".
std::string_view version();

int run_cli(int argc, char** argv);

}  // namespace runtop
