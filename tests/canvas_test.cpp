#include "views/canvas.h"

#include <gtest/gtest.h>

#include <clocale>
#include <string>

namespace runtop::ui {
namespace {

// The rows of a canvas as to_text() gives them, without the '\n's.
std::string row(const Canvas& c, int y) {
    std::string text = c.to_text();
    std::size_t start = 0;
    for (int i = 0; i < y; ++i) start = text.find('\n', start) + 1;
    return text.substr(start, text.find('\n', start) - start);
}

TEST(Canvas, StartsBlankAndTrimsTrailingSpaces) {
    Canvas c(5, 3);
    EXPECT_EQ(c.to_text(), "\n\n\n");
    c.text(1, 1, "ab");
    EXPECT_EQ(c.to_text(), "\n ab\n\n");
    c.put(4, 2, U'x');
    EXPECT_EQ(c.to_text(), "\n ab\n    x\n");
    c.clear();
    EXPECT_EQ(c.to_text(), "\n\n\n");
    EXPECT_EQ(c.at(1, 1), Cell{});
}

TEST(Canvas, TextIsClippedAtEveryEdge) {
    Canvas c(6, 2);
    EXPECT_EQ(c.text(3, 0, "abcdef"), 3);
    EXPECT_EQ(row(c, 0), "   abc");
    EXPECT_EQ(c.text(-2, 1, "wxyz"), 4);  // columns -2 and -1 are off the canvas: x + 4 follows
    EXPECT_EQ(row(c, 1), "yz");
    EXPECT_EQ(c.text(0, 5, "off"), 3);  // the same columns, on no row
    EXPECT_EQ(c.text(0, -1, "off"), 3);
    EXPECT_EQ(c.text(6, 0, "x"), 0);
    EXPECT_EQ(c.text(100, 0, "x"), 0);
    EXPECT_EQ(c.text(0, 1, "0123", {}, 2), 2);
    EXPECT_EQ(row(c, 1), "01");
    EXPECT_EQ(c.text(0, 1, "x", {}, 0), 0);
    EXPECT_EQ(c.to_text(), "   abc\n01\n");
}

TEST(Canvas, TextKeepsStyles) {
    Canvas c(4, 1);
    Style alert{Role::kAlert, true};
    c.text(1, 0, "ab", alert);
    EXPECT_EQ(c.at(0, 0).style, Style{});
    EXPECT_EQ(c.at(1, 0), (Cell{U'a', alert}));
    EXPECT_EQ(c.at(2, 0), (Cell{U'b', alert}));
    EXPECT_EQ(c.at(-1, 0), Cell{});  // outside: a blank cell, not a crash
    EXPECT_EQ(c.at(4, 0), Cell{});
}

TEST(Canvas, WideGlyphsTakeTwoCells) {
    Canvas c(6, 1);
    EXPECT_EQ(c.text(0, 0, "日本x"), 5);
    EXPECT_EQ(c.at(0, 0).ch, U'日');
    EXPECT_EQ(c.at(1, 0).ch, 0u);
    EXPECT_EQ(c.at(2, 0).ch, U'本');
    EXPECT_EQ(c.at(3, 0).ch, 0u);
    EXPECT_EQ(c.at(4, 0).ch, U'x');
    EXPECT_EQ(c.to_text(), "日本x\n");
}

TEST(Canvas, WideGlyphThatDoesNotFitIsNotDrawn) {
    Canvas c(5, 2);
    EXPECT_EQ(c.text(0, 0, "ab日本"), 4);  // 本 would need columns 4 and 5
    EXPECT_EQ(row(c, 0), "ab日");
    EXPECT_EQ(c.at(4, 0).ch, U' ');
    EXPECT_EQ(c.text(0, 1, "日本", {}, 3), 2);  // nor past max_width
    EXPECT_EQ(row(c, 1), "日");
    c.put(4, 1, U'本');  // put follows the same rule
    EXPECT_EQ(c.at(4, 1).ch, U' ');
}

TEST(Canvas, OverwritingHalfAWideGlyphClearsTheOtherHalf) {
    Canvas c(6, 1);
    c.text(0, 0, "日本語");
    c.put(1, 0, U'x');  // the right half of 日
    EXPECT_EQ(c.at(0, 0).ch, U' ');
    EXPECT_EQ(c.at(1, 0).ch, U'x');
    c.put(2, 0, U'y');  // the left half of 本
    EXPECT_EQ(c.at(3, 0).ch, U' ');
    EXPECT_EQ(c.to_text(), " xy 語\n");
    c.text(3, 0, "中");  // a wide glyph over the right half of another
    EXPECT_EQ(c.to_text(), " xy中\n");
    EXPECT_EQ(c.at(5, 0).ch, U' ');
    // A wide glyph cut by the left edge leaves a blank, not half a glyph.
    Canvas d(3, 1);
    d.text(0, 0, "abc");
    EXPECT_EQ(d.text(-1, 0, "日x"), 3);
    EXPECT_EQ(d.to_text(), " xc\n");
}

TEST(Canvas, CombiningMarksAreZeroWidthAndNotDrawn) {
    EXPECT_EQ(display_width("e\xcc\x81"), 1);  // e + U+0301
    EXPECT_EQ(display_width("a\xe2\x80\x8b"
                            "b"),
              2);  // a ZERO WIDTH SPACE b
    EXPECT_EQ(display_width("\xe2\x80\xae"
                            "abc"),
              3);  // RIGHT-TO-LEFT OVERRIDE never reaches the terminal
    Canvas c(4, 1);
    EXPECT_EQ(c.text(0, 0,
                     "e\xcc\x81\xe2\x80\xae"
                     "f"),
              2);
    EXPECT_EQ(c.to_text(), "ef\n");
}

TEST(Canvas, WidthsDoNotDependOnTheLocale) {
    const char* samples[] = {"日本語", "한국어", "ＡＢＣ", "😀", "naïve", "e\xcc\x81", "αβγ", "█▁⣿"};
    int expected[] = {6, 6, 6, 2, 5, 1, 3, 3};
    std::string saved = std::setlocale(LC_ALL, nullptr);
    for (const char* locale : {"C", "C.UTF-8"}) {
        std::setlocale(LC_ALL, locale);
        for (std::size_t i = 0; i < std::size(samples); ++i)
            EXPECT_EQ(display_width(samples[i]), expected[i]) << samples[i] << " in " << locale;
    }
    std::setlocale(LC_ALL, saved.c_str());
}

TEST(Canvas, CodepointWidths) {
    EXPECT_EQ(codepoint_width(U'a'), 1);
    EXPECT_EQ(codepoint_width(0x1b), 0);
    EXPECT_EQ(codepoint_width(0x9b), 0);
    EXPECT_EQ(codepoint_width(0x0301), 0);
    EXPECT_EQ(codepoint_width(0x036f), 0);
    EXPECT_EQ(codepoint_width(0x0370), 1);
    EXPECT_EQ(codepoint_width(0x4e00), 2);
    EXPECT_EQ(codepoint_width(0xac00), 2);  // Hangul syllable
    EXPECT_EQ(codepoint_width(0x1160), 0);  // Hangul medial jamo
    EXPECT_EQ(codepoint_width(0xff21), 2);  // fullwidth A
    EXPECT_EQ(codepoint_width(0xff61), 1);  // halfwidth katakana
    EXPECT_EQ(codepoint_width(0x1f600), 2);
    EXPECT_EQ(codepoint_width(0x20000), 2);
    EXPECT_EQ(codepoint_width(0x2581), 1);  // ▁
    EXPECT_EQ(codepoint_width(0x28ff), 1);  // braille
    EXPECT_EQ(codepoint_width(0x2500), 1);  // ─
}

TEST(Canvas, EscapeSequencesNeverReachTheText) {
    // A tag written by something hostile or broken: clear screen, bell, carriage return, a
    // one-byte CSI, DEL and invalid UTF-8.
    std::string tag =
        "loss\x1b[2J\x07\rX\xc2\x9b"
        "31m\x7f\xff\xc3(end";
    Canvas c(80, 1);
    int used = c.text(0, 0, tag);
    std::string text = c.to_text();
    for (char ch : text) {
        auto b = static_cast<unsigned char>(ch);
        EXPECT_TRUE(b == '\n' || (b >= 0x20 && b < 0x7f)) << "raw byte " << int(b);
    }
    EXPECT_EQ(text, "loss\\x1b[2J\\x07\\x0dX\\xc2\\x9b31m\\x7f\\xff\\xc3(end\n");
    EXPECT_EQ(used, display_width(tag));
    EXPECT_EQ(used, static_cast<int>(text.size()) - 1);
    // put() cannot place a control character either.
    c.put(0, 0, 0x1b);
    c.put(1, 0, 0);
    c.put(2, 0, 0x9b);
    EXPECT_EQ(c.to_text().substr(0, 3), "???");
}

TEST(Canvas, TextRight) {
    Canvas c(8, 3);
    EXPECT_EQ(c.text_right(8, 0, "abc"), 3);
    EXPECT_EQ(row(c, 0), "     abc");
    EXPECT_EQ(c.text_right(5, 1, "日x"), 3);
    EXPECT_EQ(row(c, 1), "  日x");
    // Too long: the prefix that fits, still ending at x_end.
    EXPECT_EQ(c.text_right(8, 2, "abcdefgh", {}, 3), 3);
    EXPECT_EQ(row(c, 2), "     abc");
    EXPECT_EQ(c.text_right(2, 2, "wxyz"), 2);  // only the 2 columns left of x_end
    EXPECT_EQ(row(c, 2), "wx   abc");
    // Past the right edge: clipped there.
    Canvas d(4, 1);
    EXPECT_EQ(d.text_right(6, 0, "abcd"), 4);
    EXPECT_EQ(d.to_text(), "  ab\n");
}

TEST(Canvas, FillAndPut) {
    Canvas c(5, 3);
    c.fill(1, 0, 3, 2, U'#', Style{Role::kDim});
    c.fill(-2, 2, 100, 5, U'=');
    EXPECT_EQ(c.to_text(), " ###\n ###\n=====\n");
    EXPECT_EQ(c.at(2, 1).style.role, Role::kDim);
    c.fill(0, 0, 5, 1, U'日');  // a wide fill steps by two; the odd column stays
    EXPECT_EQ(row(c, 0), "日日");
    c.put(-1, 0, U'x');
    c.put(0, 7, U'x');
    c.put(0, 1, 0x0301);  // zero width: nothing
    EXPECT_EQ(row(c, 1), " ###");
}

TEST(Canvas, BoxUnicodeAndAscii) {
    Canvas c(12, 4);
    c.box(0, 0, 12, 4, Style{Role::kBorder}, "loss");
    EXPECT_EQ(c.to_text(),
              "┌─ loss ───┐\n"
              "│          │\n"
              "│          │\n"
              "└──────────┘\n");
    EXPECT_EQ(c.at(0, 0).style.role, Role::kBorder);
    EXPECT_EQ(c.at(3, 0).style.role, Role::kTitle);  // the title of a plain frame
    Canvas a(10, 3);
    a.box(0, 0, 10, 3, Style{Role::kAlert, true}, "grad_norm", true);
    EXPECT_EQ(a.to_text(),
              "+- grad~ +\n"
              "|        |\n"
              "+--------+\n");
    EXPECT_EQ(a.at(3, 0).style, (Style{Role::kAlert, true}));  // an alert frame's title
}

TEST(Canvas, BoxEdgeCases) {
    Canvas c(6, 3);
    c.box(0, 0, 1, 3, Style{});  // too small: nothing
    EXPECT_EQ(c.to_text(), "\n\n\n");
    c.box(0, 0, 5, 2, Style{}, "title");  // no room for a title: the frame alone
    EXPECT_EQ(c.to_text(), "┌───┐\n└───┘\n\n");
    c.clear();
    c.box(3, 1, 6, 4, Style{}, "", true);  // clipped at the right and bottom
    EXPECT_EQ(c.to_text(), "\n   +--\n   |\n");
    c.clear();
    c.box(0, 0, 6, 3, Style{}, "日本語");  // a wide title cut with an ellipsis
    EXPECT_EQ(row(c, 0), "┌─ … ┐");
}

TEST(Canvas, Fit) {
    EXPECT_EQ(fit("abcdef", 10), "abcdef");
    EXPECT_EQ(fit("abcdef", 6), "abcdef");
    EXPECT_EQ(fit("abcdef", 5), "abcd…");
    EXPECT_EQ(fit("abcdef", 5, true), "abcd~");
    EXPECT_EQ(fit("abcdef", 1), "…");
    EXPECT_EQ(fit("abcdef", 0), "");
    EXPECT_EQ(fit("abcdef", -3), "");
    EXPECT_EQ(fit("日本語", 5), "日本…");
    EXPECT_EQ(fit("日本語", 4), "日…");  // 日本 would leave no room for the ellipsis
    EXPECT_EQ(display_width(fit("日本語", 4)), 3);
    EXPECT_EQ(fit("a\x1b[2Jb", 20), "a\\x1b[2Jb");  // sanitised, then measured
    EXPECT_EQ(fit("a\x1b[2Jb", 4), "a\\x…");
    for (int n = 0; n < 12; ++n) EXPECT_LE(display_width(fit("日本語テキスト", n)), n);
}

TEST(Canvas, ResizeClears) {
    Canvas c(3, 1);
    c.text(0, 0, "abc");
    c.resize(2, 2);
    EXPECT_EQ(c.width(), 2);
    EXPECT_EQ(c.height(), 2);
    EXPECT_EQ(c.to_text(), "\n\n");
    c.resize(-1, 4);
    EXPECT_EQ(c.width(), 0);
    EXPECT_EQ(c.text(0, 0, "x"), 0);
    EXPECT_EQ(c.to_text(), "\n\n\n\n");
}

TEST(Canvas, Roles) {
    EXPECT_EQ(series_role(0), Role::kSeries0);
    EXPECT_EQ(series_role(7), Role::kSeries7);
    EXPECT_EQ(series_role(9), Role::kSeries1);
    EXPECT_EQ(series_role(-1), Role::kSeries7);
    EXPECT_EQ(heat_role(-3), Role::kHeat0);
    EXPECT_EQ(heat_role(4), Role::kHeat4);
    EXPECT_EQ(heat_role(12), Role::kHeat9);
}

}  // namespace
}  // namespace runtop::ui
