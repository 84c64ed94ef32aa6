// What every view draws the same way: the "too small" notice, the status line, trend arrows and
// alert badges.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/analyzer.h"
#include "views/actions.h"
#include "views/canvas.h"
#include "views/model.h"

namespace runtop::ui {

// The smallest canvas a view draws into; below it, a notice.
inline constexpr int kMinWidth = 20;
inline constexpr int kMinHeight = 6;
bool too_small(const Canvas& canvas);

// A line of text pieces drawn one after the other (titles, readouts).
struct Piece {
    std::string text;
    Style style;
    int gap = 2;  // columns before it
};
// Draws `pieces` on row y from x, up to column `end`: a piece that does not fit whole ends the
// line (fitted when it is the first, or when 8 columns or more are left). Returns the column
// after the last piece drawn (`end` when one was cut).
int draw_pieces(Canvas& canvas, int x, int y, int end, const std::vector<Piece>& pieces,
                bool ascii);
// The columns `pieces` take drawn whole.
int pieces_width(const std::vector<Piece>& pieces);

// The charts' readout panel at the right of the plot: a rule in column `sep` over rows
// [top, bottom), and lines from column sep + 2 to the edge, each a left text and a right-aligned
// one (the left cut first). `y` is the next line; lines past `bottom` are not drawn.
struct PanelRows {
    PanelRows(Canvas& canvas, int sep, int top, int bottom, bool ascii);
    void line(const std::string& left, Style left_style, const std::string& right,
              Style right_style);
    void gap() { y += y < bottom; }  // an empty line
    Canvas& canvas;
    int x, w, y, bottom;
    bool ascii;
};

// The charts' title piece for log-Y: "log-Y", "log-Y: nothing > 0" when no value is positive,
// and how many values at or below 0 are drawn at the bottom.
std::string log_y_text(bool nothing_positive, std::uint64_t non_positive, bool ascii);
// "too small" and the sizes, centred, each line fitted to the canvas.
void draw_too_small(Canvas& canvas, std::string_view view_name);

// "first: step 7 rank 0 actv/fc1.input:0/norm": the first major incident's root, for the status
// line; "" when there is none.
std::string first_incident_text(const ViewModel& model);

// The bottom row: alert counts (by series state), the first major incident, the filter, runs,
// series, points, roots and files; `right` (the view's own: page, row) right-aligned in at most
// half the row. Segments that do not fit are cut from the end, so the alert counts go last.
void draw_status(Canvas& canvas, const ViewModel& model, std::string_view right);

// How views name series: "r2", or the run (ViewModel::run_label, fitted to run_columns) and rank
// when several runs share the view; a set of series "4 ranks", "rank 3", "2 runs", "2 runs, 8
// series".
std::string series_label(const ViewModel& model, SeriesId id, bool many_runs, int run_columns = 12);
std::string count_text(const ViewModel& model, const std::vector<SeriesId>& ids);

// The arrows, pages and first/last on a table's (row, column) selection, unclamped: up/down a
// row, page up/down `page_rows`, first/last row of `rows`, left/right a column. Returns false
// (nothing moved) for any other action.
bool move_in_table(Action action, int& row, int& column, int rows, int page_rows);

// `g`'s step kept inside [lo, hi]; when it was not, the note's start says so ("step 5000 is
// outside the tag's steps (0-1999): "), else "".
std::string clamp_step(std::int64_t& step, std::int64_t lo, std::int64_t hi,
                       std::string_view whose);

// -1 down, 0 flat, 1 up: ↓→↑, or v-^ when ascii.
char32_t trend_glyph(int direction, bool ascii);
// The direction from `before` to `now`: flat when the change is under 2% of their magnitude or
// either is not finite.
int trend_direction(double before, double now);

// An alert badge: the tier's alert or warn mark in Role::kAlert / kWarn, bold and reversed so it
// reads without colour. Returns the columns drawn (0 for kOk).
int draw_badge(Canvas& canvas, int x, int y, AlertLevel level, GlyphTier tier,
               std::string_view text = {});
int badge_width(AlertLevel level, GlyphTier tier, std::string_view text = {});

}  // namespace runtop::ui
