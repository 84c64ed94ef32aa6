#include "views/theme.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/test_support.h"

namespace runtop::ui {
namespace {

using runtop::testing::make_dirs;
using runtop::testing::TempDir;
using runtop::testing::write_file;

// Sets (or unsets, with nullptr) an environment variable for the life of the object.
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
    ~ScopedEnv() {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

  private:
    const char* name_;
    std::optional<std::string> old_;
};

Role role(int i) {
    return static_cast<Role>(i);
}

// --- tiers ---

TEST(Theme, ChooseColorTier) {
    struct Case {
        const char* option;
        const char* no_color;
        const char* term;
        const char* colorterm;
        int colors;
        ColorTier want;
    };
    const Case cases[] = {
        {"", nullptr, "xterm-256color", nullptr, 256, ColorTier::k256},
        {"auto", nullptr, "xterm-256color", nullptr, 256, ColorTier::k256},
        {"", nullptr, "xterm", nullptr, 8, ColorTier::k8},
        {"", nullptr, "xterm", nullptr, 16, ColorTier::k8},
        {"", nullptr, "vt100", nullptr, 0, ColorTier::kNone},
        {"", nullptr, "xterm", nullptr, 2, ColorTier::kNone},
        {"", nullptr, "xterm-256color", "truecolor", 256, ColorTier::kTrue},
        {"", nullptr, "xterm-256color", "24bit", 256, ColorTier::kTrue},
        {"", nullptr, "xterm-256color", "yes", 256, ColorTier::k256},
        // NO_COLOR: non-empty disables colour, unless --color always.
        {"", "1", "xterm-256color", "truecolor", 256, ColorTier::kNone},
        {"", "", "xterm-256color", nullptr, 256, ColorTier::k256},
        {"always", "1", "xterm-256color", nullptr, 256, ColorTier::k256},
        // TERM=dumb or no TERM: none, unless always.
        {"", nullptr, "dumb", "truecolor", 256, ColorTier::kNone},
        {"", nullptr, nullptr, nullptr, 256, ColorTier::kNone},
        {"always", nullptr, "dumb", nullptr, 0, ColorTier::k256},
        // never wins over everything.
        {"never", nullptr, "xterm-256color", "truecolor", 256, ColorTier::kNone},
        // always: snapshot knows no terminal (0 colours): 256, or truecolor with COLORTERM.
        {"always", nullptr, nullptr, nullptr, 0, ColorTier::k256},
        {"always", nullptr, nullptr, "truecolor", 0, ColorTier::kTrue},
        {"always", nullptr, "xterm", nullptr, 8, ColorTier::k8},
        {"always", nullptr, "xterm", nullptr, 2, ColorTier::k8},
    };
    for (const Case& c : cases)
        EXPECT_EQ(choose_color_tier(c.option, c.no_color, c.term, c.colorterm, c.colors), c.want)
            << "'" << c.option << "' NO_COLOR=" << (c.no_color ? c.no_color : "(unset)")
            << " TERM=" << (c.term ? c.term : "(unset)")
            << " COLORTERM=" << (c.colorterm ? c.colorterm : "(unset)") << " colors=" << c.colors;
    EXPECT_EQ(color_tier_name(ColorTier::kTrue), "truecolor");
    EXPECT_EQ(color_tier_name(ColorTier::kNone), "none");
}

// --- colour mapping ---

TEST(Theme, Xterm256) {
    EXPECT_EQ(to_xterm256({0x00, 0x00, 0x00}), 16);
    EXPECT_EQ(to_xterm256({0xff, 0xff, 0xff}), 231);
    EXPECT_EQ(to_xterm256({0x80, 0x80, 0x80}), 244);
    EXPECT_EQ(to_xterm256({0xff, 0x00, 0x00}), 196);
    EXPECT_EQ(to_xterm256({0x00, 0xff, 0x00}), 46);
    EXPECT_EQ(to_xterm256({0x00, 0x00, 0xff}), 21);
    EXPECT_EQ(to_xterm256({0x5f, 0x87, 0xaf}), 67);  // an exact cube colour
    EXPECT_EQ(to_xterm256({0x08, 0x08, 0x08}), 232);
    EXPECT_EQ(to_xterm256({0xee, 0xee, 0xee}), 255);
    EXPECT_EQ(to_xterm256({0x87, 0x87, 0x87}), 102);  // a cube grey: exact there
    EXPECT_EQ(to_xterm256({0xfe, 0x01, 0x00}), 196);  // nearly red
}

TEST(Theme, Ansi8) {
    EXPECT_EQ(to_ansi8({0, 0, 0}), 0);
    EXPECT_EQ(to_ansi8({0xff, 0, 0}), 1);
    EXPECT_EQ(to_ansi8({0, 0xff, 0}), 2);
    EXPECT_EQ(to_ansi8({0xff, 0xff, 0}), 3);
    EXPECT_EQ(to_ansi8({0, 0, 0xff}), 4);
    EXPECT_EQ(to_ansi8({0xff, 0, 0xff}), 5);
    EXPECT_EQ(to_ansi8({0, 0xff, 0xff}), 6);
    EXPECT_EQ(to_ansi8({0xff, 0xff, 0xff}), 7);
    EXPECT_EQ(to_ansi8({0xc0, 0xc0, 0xc0}), 7);
    EXPECT_EQ(to_ansi8({0x30, 0x30, 0x30}), 0);
}

// --- parsing ---

TEST(Theme, ParseRolesOntoTheDarkTheme) {
    Result<Theme> dark = load_theme("dark");
    ASSERT_TRUE(dark) << dark.error().message;
    Result<Theme> t = parse_theme(R"({
        "name": "mine",
        // comments are allowed
        "roles": {"text": "#102030", "alert": {"fg": "#ABC", "bg": "#000000", "bold": true},
                  "status": {"bold": true}}
    })",
                                  "mine.json");
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->name, "mine");
    EXPECT_EQ((*t)[Role::kText].fg, (Rgb{0x10, 0x20, 0x30}));
    EXPECT_FALSE((*t)[Role::kText].bold);
    EXPECT_EQ((*t)[Role::kAlert].fg, (Rgb{0xaa, 0xbb, 0xcc}));
    EXPECT_TRUE((*t)[Role::kAlert].has_bg);
    EXPECT_EQ((*t)[Role::kAlert].bg, (Rgb{0, 0, 0}));
    EXPECT_TRUE((*t)[Role::kAlert].bold);
    // An object without fg keeps the dark fg, and replaces the rest (dark's status has a bg).
    EXPECT_EQ((*t)[Role::kStatus].fg, (*dark)[Role::kStatus].fg);
    EXPECT_TRUE((*t)[Role::kStatus].bold);
    EXPECT_FALSE((*t)[Role::kStatus].has_bg);
    // Roles not given: dark's.
    for (Role r : {Role::kDim, Role::kSeries3, Role::kHeat9}) {
        EXPECT_EQ((*t)[r].fg, (*dark)[r].fg) << role_name(r);
        EXPECT_EQ((*t)[r].bold, (*dark)[r].bold) << role_name(r);
    }
}

TEST(Theme, ParseErrorsNameTheFileAndKey) {
    struct Case {
        const char* json;
        const char* message;
    };
    const Case cases[] = {
        {"{\"roles\": {\n  \"text\": #fff}}",
         "t.json: not valid JSON (line 2, column 11: expected a value, found '#')"},
        {"[]", "t.json: the top level is not an object"},
        {R"({"colours": {}})", "t.json: unknown key 'colours'"},
        {R"({"name": 3})", "t.json: 'name' is not a string"},
        {R"({"roles": []})", "t.json: 'roles' is not an object"},
        {R"({"roles": {"alarm": "#ff0000"}})", "t.json: roles.alarm: unknown role"},
        {R"({"roles": {"alert": "red"}})",
         "t.json: roles.alert: \"red\" is not a colour (#rrggbb)"},
        {R"({"roles": {"alert": "#ff00"}})",
         "t.json: roles.alert: \"#ff00\" is not a colour (#rrggbb)"},
        {R"({"roles": {"alert": "#gg0000"}})",
         "t.json: roles.alert: \"#gg0000\" is not a colour (#rrggbb)"},
        {R"({"roles": {"ok": 5}})", "t.json: roles.ok: 5 is neither a colour nor an object"},
        {R"({"roles": {"ok": {"fg": [1, 2, 3]}}})",
         "t.json: roles.ok.fg: [1,2,3] is not a colour (#rrggbb)"},
        {R"({"roles": {"ok": {"bg": "#12345"}}})",
         "t.json: roles.ok.bg: \"#12345\" is not a colour (#rrggbb)"},
        {R"({"roles": {"ok": {"bold": "yes"}}})",
         "t.json: roles.ok.bold: \"yes\" is not true or false"},
        {R"({"roles": {"ok": {"italic": true}}})", "t.json: roles.ok.italic: unknown key"},
        {R"({"roles": {"ok\u001b[2J": "#000000"}})", "t.json: roles.ok\\x1b[2J: unknown role"},
    };
    for (const Case& c : cases) {
        Result<Theme> t = parse_theme(c.json, "t.json");
        ASSERT_FALSE(t) << c.json;
        EXPECT_EQ(t.error().message, c.message) << c.json;
    }
}

// --- built-in themes ---

double luminance(Rgb c) {
    auto lin = [](int v) {
        double s = v / 255.0;
        return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

TEST(Theme, BuiltInThemesAreCompleteAndLoad) {
    TempDir config;  // no user themes: the built-in ones
    ScopedEnv xdg("XDG_CONFIG_HOME", config.path().c_str());
    std::set<std::string> names;
    for (const BuiltinTheme& b : builtin_themes()) {
        names.insert(std::string(b.name));
        // Every role spelled out in the file (none inherited from dark by accident).
        nlohmann::json doc = nlohmann::json::parse(b.json, nullptr, true, true);
        for (int i = 0; i < kRoleCount; ++i)
            EXPECT_TRUE(doc["roles"].contains(std::string(role_name(role(i)))))
                << b.name << " lacks " << role_name(role(i));
        Result<Theme> t = load_theme(b.name);
        ASSERT_TRUE(t) << t.error().message;
        EXPECT_EQ(t->name, b.name);
    }
    EXPECT_EQ(names, (std::set<std::string>{"cvd", "dark", "light", "mono"}));
}

TEST(Theme, BuiltInThemesKeepRolesApart) {
    TempDir config;
    ScopedEnv xdg("XDG_CONFIG_HOME", config.path().c_str());
    for (const BuiltinTheme& b : builtin_themes()) {
        Result<Theme> loaded = load_theme(b.name);
        ASSERT_TRUE(loaded) << loaded.error().message;
        const Theme& t = *loaded;
        // Alerts read without colour (bold) and apart from ok in every colour tier.
        EXPECT_TRUE(t[Role::kAlert].bold) << b.name;
        EXPECT_TRUE(t[Role::kTitle].bold) << b.name;
        EXPECT_NE(t[Role::kAlert].fg, t[Role::kOk].fg) << b.name;
        EXPECT_NE(to_xterm256(t[Role::kAlert].fg), to_xterm256(t[Role::kOk].fg)) << b.name;
        EXPECT_TRUE(to_ansi8(t[Role::kAlert].fg) != to_ansi8(t[Role::kOk].fg) ||
                    t[Role::kAlert].bold != t[Role::kOk].bold)
            << b.name;
        EXPECT_NE(t[Role::kText].fg, t[Role::kDim].fg) << b.name;
        // Series: eight distinct colours, in truecolor and in 256.
        std::set<int> xterm;
        std::set<std::tuple<int, int, int>> rgb;
        for (int i = 0; i < kSeriesRoles; ++i) {
            Rgb c = t[series_role(i)].fg;
            rgb.insert({c.r, c.g, c.b});
            xterm.insert(to_xterm256(c));
        }
        EXPECT_EQ(rgb.size(), 8u) << b.name;
        EXPECT_EQ(xterm.size(), 8u) << b.name;
        // The heat ramp is perceptually ordered: its luminance strictly monotonic.
        int direction = 0;
        for (int level = 1; level < kHeatRoles; ++level) {
            double a = luminance(t[heat_role(level - 1)].fg);
            double c = luminance(t[heat_role(level)].fg);
            int d = c > a ? 1 : c < a ? -1 : 0;
            EXPECT_NE(d, 0) << b.name << " heat" << level;
            if (direction == 0) direction = d;
            EXPECT_EQ(d, direction) << b.name << " heat" << level;
        }
    }
    // Greys only in mono.
    Result<Theme> mono = load_theme("mono");
    ASSERT_TRUE(mono);
    for (const RoleStyle& r : mono->roles) {
        EXPECT_TRUE(r.fg.r == r.fg.g && r.fg.g == r.fg.b);
        if (r.has_bg) {
            EXPECT_TRUE(r.bg.r == r.bg.g && r.bg.g == r.bg.b);
        }
    }
}

// --- user themes ---

TEST(Theme, UserThemesFromTheConfigDir) {
    TempDir config;
    ScopedEnv xdg("XDG_CONFIG_HOME", config.path().c_str());
    EXPECT_EQ(user_theme_dir(), config / "runtop/themes");
    make_dirs(config / "runtop/themes");
    write_file(config / "runtop/themes/sunset.json", R"({"roles": {"text": "#112233"}})");
    Result<Theme> t = load_theme("sunset");
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->name, "sunset");
    EXPECT_EQ((*t)[Role::kText].fg, (Rgb{0x11, 0x22, 0x33}));
    // A user file can replace a built-in theme.
    write_file(config / "runtop/themes/dark.json", R"({"name": "my dark"})");
    t = load_theme("dark");
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->name, "my dark");
    // Errors name the user's file.
    write_file(config / "runtop/themes/broken.json", R"({"roles": {"ok": "green"}})");
    t = load_theme("broken");
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error().message, config / "runtop/themes/broken.json" +
                                     ": roles.ok: \"green\" is not a colour (#rrggbb)");
    // A path.
    write_file(config / "elsewhere.json", R"({"roles": {"dim": "#010203"}})");
    t = load_theme(config / "elsewhere.json");
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ((*t)[Role::kDim].fg, (Rgb{1, 2, 3}));
    t = load_theme(config / "missing.json");
    ASSERT_FALSE(t);
    EXPECT_NE(t.error().message.find(config / "missing.json"), std::string::npos);
    // Unknown: the error lists what there is.
    t = load_theme("neon");
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error().message,
              "theme 'neon': no such theme (built in: cvd, dark, light, mono; user themes: " +
                  (config / "runtop/themes/neon.json") + ")");
    // "" is dark.
    t = load_theme("");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->name, "my dark");
}

TEST(Theme, UserThemeDirFallsBackToHome) {
    TempDir home;
    ScopedEnv xdg("XDG_CONFIG_HOME", nullptr);
    ScopedEnv h("HOME", home.path().c_str());
    EXPECT_EQ(user_theme_dir(), home / ".config/runtop/themes");
    make_dirs(home / ".config/runtop/themes");
    write_file(home / ".config/runtop/themes/x.json", R"({"roles": {"ok": "#00ff00"}})");
    Result<Theme> t = load_theme("x");
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ((*t)[Role::kOk].fg, (Rgb{0, 0xff, 0}));
    ScopedEnv empty_xdg("XDG_CONFIG_HOME", "");
    EXPECT_EQ(user_theme_dir(), home / ".config/runtop/themes");
}

// --- ANSI output ---

class ToAnsi : public ::testing::Test {
  protected:
    void SetUp() override {
        Result<Theme> t = parse_theme(R"({"roles": {
            "text": "#c0c0c0",
            "alert": {"fg": "#ff0000", "bold": true},
            "status": {"fg": "#000000", "bg": "#ffffff"}}})",
                                      "test");
        ASSERT_TRUE(t) << t.error().message;
        theme_ = *t;
        // a (text) b (alert)
        // s (status) ' ' (status: a blank with a background still shows)
        canvas_.put(0, 0, U'a');
        canvas_.put(1, 0, U'b', Style{Role::kAlert});
        canvas_.put(0, 1, U's', Style{Role::kStatus});
        canvas_.put(1, 1, U' ', Style{Role::kStatus});
    }
    Theme theme_;
    Canvas canvas_{2, 2};
};

TEST_F(ToAnsi, None) {
    EXPECT_EQ(to_ansi(canvas_, theme_, ColorTier::kNone), "ab\ns\n");
}

TEST_F(ToAnsi, Eight) {
    EXPECT_EQ(to_ansi(canvas_, theme_, ColorTier::k8),
              "\x1b[0;37ma\x1b[0;1;31mb\x1b[0m\n"
              "\x1b[0;30;47ms \x1b[0m\n");
}

TEST_F(ToAnsi, Xterm256) {
    EXPECT_EQ(to_ansi(canvas_, theme_, ColorTier::k256),
              "\x1b[0;38;5;250ma\x1b[0;1;38;5;196mb\x1b[0m\n"
              "\x1b[0;38;5;16;48;5;231ms \x1b[0m\n");
}

TEST_F(ToAnsi, Truecolor) {
    EXPECT_EQ(to_ansi(canvas_, theme_, ColorTier::kTrue),
              "\x1b[0;38;2;192;192;192ma\x1b[0;1;38;2;255;0;0mb\x1b[0m\n"
              "\x1b[0;38;2;0;0;0;48;2;255;255;255ms \x1b[0m\n");
}

TEST_F(ToAnsi, OnlyWhereTheStyleChanges) {
    Canvas c(8, 2);  // the second row stays blank: no SGR at all
    Style alert{Role::kAlert};
    c.text(0, 0, "a", alert);
    c.text(2, 0, "日", alert);  // a plain space between keeps the SGR; a wide glyph is one
    c.put(6, 0, U' ', Style{Role::kText, false, true});  // reverse: a visible blank
    EXPECT_EQ(to_ansi(c, theme_, ColorTier::k256),
              "\x1b[0;1;38;5;196ma 日  \x1b[0;7;38;5;250m \x1b[0m\n\n");
    Canvas u(3, 1);
    u.put(0, 0, U'x', Style{Role::kText, true, false, true});
    EXPECT_EQ(to_ansi(u, theme_, ColorTier::k8), "\x1b[0;1;4;37mx\x1b[0m\n");
}

}  // namespace
}  // namespace runtop::ui
