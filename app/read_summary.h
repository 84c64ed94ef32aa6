// What ls, dump and check say about one full read, in the same words, so a script can compare
// their summary lines (docs/howto.md#what-the-summary-lines-count). Every count is over the
// selected series (--filter, --ranks), the only ones the commands read into memory (a
// FilteringSink in front of their sink); files, bytes and records count whole files:
//   read        points the readers handed over: the same in all three;
//   kept        what a Store holds after restart semantics (ls's POINTS column, dump's rows);
//   superseded  read - kept: points replaced by a repeated step, dropped by a step going back
//               or by a SessionLog START (check keeps no Store and says only `read`).
// And what could not be judged: unreadable files and directories, files waiting on an
// incomplete last record (`waiting`), and the warnings printed (waiting lines included).
#pragma once

#include <cstdint>
#include <string>

#include "core/store/store.h"
#include "readers/source_reader.h"

namespace runtop {

struct PointCounts {
    std::size_t series = 0;
    std::uint64_t read = 0;
    std::uint64_t kept = 0;
    // Histogram tags (one per run, rank and tag), each nine of `series` (core/distribution.h).
    std::size_t distributions = 0;
};

// Over the series of a Store filled through a FilteringSink: the selected ones. `kept` is every
// point held (folded ones included).
PointCounts store_point_counts(const Store& store);
// The same over Stores filled side by side (app/thread_stores.h).
PointCounts store_point_counts(const std::vector<const Store*>& stores);

// "S series, R points read from F files"
std::string read_text(std::size_t series, std::uint64_t read, const IngestTotals& totals);
// "K kept, X superseded by restarts and repeated steps"
std::string kept_text(const PointCounts& counts);
// "U unreadable, P waiting, W warnings"
std::string problems_text(const IngestTotals& totals, std::size_t warnings);

// When the Store, folded as far as it goes, still holds more than its budget: what no budget
// folds (each series' key, rule state and last point) is over it. One line for stderr, naming
// the budget (memory_budget_text()) and what the series hold; "" when within it.
std::string over_budget_text(const Store& store, const std::string& budget);
// The same over Stores that share a budget.
std::string over_budget_text(const std::vector<const Store*>& stores, const std::string& budget);

// Files and directories under the roots that could not be opened or read.
inline std::uint64_t unreadable_count(const IngestTotals& t) {
    return t.unreadable_files + t.unreadable_dirs;
}
// "2 data files", "1 directory", "2 data files and 1 directory"
std::string unreadable_text(const IngestTotals& totals);
// ls and dump print what they could read; when part of the roots could not be read, this says
// so in one line ("runtop dump: 1 data file could not be read: the output is incomplete") and
// returns true: their exit status is then 2, as tar's is, so a script never takes a partial
// listing or export for a whole one.
bool say_incomplete(const char* command, const IngestTotals& totals);

}  // namespace runtop
