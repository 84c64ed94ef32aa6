// The log formats a process reads text logs with (log_format.h): the user's own, from
// `$XDG_CONFIG_HOME/runtop/formats/*.json` (lnav's habit; `~/.config/...` without XDG), tried
// before the built-in ones, which a user format of the same name replaces; or the one
// `--log-format NAME` forces.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "readers/log_format.h"

namespace runtop {

struct LogFormatCatalog {
    std::vector<LogFormat> formats;   // in the order they are tried on a line
    std::vector<std::string> errors;  // "file:line: reason", one for each file left out
    // --log-format: every text file is read with `formats` (one), and none is left alone after
    // its sample: the user said what it is.
    bool forced = false;
};

// The user's format directory ("" without HOME and XDG_CONFIG_HOME).
std::string user_log_formats_dir();
// The user's formats in `dir` (a missing one holds none), in file name order, then the
// built-in ones not replaced.
LogFormatCatalog load_log_formats(const std::string& dir);
// Only the format named `name`; an error lists the names there are.
Status force_log_format(LogFormatCatalog& catalog, std::string_view name);

// The catalog of this process, for the readers it makes: the built-in formats until
// set_log_formats() is called, which a command does once, before it reads anything.
const LogFormatCatalog& log_formats();
void set_log_formats(LogFormatCatalog catalog);
// The process catalog's errors, the first time it is asked (a SourceSet reports them with its
// own warnings, so every command shows them where it shows those, once).
std::vector<std::string> take_log_format_errors();

}  // namespace runtop
