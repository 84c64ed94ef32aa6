// Shell completion for bash and zsh, written from the command table (app/cli.h) at build time
// by runtop_mangen, so every subcommand and option completes as --help lists it. Option values
// complete from the option's placeholder: "a|b|c" offers a, b and c; FILE files; DIR
// directories; the theme option the built-in themes and the user's theme files (looked up when
// completing, in $XDG_CONFIG_HOME/runtop/themes/). Paths complete as files.
#pragma once

#include <string>

namespace runtop {

std::string bash_completion();
std::string zsh_completion();

}  // namespace runtop
