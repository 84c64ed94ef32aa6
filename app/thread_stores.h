// A Store per reader thread, for ls and dump: they print every series in key order and judge
// nothing across ranks, so each thread may read whole (run, rank) groups of files into a Store
// of its own (SourceSet::split_between) and the Stores are merged only when printed. Both cores
// then parse and store: no recording, no replay on one thread (readers/reader_pool.h).
// When a file named another run or rank than its own (a series could then be in two Stores),
// everything is read again into one Store, as a read on one sink would have it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/read_summary.h"
#include "core/filtering_sink.h"
#include "core/series_filter.h"
#include "core/store/store.h"
#include "readers/reader_pool.h"
#include "readers/source_set.h"

namespace runtop {

class ThreadStores {
  public:
    // `limits`: the budget of all the Stores together, shared out evenly.
    ThreadStores(const SeriesFilter& filter, StoreLimits limits);

    // Reads the roots once (as read_once() does: messages printed, their count returned), a
    // Store per thread.
    std::size_t read(const std::vector<RootSpec>& roots, std::uint64_t process_bytes,
                     std::size_t threads = default_reader_threads());

    const SourceSet& sources() const { return *sources_; }
    // Every series, in (run, rank, tag) order.
    std::vector<const Series*> sorted() const;
    std::size_t config_texts() const;
    std::size_t imported_anomalies() const;
    // For store_point_counts() and over_budget_text().
    std::vector<const Store*> stores() const;
    // How many Stores the read went into (1 when it was read again into one).
    std::size_t store_count() const { return stores_.size(); }

  private:
    void make(std::size_t count);

    const SeriesFilter& filter_;
    StoreLimits limits_;
    // Before sources_: readers hold the sinks.
    std::vector<std::unique_ptr<Store>> stores_;
    std::vector<std::unique_ptr<FilteringSink>> sinks_;
    std::unique_ptr<SourceSet> sources_;
};

}  // namespace runtop
