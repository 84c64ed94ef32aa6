#include "core/store.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace runtop {

Series::Series(Series&& o) noexcept
    : key_(std::move(o.key_)),
      kind_(o.kind_),
      arena_(o.arena_),
      chunks_(std::move(o.chunks_)),
      tail_(std::exchange(o.tail_, Chunk{})),
      tail_chunk_(std::exchange(o.tail_chunk_, 0)),
      tail_first_(std::exchange(o.tail_first_, 0)),
      tail_end_(std::exchange(o.tail_end_, 0)),
      size_(std::exchange(o.size_, 0)),
      last_step_(o.last_step_),
      restarts_(std::move(o.restarts_)),
      received_(o.received_) {}

void Series::next_chunk() {
    const std::size_t c = tail_end_ == 0 ? 0 : tail_chunk_ + 1;
    if (c == chunks_.size()) {
        const int cls = static_cast<int>(c);  // chunk c holds kFirstChunk << c points
        chunks_.push_back(Chunk{static_cast<std::int64_t*>(arena_->allocate(cls)),
                                static_cast<double*>(arena_->allocate(cls)),
                                static_cast<double*>(arena_->allocate(cls))});
    }
    tail_ = chunks_[c];
    tail_chunk_ = c;
    tail_first_ = first_index(c);
    tail_end_ = first_index(c + 1);
}

void Series::locate_tail() {
    if (size_ == 0) {  // the chunks stay, for the points that replace the dropped ones
        tail_end_ = 0;
        next_chunk();
        return;
    }
    // The chunk of the last kept point; push() moves on when it is full.
    const std::size_t c = chunk_of(size_ - 1);
    tail_ = chunks_[c];
    tail_chunk_ = c;
    tail_first_ = first_index(c);
    tail_end_ = first_index(c + 1);
}

void Series::append(const Point& p) {
    ++received_;
    if (size_ == 0 || p.step > last_step_) {
        push(p);
        return;
    }
    if (p.step == last_step_) {  // the same step written again: the later write wins
        const std::size_t at = size_ - 1 - first_index(chunk_of(size_ - 1));
        const Chunk& c = chunks_[chunk_of(size_ - 1)];
        c.walls[at] = p.wall_time;
        c.values[at] = p.value;
        return;
    }
    std::uint64_t dropped = truncate_from(p.step);
    restarts_.push_back({p.step, p.wall_time, dropped});
    push(p);
}

std::uint64_t Series::truncate_from(std::int64_t step) {
    // Steps increase: binary search for the first index at or after `step`.
    std::size_t lo = 0, hi = size_;
    while (lo < hi) {
        std::size_t mid = lo + (hi - lo) / 2;
        if (point(mid).step < step)
            lo = mid + 1;
        else
            hi = mid;
    }
    std::uint64_t dropped = size_ - lo;
    size_ = lo;
    if (size_ > 0) last_step_ = point(size_ - 1).step;
    locate_tail();
    return dropped;
}

SeriesId Store::series(const SeriesKey& key, SourceKind kind) {
    if (auto it = index_.find(key); it != index_.end()) return *it;
    const auto id = static_cast<SeriesId>(series_.size());
    series_.emplace_back(key, kind, *arena_);
    index_.insert(id);
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
    for (const Series& s : series_) n += s.size();
    return n;
}

}  // namespace runtop
