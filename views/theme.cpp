#include "views/theme.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

#include "core/config_home.h"
#include "core/format.h"
#include "core/json/json_value.h"

namespace runtop::ui {
namespace {

constexpr std::string_view kRoleNames[kRoleCount] = {
    "text",    "dim",     "title",   "border",  "accent",  "ok",      "warn",
    "alert",   "status",  "nan",     "series0", "series1", "series2", "series3",
    "series4", "series5", "series6", "series7", "heat0",   "heat1",   "heat2",
    "heat3",   "heat4",   "heat5",   "heat6",   "heat7",   "heat8",   "heat9",
};

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// "#rrggbb" or "#rgb".
bool parse_rgb(std::string_view s, Rgb& out) {
    if (s.empty() || s[0] != '#' || (s.size() != 7 && s.size() != 4)) return false;
    int d[6];
    std::size_t n = s.size() - 1;
    for (std::size_t i = 0; i < n; ++i)
        if ((d[i] = hex_digit(s[i + 1])) < 0) return false;
    auto channel = [&](int i) {
        return static_cast<std::uint8_t>(n == 6 ? d[2 * i] * 16 + d[2 * i + 1] : d[i] * 17);
    };
    out = Rgb{channel(0), channel(1), channel(2)};
    return true;
}

// The value as it appeared, without whitespace, for error messages (never raw control
// characters).
std::string shown(JsonValue v) {
    return visible(compact_json(v.raw()));
}

class ThemeParser {
  public:
    explicit ThemeParser(std::string_view origin) : origin_(visible(origin)) {}

    Result<Theme> parse(const Theme& base, std::string_view text) {
        JsonLimits limits;
        limits.comments = true;
        const JsonParse parsed = parse_json(text, limits);
        if (!parsed) return fail(parsed.error().describe_position());
        const JsonValue doc = parsed.document().root();
        if (!doc.is_object()) return fail("the top level is not an object");
        Theme theme = base;
        theme.name.clear();
        for (const auto& [key, value] : doc.unique_members()) {
            if (key == "name") {
                if (!value.is_string()) return fail("'name' is not a string");
                theme.name = std::string(value.string());
            } else if (key == "description") {
                if (!value.is_string()) return fail("'description' is not a string");
            } else if (key == "roles") {
                if (!value.is_object()) return fail("'roles' is not an object");
                for (const auto& [role, style] : value.unique_members()) {
                    const auto* it = std::find(std::begin(kRoleNames), std::end(kRoleNames), role);
                    if (it == std::end(kRoleNames))
                        return fail(fmt::format("roles.{}: unknown role", visible(role)));
                    int index = static_cast<int>(it - std::begin(kRoleNames));
                    if (auto err = role_style(role, style, base.roles[index], theme.roles[index]))
                        return *err;
                }
            } else {
                return fail(fmt::format("unknown key '{}'", visible(key)));
            }
        }
        return theme;
    }

  private:
    Error fail(std::string_view why) const { return Error{fmt::format("{}: {}", origin_, why)}; }

    std::optional<Error> colour(const std::string& where, JsonValue v, Rgb& out) const {
        if (!v.is_string() || !parse_rgb(v.string(), out))
            return fail(fmt::format("{}: {} is not a colour (#rrggbb)", where, shown(v)));
        return std::nullopt;
    }

    std::optional<Error> role_style(std::string_view role, JsonValue v, const RoleStyle& base,
                                    RoleStyle& out) const {
        std::string where = "roles." + visible(role);
        out = RoleStyle{};
        out.fg = base.fg;
        if (v.is_string()) return colour(where, v, out.fg);
        if (!v.is_object())
            return fail(fmt::format("{}: {} is neither a colour nor an object", where, shown(v)));
        for (const auto& [key, value] : v.unique_members()) {
            std::string at = where + "." + visible(key);
            if (key == "fg") {
                if (auto err = colour(at, value, out.fg)) return err;
            } else if (key == "bg") {
                if (auto err = colour(at, value, out.bg)) return err;
                out.has_bg = true;
            } else if (key == "bold") {
                if (!value.is_bool())
                    return fail(fmt::format("{}: {} is not true or false", at, shown(value)));
                out.bold = value.boolean();
            } else {
                return fail(fmt::format("{}: unknown key", at));
            }
        }
        return std::nullopt;
    }

    std::string origin_;
};

std::string builtin_origin(std::string_view name) {
    return fmt::format("themes/{}.json (built in)", name);
}

const BuiltinTheme* find_builtin(std::string_view name) {
    for (const BuiltinTheme& t : builtin_themes())
        if (t.name == name) return &t;
    return nullptr;
}

// The dark theme, the base every other one is parsed onto. Built-in themes are checked by the
// tests; should dark fail to parse anyway, a plain grey stands in.
const Theme& dark_theme() {
    static const Theme dark = [] {
        Theme plain;
        plain.name = "dark";
        for (RoleStyle& r : plain.roles) r.fg = Rgb{0xc0, 0xc0, 0xc0};
        const BuiltinTheme* t = find_builtin("dark");
        if (!t) return plain;
        Result<Theme> parsed = ThemeParser(builtin_origin("dark")).parse(plain, t->json);
        return parsed ? *parsed : plain;
    }();
    return dark;
}

Result<std::string> read_theme_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error{
            fmt::format("{}: cannot read theme file: {}", visible(path), std::strerror(errno))};
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return Error{fmt::format("{}: cannot read theme file", visible(path))};
    return text.str();
}

Result<Theme> load_file(const std::string& path, std::string_view name) {
    Result<std::string> text = read_theme_file(path);
    if (!text) return text.error();
    Result<Theme> theme = parse_theme(*text, path);
    if (theme && theme->name.empty()) theme->name = std::string(name);
    return theme;
}

bool file_exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

// --- colour arithmetic ---

constexpr int kCubeLevels[6] = {0, 95, 135, 175, 215, 255};

int cube_index(int v) {
    return v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40;
}

int distance(Rgb a, int r, int g, int b) {
    int dr = a.r - r, dg = a.g - g, db = a.b - b;
    return dr * dr + dg * dg + db * db;
}

// xterm's default 30-37 colours.
constexpr Rgb kAnsi8[8] = {{0, 0, 0},   {205, 0, 0},   {0, 205, 0},   {205, 205, 0},
                           {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229}};

struct Sgr {
    std::string text;               // "\x1b[0;...m"
    bool visible_on_space = false;  // background, reverse or underline: shows on a blank
};

void append_colour(std::string& out, Rgb c, ColorTier tier, bool bg) {
    switch (tier) {
        case ColorTier::kNone:
            return;
        case ColorTier::k8:
            fmt::format_to(std::back_inserter(out), ";{}", (bg ? 40 : 30) + to_ansi8(c));
            return;
        case ColorTier::k256:
            fmt::format_to(std::back_inserter(out), ";{};5;{}", bg ? 48 : 38, to_xterm256(c));
            return;
        case ColorTier::kTrue:
            fmt::format_to(std::back_inserter(out), ";{};2;{};{};{}", bg ? 48 : 38, c.r, c.g, c.b);
            return;
    }
}

Sgr sgr_for(const Style& style, const Theme& theme, ColorTier tier) {
    const RoleStyle& role = theme[style.role];
    Sgr sgr;
    sgr.text = "\x1b[0";
    if (style.bold || role.bold) sgr.text += ";1";
    if (style.underline) sgr.text += ";4";
    if (style.reverse) sgr.text += ";7";
    append_colour(sgr.text, role.fg, tier, false);
    if (role.has_bg) append_colour(sgr.text, role.bg, tier, true);
    sgr.text += 'm';
    sgr.visible_on_space = role.has_bg || style.reverse || style.underline;
    return sgr;
}

}  // namespace

std::string_view role_name(Role role) {
    int i = static_cast<int>(role);
    return i >= 0 && i < kRoleCount ? kRoleNames[i] : std::string_view("?");
}

std::string_view color_tier_name(ColorTier tier) {
    switch (tier) {
        case ColorTier::kNone:
            return "none";
        case ColorTier::k8:
            return "8";
        case ColorTier::k256:
            return "256";
        case ColorTier::kTrue:
            return "truecolor";
    }
    return "?";
}

ColorTier choose_color_tier(std::string_view color_option, const char* no_color, const char* term,
                            const char* colorterm, int terminal_colors) {
    std::string option = lower(color_option);
    if (option == "never") return ColorTier::kNone;
    std::string ct = colorterm ? lower(colorterm) : "";
    bool truecolor = ct == "truecolor" || ct == "24bit";
    if (option == "always") {
        if (truecolor) return ColorTier::kTrue;
        if (terminal_colors >= 256 || terminal_colors <= 0) return ColorTier::k256;
        return ColorTier::k8;
    }
    if (no_color && *no_color) return ColorTier::kNone;
    if (!term || !*term || lower(term) == "dumb") return ColorTier::kNone;
    if (truecolor) return ColorTier::kTrue;
    if (terminal_colors >= 256) return ColorTier::k256;
    if (terminal_colors >= 8) return ColorTier::k8;
    return ColorTier::kNone;
}

Result<Theme> parse_theme(std::string_view json_text, std::string_view origin) {
    return ThemeParser(origin).parse(dark_theme(), json_text);
}

std::string user_theme_dir() {
    return user_config_path("themes");
}

Result<Theme> load_theme(std::string_view name) {
    if (name.empty()) name = "dark";
    if (name.find('/') != std::string_view::npos) return load_file(std::string(name), name);
    std::string dir = user_theme_dir();
    std::string user_path = dir.empty() ? "" : fmt::format("{}/{}.json", dir, name);
    if (!user_path.empty() && file_exists(user_path)) return load_file(user_path, name);
    if (const BuiltinTheme* t = find_builtin(name)) {
        Result<Theme> theme = ThemeParser(builtin_origin(name)).parse(dark_theme(), t->json);
        if (theme && theme->name.empty()) theme->name = std::string(name);
        return theme;
    }
    std::string known;
    for (const BuiltinTheme& t : builtin_themes())
        known += fmt::format("{}{}", known.empty() ? "" : ", ", t.name);
    return Error{fmt::format("theme '{}': no such theme (built in: {}; user themes: {})",
                             visible(name), known,
                             user_path.empty() ? "no config dir" : visible(user_path))};
}

int to_xterm256(Rgb c) {
    int r = cube_index(c.r), g = cube_index(c.g), b = cube_index(c.b);
    int cube = 16 + 36 * r + 6 * g + b;
    int cube_dist = distance(c, kCubeLevels[r], kCubeLevels[g], kCubeLevels[b]);
    // The grey ramp: 232 + i is 8 + 10 i, i = 0..23.
    int average = (c.r + c.g + c.b) / 3;
    int i = average < 8 ? 0 : std::min((average - 3) / 10, 23);
    int level = 8 + 10 * i;
    int grey_dist = distance(c, level, level, level);
    return grey_dist < cube_dist ? 232 + i : cube;
}

int to_ansi8(Rgb c) {
    int best = 0, best_dist = distance(c, kAnsi8[0].r, kAnsi8[0].g, kAnsi8[0].b);
    for (int i = 1; i < 8; ++i) {
        int d = distance(c, kAnsi8[i].r, kAnsi8[i].g, kAnsi8[i].b);
        if (d < best_dist) best = i, best_dist = d;
    }
    return best;
}

std::string to_ansi(const Canvas& canvas, const Theme& theme, ColorTier tier) {
    if (tier == ColorTier::kNone) return canvas.to_text();
    std::string out;
    for (int y = 0; y < canvas.height(); ++y) {
        // The last cell that shows: not a space, or a space with a background, reverse or
        // underline.
        int last = -1;
        for (int x = 0; x < canvas.width(); ++x) {
            const Cell& cell = canvas.at(x, y);
            if (cell.ch != U' ' ||
                (cell.style.reverse || cell.style.underline || theme[cell.style.role].has_bg))
                last = x;
        }
        Sgr current;  // empty: nothing set on this row yet
        for (int x = 0; x <= last; ++x) {
            const Cell& cell = canvas.at(x, y);
            if (cell.ch == 0) continue;  // the right half of a wide glyph
            Sgr want = sgr_for(cell.style, theme, tier);
            bool plain_space = cell.ch == U' ' && !want.visible_on_space;
            if (want.text != current.text && !(plain_space && !current.visible_on_space)) {
                out += want.text;
                current = std::move(want);
            }
            append_utf8(out, cell.ch);
        }
        if (!current.text.empty()) out += "\x1b[0m";
        out += '\n';
    }
    return out;
}

}  // namespace runtop::ui
