// Comparing two runs (DESIGN.md §3 "run comparison"): the series of one run against the same
// (rank, tag) in another, aligned by step. For each pair: the steps in common, the last value
// of each, Δ and ratio at the newest common step, and the first common step where they diverge
// (relative difference above a tolerance). Tags only one run has are listed apart.
//
// Alignment is by step over the points each series keeps at full resolution: steps a budget
// folded into buckets are not compared (`folded` says how many points that left out), since a
// bucket's min/max/mean cannot be matched step for step. A restarted run compares the points
// it kept after the restart, as its charts show them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/series.h"
#include "core/store.h"

namespace runtop {

struct CompareOptions {
    double tolerance = 1e-6;  // relative: |b - a| > tolerance * max(|a|, |b|) diverges
};

struct SeriesComparison {
    std::string tag;
    int rank = kNoRank;
    std::uint64_t common_steps = 0;
    std::uint64_t folded = 0;  // points of either series kept only as buckets, not compared
    // The newest point of each series (NaN and 0 when it has none).
    double last_a = 0, last_b = 0;
    std::int64_t last_step_a = 0, last_step_b = 0;
    // At the newest common step (NaN when there is none).
    std::optional<std::int64_t> last_common_step;
    double a = 0, b = 0;
    double delta = 0;  // b - a
    double ratio = 0;  // b / a (±inf when a is 0 and b is not; NaN when both are 0)
    // The first common step where the values diverge; nullopt when they never do.
    std::optional<std::int64_t> first_divergence;
    double max_relative_difference = 0;  // over the common steps (inf when one is not finite)
};

// Whether two values at the same step differ: beyond the relative tolerance, or one is NaN and
// the other not, or infinities of different sign, or one infinite and the other finite.
bool values_diverge(double a, double b, double tolerance);
// |b - a| / max(|a|, |b|): 0 when equal (both 0, both NaN, the same infinity), inf when they
// differ in kind (see values_diverge).
double relative_difference(double a, double b);

SeriesComparison compare_series(const Series& a, const Series& b, const CompareOptions& options);

struct RunComparison {
    std::vector<SeriesComparison> pairs;  // (tag, rank) present in both runs, by tag then rank
    // (tag, rank) present in only one run.
    std::vector<std::pair<std::string, int>> only_a, only_b;
    std::size_t diverging() const;  // pairs with a first divergence
};

// Every (rank, tag) of run `a` against the same (rank, tag) of run `b` in `store`.
RunComparison compare_runs(const Store& store, std::string_view run_a, std::string_view run_b,
                           const CompareOptions& options);

}  // namespace runtop
