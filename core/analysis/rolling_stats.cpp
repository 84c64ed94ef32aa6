#include "core/analysis/rolling_stats.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace runtop {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

void RollingStats::Moments::add(double value, double shift) {
    // Welford: the increment d * (x - mean') is a product of two numbers of the same sign.
    const double x = value - shift;
    n += 1;
    const double d = x - mean;
    mean += d / n;
    m2 += d * (x - mean);
    min = std::min(min, value);
    max = std::max(max, value);
}

RollingStats::Moments RollingStats::Moments::merge(const Moments& a, const Moments& b) {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    Moments m;
    m.n = a.n + b.n;
    const double d = b.mean - a.mean;
    m.mean = a.mean + d * (b.n / m.n);
    m.m2 = a.m2 + b.m2 + d * d * (a.n * b.n / m.n);
    m.min = std::min(a.min, b.min);
    m.max = std::max(a.max, b.max);
    return m;
}

RollingStats::RollingStats(std::size_t max_points, double max_seconds)
    : max_points_(max_points), max_seconds_(max_seconds) {
    assert(max_seconds >= 0);
}

void RollingStats::push(double wall_time, double value) {
    if (std::isfinite(wall_time)) {
        newest_wall_ = std::max(newest_wall_, wall_time);
    } else {
        wall_time = newest_wall_;
    }
    window_.push_back({wall_time, value});
    if (std::isnan(value)) {
        ++nan_count_;
    } else if (std::isinf(value)) {
        ++inf_count_;
    } else {
        if (!shift_set_) {
            shift_ = value;
            shift_set_ = true;
        }
        newer_.add(value, shift_);
    }
    while (max_points_ != 0 && window_.size() > max_points_) evict_front();
    if (max_seconds_ != kNoTimeLimit) {
        const double cutoff = newest_wall_ - max_seconds_;
        while (!window_.empty() && window_.front().wall < cutoff) evict_front();
    }
}

void RollingStats::evict_front() {
    if (suffix_.empty()) {
        // Every point is in the newer part: it becomes the older part, aggregated from its
        // newest point back, so that dropping the oldest is a pop. Paid for by the pops ahead.
        // The whole window is re-aggregated, so the shift can move to where the data is now.
        const auto newest_finite =
            std::find_if(window_.rbegin(), window_.rend(),
                         [](const Entry& e) { return std::isfinite(e.value); });
        if (newest_finite != window_.rend()) shift_ = newest_finite->value;
        suffix_.reserve(window_.size());
        Moments acc;
        for (auto it = window_.rbegin(); it != window_.rend(); ++it) {
            if (std::isfinite(it->value)) acc.add(it->value, shift_);
            suffix_.push_back(acc);
        }
        newer_ = Moments{};
    }
    const double value = window_.front().value;
    if (std::isnan(value)) {
        --nan_count_;
    } else if (std::isinf(value)) {
        --inf_count_;
    }
    window_.pop_front();
    suffix_.pop_back();
}

void RollingStats::clear() {
    *this = RollingStats(max_points_, max_seconds_);
}

double RollingStats::last() const {
    return window_.empty() ? kNaN : window_.back().value;
}

double RollingStats::last_wall_time() const {
    return window_.empty() ? kNaN : window_.back().wall;
}

RollingStats::Moments RollingStats::moments() const {
    return suffix_.empty() ? newer_ : Moments::merge(suffix_.back(), newer_);
}

double RollingStats::mean() const {
    const Moments m = moments();
    return m.n == 0 ? kNaN : m.mean + shift_;
}

double RollingStats::min() const {
    const Moments m = moments();
    return m.n == 0 ? kNaN : m.min;
}

double RollingStats::max() const {
    const Moments m = moments();
    return m.n == 0 ? kNaN : m.max;
}

double RollingStats::variance() const {
    const Moments m = moments();
    return m.n == 0 ? kNaN : m.m2 / m.n;
}

double RollingStats::stddev() const {
    return std::sqrt(variance());
}

RateMeter::RateMeter(double window_seconds)
    : window_(window_seconds), resolution_(window_seconds / 256) {
    assert(window_seconds > 0 && std::isfinite(window_seconds));
}

void RateMeter::record(std::int64_t step, double wall_time) {
    ++total_points_;
    // The common case, every series of a step at once: same time, no step advance.
    if (!entries_.empty() && wall_time == last_wall_ && have_step_ && step <= furthest_step_) {
        entries_.back().points += 1;
        points_in_window_ += 1;
        return;
    }
    last_wall_ = wall_time;
    std::int64_t advance = 0;
    if (!have_step_) {
        have_step_ = true;
        furthest_step_ = step;
    } else if (step > furthest_step_) {
        advance = step - furthest_step_;
        furthest_step_ = step;
    }
    if (std::isfinite(wall_time)) {
        newest_wall_ = std::max(newest_wall_, wall_time);
    } else if (entries_.empty()) {
        return;  // no time to place it at yet: it counts in points() only
    } else {
        wall_time = newest_wall_;
    }
    // A point stamped earlier than the newest entry (skewed clocks) joins that entry too.
    if (!entries_.empty() && wall_time <= entries_.back().wall + resolution_) {
        entries_.back().points += 1;
        entries_.back().advance += advance;
    } else {
        entries_.push_back({wall_time, 1, advance});
    }
    points_in_window_ += 1;
    advance_in_window_ += advance;
    // Keep one entry at or before the window's start: the rates are measured from it.
    const double start = newest_wall_ - window_;
    while (entries_.size() >= 2 && entries_[1].wall <= start) {
        points_in_window_ -= entries_.front().points;
        advance_in_window_ -= entries_.front().advance;
        entries_.pop_front();
    }
}

void RateMeter::restart(std::int64_t step) {
    have_step_ = true;
    furthest_step_ = step;
}

double RateMeter::span() const {
    if (entries_.empty()) return kNaN;
    const double s = newest_wall_ - entries_.front().wall;
    return s > 0 ? s : kNaN;
}

double RateMeter::steps_per_second() const {
    const double s = span();
    if (std::isnan(s)) return kNaN;
    return static_cast<double>(advance_in_window_ - entries_.front().advance) / s;
}

double RateMeter::points_per_second() const {
    const double s = span();
    if (std::isnan(s)) return kNaN;
    return static_cast<double>(points_in_window_ - entries_.front().points) / s;
}

double RateMeter::seconds_since_last(double now) const {
    return entries_.empty() ? kNaN : now - newest_wall_;
}

}  // namespace runtop
