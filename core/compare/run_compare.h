// Comparing two runs (DESIGN.md §3 "run comparison"): the series of one run against the same
// (rank, tag) in another, or per tag the mean over each run's ranks. For each pair: the points
// in common, the last value of each, Δ and ratio at the newest common point, and the first
// common point where they diverge (relative difference above a tolerance). Tags and ranks only
// one run has are listed apart.
//
// Points pair up by step (CompareAlign::kStep), or by time since each run's start
// (kRelativeWall: each point of A with B's latest point at or before the same relative time,
// inside the overlap of the two time ranges; a run's start is the earliest first-point wall
// time of its series). Walls are expected to grow with steps: where they go back, both sides
// are still walked in step order and B's point never moves back. Only the points each series
// keeps at full resolution are compared: those a budget folded into buckets are not
// (`folded` says how many points that left out), since a bucket's min/max/mean cannot be
// matched point for point. A restarted run compares the points it kept after the restart, as
// its charts show them.
//
// With CompareRanks::kMean each run's side of a tag is the mean over its ranks: at each step,
// the mean of the values of the ranks that have that step (ranks with different step sets
// each count where they have a point; a step only some ranks logged is the mean of those).
// A NaN at a step makes the mean NaN, an infinity makes it that infinity (NaN with both
// signs): a NaN is never averaged away. Its wall time is the latest of the ranks' walls at
// that step. Steps up to the last step any rank of the run has folded are left out (a mean
// over the ranks that still hold them would not be the mean).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/series_filter.h"
#include "core/store/series.h"
#include "core/store/store.h"

namespace runtop {

// How points of the two runs are paired.
enum class CompareAlign : std::uint8_t {
    kStep,          // the same step (or samples: whatever the series' x is)
    kRelativeWall,  // the same time since each run's start (its earliest wall time)
};
// How ranks are paired.
enum class CompareRanks : std::uint8_t {
    kPerRank,  // rank N of one run against rank N of the other
    kMean,     // per tag, the mean over the ranks of one run against that of the other
};
std::string_view compare_align_name(CompareAlign align);  // "step", "wall"
std::string_view compare_ranks_name(CompareRanks ranks);  // "rank", "mean"

struct CompareOptions {
    double tolerance = 1e-6;  // relative: |b - a| > tolerance * max(|a|, |b|) diverges
    CompareAlign align = CompareAlign::kStep;
    CompareRanks ranks = CompareRanks::kPerRank;
    // TensorBoard's smoothing weight in [0, 1) (0: raw values). Above 0 every series of both
    // runs is smoothed before its points are paired: core/analysis/smoothing.h's debiased EMA,
    // one smoother per series (per rank, also under kMean, whose mean is then the mean of the
    // smoothed ranks), fed every point the walk passes in step order, compared or not. A point's
    // value is the smoothing over the points up to it, so a comparison never depends on later
    // points (TensorBoard's whole-curve smoothing gives the same doubles, except on a series'
    // flat start, which it smooths to round-off and this leaves as is). It starts where the
    // walk starts: folded points are no more smoothed than compared. Every value of a
    // SeriesComparison (the sides' newest values too) is then a smoothed one.
    double smoothing = 0;
    bool operator==(const CompareOptions&) const = default;
};

// One pair: a (tag, rank) of each run, or with CompareRanks::kMean a tag's rank mean of each.
// With CompareAlign::kRelativeWall a "common step" is a pair of points (one of A, B's latest
// at or before its time) and the steps named are A's.
struct SeriesComparison {
    std::string tag;
    int rank = kNoRank;  // kNoRank with CompareRanks::kMean
    std::uint64_t common_steps = 0;
    // Points of either side kept only as buckets, not compared (every rank's with kMean).
    std::uint64_t folded = 0;
    // The newest point of each side (NaN and 0 when it has none).
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
    // With CompareAlign::kRelativeWall: A's time at the first divergence, in seconds since
    // A's start (nullopt without a divergence, and with kStep).
    std::optional<double> first_divergence_time;
    // Series on each side: the ranks averaged with CompareRanks::kMean, else 1.
    std::size_t ranks_a = 1, ranks_b = 1;
};

// Whether two values at the same step differ: beyond the relative tolerance, or one is NaN and
// the other not, or infinities of different sign, or one infinite and the other finite.
bool values_diverge(double a, double b, double tolerance);
// |b - a| / max(|a|, |b|): 0 when equal (both 0, both NaN, the same infinity), inf when they
// differ in kind (see values_diverge).
double relative_difference(double a, double b);
// What relative_difference can be for two finite values: |b - a| <= |a| + |b| <= 2 max(|a|, |b|),
// reached by values of opposite sign and equal magnitude (a value against 0 is 1). A tolerance
// at or above it can never fire on numbers: only NaN and infinities would be reported.
inline constexpr double kMaxRelativeDifference = 2;

// One series against another (options.ranks is not used). With kRelativeWall each series'
// start is its own first point's wall time.
SeriesComparison compare_series(const Series& a, const Series& b, const CompareOptions& options);

struct RunComparison {
    // (tag, rank) present in both runs (with kMean: tags present in both), by tag then rank.
    std::vector<SeriesComparison> pairs;
    // (tag, rank) series present in only one run, by tag then rank (with kMean: every series
    // of the tags the other run lacks).
    std::vector<std::pair<std::string, int>> only_a, only_b;
    std::size_t diverging() const;  // pairs with a first divergence
};

// Every (rank, tag) of run `a` against the same (rank, tag) of run `b` in `store` (with
// CompareRanks::kMean: every tag, rank kNoRank). `filter` (nullptr: everything) picks the
// series taken into account: the pairs, the ranks averaged and, with kRelativeWall, the
// series whose earliest first-point wall time is the run's start. Pairs are compared on two
// threads when there is enough work.
RunComparison compare_runs(const Store& store, std::string_view run_a, std::string_view run_b,
                           const CompareOptions& options, const SeriesFilter* filter = nullptr);

// One row per tag present in either run (the compare view, `diff`'s text).
struct TagComparison {
    std::string tag;
    // Series of the tag in each run (0: only in the other; with kMean, the ranks averaged).
    std::size_t ranks_a = 0, ranks_b = 0;
    std::size_t compared = 0;   // pairs compared (1 with CompareRanks::kMean)
    std::size_t diverging = 0;  // of them, the ones that diverge
    // The pair that stands for the tag: the earliest first divergence (ties: the larger
    // max_relative_difference), else the largest relative |Δ| at the newest common step
    // (relative_difference(a, b); pairs without a common step last); remaining ties: the
    // lowest rank. Meaningless when compared == 0.
    SeriesComparison head;
    bool only_a() const { return ranks_b == 0; }
    bool only_b() const { return ranks_a == 0; }
    // The head pair has a common step (Δ and ratio at it mean something).
    bool has_common() const { return compared > 0 && head.last_common_step.has_value(); }
    // Some pair diverges, and `head` names the first divergence.
    bool diverges() const { return compared > 0 && diverging > 0 && head.first_divergence; }
};
// Sorted by tag.
std::vector<TagComparison> tag_rows(const RunComparison& comparison);

}  // namespace runtop
