// The command-line front door: picks the subcommand from one table that also writes --help.
#pragma once

namespace runtop {

int run_cli(int argc, char** argv);

}  // namespace runtop
