#include "views/canvas.h"

#include <algorithm>
#include <cstdint>

#include "core/format.h"

namespace runtop::ui {
namespace {

struct Range {
    char32_t lo, hi;
};

// Zero-width code points: combining marks (the blocks that occur in Latin, Greek, Cyrillic,
// Hebrew, Arabic, Indic and Thai text), Hangul medial/final jamo, zero-width spaces and joiners,
// bidi controls, variation selectors. Not the whole of Unicode's Mn/Me/Cf, the part names use.
constexpr Range kZeroWidth[] = {
    {0x00ad, 0x00ad},   {0x0300, 0x036f},   {0x0483, 0x0489},   {0x0591, 0x05bd},
    {0x05bf, 0x05bf},   {0x05c1, 0x05c2},   {0x05c4, 0x05c5},   {0x05c7, 0x05c7},
    {0x0600, 0x0605},   {0x0610, 0x061a},   {0x061c, 0x061c},   {0x064b, 0x065f},
    {0x0670, 0x0670},   {0x06d6, 0x06dd},   {0x06df, 0x06e4},   {0x06e7, 0x06e8},
    {0x06ea, 0x06ed},   {0x070f, 0x070f},   {0x0711, 0x0711},   {0x0730, 0x074a},
    {0x07a6, 0x07b0},   {0x07eb, 0x07f3},   {0x0816, 0x082d},   {0x0859, 0x085b},
    {0x08d3, 0x0902},   {0x093a, 0x093a},   {0x093c, 0x093c},   {0x0941, 0x0948},
    {0x094d, 0x094d},   {0x0951, 0x0957},   {0x0962, 0x0963},   {0x0981, 0x0981},
    {0x09bc, 0x09bc},   {0x09c1, 0x09c4},   {0x09cd, 0x09cd},   {0x09e2, 0x09e3},
    {0x0a01, 0x0a02},   {0x0a3c, 0x0a3c},   {0x0a41, 0x0a51},   {0x0a70, 0x0a71},
    {0x0a81, 0x0a82},   {0x0abc, 0x0abc},   {0x0ac1, 0x0ac8},   {0x0acd, 0x0acd},
    {0x0b01, 0x0b01},   {0x0b3c, 0x0b3c},   {0x0b3f, 0x0b3f},   {0x0b41, 0x0b44},
    {0x0b4d, 0x0b4d},   {0x0bc0, 0x0bc0},   {0x0bcd, 0x0bcd},   {0x0c3e, 0x0c40},
    {0x0c46, 0x0c56},   {0x0cbc, 0x0cbc},   {0x0ccc, 0x0ccd},   {0x0d41, 0x0d44},
    {0x0d4d, 0x0d4d},   {0x0dca, 0x0dca},   {0x0dd2, 0x0dd6},   {0x0e31, 0x0e31},
    {0x0e34, 0x0e3a},   {0x0e47, 0x0e4e},   {0x0eb1, 0x0eb1},   {0x0eb4, 0x0ebc},
    {0x0ec8, 0x0ecd},   {0x0f18, 0x0f19},   {0x0f35, 0x0f35},   {0x0f37, 0x0f37},
    {0x0f39, 0x0f39},   {0x0f71, 0x0f7e},   {0x0f80, 0x0f84},   {0x0f86, 0x0f87},
    {0x0f8d, 0x0fbc},   {0x0fc6, 0x0fc6},   {0x102d, 0x1030},   {0x1032, 0x1037},
    {0x1039, 0x103a},   {0x1058, 0x1059},   {0x1160, 0x11ff},   {0x135d, 0x135f},
    {0x1712, 0x1714},   {0x17b4, 0x17b5},   {0x17b7, 0x17bd},   {0x17c6, 0x17c6},
    {0x17c9, 0x17d3},   {0x180b, 0x180f},   {0x1ab0, 0x1aff},   {0x1dc0, 0x1dff},
    {0x200b, 0x200f},   {0x202a, 0x202e},   {0x2060, 0x2064},   {0x2066, 0x206f},
    {0x20d0, 0x20ff},   {0x2cef, 0x2cf1},   {0x2de0, 0x2dff},   {0x302a, 0x302d},
    {0x3099, 0x309a},   {0xa66f, 0xa672},   {0xa674, 0xa67d},   {0xa69e, 0xa69f},
    {0xa6f0, 0xa6f1},   {0xa8e0, 0xa8f1},   {0xfe00, 0xfe0f},   {0xfe20, 0xfe2f},
    {0xfeff, 0xfeff},   {0xfff9, 0xfffb},   {0x1d167, 0x1d169}, {0x1d173, 0x1d182},
    {0x1d185, 0x1d18b}, {0x1d1aa, 0x1d1ad}, {0x1f3fb, 0x1f3ff}, {0xe0001, 0xe0001},
    {0xe0020, 0xe007f}, {0xe0100, 0xe01ef},
};

// Two columns: East Asian Wide and Fullwidth (Unicode 15): CJK, kana, Hangul syllables,
// fullwidth forms, and the emoji with default emoji presentation.
constexpr Range kWide[] = {
    {0x1100, 0x115f},   {0x231a, 0x231b},   {0x2329, 0x232a},   {0x23e9, 0x23ec},
    {0x23f0, 0x23f0},   {0x23f3, 0x23f3},   {0x25fd, 0x25fe},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267f, 0x267f},   {0x2693, 0x2693},   {0x26a1, 0x26a1},
    {0x26aa, 0x26ab},   {0x26bd, 0x26be},   {0x26c4, 0x26c5},   {0x26ce, 0x26ce},
    {0x26d4, 0x26d4},   {0x26ea, 0x26ea},   {0x26f2, 0x26f3},   {0x26f5, 0x26f5},
    {0x26fa, 0x26fa},   {0x26fd, 0x26fd},   {0x2705, 0x2705},   {0x270a, 0x270b},
    {0x2728, 0x2728},   {0x274c, 0x274c},   {0x274e, 0x274e},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27b0, 0x27b0},   {0x27bf, 0x27bf},
    {0x2b1b, 0x2b1c},   {0x2b50, 0x2b50},   {0x2b55, 0x2b55},   {0x2e80, 0x303e},
    {0x3041, 0x3247},   {0x3250, 0x4dbf},   {0x4e00, 0xa4cf},   {0xa960, 0xa97f},
    {0xac00, 0xd7a3},   {0xf900, 0xfaff},   {0xfe10, 0xfe19},   {0xfe30, 0xfe6f},
    {0xff00, 0xff60},   {0xffe0, 0xffe6},   {0x16fe0, 0x16fe4}, {0x17000, 0x18cd5},
    {0x1b000, 0x1b2fb}, {0x1f004, 0x1f004}, {0x1f0cf, 0x1f0cf}, {0x1f18e, 0x1f18e},
    {0x1f191, 0x1f19a}, {0x1f200, 0x1f202}, {0x1f210, 0x1f23b}, {0x1f240, 0x1f248},
    {0x1f250, 0x1f251}, {0x1f260, 0x1f265}, {0x1f300, 0x1f320}, {0x1f32d, 0x1f335},
    {0x1f337, 0x1f37c}, {0x1f37e, 0x1f393}, {0x1f3a0, 0x1f3ca}, {0x1f3cf, 0x1f3d3},
    {0x1f3e0, 0x1f3f0}, {0x1f3f4, 0x1f3f4}, {0x1f3f8, 0x1f3fa}, {0x1f400, 0x1f43e},
    {0x1f440, 0x1f440}, {0x1f442, 0x1f4fc}, {0x1f4ff, 0x1f53d}, {0x1f54b, 0x1f54e},
    {0x1f550, 0x1f567}, {0x1f57a, 0x1f57a}, {0x1f595, 0x1f596}, {0x1f5a4, 0x1f5a4},
    {0x1f5fb, 0x1f64f}, {0x1f680, 0x1f6c5}, {0x1f6cc, 0x1f6cc}, {0x1f6d0, 0x1f6d2},
    {0x1f6d5, 0x1f6d7}, {0x1f6dc, 0x1f6df}, {0x1f6eb, 0x1f6ec}, {0x1f6f4, 0x1f6fc},
    {0x1f7e0, 0x1f7eb}, {0x1f7f0, 0x1f7f0}, {0x1f90c, 0x1f93a}, {0x1f93c, 0x1f945},
    {0x1f947, 0x1f9ff}, {0x1fa70, 0x1faff}, {0x20000, 0x2fffd}, {0x30000, 0x3fffd},
};

template <std::size_t N>
bool in_table(char32_t cp, const Range (&table)[N]) {
    const Range* end = table + N;
    const Range* it =
        std::upper_bound(table, end, cp, [](char32_t c, const Range& r) { return c < r.lo; });
    return it != table && cp <= (it - 1)->hi;
}

// The next code point of valid UTF-8 (sanitised text always is); advances i.
char32_t next_code_point(std::string_view s, std::size_t& i) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = byte(i);
    if (c < 0x80) {
        ++i;
        return c;
    }
    std::size_t n = (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    char32_t cp = c & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
    for (std::size_t k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (byte(i + k) & 0x3f);
    i += n;
    return cp;
}

// What a single cell may hold: printable, not a surrogate, in range.
char32_t drawable(char32_t ch) {
    if (ch < 0x20 || (ch >= 0x7f && ch < 0xa0) || (ch >= 0xd800 && ch < 0xe000) || ch > 0x10ffff)
        return U'?';
    return ch;
}

const Cell kBlank{};

}  // namespace

Role series_role(int index) {
    int i = index % kSeriesRoles;
    if (i < 0) i += kSeriesRoles;
    return static_cast<Role>(static_cast<int>(Role::kSeries0) + i);
}

Role heat_role(int level) {
    return static_cast<Role>(static_cast<int>(Role::kHeat0) + std::clamp(level, 0, kHeatRoles - 1));
}

int codepoint_width(char32_t cp) {
    if (cp < 0x7f) return cp >= 0x20 ? 1 : 0;
    if (cp < 0xa0) return 0;
    if (cp < 0x300) return cp == 0xad ? 0 : 1;
    if (in_table(cp, kZeroWidth)) return 0;
    if (cp >= 0x1100 && in_table(cp, kWide)) return 2;
    return 1;
}

int display_width(std::string_view utf8) {
    std::string clean = visible(utf8);
    int width = 0;
    for (std::size_t i = 0; i < clean.size();) width += codepoint_width(next_code_point(clean, i));
    return width;
}

std::string fit(std::string_view utf8, int columns, bool ascii) {
    if (columns <= 0) return {};
    std::string clean = visible(utf8);
    int total = 0;
    for (std::size_t i = 0; i < clean.size();) total += codepoint_width(next_code_point(clean, i));
    if (total <= columns) return clean;
    std::string out;
    int used = 0;
    for (std::size_t i = 0; i < clean.size();) {
        std::size_t start = i;
        int w = codepoint_width(next_code_point(clean, i));
        if (used + w > columns - 1) break;
        out.append(clean, start, i - start);
        used += w;
    }
    out += ascii ? "~" : "…";
    return out;
}

Canvas::Canvas(int width, int height) {
    resize(width, height);
}

void Canvas::resize(int width, int height) {
    width_ = std::max(width, 0);
    height_ = std::max(height, 0);
    cells_.assign(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_), Cell{});
}

void Canvas::clear() {
    std::fill(cells_.begin(), cells_.end(), Cell{});
}

void Canvas::copy_rows(const Canvas& src, int from, int rows, int to) {
    if (src.width_ != width_) return;
    for (int i = 0; i < rows; ++i) {
        const int sy = from + i, dy = to + i;
        if (sy < 0 || sy >= src.height_ || dy < 0 || dy >= height_) continue;
        std::copy_n(src.cells_.begin() + static_cast<std::ptrdiff_t>(sy) * width_, width_,
                    cells_.begin() + static_cast<std::ptrdiff_t>(dy) * width_);
    }
}

const Cell& Canvas::at(int x, int y) const {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return kBlank;
    return cells_[static_cast<std::size_t>(y) * width_ + x];
}

Cell& Canvas::cell(int x, int y) {
    return cells_[static_cast<std::size_t>(y) * width_ + x];
}

void Canvas::set(int x, int y, char32_t ch, int w, Style style) {
    // Overwriting half of a wide glyph blanks its other half.
    if (cell(x, y).ch == 0 && x > 0) cell(x - 1, y).ch = U' ';
    if (x + w < width_ && cell(x + w, y).ch == 0) cell(x + w, y).ch = U' ';
    cell(x, y) = Cell{ch, style};
    if (w == 2) cell(x + 1, y) = Cell{0, style};
}

void Canvas::draw(int x, int y, char32_t ch, int w, Style style) {
    if (y < 0 || y >= height_ || x + w <= 0 || x + w > width_) return;
    if (x < 0) {
        set(0, y, U' ', 1, style);  // the right half of a glyph cut by the left edge
        return;
    }
    set(x, y, ch, w, style);
}

void Canvas::put(int x, int y, char32_t ch, Style style) {
    ch = drawable(ch);
    int w = codepoint_width(ch);
    if (w == 0) return;
    draw(x, y, ch, w, style);
}

void Canvas::fill(int x, int y, int w, int h, char32_t ch, Style style) {
    ch = drawable(ch);
    int cw = codepoint_width(ch);
    if (cw == 0) return;
    int x0 = std::max(x, 0), y0 = std::max(y, 0);
    long x1 = std::min<long>(static_cast<long>(x) + w, width_);
    long y1 = std::min<long>(static_cast<long>(y) + h, height_);
    for (int row = y0; row < y1; ++row)
        for (int col = x0; col + cw <= x1; col += cw) draw(col, row, ch, cw, style);
}

int Canvas::text(int x, int y, std::string_view utf8, Style style, int max_width) {
    long end = max_width < 0 ? width_ : std::min<long>(width_, static_cast<long>(x) + max_width);
    if (x >= end) return 0;
    std::string clean = visible(utf8);
    long col = x;
    for (std::size_t i = 0; i < clean.size();) {
        char32_t cp = next_code_point(clean, i);
        int w = codepoint_width(cp);
        if (w == 0) continue;  // a cell holds one code point: combining marks are dropped
        if (col + w > end) break;
        draw(static_cast<int>(col), y, cp, w, style);
        col += w;
    }
    return static_cast<int>(col - x);
}

int Canvas::text_right(int x_end, int y, std::string_view utf8, Style style, int max_width) {
    int limit = max_width < 0 ? std::max(x_end, 0) : std::min(max_width, std::max(x_end, 0));
    std::string clean = visible(utf8);
    // The longest prefix that fits in `limit`.
    int used = 0;
    std::size_t cut = clean.size();
    for (std::size_t i = 0; i < clean.size();) {
        std::size_t start = i;
        int w = codepoint_width(next_code_point(clean, i));
        if (used + w > limit) {
            cut = start;
            break;
        }
        used += w;
    }
    text(x_end - used, y, std::string_view(clean).substr(0, cut), style, used);
    return used;
}

void Canvas::box(int x, int y, int w, int h, Style style, std::string_view title, bool ascii) {
    if (w < 2 || h < 2) return;
    char32_t tl = ascii ? U'+' : U'┌', tr = ascii ? U'+' : U'┐';
    char32_t bl = ascii ? U'+' : U'└', br = ascii ? U'+' : U'┘';
    char32_t hz = ascii ? U'-' : U'─', vt = ascii ? U'|' : U'│';
    put(x, y, tl, style);
    fill(x + 1, y, w - 2, 1, hz, style);
    put(x + w - 1, y, tr, style);
    fill(x, y + 1, 1, h - 2, vt, style);
    fill(x + w - 1, y + 1, 1, h - 2, vt, style);
    put(x, y + h - 1, bl, style);
    fill(x + 1, y + h - 1, w - 2, 1, hz, style);
    put(x + w - 1, y + h - 1, br, style);
    // "┌─ title ─┐": the title from x + 3, a space either side, at least one ─ before the corner.
    int room = w - 5;
    if (title.empty() || room < 1) return;
    Style title_style = style;
    if (style.role == Role::kBorder) title_style.role = Role::kTitle;
    std::string shown = fit(title, room, ascii);
    put(x + 2, y, U' ', style);
    int used = text(x + 3, y, shown, title_style, room);
    put(x + 3 + used, y, U' ', style);
}

std::string Canvas::to_text() const {
    std::string out;
    out.reserve(cells_.size() + height_);
    for (int y = 0; y < height_; ++y) {
        std::size_t row_start = out.size();
        std::size_t keep = row_start;  // the end of the row's last non-space cell
        for (int x = 0; x < width_; ++x) {
            char32_t ch = cells_[static_cast<std::size_t>(y) * width_ + x].ch;
            if (ch == 0) continue;
            append_utf8(out, ch);
            if (ch != U' ') keep = out.size();
        }
        out.resize(keep);
        out += '\n';
    }
    return out;
}

}  // namespace runtop::ui
