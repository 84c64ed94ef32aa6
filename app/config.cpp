#include "app/config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <type_traits>
#include <variant>

#include "core/config_home.h"
#include "core/format.h"
#include "core/json/json_value.h"
#include "core/json/json_writer.h"
#include "core/store/store_limits.h"

namespace runtop {

std::span<const ConfigKey> config_keys() {
    static const ConfigKey keys[] = {
        {"theme", &DashboardConfig::theme,
         "dark | light | mono | cvd | a theme name from $XDG_CONFIG_HOME/runtop/themes/ | a path",
         "colours; mono is high-contrast black and white, cvd is safe for colour-blind readers",
         "--theme"},
        {"color", &DashboardConfig::color, "auto | never | always",
         "the colour tier; auto reads NO_COLOR, TERM, COLORTERM and terminfo", "--color"},
        {"ascii", &DashboardConfig::ascii, "true | false",
         "ASCII glyphs only; otherwise braille when the locale is UTF-8", "--ascii"},
        {"mouse", &DashboardConfig::mouse, "true | false",
         "click and wheel; false leaves the mouse to the terminal", "--no-mouse"},
        {"smoothing", &DashboardConfig::smoothing, "0 to below 1",
         "the detail chart's EMA weight at start (s cycles 0, 0.6, 0.9, 0.99)", ""},
        {"memory", &DashboardConfig::memory, "512M, 2G, ...",
         "the point budget; older points fold into exact min/max/mean buckets", "--memory"},
        {"poll_ms", &DashboardConfig::poll_ms, "0, or 10 to 3600000",
         "0: inotify where it works, stat polling on network filesystems; otherwise always poll "
         "every poll_ms",
         "--poll=MS"},
        {"refresh_ms", &DashboardConfig::refresh_ms, "10 to 3600000",
         "at most one frame per refresh_ms while data streams in (keys always answer at once)", ""},
        {"notify", &DashboardConfig::notify, "off | bell | desktop",
         "on each new major incident: the terminal's bell, or a desktop notification (OSC 9 and "
         "777; through tmux's passthrough inside tmux)",
         "--notify"},
    };
    return keys;
}

std::string config_path() {
    return user_config_path("config.json");
}

std::vector<std::pair<std::string, int>> top_level_key_lines(std::string_view json) {
    std::vector<std::pair<std::string, int>> keys;
    int line = 1, depth = 0;
    std::string last_string;
    int last_string_line = 0;
    bool string_pending = false;  // a string at depth 1 that may be a key (a ':' follows)
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (c == '\n') {
            ++line;
        } else if (c == '/' && i + 1 < json.size() && json[i + 1] == '/') {
            while (i + 1 < json.size() && json[i + 1] != '\n') ++i;
        } else if (c == '/' && i + 1 < json.size() && json[i + 1] == '*') {
            for (i += 2; i + 1 < json.size() && !(json[i] == '*' && json[i + 1] == '/'); ++i)
                if (json[i] == '\n') ++line;
            ++i;
        } else if (c == '"') {
            const int start_line = line;
            std::string text;
            for (++i; i < json.size() && json[i] != '"'; ++i) {
                if (json[i] == '\\' && i + 1 < json.size()) text += json[i++];
                if (json[i] == '\n') ++line;
                text += json[i];
            }
            string_pending = depth == 1;
            last_string = std::move(text);
            last_string_line = start_line;
            continue;
        } else if (c == ':') {
            if (string_pending) keys.emplace_back(last_string, last_string_line);
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            --depth;
        }
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') string_pending = false;
    }
    return keys;
}

namespace {

std::string known_keys() {
    std::string out;
    for (const ConfigKey& k : config_keys()) out += (out.empty() ? "" : ", ") + std::string(k.name);
    return out;
}

// Levenshtein distance, for "did you mean": keys are a few characters, so the plain table.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = up;
        }
    }
    return row[b.size()];
}

// "did you mean "color"?" for a key within two edits of a known one, else the known keys.
std::string unknown_key_hint(std::string_view key) {
    std::string_view best;
    std::size_t best_distance = 3;
    for (const ConfigKey& k : config_keys()) {
        const std::size_t d = edit_distance(key, k.name);
        if (d < best_distance) {
            best_distance = d;
            best = k.name;
        }
    }
    if (!best.empty()) return fmt::format("did you mean \"{}\"?", best);
    return "known: " + known_keys();
}

// Whether the value is of the kind its field takes.
std::string kind_problem(const ConfigField& field, JsonValue value) {
    struct Kind {
        JsonValue v;
        std::string operator()(std::string DashboardConfig::*) const {
            return v.is_string() ? "" : "must be a string";
        }
        std::string operator()(bool DashboardConfig::*) const {
            return v.is_bool() ? "" : "must be true or false";
        }
        std::string operator()(double DashboardConfig::*) const {
            return v.is_number() ? "" : "must be a number";
        }
        std::string operator()(int DashboardConfig::*) const {
            std::int64_t n;
            return v.whole_number(n) ? "" : "must be a whole number";
        }
    };
    return std::visit(Kind{value}, field);
}

std::int64_t whole_number(JsonValue value) {
    std::int64_t n = 0;
    value.whole_number(n);
    return n;
}

// A value of the right kind that the key still refuses.
std::string bounds_problem(std::string_view key, JsonValue value) {
    if (key == "color") {
        const std::string_view v = value.string();
        if (v != "auto" && v != "never" && v != "always")
            return "must be auto, never or always, not \"" + std::string(v) + "\"";
    }
    if (key == "notify") {
        const std::string_view v = value.string();
        if (v != "off" && v != "bell" && v != "desktop")
            return "must be off, bell or desktop, not \"" + std::string(v) + "\"";
    }
    if (value.is_string() && value.string().empty()) return "must not be empty";
    if (key == "memory")
        if (Result<std::uint64_t> bytes = parse_memory_size(std::string(value.string())); !bytes)
            return bytes.error().message;
    if (key == "smoothing") {
        const double v = value.number();
        if (!(v >= 0 && v < 1)) return "must be at least 0 and below 1";
    }
    if (key == "poll_ms") {
        const std::int64_t v = whole_number(value);
        if (!(v == 0 || (v >= 10 && v <= 3'600'000))) return "must be 0, or 10 to 3600000";
    }
    if (key == "refresh_ms") {
        const std::int64_t v = whole_number(value);
        if (v < 10 || v > 3'600'000) return "must be 10 to 3600000";
    }
    return "";
}

// The value into the field it was checked for.
void assign(DashboardConfig& c, const ConfigField& field, JsonValue value) {
    struct Assign {
        DashboardConfig& c;
        JsonValue v;
        void operator()(std::string DashboardConfig::*f) const { c.*f = std::string(v.string()); }
        void operator()(bool DashboardConfig::*f) const { c.*f = v.boolean(); }
        void operator()(double DashboardConfig::*f) const { c.*f = v.number(); }
        void operator()(int DashboardConfig::*f) const { c.*f = static_cast<int>(whole_number(v)); }
    };
    std::visit(Assign{c, value}, field);
}

}  // namespace

Result<DashboardConfig> parse_config(const std::string& json, const std::string& origin) {
    JsonLimits limits;
    limits.comments = true;
    const JsonParse parsed = parse_json(json, limits);
    if (!parsed) return Error{origin + ": " + parsed.error().describe_position()};
    const JsonValue doc = parsed.document().root();
    if (!doc.is_object()) return Error{origin + ": must be a JSON object"};
    const std::vector<std::pair<std::string, int>> lines = top_level_key_lines(json);
    auto where = [&](std::string_view key) {
        // The last occurrence: a key written twice takes its last value.
        for (auto it = lines.rbegin(); it != lines.rend(); ++it)
            if (it->first == key) return fmt::format("{}:{}", origin, it->second);
        return origin;
    };
    DashboardConfig c;
    c.origin = origin;
    auto bad = [&](std::string_view key, std::string_view what) {
        return Error{fmt::format("{}: {}: {}", where(key), key, what)};
    };
    // In the file's order, so the first problem reported is the first in the file; a key
    // written twice is judged once, by its last value (as Python's json keeps it).
    for (const auto& [key, value] : doc.unique_members()) {
        const auto known = std::find_if(config_keys().begin(), config_keys().end(),
                                        [&](const ConfigKey& k) { return k.name == key; });
        if (known == config_keys().end()) {
            c.warnings.push_back(fmt::format("{}: unknown key \"{}\" (ignored; {})", where(key),
                                             key, unknown_key_hint(key)));
            continue;
        }
        std::string problem = kind_problem(known->field, value);
        if (problem.empty()) problem = bounds_problem(key, value);
        if (!problem.empty()) return bad(key, problem);
        assign(c, known->field, value);
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

namespace {

// A key's value as JSON text.
std::string value_text(const DashboardConfig& c, const ConfigField& field) {
    std::string out;
    JsonWriter w(out);
    std::visit(
        [&](auto f) {
            using T = std::decay_t<decltype(c.*f)>;
            if constexpr (std::is_same_v<T, std::string>) {
                w.string(c.*f);
            } else if constexpr (std::is_same_v<T, double>) {
                w.real(c.*f);
            } else {
                w.integer(c.*f);  // bool as true/false
            }
        },
        field);
    return out;
}

}  // namespace

std::string print_config(const DashboardConfig& config) {
    const DashboardConfig defaults;
    std::string out = fmt::format(
        "// runtop's configuration: {}.\n"
        "// Save as {} and edit; every key is optional, the command line wins.\n{{\n",
        config.origin.empty() ? "the defaults (no config file)"
                              : "the defaults, then " + visible(config.origin),
        config_path().empty() ? "$XDG_CONFIG_HOME/runtop/config.json" : visible(config_path()));
    const std::span<const ConfigKey> keys = config_keys();
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const ConfigKey& k = keys[i];
        const std::string value = value_text(config, k.field);
        const std::string fallback = value_text(defaults, k.field);
        out += fmt::format("  // {}\n  // {}; default {}{}{}\n", k.help, k.values, fallback,
                           k.option.empty() ? "" : "; option ", k.option);
        std::string name;
        JsonWriter(name).string(k.name);
        out += fmt::format("  {}: {}{}{}\n", name, value, i + 1 < keys.size() ? "," : "",
                           value == fallback ? "" : "  // set in " + visible(config.origin));
    }
    return out + "}\n";
}

}  // namespace runtop
