#include "views/glyphs.h"

#include <cctype>
#include <string>

namespace runtop::ui {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// "UTF-8", "utf8", "UTF8" (nl_langinfo spells it "UTF-8"; some systems do not).
bool is_utf8(std::string_view codeset) {
    std::string c = lower(codeset);
    return c == "utf-8" || c == "utf8";
}

// The Linux console and VT100-family terminals: no braille or block glyphs to count on.
bool ascii_terminal(std::string_view term) {
    std::string t = lower(term);
    return t == "linux" || t.starts_with("linux-") || t.starts_with("vt") || t == "dumb";
}

}  // namespace

std::string_view glyph_tier_name(GlyphTier tier) {
    switch (tier) {
        case GlyphTier::kBraille:
            return "braille";
        case GlyphTier::kBlocks:
            return "blocks";
        case GlyphTier::kAscii:
            return "ascii";
    }
    return "?";
}

bool parse_glyph_tier(std::string_view name, GlyphTier& tier) {
    std::string n = lower(name);
    if (n == "braille") {
        tier = GlyphTier::kBraille;
    } else if (n == "blocks" || n == "block") {
        tier = GlyphTier::kBlocks;
    } else if (n == "ascii") {
        tier = GlyphTier::kAscii;
    } else {
        return false;
    }
    return true;
}

GlyphTier choose_glyph_tier(bool ascii_flag, std::string_view glyphs_option,
                            std::string_view codeset, std::string_view term) {
    if (ascii_flag) return GlyphTier::kAscii;
    GlyphTier chosen;
    if (parse_glyph_tier(glyphs_option, chosen)) return chosen;
    if (!is_utf8(codeset) || ascii_terminal(term)) return GlyphTier::kAscii;
    return GlyphTier::kBraille;
}

const Marks& marks(GlyphTier tier) {
    static const Marks kUnicode{
        .nan = U'×',
        .alert = U'▲',
        .warn = U'△',
        .restart = U'↺',
        .clipped_up = U'↑',
        .clipped_down = U'↓',
        .ellipsis = U'…',
    };
    static const Marks kAscii{
        .nan = U'!',
        .alert = U'*',
        .warn = U'+',
        .restart = U'R',
        .clipped_up = U'^',
        .clipped_down = U'v',
        .ellipsis = U'~',
    };
    return tier == GlyphTier::kAscii ? kAscii : kUnicode;
}

}  // namespace runtop::ui
