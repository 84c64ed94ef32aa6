// The command-line front door: picks the subcommand from one table that also writes --help
// and the man page (app/man_page.h).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "app/args.h"

namespace runtop {

struct Command {
    std::string_view name;  // empty: the dashboard (`runtop PATH...`)
    std::string_view synopsis;
    std::string_view summary;
    const std::vector<OptionSpec>* options;
    int (*run)(const Args&);
};

// Every command, in the order --help lists them.
std::span<const Command> commands();

// "0.1.0", or with the git description the build was configured from: "0.1.0 (v0.1-12-gabc)".
std::string_view version();

int run_cli(int argc, char** argv);

}  // namespace runtop
