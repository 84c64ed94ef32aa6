// One pair of a run comparison (core/compare/run_compare.h), resumable: the walk over the two
// sides' points keeps its state after the last points no later write can change
// (core/compare/compare_cursor.h), so that RunComparer continues from there when the series only
// gained points, and finishes each update over the open points on a copy.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/analysis/smoothing.h"
#include "core/compare/run_compare.h"
#include "core/store/series.h"

namespace runtop::compare {

// One side of a pair.
struct Side {
    std::vector<const Series*> series;  // the series, or the ranks averaged (rank order)
    bool mean = false;                  // CompareRanks::kMean
    double origin = 0;                  // CompareAlign::kRelativeWall: the run's start
};

// The walk's state: how far each side got, B's latest point at or before A's time (wall
// alignment), and what the pairs so far add up to.
struct Walk {
    bool candidate = false;
    std::int64_t candidate_step = 0;
    double candidate_time = 0;
    double candidate_value = 0;

    std::uint64_t common = 0;
    double max_relative_difference = 0;
    std::optional<std::int64_t> first_divergence;
    std::optional<double> first_divergence_time;
    std::optional<std::int64_t> last_common_step;
    double a = 0, b = 0;  // at the last common step
};

// With smoothing (CompareOptions::smoothing > 0), per series of a side: the smoother where the
// pair walk stands, and a second walk of the series on its own, for its newest smoothed value
// (the pair walk stops wherever the other side runs out, or at a rank's step the mean is still
// open at).
struct Smoothing {
    std::vector<EmaSmoother> walk;      // at Progress::pos_a / pos_b
    std::vector<std::size_t> tail_pos;  // the next point the tail takes
    std::vector<EmaSmoother> tail;      // at tail_pos
};

// What a pair has compared: its walk up to the last final points. A default Progress starts
// from the beginning.
struct Progress {
    bool started = false;
    std::vector<std::size_t> pos_a, pos_b;  // per series of each side, its next point
    Smoothing smooth_a, smooth_b;           // empty without smoothing
    Walk walk;
};

// Where each series of a side starts: 0, or for a rank mean the first point after the last
// step any of its ranks folded (see run_compare.h). A fresh Progress starts there, and so does
// the dashboard's compare chart, so both walk the same points; a resumed one skips there too
// (a lagging rank can gain points at or before another rank's folded step).
std::vector<std::size_t> start_positions(const Side& side);

// Walks the points added since `progress`, leaves it after the last final ones, and returns
// the comparison over every point (tag and rank left for the caller). A restart or a fold on
// either side needs a fresh Progress.
SeriesComparison compare_pair(const Side& a, const Side& b, const CompareOptions& options,
                              Progress& progress);

// Points compare_pair would walk now (to share the work out).
std::uint64_t pending_points(const Side& a, const Side& b, const Progress& progress);

// The wall time of a series' first point, folded or not; nullopt when it has none.
std::optional<double> first_wall(const Series& series);

}  // namespace runtop::compare
