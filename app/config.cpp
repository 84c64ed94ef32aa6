#include "app/config.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace runtop {

std::string config_path() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        return std::string(xdg) + "/runtop/config.json";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.config/runtop/config.json";
    return {};
}

Result<DashboardConfig> parse_config(const std::string& json, const std::string& origin) {
    nlohmann::json doc = nlohmann::json::parse(json, nullptr, false, true);
    if (doc.is_discarded()) return Error{origin + ": not valid JSON"};
    if (!doc.is_object()) return Error{origin + ": must be a JSON object"};
    DashboardConfig c;
    c.origin = origin;
    auto bad = [&](const std::string& key, std::string_view what) {
        return Error{fmt::format("{}: {}: {}", origin, key, what)};
    };
    for (const auto& [key, value] : doc.items()) {
        if (key == "theme" || key == "color" || key == "memory") {
            if (!value.is_string()) return bad(key, "must be a string");
            const std::string v = value.get<std::string>();
            if (key == "color" && v != "auto" && v != "never" && v != "always")
                return bad(key, "must be auto, never or always, not \"" + v + "\"");
            (key == "theme" ? c.theme : key == "color" ? c.color : c.memory) = v;
        } else if (key == "ascii" || key == "mouse") {
            if (!value.is_boolean()) return bad(key, "must be true or false");
            (key == "ascii" ? c.ascii : c.mouse) = value.get<bool>();
        } else if (key == "smoothing") {
            if (!value.is_number()) return bad(key, "must be a number");
            const double v = value.get<double>();
            if (!(v >= 0 && v < 1)) return bad(key, "must be at least 0 and below 1");
            c.smoothing = v;
        } else if (key == "poll_ms" || key == "refresh_ms") {
            if (!value.is_number_integer()) return bad(key, "must be a whole number");
            const long long v = value.get<long long>();
            const long long lo = key == "poll_ms" ? 0 : 10;
            if (v < lo || v > 3'600'000) return bad(key, fmt::format("must be {} to 3600000", lo));
            (key == "poll_ms" ? c.poll_ms : c.refresh_ms) = static_cast<int>(v);
        } else {
            return bad(key,
                       "unknown key (known: theme, color, ascii, mouse, smoothing, memory, "
                       "poll_ms, refresh_ms)");
        }
    }
    return c;
}

Result<DashboardConfig> load_config(const std::string& path) {
    const std::string file = path.empty() ? config_path() : path;
    if (file.empty()) return DashboardConfig{};
    std::ifstream in(file);
    if (!in) {
        if (path.empty()) return DashboardConfig{};  // no config file: the defaults
        return Error{file + ": cannot be read"};
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parse_config(text.str(), file);
}

}  // namespace runtop
