// The dashboard's config file, $XDG_CONFIG_HOME/runtop/config.json (else
// ~/.config/runtop/config.json): defaults for the dashboard's options, each overridden by the
// command line. One table (config_keys()) names every key with its values, default and meaning;
// it drives the parser's messages, `runtop --print-config`, the man page's CONFIGURATION section
// and the check that docs/config.md documents every key. The file is JSON; // and /* */
// comments are allowed, so the printed configuration can be saved as it is.
//
// A value of the wrong kind is an error naming the file, the line and the key. An unknown key is
// a warning naming the file and the line, and is ignored: a config written for a newer runtop
// still starts an older one, and the warning catches a typo.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/result.h"

namespace runtop {

struct DashboardConfig {
    std::string theme = "dark";
    std::string color = "auto";
    bool ascii = false;
    bool mouse = true;
    double smoothing = 0.6;
    std::string memory = "1G";
    int poll_ms = 0;
    int refresh_ms = 100;
    std::string notify = "off";         // on each new major incident: off, bell, desktop
    std::string origin;                 // the file read, or "" when there was none
    std::vector<std::string> warnings;  // "FILE:LINE: unknown key "x" (ignored; known: ...)"
};

// The DashboardConfig member a key sets: its type is the JSON kind the key takes (string,
// true/false, a number, a whole number), and what --print-config prints.
using ConfigField = std::variant<std::string DashboardConfig::*, bool DashboardConfig::*,
                                 double DashboardConfig::*, int DashboardConfig::*>;

struct ConfigKey {
    std::string_view name;
    ConfigField field;
    std::string_view values;  // what it takes, for people: "auto | never | always"
    std::string_view help;
    std::string_view option;  // the command-line option that overrides it ("" when none)
};
// Every key, in the order --print-config and the docs list them.
std::span<const ConfigKey> config_keys();

// The config file's path ("" when neither XDG_CONFIG_HOME nor HOME is set).
std::string config_path();
// Reads `path` ("" = config_path()); a missing file is the defaults, not an error.
Result<DashboardConfig> load_config(const std::string& path = {});
Result<DashboardConfig> parse_config(const std::string& json, const std::string& origin);

// The configuration as a commented JSON file: each key's meaning, values and default, and
// where its value came from. parse_config reads it back to the same configuration.
std::string print_config(const DashboardConfig& config);

// The 1-based line of each top-level key of a JSON object text (comments and strings skipped),
// in order; keys with escapes are given as written between the quotes.
std::vector<std::pair<std::string, int>> top_level_key_lines(std::string_view json);

}  // namespace runtop
