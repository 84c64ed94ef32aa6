// Glyph tiers (reference/TUI-CRAFT.md §5): braille (2x4 dots a cell, the default in a UTF-8
// locale), blocks (▁▂▃▄▅▆▇█, one sample a cell, the most robust Unicode), ascii (for non-UTF-8
// locales, TERM=linux/vt100, or --ascii). Chosen once at startup; views draw with whatever the
// tier gives them.
#pragma once

#include <string_view>

namespace runtop::ui {

enum class GlyphTier { kBraille, kBlocks, kAscii };
std::string_view glyph_tier_name(GlyphTier tier);  // "braille", "blocks", "ascii"
// --glyphs: "braille", "blocks" (or "block"), "ascii", any case; false for anything else.
bool parse_glyph_tier(std::string_view name, GlyphTier& tier);

// From the --ascii flag, an explicit --glyphs choice ("" when none), the locale's codeset
// (nl_langinfo(CODESET) after setlocale(LC_ALL, "")) and TERM. In that order: --ascii wins, then
// a valid --glyphs (even in a non-UTF-8 locale: the user knows their font), else ascii when the
// codeset is not UTF-8 or TERM is linux*, vt* or dumb, else braille.
GlyphTier choose_glyph_tier(bool ascii_flag, std::string_view glyphs_option,
                            std::string_view codeset, std::string_view term);

// Markers that must read without colour. Unicode tiers: × ▲ △ ↺ ↑ ↓ …; ascii: ! * + R ^ v ~.
struct Marks {
    char32_t nan;    // a NaN/Inf point or column
    char32_t alert;  // an alert badge
    char32_t warn;
    char32_t restart;                   // a restart marker on a chart's x axis
    char32_t clipped_up, clipped_down;  // a point beyond a clipped y range
    char32_t ellipsis;
};
const Marks& marks(GlyphTier tier);

}  // namespace runtop::ui
