// What the detail chart's compare mode reads (views/compare/compare_chart.h): each run's side of
// the tag (one rank's series, or the mean over the run's ranks), walked point by point with core's
// compare cursors, and the pairs of points of the two sides, found exactly as the compare view
// and `runtop diff` find them (core/compare/run_compare.h): by step, or with wall alignment each
// point of A with B's latest point at or before the same time since each run's start. So the first
// divergence the chart marks is the one the compare view lists.
//
// Only full-resolution points are drawn and compared (as core compares them); a rank mean
// starts after the last step any of its ranks folded into buckets.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/compare/compare_cursor.h"
#include "core/compare/compare_pair.h"
#include "core/compare/run_compare.h"
#include "core/store/series.h"
#include "views/detail_state.h"
#include "views/model.h"

namespace runtop::ui {

// One run's side of the tag: core's Side (the series, rank mean or not, the run's start: what
// the pair walk reads) plus what the chart needs to name, colour and start it.
struct CompareSide : compare::Side {
    std::string run;
    std::vector<SeriesId> ids;  // the rank's series, or every selected rank's (as `series`)
    int colour = 0;             // series_role() index: the run's stable colour
    // Where each series' walk starts: compare::start_positions (after the last step any rank
    // folded with a rank mean, else 0).
    std::vector<std::size_t> start;
    bool has_points() const;
};

struct CompareSides {
    CompareSide a, b;
};
// The sides the filter selects (model.group(tag)): `compare.rank` of each run, or with
// `compare.mean` each run's ranks. B's colour moves on when it would look like A's.
CompareSides compare_sides(const ViewModel& model, const std::string& tag,
                           const CompareDetail& compare);

// Where a point sits on a compare chart's x axis, in the axis' unit: its step; milliseconds
// since its run's start (XAxis::kRelative, so that runs line up by relative wall time); or
// milliseconds since the epoch (kWall).
std::int64_t compare_x(XAxis axis, std::int64_t step, double wall, double origin);
// The wall time (seconds) of an x on a time axis; NaN on the step axis.
double compare_wall(XAxis axis, std::int64_t x, double origin);

// One point of a side: a series' point, or the rank mean at a step (the sum of the ranks'
// values over their count, in rank order, and the latest of their walls, as
// compare::MeanCursor has it), with the finite extremes of the ranks there (NaN when none) and
// how many ranks have the step.
struct SidePoint {
    std::int64_t step = 0;
    double wall = 0;
    double value = 0;
    double lo = std::numeric_limits<double>::quiet_NaN();
    double hi = std::numeric_limits<double>::quiet_NaN();
    int ranks = 0;
};

// Walks a side in step order, each series from its position in `pos` (one per series).
class SideCursor {
  public:
    SideCursor(const CompareSide& side, const std::vector<std::size_t>& pos);
    SideCursor(const SideCursor&) = delete;
    SideCursor& operator=(const SideCursor&) = delete;
    bool has() const { return valid_; }
    const SidePoint& point() const { return point_; }
    void next();

  private:
    void settle();
    std::vector<compare::SeriesCursor> ranks_;
    bool valid_ = false;
    SidePoint point_;
};

// Per series of the side, the index of its first point at or after `step` (never before the
// side's start).
std::vector<std::size_t> positions_from_step(const CompareSide& side, std::int64_t step);
// The same for the first point whose x on `axis` is at least `x`.
std::vector<std::size_t> positions_from_x(const CompareSide& side, XAxis axis, std::int64_t x);
// Each position moved back by `n` points (not before the side's start).
void back_off(const CompareSide& side, std::vector<std::size_t>& pos, std::size_t n);

// The side's point at exactly `step`, if it has one.
std::optional<SidePoint> side_point_at(const CompareSide& side, std::int64_t step);
// The side's point at `step`, else its last one before it.
std::optional<SidePoint> side_point_at_or_before(const CompareSide& side, std::int64_t step);
// The side's point nearest `x` on `axis` (ties: the earlier).
std::optional<SidePoint> side_point_nearest(const CompareSide& side, XAxis axis, std::int64_t x);
// The x range of the side's points on `axis`.
std::optional<std::pair<std::int64_t, std::int64_t>> side_x_range(const CompareSide& side,
                                                                  XAxis axis);

// One pair: a point of A and the point of B it is compared with.
struct ComparePair {
    SidePoint a, b;
};

// Calls visit(pair) for each pair in A's step order, as core pairs them under `align` (by
// step; or each point of A with B's latest point at or before A's time since its start, within
// B's time range). Stops when visit returns false.
template <class Visit>
void walk_pairs(const CompareSide& a, const CompareSide& b, CompareAlign align, Visit&& visit) {
    SideCursor ca(a, a.start), cb(b, b.start);
    if (align == CompareAlign::kStep) {
        while (ca.has() && cb.has()) {
            const std::int64_t sa = ca.point().step, sb = cb.point().step;
            if (sa < sb) {
                ca.next();
            } else if (sb < sa) {
                cb.next();
            } else {
                if (!visit(ComparePair{ca.point(), cb.point()})) return;
                ca.next();
                cb.next();
            }
        }
        return;
    }
    bool candidate = false;
    SidePoint held;
    while (ca.has()) {
        const double ta = ca.point().wall - a.origin;
        if (cb.has() && cb.point().wall - b.origin <= ta) {
            candidate = true;
            held = cb.point();
            cb.next();
            continue;
        }
        if (!candidate) {
            if (!cb.has()) return;
            ca.next();
            continue;
        }
        if (!cb.has() && ta > held.wall - b.origin) return;  // past B's last point
        if (!visit(ComparePair{ca.point(), held})) return;
        ca.next();
    }
}

}  // namespace runtop::ui
