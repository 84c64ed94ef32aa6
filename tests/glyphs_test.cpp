#include "views/glyphs.h"

#include <gtest/gtest.h>

#include "views/canvas.h"

namespace runtop::ui {
namespace {

TEST(Glyphs, ChooseGlyphTier) {
    struct Case {
        bool ascii_flag;
        const char* glyphs;
        const char* codeset;
        const char* term;
        GlyphTier want;
    };
    const Case cases[] = {
        {false, "", "UTF-8", "xterm-256color", GlyphTier::kBraille},
        {false, "", "utf8", "screen", GlyphTier::kBraille},
        {false, "", "ANSI_X3.4-1968", "xterm-256color", GlyphTier::kAscii},  // LANG=C
        {false, "", "ISO-8859-1", "xterm", GlyphTier::kAscii},
        {false, "", "", "xterm", GlyphTier::kAscii},
        {false, "", "UTF-8", "linux", GlyphTier::kAscii},
        {false, "", "UTF-8", "linux-16color", GlyphTier::kAscii},
        {false, "", "UTF-8", "vt100", GlyphTier::kAscii},
        {false, "", "UTF-8", "vt220", GlyphTier::kAscii},
        {false, "", "UTF-8", "dumb", GlyphTier::kAscii},
        {false, "", "UTF-8", "", GlyphTier::kBraille},
        // An explicit --glyphs wins over the locale and TERM...
        {false, "blocks", "UTF-8", "xterm", GlyphTier::kBlocks},
        {false, "block", "UTF-8", "xterm", GlyphTier::kBlocks},
        {false, "BRAILLE", "ANSI_X3.4-1968", "linux", GlyphTier::kBraille},
        {false, "ascii", "UTF-8", "xterm", GlyphTier::kAscii},
        {false, "bogus", "UTF-8", "xterm", GlyphTier::kBraille},  // invalid: as if absent
        // ...and --ascii over everything.
        {true, "braille", "UTF-8", "xterm", GlyphTier::kAscii},
        {true, "", "UTF-8", "xterm", GlyphTier::kAscii},
    };
    for (const Case& c : cases)
        EXPECT_EQ(choose_glyph_tier(c.ascii_flag, c.glyphs, c.codeset, c.term), c.want)
            << c.ascii_flag << " '" << c.glyphs << "' " << c.codeset << " " << c.term;
}

TEST(Glyphs, Names) {
    for (GlyphTier t : {GlyphTier::kBraille, GlyphTier::kBlocks, GlyphTier::kAscii}) {
        GlyphTier parsed;
        ASSERT_TRUE(parse_glyph_tier(glyph_tier_name(t), parsed));
        EXPECT_EQ(parsed, t);
    }
    EXPECT_EQ(glyph_tier_name(GlyphTier::kBlocks), "blocks");
    GlyphTier parsed;
    EXPECT_FALSE(parse_glyph_tier("", parsed));
    EXPECT_FALSE(parse_glyph_tier("unicode", parsed));
}

TEST(Glyphs, AsciiMarksAreAsciiAndDistinct) {
    const Marks& m = marks(GlyphTier::kAscii);
    char32_t all[] = {m.nan, m.alert, m.warn, m.restart, m.clipped_up, m.clipped_down, m.ellipsis};
    for (std::size_t i = 0; i < std::size(all); ++i) {
        EXPECT_GE(all[i], 0x21u);
        EXPECT_LT(all[i], 0x7fu);
        for (std::size_t j = 0; j < i; ++j) EXPECT_NE(all[i], all[j]);
    }
    EXPECT_EQ(m.nan, U'!');
    EXPECT_EQ(m.ellipsis, U'~');
}

TEST(Glyphs, UnicodeMarksAreOneColumnAndDistinct) {
    for (GlyphTier tier : {GlyphTier::kBraille, GlyphTier::kBlocks}) {
        const Marks& m = marks(tier);
        char32_t all[] = {m.nan,        m.alert,        m.warn,    m.restart,
                          m.clipped_up, m.clipped_down, m.ellipsis};
        for (std::size_t i = 0; i < std::size(all); ++i) {
            EXPECT_EQ(codepoint_width(all[i]), 1);
            for (std::size_t j = 0; j < i; ++j) EXPECT_NE(all[i], all[j]);
        }
        EXPECT_EQ(m.nan, U'×');
        EXPECT_EQ(m.ellipsis, U'…');
    }
}

}  // namespace
}  // namespace runtop::ui
