// A grid of terminal cells that views draw into, with no terminal attached: the terminal layer
// copies it to ncurses (which diffs it against the screen), `runtop snapshot` prints it as text,
// and golden tests compare that text. Views never touch curses or raw escape sequences.
//
// Text is UTF-8 from untrusted sources (tags, paths, messages): `text()` sanitises it as it
// draws (control characters, DEL and invalid UTF-8 become visible \xNN, as core/format.h's
// `visible()` does) and measures it in terminal columns (wcwidth semantics: wide CJK glyphs take
// two cells, combining marks zero), so a tag can never move the cursor or break the layout.
// Widths come from runtop's own table (codepoint_width), never from the process locale, so
// `runtop snapshot` under LANG=C lays out exactly as a UTF-8 terminal does. A cell holds one code
// point: zero-width ones (combining marks, joiners, bidi controls) are measured as 0 and not
// drawn.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace runtop::ui {

// What a cell means; the theme (views/theme.h) turns roles into colours per colour tier. Views
// name roles, never colours, so every theme and the no-colour tier work unchanged.
enum class Role : std::uint8_t {
    kText,
    kDim,    // secondary text, axes, grid
    kTitle,  // card and panel titles
    kBorder,
    kAccent,  // selection, focused items
    kOk,
    kWarn,
    kAlert,
    kStatus,   // status bar
    kNan,      // NaN / Inf markers
    kSeries0,  // overlaid series (runs or ranks), stable per series: kSeries0 + (i % 8)
    kSeries1,
    kSeries2,
    kSeries3,
    kSeries4,
    kSeries5,
    kSeries6,
    kSeries7,
    kHeat0,  // heatmap ramp, low to high: kHeat0 + level, 0..9
    kHeat1,
    kHeat2,
    kHeat3,
    kHeat4,
    kHeat5,
    kHeat6,
    kHeat7,
    kHeat8,
    kHeat9,
};
inline constexpr int kSeriesRoles = 8;
inline constexpr int kHeatRoles = 10;
Role series_role(int index);  // kSeries0 + index % 8
Role heat_role(int level);    // kHeat0 + clamp(level, 0, 9)

// Attributes survive the no-colour tier: alerts stay visible as bold/reverse.
struct Style {
    Role role = Role::kText;
    bool bold = false;
    bool reverse = false;
    bool underline = false;
    bool operator==(const Style&) const = default;
};

struct Cell {
    char32_t ch = U' ';  // 0: the right half of the wide glyph to its left
    Style style;
    bool operator==(const Cell&) const = default;
};

class Canvas {
  public:
    Canvas(int width, int height);
    int width() const { return width_; }
    int height() const { return height_; }
    void resize(int width, int height);  // and clear
    void clear();                        // spaces in Role::kText

    // Draws sanitised UTF-8 from column x of row y, at most max_width columns (-1: to the edge);
    // a wide glyph that would not fit whole is not drawn (nor anything after it). Returns the
    // columns used, counting any left of column 0 (x plus that is where more text would go),
    // the same whether or not row y is on the canvas. Drawing outside the canvas is clipped,
    // never an error. Overwriting either half of a wide glyph blanks its other half.
    int text(int x, int y, std::string_view utf8, Style style = {}, int max_width = -1);
    // The same, right-aligned so it ends at column x_end (exclusive): the longest prefix that
    // fits in max_width (-1: in the x_end columns left of x_end). Returns its width, so it
    // starts at x_end minus that (even where the canvas clips it).
    int text_right(int x_end, int y, std::string_view utf8, Style style = {}, int max_width = -1);
    // One glyph (a control character, surrogate or 0 becomes '?'; a zero-width one is ignored).
    void put(int x, int y, char32_t ch, Style style = {});
    void fill(int x, int y, int w, int h, char32_t ch, Style style = {});
    // A frame (Unicode box drawing, or +-| when `ascii`), with an optional title on its top edge:
    // "┌─ title ───┐", cut with fit() to w - 5 columns. The title takes Role::kTitle when the frame
    // is drawn in Role::kBorder, else the frame's style (an alert frame's title stays alert).
    // Nothing is drawn below 2x2.
    void box(int x, int y, int w, int h, Style style, std::string_view title = {},
             bool ascii = false);

    // Rows [from, from + rows) of `src`, as they are, onto this canvas from row `to` (a view
    // drawn on a canvas of its own placed inside another). Both must be as wide; rows outside
    // either canvas are skipped. Whole rows, so wide glyphs are never cut.
    void copy_rows(const Canvas& src, int from, int rows, int to);

    const Cell& at(int x, int y) const;  // a blank cell outside the canvas
    // The rows as UTF-8, trailing spaces trimmed, '\n' after each: what snapshot prints and
    // golden tests compare.
    std::string to_text() const;

  private:
    Cell& cell(int x, int y);
    // A glyph of width w at (x, y), inside the canvas; blanks halves of wide glyphs it cuts.
    void set(int x, int y, char32_t ch, int w, Style style);
    // The same, clipped to the canvas.
    void draw(int x, int y, char32_t ch, int w, Style style);

    int width_ = 0, height_ = 0;
    std::vector<Cell> cells_;
};

// Terminal columns of one code point: 0 (controls, combining marks, zero-width), 1, or 2 (East
// Asian Wide and Fullwidth: CJK, Hangul, kana, fullwidth forms, emoji), as wcwidth() in a UTF-8
// locale, from a table of its own.
int codepoint_width(char32_t cp);
// Terminal columns of sanitised UTF-8 (what Canvas::text would use with no limit).
int display_width(std::string_view utf8);
// The longest prefix of sanitised `utf8` that fits in `columns`, with "…" (or "~" when ascii)
// in the last column when it was cut.
std::string fit(std::string_view utf8, int columns, bool ascii = false);

}  // namespace runtop::ui
