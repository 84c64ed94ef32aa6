// The compare view's data: which two runs are compared, the RunComparer kept up to date as the
// Store grows, and its per-tag rows in the order the user sorted them. Drawing, keys, clicks
// and Enter all read it through compare_rows(), which does the work only when something
// changed: the runs, the options, the filter or the Store (RunComparer::update() is
// incremental, so a data frame during ingest costs what the new points cost).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "views/compare/compare_cache.h"
#include "views/compare/compare_state.h"
#include "views/model.h"

namespace runtop::ui {

std::string_view compare_sort_name(CompareSort sort, bool ascii);  // "divergence", "|Δ|", "name"
CompareSort next_compare_sort(CompareSort sort);

// The runs `state` compares: its own, or (when empty) the first two of model.run_names() the
// run filter selects, which are in command-line root order (`runtop base=A new=B`: base is A).
std::pair<std::string, std::string> compare_runs_of(const CompareState& state,
                                                    const ViewModel& model);

// The rows for `state`, brought up to date. Frames that answer a key
// (model.ingest.key_frame) reuse the last rows while runs, options and filter are unchanged:
// the data frame that follows takes in what arrived.
const CompareRows& compare_rows(const CompareState& state, const ViewModel& model);

// The row index (into CompareRows::order) of `tag`, -1 when it is not a row.
int compare_row_of(const CompareRows& rows, std::string_view tag);

}  // namespace runtop::ui
