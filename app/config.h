// The dashboard's config file, $XDG_CONFIG_HOME/runtop/config.json (else
// ~/.config/runtop/config.json): defaults for the dashboard's options, each overridden by the
// command line. Documented in docs/config.md. Every key is optional; an unknown key or a value of
// the wrong kind is an error naming the file and the key (a typo must not pass silently):
//
//   {
//     "theme": "dark",        // dark | light | mono | cvd | a theme file name or path
//     "color": "auto",        // auto | never | always
//     "ascii": false,         // ASCII glyphs only
//     "mouse": true,          // click and wheel
//     "smoothing": 0.6,       // the detail chart's EMA weight at start: 0, 0.6, 0.9 or 0.99
//     "memory": "1G",         // the point budget (--memory)
//     "poll_ms": 0,           // 0: inotify where it works; else stat polling every poll_ms
//     "refresh_ms": 100       // at most one frame per refresh_ms while data streams in
//   }
#pragma once

#include <optional>
#include <string>

#include "core/result.h"

namespace runtop {

struct DashboardConfig {
    std::string theme;  // "" = dark
    std::string color = "auto";
    bool ascii = false;
    bool mouse = true;
    double smoothing = 0.6;
    std::string memory;  // "" = the default budget
    int poll_ms = 0;
    int refresh_ms = 100;
    std::string origin;  // the file read, or "" when there was none
};

// The config file's path ("" when neither XDG_CONFIG_HOME nor HOME is set).
std::string config_path();
// Reads `path` ("" = config_path()); a missing file is the defaults, not an error.
Result<DashboardConfig> load_config(const std::string& path = {});
Result<DashboardConfig> parse_config(const std::string& json, const std::string& origin);

}  // namespace runtop
