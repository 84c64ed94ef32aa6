// runtop(1): the man page, from a source kept in the repository (docs/runtop.1.in: the prose,
// in roff) and the tables that also drive the program, so it cannot drift from them: the
// command table with each command's options (the same OptionSpecs --help prints) and the
// action table of keys (the same rows the `?` screen and docs/keys.md come from).
//
// Placeholders in the source, each alone on a line: @VERSION@ (inside .TH too), @SYNOPSIS@,
// @COMMANDS@, @KEYS@, @CONFIG@ (the config file's keys, app/config.h). An unknown @WORD@ line is an
// error, as is a placeholder left out.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace runtop {

Result<std::string> man_page(std::string_view source, std::string_view version);

// Text made safe for roff: backslashes written \e, '-' as \- (so options copy and search as
// typed), and a line never starting with '.' or '\''.
std::string roff_escape(std::string_view text);

}  // namespace runtop
