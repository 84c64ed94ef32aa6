// The compare view's data: which two runs are compared, the RunComparer kept up to date as the
// Store grows, and its per-tag rows in the order the user sorted them. Drawing, keys, clicks
// and Enter all read it through compare_rows(), which does the work only when something
// changed: the runs, the options, the filter or the Store (RunComparer::update() is
// incremental, so a data frame during ingest costs what the new points cost).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/compare/run_compare.h"
#include "views/model.h"

namespace runtop::ui {

// How the table is ordered.
enum class CompareSort : std::uint8_t {
    kDivergence,  // diverging tags first, the earliest first divergence first; then by name
    kDelta,       // the largest relative |Δ| at the newest common step first
    kName,        // by tag
};
std::string_view compare_sort_name(CompareSort sort, bool ascii);  // "divergence", "|Δ|", "name"
CompareSort next_compare_sort(CompareSort sort);

struct CompareState;
struct CompareCache;
std::shared_ptr<CompareCache> make_compare_cache();

// What the view shows, from the comparer's result.
struct CompareRows {
    std::string run_a, run_b;  // the runs compared ("" when the Store has fewer than two)
    bool two_runs() const { return !run_a.empty() && !run_b.empty() && run_a != run_b; }
    CompareOptions options;
    std::vector<TagComparison> tags;  // tag_rows(): every tag in either run, by tag
    std::vector<int> order;           // tags in both runs (indices into tags), sorted
    std::vector<int> only_a, only_b;  // tags in one run only, by tag
    std::size_t diverging = 0;        // tags of `order` with a diverging pair
    // The earliest first divergence of any tag (an index into tags), -1 when none diverges.
    int first = -1;
    const TagComparison& row(int i) const { return tags[order[i]]; }
    int rows() const { return static_cast<int>(order.size()); }
};

// The runs `state` compares: its own, or (when empty) the first two of model.run_names(),
// which are in command-line root order (`runtop base=A new=B`: base is A).
std::pair<std::string, std::string> compare_runs_of(const CompareState& state,
                                                    const ViewModel& model);

// The rows for `state`, brought up to date. Frames that answer a key
// (model.ingest.key_frame) reuse the last rows while runs, options and filter are unchanged:
// the data frame that follows takes in what arrived.
const CompareRows& compare_rows(const CompareState& state, const ViewModel& model);

// The row index (into CompareRows::order) of `tag`, -1 when it is not a row.
int compare_row_of(const CompareRows& rows, std::string_view tag);

}  // namespace runtop::ui
