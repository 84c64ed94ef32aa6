#include "core/store/store.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace runtop {

namespace {

// A rough size of what a new series adds besides its points: its key's heap text (short
// strings live inside the Series), its index node and its place in its (run, rank) group.
std::uint64_t key_bytes(const SeriesKey& key) {
    auto heap = [](const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; };
    return heap(key.run) + heap(key.tag) + 32 + sizeof(SeriesId);
}

}  // namespace

Store::Store(StoreLimits limits)
    : memory_(std::make_unique<StoreMemory>(limits)), next_check_(limits.memory_bytes) {}

Store::~Store() {
    memory_->arena().closing();  // series_ goes first, its blocks with the arena's mappings
}

SeriesId Store::series(const SeriesKey& key, SourceId source) {
    if (auto it = index_.find(key); it != index_.end()) return *it;
    const auto id = static_cast<SeriesId>(series_.size());
    const std::size_t capacity = series_.capacity();
    series_.emplace_back(key, source, id, *memory_);
    index_.insert(id);
    memory_->resize(0, key_bytes(key) + (series_.capacity() - capacity) * sizeof(Series));
    // New series mostly come a run and rank at a time: skip the map lookup then.
    if (!last_group_ || last_group_key_.rank != key.rank || last_group_key_.run != key.run) {
        last_group_ = &by_run_rank_[{key.run, key.rank}];
        last_group_key_.run = key.run;
        last_group_key_.rank = key.rank;
    }
    last_group_->push_back(id);
    return id;
}

void Store::session_start(std::string_view run, int rank, std::int64_t step, double wall_time) {
    auto group = by_run_rank_.find(std::make_pair(std::string(run), rank));
    if (group == by_run_rank_.end()) return;  // nothing before this session: a first start
    for (SeriesId id : group->second) {
        Series& s = series_[id];
        if (s.empty()) continue;
        // Every series of the group gets the marker, so views show where the session resumed.
        std::uint64_t dropped = s.truncate_from(step);
        s.mark_restart({step, wall_time, dropped});
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

std::uint64_t Store::total_points() const {
    std::uint64_t n = 0;
    for (const Series& s : series_) n += s.count();
    return n;
}

void Store::enforce_budget() {
    const std::uint64_t budget = memory_->limits().memory_bytes;
    const std::uint64_t target = budget - budget / 10;
    // The globally oldest sealed chunks first. A record is stale when its chunk is gone
    // already (folded by its series' own budget, or dropped by a restart): records come out
    // in sealing order and every series folds its oldest first, so the record is live exactly
    // when its chunk is still its series' oldest sealed one.
    StoreMemory::Seal seal;
    while (memory_->bytes() > target && memory_->take_oldest(seal)) {
        Series& s = series_[seal.series];
        if (s.oldest_sealed_seq() == seal.seq) s.fold_oldest();
    }
    // Then the buckets, a series at a time round the store, until under the target or no
    // series has two buckets left to merge.
    for (std::size_t idle = 0; memory_->bytes() > target && idle < series_.size();) {
        if (merge_cursor_ >= series_.size()) merge_cursor_ = 0;
        idle = series_[merge_cursor_++].merge_buckets() > 0 ? 0 : idle + 1;
    }
    // Below the floor nothing more can go: try again only once memory has grown a little, not
    // on every append.
    next_check_ = memory_->bytes() <= budget ? budget : memory_->bytes() + budget / 16;
}

}  // namespace runtop
