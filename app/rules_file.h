// Where `check` and the dashboard get their alert rules: --rules FILE, else the user's
// ${XDG_CONFIG_HOME:-~/.config}/runtop/rules.json when it exists, else the built-in defaults.
#pragma once

#include <string>

#include "core/analysis/rule_config.h"
#include "core/result.h"

namespace runtop {

struct LoadedRules {
    RuleSet rules;
    std::string origin;  // the file read, or "built-in"
};

// `path` empty: the user's rules file if present, else the defaults.
Result<LoadedRules> load_rules(const std::string& path);

}  // namespace runtop
