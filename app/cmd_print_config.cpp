// `runtop --print-config [--config FILE]`: the dashboard's effective configuration, as a
// commented JSON file (app/config.h), and `runtop --version`.
#include <cstdio>

#include "app/cli.h"
#include "app/commands.h"
#include "app/config.h"
#include "core/format.h"

namespace runtop {

const std::vector<OptionSpec> kPrintConfigOptions = {
    {"config", "FILE", "the config file (default $XDG_CONFIG_HOME/runtop/config.json)"},
    {"help", "", "show this help"},
};

const std::vector<OptionSpec> kVersionOptions = {
    {"help", "", "show this help"},
};

int cmd_print_config(const Args& args) {
    if (!args.positional.empty()) {
        std::fprintf(stderr, "runtop --print-config: takes no paths (got '%s')\n",
                     visible(args.positional.front()).c_str());
        return kExitError;
    }
    Result<DashboardConfig> config = load_config(args.get("config"));
    if (!config) {
        std::fprintf(stderr, "runtop: %s\n", visible(config.error().message).c_str());
        return kExitError;
    }
    for (const std::string& w : config->warnings)
        std::fprintf(stderr, "runtop: %s\n", visible(w).c_str());
    std::fputs(print_config(*config).c_str(), stdout);
    return kExitOk;
}

int cmd_version(const Args&) {
    std::printf("runtop %.*s\n", static_cast<int>(version().size()), version().data());
    return kExitOk;
}

}  // namespace runtop
