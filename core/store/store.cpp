#include "core/store/store.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

namespace runtop {

Store::Store(StoreLimits limits)
    : memory_(std::make_unique<StoreMemory>(limits)),
      next_check_(limits.memory_bytes),
      budget_check_(limits.memory_bytes) {}

Store::~Store() {
    memory_->arena().closing();  // series_ goes first, its blocks with the arena's mappings
}

SeriesId Store::series(const SeriesKey& key, SourceId source) {
    const auto [id, inserted] = memory_->index().insert(key);
    if (!inserted) return id;
    series_.emplace_back(source, id, *memory_);
    // New series mostly come a run and rank at a time: skip the map lookup then.
    if (!last_group_ || last_group_key_.rank != key.rank || last_group_key_.run != key.run) {
        last_group_ = &by_run_rank_[{key.run, key.rank}];
        last_group_key_.run = key.run;
        last_group_key_.rank = key.rank;
    }
    const std::size_t capacity = last_group_->capacity();
    last_group_->push_back(id);
    group_bytes_ += (last_group_->capacity() - capacity) * sizeof(SeriesId);
    account_series();
    return id;
}

void Store::account_series() {
    const std::uint64_t bytes = memory_->index().bytes() + series_.bytes() + group_bytes_;
    memory_->resize(series_accounted_, bytes);
    series_accounted_ = bytes;
}

void Store::session_start(std::string_view run, int rank, std::int64_t step, double wall_time) {
    auto group = by_run_rank_.find(std::make_pair(std::string(run), rank));
    if (group == by_run_rank_.end()) return;  // nothing before this session: a first start
    for (SeriesId id : group->second) {
        Series& s = series_[id];
        if (s.empty()) continue;
        // Every series of the group gets the marker, so views show where the session resumed.
        const std::uint64_t before = s.count();
        std::uint64_t dropped = s.truncate_from(step);
        s.mark_restart({step, wall_time, dropped});
        points_ -= before - s.count();
    }
}

void Store::config_text(ConfigText text) {
    for (ConfigText& existing : configs_) {
        if (existing.run == text.run && existing.rank == text.rank && existing.tag == text.tag) {
            existing = std::move(text);
            return;
        }
    }
    configs_.push_back(std::move(text));
}

void Store::anomaly(ImportedAnomaly anomaly) {
    if (const auto it = anomaly_index_.find({anomaly.run, anomaly.key});
        it != anomaly_index_.end()) {
        anomalies_[it->second] = std::move(anomaly);
        return;
    }
    if (!anomaly.raw_tag.empty() && !anomaly.op.empty()) {
        const auto [seen, fresh] = anomaly_sightings_.try_emplace(
            {anomaly.run, anomaly.raw_tag, anomaly.op, anomaly.rule, anomaly.step},
            anomalies_.size());
        if (!fresh) {
            // Seen in the other file: keep the copy that says more (the anomaly file's call
            // id, stages and group mates), under its key.
            ImportedAnomaly& known = anomalies_[seen->second];
            if (anomaly.call_id >= 0 && known.call_id < 0) {
                anomaly_index_.erase({known.run, known.key});
                anomaly_index_.emplace(std::pair{anomaly.run, anomaly.key}, seen->second);
                known = std::move(anomaly);
            }
            return;
        }
    }
    anomaly_index_.emplace(std::pair{anomaly.run, anomaly.key}, anomalies_.size());
    anomalies_.push_back(std::move(anomaly));
}

std::vector<SeriesId> Store::sorted_ids() const {
    // by_run_rank_ is already in (run, rank) order: only tags within a group need sorting.
    std::vector<SeriesId> ids;
    ids.reserve(series_.size());
    for (const auto& [group, members] : by_run_rank_) {
        auto first = ids.insert(ids.end(), members.begin(), members.end());
        std::sort(first, ids.end(), [this](SeriesId a, SeriesId b) {
            return series_[a].key().tag < series_[b].key().tag;
        });
    }
    return ids;
}

void Store::set_resident_probe(std::function<std::uint64_t()> resident, std::uint64_t reserve) {
    resident_ = std::move(resident);
    resident_reserve_ = reserve;
    measure_at_ = 0;  // measure now
    measure_unaccounted();
    arm(budget_check_);
}

void Store::arm(std::uint64_t check) {
    budget_check_ = check;
    // measure_at_ is in what is counted; a check compares what is charged, the excess with it.
    // Compared as it was, an excess past a step made every append a check (2 M series: 2.7 M
    // checks, keys waiting 140 ms).
    next_check_ = resident_ ? std::min(check, measure_at_ + memory_->unaccounted()) : check;
}

void Store::measure_unaccounted() {
    if (!resident_) return;
    const std::uint64_t counted = memory_->bytes() + memory_->outside();
    const std::uint64_t step = memory_->limits().memory_bytes / 64;
    // Reading the resident set is a system call or three: once what is counted has moved a
    // 64th of the budget either way, not at every check (a check every MiB while rounds are
    // owed). What nobody counts grows and shrinks with what is, and also with what is
    // allocated while folding holds the count in place: read again once that reaches a step
    // too (2 M series: the resident set crept 50 MiB past its last reading while what was
    // counted stayed within two steps of it).
    const bool moved = counted >= measure_at_ || counted + 2 * step <= measure_at_;
    if (!moved && memory_->grown() - measured_grown_ < step) return;
    measure_at_ = counted + step;
    measured_grown_ = memory_->grown();
    const std::uint64_t resident = resident_();
    if (resident == 0) return;  // unknown: the last figure stands
    // The empty slabs kept resident count in the excess too: they stay only while the budget
    // has room (PointArena::Room), and there is none while the process is over it.
    const std::uint64_t allowed = counted + resident_reserve_;
    const std::uint64_t before = memory_->unaccounted();
    memory_->set_unaccounted(resident > allowed ? resident - allowed : 0);
    if (memory_->unaccounted() < before) back_to_budget();
}

void Store::back_to_budget() {
    const std::uint64_t budget = memory_->limits().memory_bytes;
    if (!rounds_owed_ && budget_check_ > budget && memory_->charged() <= budget) arm(budget);
}

void Store::outside_fell(std::uint64_t bytes) {
    if (resident_ && bytes >= memory_->limits().memory_bytes / 64) {
        measure_at_ = 0;  // measure now
        arm(budget_check_);
    }
    back_to_budget();
}

void Store::enforce_budget() {
    ++budget_checks_;
    if (resident_) {
        measure_unaccounted();
        if (memory_->charged() <= budget_check_) {  // only a measurement was due
            arm(budget_check_);
            return;
        }
    }
    const std::uint64_t budget = memory_->limits().memory_bytes;
    const std::uint64_t target = fold_target();
    // Empty slabs kept while the budget had room for them are not charged: over it, they go
    // first (what folding frees next stays resident again, as room opens).
    memory_->arena().trim();
    // The globally oldest sealed chunks first. A record is stale when its chunk is gone
    // already (folded by its series' own budget, or dropped by a restart): records come out
    // in sealing order and every series folds its oldest first, so the record is live exactly
    // when its chunk is still its series' oldest sealed one.
    StoreMemory::Seal seal;
    while (memory_->charged() > target && memory_->take_oldest(seal)) {
        Series& s = series_[seal.series];
        if (s.oldest_sealed_seq() == seal.seq) s.fold_oldest();
    }
    // Then round the store, every round to its end or (StoreLimits::series_per_check) a slice
    // of series per check, the next check (or keep_budget()) going on where this one stopped.
    const std::size_t slice = memory_->limits().series_per_check;
    if (!run_rounds(slice > 0 ? slice : std::numeric_limits<std::size_t>::max())) {
        // The slice ran out: on once memory grows a little (a thousandth of the budget).
        arm(memory_->charged() + budget / 1024);
        rounds_owed_ = true;
        return;
    }
    finish_rounds();
}

bool Store::run_rounds(std::size_t visits) {
    const std::uint64_t target = fold_target();
    bool rounds_done = false;
    while (memory_->charged() > target && visits > 0 && !rounds_done)
        rounds_done = go_round(visits, target);
    return rounds_done || memory_->charged() <= target;
}

void Store::keep_budget(std::chrono::steady_clock::time_point deadline) {
    while (rounds_owed_) {
        const std::size_t slice = std::max<std::size_t>(memory_->limits().series_per_check, 256);
        if (run_rounds(slice)) finish_rounds();  // which may begin another cycle
        if (std::chrono::steady_clock::now() >= deadline) return;
    }
}

void Store::finish_rounds() {
    const std::uint64_t budget = memory_->limits().memory_bytes;
    const std::uint64_t freed = std::exchange(cycle_freed_, 0);
    round_ = Round::kMerge;
    visited_ = 0;
    // Rounds a slice at a time take many checks, and points keep coming: the series a round
    // passed early have grown again by its end, so a cycle that ends over the budget by less
    // than it folded away is not at the floor. Round again at once; backing off a step from
    // there let 2 M series run 60 MiB past the budget. Far over (a budget below the floor), a
    // cycle folds only what came during it: that is the floor, and rounding on would be a
    // round a check.
    if (rounds_owed_ && memory_->charged() > budget && memory_->charged() - budget < freed) {
        arm(memory_->charged() + budget / 1024);
        return;
    }
    rounds_owed_ = false;
    // Below the floor nothing more can go: try again only once memory has grown a little, not
    // on every append. What is charged from outside grows with every new series; rounds over
    // millions of series for each sixteenth of the budget it adds would cost more than the
    // folding itself, so the step grows with the charge (an eighth of it).
    const std::uint64_t step = std::max(budget / 16, memory_->outside() / 8);
    arm(memory_->charged() <= budget ? budget : memory_->charged() + step);
}

bool Store::go_round(std::size_t& visits, std::uint64_t target) {
    const bool tails = round_ == Round::kTails;
    std::size_t& cursor = tails ? fold_cursor_ : merge_cursor_;
    while (memory_->charged() > target && visited_ < series_.size() && visits > 0) {
        if (cursor >= series_.size()) cursor = 0;
        Series& s = series_[cursor++];
        const std::uint64_t before = memory_->bytes();
        if (tails) {
            s.fold_tail();
            ++visited_;
        } else {
            visited_ = s.merge_buckets() > 0 ? 0 : visited_ + 1;
        }
        if (memory_->bytes() < before) cycle_freed_ += before - memory_->bytes();
        --visits;
    }
    if (visited_ < series_.size()) return false;
    visited_ = 0;
    if (round_ == Round::kMergeAfter) return true;
    round_ = tails ? Round::kMergeAfter : Round::kTails;
    return false;
}

}  // namespace runtop
