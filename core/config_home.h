// Where runtop's own files of a user live: `$XDG_CONFIG_HOME/runtop/`, else
// `~/.config/runtop/` (config.json, rules.json, themes/, formats/).
#pragma once

#include <string>
#include <string_view>

namespace runtop {

// `name` under that directory; "" when neither XDG_CONFIG_HOME nor HOME is set.
std::string user_config_path(std::string_view name);

}  // namespace runtop
