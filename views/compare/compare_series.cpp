#include "views/compare/compare_series.h"

#include <algorithm>
#include <cmath>

#include "views/canvas.h"
#include "views/chart_points.h"

namespace runtop::ui {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The mean (or the one series' point) at `step` over the series that have it.
std::optional<SidePoint> mean_at(const CompareSide& side, std::int64_t step) {
    SidePoint p;
    p.step = step;
    double sum = 0;
    for (std::size_t r = 0; r < side.series.size(); ++r) {
        const Series& s = *side.series[r];
        const std::size_t i = lower_index(s, step);
        if (i < side.start[r] || i >= s.retained()) continue;
        const Point q = s.point(i);
        if (q.step != step) continue;
        sum = p.ranks == 0 ? q.value : sum + q.value;
        p.wall = p.ranks == 0 ? q.wall_time : std::max(p.wall, q.wall_time);
        if (std::isfinite(q.value)) {
            p.lo = std::isnan(p.lo) ? q.value : std::min(p.lo, q.value);
            p.hi = std::isnan(p.hi) ? q.value : std::max(p.hi, q.value);
        }
        ++p.ranks;
    }
    if (p.ranks == 0) return std::nullopt;
    p.value = sum / p.ranks;
    return p;
}

template <class Before>
std::size_t first_not_from(const Series& s, std::size_t from, Before before) {
    return std::max(from, first_point_not(s, before));
}

}  // namespace

bool CompareSide::has_points() const {
    for (std::size_t r = 0; r < series.size(); ++r)
        if (series[r]->retained() > start[r]) return true;
    return false;
}

CompareSides compare_sides(const ViewModel& model, const std::string& tag,
                           const CompareDetail& compare) {
    CompareSides out;
    out.a.run = compare.run_a;
    out.b.run = compare.run_b;
    for (CompareSide* side : {&out.a, &out.b}) {
        side->mean = compare.mean;
        side->colour = std::max(0, model.run_colour(side->run));
        // The run's start over its selected series, as core's RunComparer takes it.
        bool any = false;
        for (SeriesId id : model.selected()) {
            const Series& s = model.store().at(id);
            if (s.key().run != side->run) continue;
            const std::optional<double> w = compare::first_wall(s);
            if (w && (!any || *w < side->origin)) side->origin = *w;
            any |= w.has_value();
        }
    }
    if (series_role(out.b.colour) == series_role(out.a.colour)) out.b.colour = out.a.colour + 1;
    if (const TagGroup* group = model.group(tag)) {
        // The group lists (run, rank) in order, so each side's ranks come in rank order.
        for (SeriesId id : group->series) {
            const SeriesKeyRef k = model.store().at(id).key();
            for (CompareSide* side : {&out.a, &out.b}) {
                if (k.run != side->run || (!compare.mean && k.rank != compare.rank)) continue;
                side->ids.push_back(id);
                side->series.push_back(&model.store().at(id));
            }
        }
    }
    out.a.start = compare::start_positions(out.a);
    out.b.start = compare::start_positions(out.b);
    return out;
}

std::int64_t compare_x(XAxis axis, std::int64_t step, double wall, double origin) {
    auto ms = [](double seconds) {
        if (!std::isfinite(seconds)) return std::int64_t{0};
        return static_cast<std::int64_t>(std::llround(std::clamp(seconds * 1000, -9e18, 9e18)));
    };
    switch (axis) {
        case XAxis::kStep:
            return step;
        case XAxis::kRelative:
            return ms(wall - origin);
        case XAxis::kWall:
            return ms(wall);
    }
    return step;
}

double compare_wall(XAxis axis, std::int64_t x, double origin) {
    switch (axis) {
        case XAxis::kStep:
            return kNaN;
        case XAxis::kRelative:
            return origin + static_cast<double>(x) / 1000;
        case XAxis::kWall:
            return static_cast<double>(x) / 1000;
    }
    return kNaN;
}

SideCursor::SideCursor(const CompareSide& side, const std::vector<std::size_t>& pos) {
    ranks_.reserve(side.series.size());
    for (std::size_t r = 0; r < side.series.size(); ++r)
        ranks_.emplace_back(*side.series[r], std::max(pos[r], side.start[r]), true);
    settle();
}

void SideCursor::next() {
    for (compare::SeriesCursor& r : ranks_)
        if (r.has() && r.step() == point_.step) r.next();
    settle();
}

// The point at the lowest step any series is at: compare::MeanCursor's arithmetic (a plain sum
// in rank order, so a NaN or an infinity carries through), plus the ranks' extremes.
void SideCursor::settle() {
    valid_ = false;
    std::int64_t step = 0;
    for (const compare::SeriesCursor& r : ranks_)
        if (r.has() && (!valid_ || r.step() < step)) {
            step = r.step();
            valid_ = true;
        }
    if (!valid_) return;
    point_ = SidePoint{};
    point_.step = step;
    double sum = 0;
    for (const compare::SeriesCursor& r : ranks_) {
        if (!r.has() || r.step() != step) continue;
        const double v = r.value();
        sum = point_.ranks == 0 ? v : sum + v;
        point_.wall = point_.ranks == 0 ? r.wall() : std::max(point_.wall, r.wall());
        if (std::isfinite(v)) {
            point_.lo = std::isnan(point_.lo) ? v : std::min(point_.lo, v);
            point_.hi = std::isnan(point_.hi) ? v : std::max(point_.hi, v);
        }
        ++point_.ranks;
    }
    point_.value = sum / point_.ranks;
}

std::vector<std::size_t> positions_from_step(const CompareSide& side, std::int64_t step) {
    std::vector<std::size_t> pos;
    for (std::size_t r = 0; r < side.series.size(); ++r)
        pos.push_back(std::max(side.start[r], lower_index(*side.series[r], step)));
    return pos;
}

std::vector<std::size_t> positions_from_x(const CompareSide& side, XAxis axis, std::int64_t x) {
    if (axis == XAxis::kStep) return positions_from_step(side, x);
    std::vector<std::size_t> pos;
    for (std::size_t r = 0; r < side.series.size(); ++r)
        pos.push_back(first_not_from(*side.series[r], side.start[r], [&](const Point& p) {
            return compare_x(axis, p.step, p.wall_time, side.origin) < x;
        }));
    return pos;
}

void back_off(const CompareSide& side, std::vector<std::size_t>& pos, std::size_t n) {
    for (std::size_t r = 0; r < pos.size(); ++r)
        pos[r] = std::max(side.start[r], pos[r] > n ? pos[r] - n : 0);
}

std::optional<SidePoint> side_point_at(const CompareSide& side, std::int64_t step) {
    return mean_at(side, step);
}

std::optional<SidePoint> side_point_at_or_before(const CompareSide& side, std::int64_t step) {
    // The latest step at or before `step` any series has.
    std::optional<std::int64_t> best;
    for (std::size_t r = 0; r < side.series.size(); ++r) {
        const Series& s = *side.series[r];
        const auto i = at_or_before(s, step);
        if (!i || *i < side.start[r]) continue;
        const std::int64_t at = s.point(*i).step;
        if (!best || at > *best) best = at;
    }
    if (!best) return std::nullopt;
    return mean_at(side, *best);
}

std::optional<SidePoint> side_point_nearest(const CompareSide& side, XAxis axis, std::int64_t x) {
    // Per series its nearest point; of those, the nearest (ties: the earlier step).
    std::optional<std::int64_t> best_step;
    std::int64_t best_d = 0;
    for (std::size_t r = 0; r < side.series.size(); ++r) {
        const Series& s = *side.series[r];
        const std::size_t n = s.retained();
        if (n <= side.start[r]) continue;
        const std::size_t i = first_not_from(s, side.start[r], [&](const Point& p) {
            return compare_x(axis, p.step, p.wall_time, side.origin) < x;
        });
        for (std::size_t k : {i == side.start[r] ? i : i - 1, i}) {
            if (k >= n) continue;
            const Point p = s.point(k);
            const std::int64_t px = compare_x(axis, p.step, p.wall_time, side.origin);
            const std::int64_t d = px > x ? px - x : x - px;
            if (!best_step || d < best_d || (d == best_d && p.step < *best_step)) {
                best_step = p.step;
                best_d = d;
            }
        }
    }
    if (!best_step) return std::nullopt;
    return mean_at(side, *best_step);
}

std::optional<std::pair<std::int64_t, std::int64_t>> side_x_range(const CompareSide& side,
                                                                  XAxis axis) {
    std::optional<std::pair<std::int64_t, std::int64_t>> out;
    for (std::size_t r = 0; r < side.series.size(); ++r) {
        const Series& s = *side.series[r];
        if (s.retained() <= side.start[r]) continue;
        const Point first = s.point(side.start[r]), last = s.point(s.retained() - 1);
        const std::int64_t lo = compare_x(axis, first.step, first.wall_time, side.origin);
        const std::int64_t hi = compare_x(axis, last.step, last.wall_time, side.origin);
        if (!out)
            out = std::pair(lo, hi);
        else
            out = std::pair(std::min(out->first, lo), std::max(out->second, hi));
    }
    return out;
}

}  // namespace runtop::ui
