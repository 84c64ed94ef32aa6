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
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/series.h"
#include "core/series_filter.h"
#include "core/store.h"

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
    bool operator==(const CompareOptions&) const = default;
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

// Every (rank, tag) of run `a` against the same (rank, tag) of run `b` in `store` (with
// CompareRanks::kMean: every tag, rank kNoRank). `filter` (nullptr: everything) picks the
// series taken into account.
RunComparison compare_runs(const Store& store, std::string_view run_a, std::string_view run_b,
                           const CompareOptions& options, const SeriesFilter* filter = nullptr);

// One row per tag present in either run (the compare view, `diff`'s text).
struct TagComparison {
    std::string tag;
    std::size_t ranks_a = 0, ranks_b = 0;  // series of the tag in each run (0: only in the other)
    std::size_t compared = 0;              // pairs compared (1 with CompareRanks::kMean)
    std::size_t diverging = 0;             // of them, the ones that diverge
    // The pair that stands for the tag: the earliest first divergence (ties: the larger
    // max_relative_difference), else the largest relative |Δ| at the newest common step.
    // Meaningless when compared == 0.
    SeriesComparison head;
    bool only_a() const { return ranks_b == 0; }
    bool only_b() const { return ranks_a == 0; }
};
// Sorted by tag.
std::vector<TagComparison> tag_rows(const RunComparison& comparison);

// A comparison kept up to date as the Store grows (the dashboard): each pair remembers how far
// it compared and resumes there when its series only gained points; a restart, a fold or a
// change of runs, options or filter starts that pair (or everything) over.
class RunComparer {
  public:
    explicit RunComparer(const Store& store);
    ~RunComparer();
    RunComparer(const RunComparer&) = delete;
    RunComparer& operator=(const RunComparer&) = delete;

    // `filter` must outlive the comparer or the next configure() (the ViewModel's filter);
    // call configure() again whenever it changes. nullptr: every series.
    void configure(std::string run_a, std::string run_b, CompareOptions options,
                   const SeriesFilter* filter);
    const std::string& run_a() const;
    const std::string& run_b() const;
    const CompareOptions& options() const;
    // Takes in what the Store gained since the last call. Returns whether result() changed.
    bool update();
    // What compare_runs(store, run_a, run_b, options, filter) would return now.
    const RunComparison& result() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace runtop
