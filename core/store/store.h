// The Store: every series with its points, after restart semantics (DESIGN.md §2), in bounded
// memory (StoreLimits: `runtop ls --memory`, default 1 GiB). A series keeps its recent points
// at full resolution and older ones as a pyramid of summaries (core/store/series.h), so a spike or
// a NaN is never lost, only how precisely we know where it was.
//
// memory_bytes() counts everything that grows with the data: packed chunks, tails, summaries
// and their pyramids, the vectors holding them (by capacity), restart markers, the seal FIFO,
// the Series objects and their interned keys and index (core/store/series_index.h). It is kept
// as a running sum, so checking the budget after an append is one comparison. Over the budget
// the globally oldest sealed chunks are folded into buckets (in sealing order) until it is under
// 90% of the budget; if still over, buckets are merged, series by series; as the last resort
// tails are folded (each series' whole tail into a bucket, oldest series first) and buckets
// merged again.
// Beside its own bytes the budget carries what the caller charges for the rest of the process
// (set_outside_bytes(): the Analyzer's per-series rule state, the view model), so the Store
// folds earlier the more the rest holds. After an append returns memory_bytes() plus that is
// within the budget, unless the budget is below what cannot be folded (the floor, about 290 bytes a
// series: its object, key and index entry and one bucket, plus the charge); then it
// stays at that floor plus at most a sixteenth of the budget or an eighth of the charge, whichever
// is more (each pass over millions of series costs: it is not run for every few bytes).
//
// Blocks come from a slab arena (core/store/point_arena.h) that hands empty slabs back to the
// system, so the process' resident memory stays close to memory_bytes() (bench/store_probe:
// 10^8 points in 100 series under a 256 MiB budget peak at 259 MiB of RSS).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/point_sink.h"
#include "core/series_key.h"
#include "core/store/paged_vector.h"
#include "core/store/series.h"
#include "core/store/store_limits.h"
#include "core/store/store_memory.h"

namespace runtop {

class Store final : public PointSink {
  public:
    explicit Store(StoreLimits limits = {});
    ~Store() override;
    // Series refer to the Store's memory by address: a Store stays where it was made.
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;
    SeriesId series(const SeriesKey& key, SourceId source) override;
    void append(SeriesId id, const Point& point) override {
        Series& s = series_[id];
        const std::uint64_t before = s.count();
        s.append(point);
        points_ += s.count() - before;  // one more, as many, or fewer after a restart
        if (memory_->charged() > next_check_) enforce_budget();
    }
    void session_start(std::string_view run, int rank, std::int64_t step,
                       double wall_time) override;
    void config_text(ConfigText text) override;
    void anomaly(ImportedAnomaly anomaly) override;

    std::size_t series_count() const { return series_.size(); }
    const Series& at(SeriesId id) const { return series_[id]; }
    // Ids ordered by (run, rank, tag), the order `ls` and `dump` print in.
    std::vector<SeriesId> sorted_ids() const;
    // The latest text per (run, rank, tag).
    const std::vector<ConfigText>& config_texts() const { return configs_; }
    // Every point held, full resolution or folded (the sum of Series::count()): a running sum,
    // so a status line may show it every frame whatever the number of series.
    std::uint64_t total_points() const { return points_; }
    // Imported anomalies, one per (run, key), in arrival order.
    const std::vector<ImportedAnomaly>& imported_anomalies() const { return anomalies_; }

    const StoreLimits& limits() const { return memory_->limits(); }
    std::uint64_t memory_bytes() const { return memory_->bytes(); }
    // Bytes the rest of the process holds for its series (the Analyzer's rule state, the view
    // model) and charges to this budget: points are folded until memory_bytes() plus these fit
    // (enforced now if they grew past it). What `--memory` bounds is then the whole process.
    void set_outside_bytes(std::uint64_t bytes) {
        const std::uint64_t before = memory_->outside();
        memory_->set_outside(bytes);
        if (bytes < before) outside_fell(before - bytes);
        if (memory_->charged() > next_check_) enforce_budget();
    }
    std::uint64_t outside_bytes() const { return memory_->outside(); }
    // With StoreLimits::series_per_check, the rounds a budget check began may be owed: goes on
    // with them until `deadline` (the dashboard gives them time between keys, so memory does
    // not run ahead of the budget while checks go a slice at a time).
    bool rounds_owed() const { return rounds_owed_; }
    // Rounds are owed and what is charged is already past the budget: whoever feeds the Store
    // should let keep_budget() catch up before appending more (a slice of series per check
    // folds less than a burst of appends adds).
    bool behind_budget() const {
        return rounds_owed_ && memory_->charged() > memory_->limits().memory_bytes;
    }
    // What is charged beyond the budget once the rounds have folded all they can (none owed):
    // only what the outside holds can give it back (AnalyzingSink sheds spike windows).
    std::uint64_t over_floor_bytes() const {
        const std::uint64_t budget = memory_->limits().memory_bytes;
        const std::uint64_t charged = memory_->charged();
        return rounds_owed_ || charged <= budget ? 0 : charged - budget;
    }
    void keep_budget(std::chrono::steady_clock::time_point deadline);
    // Whole-process bounding: `resident` says what the process holds in memory (its RSS; 0:
    // unknown). At budget checks, once what is counted has moved a 64th of the budget since the
    // last reading (or that much was allocated), what the process holds beyond everything
    // counted and `reserve` (StoreLimits::resident_reserve) is charged too, so malloc's slack,
    // slab slack and the empty slabs kept resident fold points like what is counted. For a process
    // with one Store (the dashboard, snapshot, diff): each of several would take the whole excess.
    void set_resident_probe(std::function<std::uint64_t()> resident, std::uint64_t reserve);
    // Empty slabs kept resident while the budget has room (core/store/point_arena.h): not
    // counted in memory_bytes(), resident all the same.
    std::uint64_t kept_empty_bytes() const {
        return memory_->arena().empty_resident_slabs() * std::uint64_t{PointArena::kSlabBytes};
    }
    // The excess last measured (0 without a probe).
    std::uint64_t unaccounted_bytes() const { return memory_->unaccounted(); }
    // How many times the budget was checked (a fold, a reading of the resident set or a slice
    // of rounds) after an append or a change of the outside: what the budget costs beyond them.
    std::uint64_t budget_checks() const { return budget_checks_; }

  private:
    void enforce_budget();
    // Measures the excess resident_ reports (see set_resident_probe).
    void measure_unaccounted();
    // The next check: folding past `check`, measuring the resident memory (with a probe) past
    // measure_at_, whichever comes first.
    void arm(std::uint64_t check);

    // How enforce_budget() frees memory once no sealed chunk is left to fold, each a pass round
    // the series: merge buckets (until a whole round merges nothing), fold tails (one round: a
    // series loses its newest full-resolution points), merge what they became.
    enum class Round { kMerge, kTails, kMergeAfter };
    // Goes on with the current round while memory is over `target`, at most `visits` series
    // (counted down). True once the last round of the three is over.
    bool go_round(std::size_t& visits, std::uint64_t target);
    // What folding brings memory down to: a tenth under the budget, so it is not at once over.
    std::uint64_t fold_target() const {
        const std::uint64_t budget = memory_->limits().memory_bytes;
        return budget - budget / 10;
    }
    // The rounds, at most `visits` series; true when they are over or memory is under target.
    bool run_rounds(std::size_t visits);
    // After the rounds: the next check once memory has grown a step.
    void finish_rounds();
    // What is charged fell back under the budget from outside (the rules shed their windows, the
    // excess measured went): the next check is the budget again, not a step past where the
    // rounds left it (2 M series ran 60 MiB past the budget into the room a shed made).
    void back_to_budget();
    // The outside freed `bytes`: back to the budget, and with a probe, a measurement before the
    // Store grows into the room, since what the outside frees mostly stays resident (malloc
    // keeps it): 2 M series grew 40 MiB past the budget after the rules let their waiting steps
    // go at the end of a backfill.
    void outside_fell(std::uint64_t bytes);
    // Counts what grows with the number of series (their objects, keys, groups).
    void account_series();

    std::unique_ptr<StoreMemory> memory_;  // before series_: outlives them
    std::uint64_t next_check_;             // charged above this calls enforce_budget()
    std::uint64_t budget_check_;           // charged above this folds (next_check_ without a probe)
    std::uint64_t measure_at_ = 0;        // counted above this measures the resident again (0: now)
    std::uint64_t measured_grown_ = 0;    // StoreMemory::grown() at the last reading
    std::uint64_t points_ = 0;            // total_points()
    std::uint64_t budget_checks_ = 0;     // budget_checks()
    std::size_t merge_cursor_ = 0;        // where the next bucket merge starts
    std::size_t fold_cursor_ = 0;         // where the next tail fold starts
    Round round_ = Round::kMerge;         // where enforce_budget() goes on
    bool rounds_owed_ = false;            // a slice ran out before the rounds were over
    std::size_t visited_ = 0;             // series the round visited (merges: since one merged)
    std::uint64_t cycle_freed_ = 0;       // what this cycle of rounds folded away
    std::uint64_t series_accounted_ = 0;  // what account_series() last counted
    std::uint64_t group_bytes_ = 0;       // by_run_rank_'s id vectors, by capacity
    std::function<std::uint64_t()> resident_;
    std::uint64_t resident_reserve_ = 0;
    PagedVector<Series> series_;
    std::map<std::pair<std::string, int>, std::vector<SeriesId>, std::less<>> by_run_rank_;
    std::vector<SeriesId>* last_group_ = nullptr;  // by_run_rank_'s entry of the last new series
    SeriesKey last_group_key_;
    std::vector<ConfigText> configs_;
    std::vector<ImportedAnomaly> anomalies_;
    std::map<std::pair<std::string, std::string>, std::size_t> anomaly_index_;
    // (run, raw tag, op, rule, step) of each anomaly that names them: the same alarm read from
    // two files (a monitor's anomaly file and its console log) is one anomaly.
    std::map<std::tuple<std::string, std::string, std::string, std::string, std::int64_t>,
             std::size_t>
        anomaly_sightings_;
};

}  // namespace runtop
