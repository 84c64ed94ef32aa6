#include "core/store/store.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace runtop {

Store::Store(StoreLimits limits)
    : memory_(std::make_unique<StoreMemory>(limits)), next_check_(limits.memory_bytes) {}

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
    auto [it, inserted] = anomaly_index_.try_emplace({anomaly.run, anomaly.key}, anomalies_.size());
    if (inserted)
        anomalies_.push_back(std::move(anomaly));
    else
        anomalies_[it->second] = std::move(anomaly);
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

void Store::enforce_budget() {
    const std::uint64_t budget = memory_->limits().memory_bytes;
    const std::uint64_t target = budget - budget / 10;
    // The globally oldest sealed chunks first. A record is stale when its chunk is gone
    // already (folded by its series' own budget, or dropped by a restart): records come out
    // in sealing order and every series folds its oldest first, so the record is live exactly
    // when its chunk is still its series' oldest sealed one.
    StoreMemory::Seal seal;
    while (memory_->charged() > target && memory_->take_oldest(seal)) {
        Series& s = series_[seal.series];
        if (s.oldest_sealed_seq() == seal.seq) s.fold_oldest();
    }
    merge_buckets_until(target);
    // Still over: the tails, a series at a time round the store, oldest series first. Only
    // here does a series lose its newest full-resolution points, so every bucket that could
    // merge has merged first; what the folded tails become merges after.
    for (std::size_t idle = 0; memory_->charged() > target && idle < series_.size();) {
        if (fold_cursor_ >= series_.size()) fold_cursor_ = 0;
        idle = series_[fold_cursor_++].fold_tail() ? 0 : idle + 1;
    }
    merge_buckets_until(target);
    // Below the floor nothing more can go: try again only once memory has grown a little, not
    // on every append. What is charged from outside grows with every new series; a pass over
    // millions of series for each sixteenth of the budget it adds would cost more than the
    // folding itself, so the step grows with the charge (an eighth of it).
    const std::uint64_t step = std::max(budget / 16, memory_->outside() / 8);
    next_check_ = memory_->charged() <= budget ? budget : memory_->charged() + step;
}

void Store::merge_buckets_until(std::uint64_t target) {
    for (std::size_t idle = 0; memory_->charged() > target && idle < series_.size();) {
        if (merge_cursor_ >= series_.size()) merge_cursor_ = 0;
        idle = series_[merge_cursor_++].merge_buckets() > 0 ? 0 : idle + 1;
    }
}

}  // namespace runtop
