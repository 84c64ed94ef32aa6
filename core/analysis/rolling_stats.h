// Rolling statistics over the newest points of one series, and the pace of one run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

namespace runtop {

// The last N points and/or the last T seconds of one series, fed in arrival order.
//
// A point leaves the window when more than `max_points` points are held, or when it is the
// oldest held and its wall time is more than `max_seconds` before the newest wall time seen
// (the window is anchored at the series' newest point, not at a clock, so a stalled series
// keeps the statistics of its last T seconds; RateMeter says how stale it is). Eviction is in
// arrival order: a point arriving with an older wall time than its predecessors (clock skew, a
// CSV stamped with its file's mtime) leaves when it reaches the front. A non-finite wall time
// counts as the newest seen.
//
// NaN and +-Inf are counted, and excluded from mean, std, min and max.
//
// Numerics: nothing is ever subtracted back out. The window is a two-stack queue of aggregates
// (count, mean, sum of squared deviations, min, max): the newer part is one running Welford
// aggregate, the older part a stack of suffix aggregates rebuilt from the raw values whenever it
// runs empty, and a query merges the two (Chan, Golub & LeVeque; every term of the merge is
// non-negative). A running sum with removal would need periodic recomputation, and still leave
// eps * spike^2 of noise in the variance after a spike leaves; here the error does not grow
// with the length of the stream and a spike leaves no trace. Means and variances are taken of
// value - shift, the shift being the newest finite value at the last rebuild (the first one
// before any), so a large offset (1e9 + noise) costs no precision. Min and max come from the
// same aggregates (raw values, exact) instead of separate monotonic deques. Each push is O(1)
// amortised: a point is aggregated when it arrives and once more in a rebuild. Memory: 16 bytes
// per held point, plus 40 per point in the older part.
class RollingStats {
  public:
    static constexpr double kNoTimeLimit = std::numeric_limits<double>::infinity();

    // max_points == 0: no count limit. max_seconds == kNoTimeLimit: no time limit. With neither,
    // the window is the whole series.
    RollingStats(std::size_t max_points, double max_seconds);
    static RollingStats last_points(std::size_t n) { return RollingStats(n, kNoTimeLimit); }
    static RollingStats last_seconds(double seconds) { return RollingStats(0, seconds); }

    void push(double wall_time, double value);
    void clear();

    // Points held, finite or not.
    std::size_t count() const { return window_.size(); }
    std::size_t finite_count() const { return window_.size() - nan_count_ - inf_count_; }
    std::size_t nan_count() const { return nan_count_; }
    std::size_t inf_count() const { return inf_count_; }  // +Inf and -Inf
    // The newest point's value as received (NaN included); NaN when the window is empty.
    double last() const;
    double last_wall_time() const;

    // Over the finite values held; NaN when there are none.
    double mean() const;
    double min() const;
    double max() const;
    // Population variance and std (divided by the count, not count - 1): the window is the
    // whole population a view or a rule looks at, and one point has std 0, not NaN.
    double variance() const;
    double stddev() const;

  private:
    struct Entry {
        double wall;
        double value;
    };
    // Count, mean and squared deviations of value - shift_; min and max of the values.
    struct Moments {
        double n = 0;
        double mean = 0;
        double m2 = 0;
        double min = std::numeric_limits<double>::infinity();
        double max = -std::numeric_limits<double>::infinity();

        void add(double value, double shift);
        static Moments merge(const Moments& a, const Moments& b);
    };
    void evict_front();
    Moments moments() const;

    std::size_t max_points_;
    double max_seconds_;
    double newest_wall_ = -std::numeric_limits<double>::infinity();
    std::deque<Entry> window_;  // oldest first
    // The older part of the window, window_[0, suffix_.size()): back() aggregates all of it,
    // the entry below it all but its oldest point, and so on; evicting the oldest is a pop.
    std::vector<Moments> suffix_;
    Moments newer_;  // the rest of the window, window_[suffix_.size()..]
    double shift_ = 0;
    bool shift_set_ = false;
    std::size_t nan_count_ = 0;
    std::size_t inf_count_ = 0;
};

// The pace of one run: steps per second, points per second, and time since its last point.
//
// Rates are over a trailing window anchored at the run's newest wall time: from the newest point
// at or before `newest - window_seconds` (or the oldest point kept, if none is that old) to the
// newest. Measuring from a point just outside the window gives a rate even when points are
// sparser than the window (one point every 30 s in a 10 s window: 1/30 points/s). Points whose
// wall times lie within `window_seconds / 256` of each other are kept as one entry, so memory
// is bounded (about 260 entries) however many series a run has; the span is then off by at most
// that much.
//
// The step rate is how fast the run's furthest step advances: steps going back (ranks
// interleaving, series logging at different cadences) are not progress. After a restart from a
// checkpoint, `restart(step)` lowers the furthest step so redone steps count again.
class RateMeter {
  public:
    explicit RateMeter(double window_seconds);

    void record(std::int64_t step, double wall_time);
    void restart(std::int64_t step);

    // NaN until two distinct wall times are kept.
    double steps_per_second() const;
    double points_per_second() const;
    // `now` minus the newest wall time recorded (negative if the run's clock is ahead of `now`);
    // NaN before any point with a finite wall time.
    double seconds_since_last(double now) const;
    std::uint64_t points() const { return total_points_; }

  private:
    struct Entry {
        double wall;  // the first point's wall time
        std::uint64_t points;
        std::int64_t advance;  // steps the furthest step advanced with this entry's points
    };
    double span() const;

    double window_;
    double resolution_;
    std::deque<Entry> entries_;           // oldest first
    std::uint64_t points_in_window_ = 0;  // including the first entry's
    std::int64_t advance_in_window_ = 0;  // including the first entry's
    bool have_step_ = false;
    std::int64_t furthest_step_ = 0;
    double newest_wall_ = -std::numeric_limits<double>::infinity();
    double last_wall_ = std::numeric_limits<double>::quiet_NaN();  // the previous record's
    std::uint64_t total_points_ = 0;
};

}  // namespace runtop
