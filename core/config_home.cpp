#include "core/config_home.h"

#include <cstdlib>

namespace runtop {

std::string user_config_path(std::string_view name) {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        return std::string(xdg) + "/runtop/" + std::string(name);
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.config/runtop/" + std::string(name);
    return {};
}

}  // namespace runtop
