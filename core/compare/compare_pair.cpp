#include "core/compare/compare_pair.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/compare/compare_cursor.h"

namespace runtop::compare {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::uint64_t folded_points(const Series& s) {
    return s.count() - s.retained();
}

// One pair of points: A's (at `step`, `time` since A's start) and B's.
inline void record(Walk& w, std::int64_t step, double time, double va, double vb,
                   const CompareOptions& options) {
    ++w.common;
    // Equal values are the common case (runs that have not diverged): skip the division.
    const double rel = va == vb ? 0.0 : relative_difference(va, vb);
    w.max_relative_difference = std::max(w.max_relative_difference, rel);
    if (!w.first_divergence && rel > options.tolerance) {
        w.first_divergence = step;
        if (options.align == CompareAlign::kRelativeWall) w.first_divergence_time = time;
    }
    w.last_common_step = step;
    w.a = va;
    w.b = vb;
}

// Step alignment: a merge of the two step-ordered walks. Stops when either side has no point
// on offer: its next point may still pair with the other's.
template <class Cursor>
void walk_steps(Cursor& a, Cursor& b, Walk& w, const CompareOptions& options) {
    while (a.has() && b.has()) {
        const std::int64_t sa = a.step(), sb = b.step();
        if (sa < sb) {
            a.next();
        } else if (sb < sa) {
            b.next();
        } else {
            record(w, sa, 0, a.value(), b.value(), options);
            a.next();
            b.next();
        }
    }
}

// Relative wall alignment: each point of A with B's latest point at or before its time,
// between B's first and last points' times. B's points at or before A's current time are
// taken into the candidate one by one, so that the walk can stop anywhere and resume. With
// `final_only` it stops wherever B's next point is not on offer: a point B has yet to receive
// (or its last, still replaceable) may be at or before A's time.
template <class Cursor>
void walk_walls(Cursor& a, Cursor& b, double origin_a, double origin_b, bool final_only, Walk& w,
                const CompareOptions& options) {
    while (a.has()) {
        const double ta = a.wall() - origin_a;
        if (b.has() && b.wall() - origin_b <= ta) {
            w.candidate = true;
            w.candidate_step = b.step();
            w.candidate_time = b.wall() - origin_b;
            w.candidate_value = b.value();
            b.next();
            continue;
        }
        if (!w.candidate) {
            if (!b.has()) return;  // B has nothing to go by yet
            a.next();              // A's point is before B's first
            continue;
        }
        // Every point of B is at or before A's time: past B's last point, A waits for more.
        if (!b.has() && (final_only || ta > w.candidate_time)) return;
        record(w, a.step(), ta, a.value(), w.candidate_value, options);
        a.next();
    }
}

template <class Cursor>
void walk(Cursor& a, Cursor& b, const Side& sa, const Side& sb, bool final_only, Walk& w,
          const CompareOptions& options) {
    a.set_final_only(final_only);
    b.set_final_only(final_only);
    if (options.align == CompareAlign::kStep)
        walk_steps(a, b, w, options);
    else
        walk_walls(a, b, sa.origin, sb.origin, final_only, w, options);
}

void save(const SeriesCursor& c, std::vector<std::size_t>& pos, Smoothing& smooth) {
    pos.assign(1, c.pos());
    if (c.ema()) smooth.walk.assign(1, *c.ema());
}
void save(const MeanCursor& c, std::vector<std::size_t>& pos, Smoothing& smooth) {
    c.positions(pos);
    c.smoothers(smooth.walk);
}

// The final part into `progress`, then the rest on a copy.
template <class Cursor>
Walk walk_pair(Cursor& a, Cursor& b, const Side& sa, const Side& sb, const CompareOptions& options,
               Progress& progress) {
    walk(a, b, sa, sb, true, progress.walk, options);
    save(a, progress.pos_a, progress.smooth_a);
    save(b, progress.pos_b, progress.smooth_b);
    Walk all = progress.walk;
    walk(a, b, sa, sb, false, all, options);
    return all;
}

// Steps below it are final in a rank mean: every rank with points has a later one.
std::int64_t final_below(const Side& side) {
    std::int64_t below = std::numeric_limits<std::int64_t>::max();
    for (const Series* s : side.series)
        if (!s->empty()) below = std::min(below, s->last_step());
    return below;
}

// The newest point of a side: a series' last, or the mean of the ranks at the highest last step.
// `smoothed`: each series' newest value smoothed (newest_smoothed), to take instead of its last
// point's value; nullptr without smoothing.
std::optional<Point> last_point(const Side& side, const std::vector<double>* smoothed) {
    auto value = [&](std::size_t r) {
        return smoothed ? (*smoothed)[r] : side.series[r]->back().value;
    };
    std::optional<Point> last;
    if (!side.mean) {
        if (side.series[0]->empty()) return last;
        last = side.series[0]->back();
        last->value = value(0);
        return last;
    }
    for (const Series* s : side.series)
        if (!s->empty() && (!last || s->last_step() > last->step)) last = Point{s->last_step()};
    if (!last) return last;
    double sum = 0;
    std::size_t count = 0;
    for (std::size_t r = 0; r < side.series.size(); ++r) {
        const Series* s = side.series[r];
        if (s->empty() || s->last_step() != last->step) continue;
        const double v = value(r);
        sum = count == 0 ? v : sum + v;
        ++count;
    }
    last->value = sum / static_cast<double>(count);
    return last;
}

// Each series' value at its last point, smoothed over the points from where the pair walk
// starts (NaN when it walks none); the tail smoothers keep what no later write can change.
std::vector<double> newest_smoothed(const Side& side, Smoothing& smooth) {
    std::vector<double> out;
    for (std::size_t r = 0; r < side.series.size(); ++r) {
        SeriesCursor c(*side.series[r], smooth.tail_pos[r], false, &smooth.tail[r]);
        c.set_final_only(true);
        while (c.has()) c.next();
        smooth.tail_pos[r] = c.pos();
        smooth.tail[r] = *c.ema();
        c.set_final_only(false);
        out.push_back(c.has() ? c.value() : kNaN);
    }
    return out;
}

}  // namespace

std::optional<double> first_wall(const Series& series) {
    if (!series.segments().empty()) return series.segments().front().first_wall;
    if (series.retained() > 0) return series.point(0).wall_time;
    return std::nullopt;
}

namespace {

// The last step any rank of a mean side folded: the mean is walked only after it (see
// run_compare.h). It moves only when a rank folds or restarts, and either starts the pair over.
std::optional<std::int64_t> folded_until(const Side& side) {
    std::optional<std::int64_t> until;
    for (const Series* s : side.series) {
        if (folded_points(*s) == 0 || s->buckets().empty()) continue;
        const std::int64_t last = s->buckets().back().last_step;
        if (!until || last > *until) until = last;
    }
    return until;
}

// Moves each rank's position past its points at or before `until`. Only a position whose point
// is at or before it moves, so a resumed walk pays one point per rank.
void skip_to_after(const Side& side, std::int64_t until, std::vector<std::size_t>& pos) {
    for (std::size_t r = 0; r < side.series.size(); ++r) {
        const Series& s = *side.series[r];
        std::size_t lo = pos[r], hi = s.retained();
        if (lo >= hi || s.point(lo).step > until) continue;
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (s.point(mid).step <= until)
                lo = mid + 1;
            else
                hi = mid;
        }
        pos[r] = lo;
    }
}

// A mean side's positions past its folded steps, on every walk, not only a fresh one: a rank
// that lags behind another rank's fold (it restarted, or logs late) can still gain points at or
// before the folded step. They only grow its series, so the pair resumes; a fresh walk leaves
// them out with the rest of the folded steps, and so must the resumed one, or the two disagree
// (the Store near its memory floor folds often enough for this to be common).
void skip_folded(const Side& side, std::vector<std::size_t>& pos) {
    if (!side.mean) return;
    if (const std::optional<std::int64_t> until = folded_until(side))
        skip_to_after(side, *until, pos);
}

}  // namespace

std::vector<std::size_t> start_positions(const Side& side) {
    std::vector<std::size_t> pos(side.series.size(), 0);
    skip_folded(side, pos);
    return pos;
}

namespace {

Smoothing start_smoothing(const std::vector<std::size_t>& start, double weight) {
    return {std::vector<EmaSmoother>(start.size(), EmaSmoother(weight)), start,
            std::vector<EmaSmoother>(start.size(), EmaSmoother(weight))};
}

}  // namespace

std::uint64_t pending_points(const Side& a, const Side& b, const Progress& progress) {
    std::uint64_t n = 0;
    auto side = [&](const Side& s, const std::vector<std::size_t>& pos) {
        for (std::size_t r = 0; r < s.series.size(); ++r)
            n += s.series[r]->retained() - (progress.started ? pos[r] : 0);
    };
    side(a, progress.pos_a);
    side(b, progress.pos_b);
    return n;
}

SeriesComparison compare_pair(const Side& a, const Side& b, const CompareOptions& options,
                              Progress& progress) {
    const bool smooth = options.smoothing > 0;
    if (!progress.started) {
        progress.pos_a = start_positions(a);
        progress.pos_b = start_positions(b);
        progress.smooth_a = progress.smooth_b = Smoothing{};
        if (smooth) {
            progress.smooth_a = start_smoothing(progress.pos_a, options.smoothing);
            progress.smooth_b = start_smoothing(progress.pos_b, options.smoothing);
        }
        progress.walk = Walk{};
        progress.started = true;
    } else {
        skip_folded(a, progress.pos_a);
        skip_folded(b, progress.pos_b);
        if (smooth) {
            skip_folded(a, progress.smooth_a.tail_pos);
            skip_folded(b, progress.smooth_b.tail_pos);
        }
    }
    const bool walls = options.align == CompareAlign::kRelativeWall;
    Walk w;
    if (a.mean) {
        MeanCursor ca(a.series, progress.pos_a, walls, final_below(a),
                      smooth ? &progress.smooth_a.walk : nullptr);
        MeanCursor cb(b.series, progress.pos_b, walls, final_below(b),
                      smooth ? &progress.smooth_b.walk : nullptr);
        w = walk_pair(ca, cb, a, b, options, progress);
    } else {
        SeriesCursor ca(*a.series[0], progress.pos_a[0], walls,
                        smooth ? &progress.smooth_a.walk[0] : nullptr);
        SeriesCursor cb(*b.series[0], progress.pos_b[0], walls,
                        smooth ? &progress.smooth_b.walk[0] : nullptr);
        w = walk_pair(ca, cb, a, b, options, progress);
    }

    SeriesComparison c;
    for (const Series* s : a.series) c.folded += folded_points(*s);
    for (const Series* s : b.series) c.folded += folded_points(*s);
    if (a.mean) {
        c.ranks_a = a.series.size();
        c.ranks_b = b.series.size();
    }
    std::vector<double> newest_a, newest_b;
    if (smooth) {
        newest_a = newest_smoothed(a, progress.smooth_a);
        newest_b = newest_smoothed(b, progress.smooth_b);
    }
    const std::optional<Point> last_a = last_point(a, smooth ? &newest_a : nullptr);
    const std::optional<Point> last_b = last_point(b, smooth ? &newest_b : nullptr);
    c.last_a = last_a ? last_a->value : kNaN;
    c.last_b = last_b ? last_b->value : kNaN;
    c.last_step_a = last_a ? last_a->step : 0;
    c.last_step_b = last_b ? last_b->step : 0;
    c.common_steps = w.common;
    c.max_relative_difference = w.max_relative_difference;
    c.first_divergence = w.first_divergence;
    c.first_divergence_time = w.first_divergence_time;
    c.last_common_step = w.last_common_step;
    c.a = c.b = c.delta = c.ratio = kNaN;
    if (w.last_common_step) {
        c.a = w.a;
        c.b = w.b;
        c.delta = c.b - c.a;
        c.ratio = c.a == 0 && c.b == 0 ? kNaN : c.b / c.a;
    }
    return c;
}

}  // namespace runtop::compare

namespace runtop {

// One pair walked from the start (run_compare.h): the walk of a fresh Progress.
SeriesComparison compare_series(const Series& a, const Series& b, const CompareOptions& options) {
    compare::Side side_a{{&a}, false, compare::first_wall(a).value_or(0)};
    compare::Side side_b{{&b}, false, compare::first_wall(b).value_or(0)};
    compare::Progress progress;
    SeriesComparison c = compare::compare_pair(side_a, side_b, options, progress);
    c.tag = std::string(a.key().tag);
    c.rank = a.key().rank;
    return c;
}

}  // namespace runtop
