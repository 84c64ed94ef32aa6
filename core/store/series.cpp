#include "core/store/series.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace runtop {
namespace {

// Vectors grow by a quarter, not double: their slack counts against the budget.
template <class T>
void push_grow(std::vector<T>& v, const T& x) {
    if (v.size() == v.capacity()) v.reserve(v.size() + v.size() / 4 + 4);
    v.push_back(x);
}

SegmentSummary aggregate(const SegmentSummary* s, std::size_t n) {
    SegmentSummary out = s[0];
    for (std::size_t i = 1; i < n; ++i) out = merged(out, s[i]);
    return out;
}

}  // namespace

Series::Series(SourceId source, SeriesId id, StoreMemory& memory)
    : memory_(&memory), id_(id), source_(source) {}

Series::Extra& Series::extra() {
    if (!extra_) extra_ = std::make_unique<Extra>();
    return *extra_;
}

const std::vector<Series::Summaries>& Series::levels() const {
    static const std::vector<Summaries> none;
    return extra_ ? extra_->levels : none;
}

Point Series::back() const {
    if (tail_len_ > 0)
        return {tail_steps()[tail_len_ - 1], tail_walls()[tail_len_ - 1],
                tail_values()[tail_len_ - 1]};
    // With an empty tail nothing is sealed after the buckets (truncate_from unseals the last
    // chunk, fold_tail folds every chunk), so the last point is the last bucket's.
    const SegmentSummary& b = summaries_.back();
    return {b.last_step, b.last_wall, b.last_value};
}

void Series::read(std::size_t first, std::size_t n, std::int64_t* steps, double* walls,
                  double* values) const {
    const std::size_t sealed_points = sealed_count() * kChunk;
    while (n > 0 && first < sealed_points) {
        const SealedChunk& c = sealed_[sealed_head_ + first / kChunk];
        const std::size_t from = first % kChunk;
        const std::size_t k = std::min(n, kChunk - from);
        if (steps) c.steps(from, k, steps);
        if (walls) c.walls(from, k, walls);
        if (values) c.values(from, k, values);
        first += k;
        n -= k;
        steps = steps ? steps + k : nullptr;
        walls = walls ? walls + k : nullptr;
        values = values ? values + k : nullptr;
    }
    if (n == 0) return;
    const std::size_t t = first - sealed_points;
    if (steps) std::memcpy(steps, tail_steps() + t, n * sizeof(std::int64_t));
    if (walls) std::memcpy(walls, tail_walls() + t, n * sizeof(double));
    if (values) std::memcpy(values, tail_values() + t, n * sizeof(double));
}

std::int64_t Series::first_step() const {
    if (!summaries_.empty()) return summaries_.front().first_step;
    return tail_len_ > 0 ? tail_steps()[0] : 0;
}

void Series::grow_tail(std::size_t capacity) {
    PointArena& arena = memory_->arena();
    void* block = arena.allocate(capacity * kTailPointBytes);
    auto* steps = static_cast<std::int64_t*>(block);
    auto* walls = reinterpret_cast<double*>(steps + capacity);
    double* values = walls + capacity;
    if (tail_len_ > 0) {
        std::memcpy(steps, tail_steps(), tail_len_ * sizeof(std::int64_t));
        std::memcpy(walls, tail_walls(), tail_len_ * sizeof(double));
        std::memcpy(values, tail_values(), tail_len_ * sizeof(double));
    }
    arena.release(tail_, tail_cap_ * kTailPointBytes);
    tail_ = block;
    tail_cap_ = static_cast<std::uint8_t>(capacity);
}

void Series::make_room() {
    // 2 points first (one 64-byte block): a series of one point, or one whose older points
    // the budget folded, costs no more.
    if (tail_cap_ < kChunk)
        grow_tail(tail_cap_ == 0 ? 2 : tail_cap_ == 2 ? 8 : tail_cap_ * 2u);
    else
        seal_tail();
    account();
}

void Series::seal_tail() {
    SegmentSummary summary;
    SealedChunk chunk =
        seal_chunk(tail_steps(), tail_walls(), tail_values(), memory_->arena(), summary);
    chunk.seq = memory_->sealed(id_);
    packed_bytes_ += PointArena::footprint(chunk.bytes());
    summaries_.push_back(memory_->arena(), summary);
    sealed_.push_back(memory_->arena(), chunk);
    tail_len_ = 0;
    fix_levels_from(summaries_.size() - 1);
    // The per-series budget: whole chunks, so up to kChunk - 1 more points in the tail.
    const std::uint64_t budget = memory_->limits().series_points;
    while (sealed_count() > 0 && sealed_count() * kChunk > budget) fold_oldest();
}

void Series::unseal_last() {
    // A tail reaches kChunk before anything is sealed, and never shrinks.
    SealedChunk& c = sealed_.back();
    unseal_chunk(c, tail_steps(), tail_walls(), tail_values());
    tail_len_ = kChunk;
    packed_bytes_ -= PointArena::footprint(c.bytes());
    release_chunk(c, memory_->arena());
    sealed_.pop_back();
    summaries_.pop_back();
}

bool Series::fold_oldest() {
    if (sealed_count() == 0) return false;
    SealedChunk& c = sealed_[sealed_head_];
    packed_bytes_ -= PointArena::footprint(c.bytes());
    release_chunk(c, memory_->arena());
    ++sealed_head_;
    ++folded_;  // its summary, already in place, is now a bucket
    if (sealed_head_ >= 16 && sealed_head_ * 2 >= sealed_.size()) {
        sealed_.erase(0, sealed_head_);
        sealed_head_ = 0;
        // Under the global budget a series can lose most of its chunks: its capacity for them
        // would still count.
        if (sealed_.capacity() > 2 * sealed_.size() + 16) sealed_.shrink_to_fit(memory_->arena());
    } else if (sealed_head_ == sealed_.size()) {
        sealed_.clear();
        sealed_head_ = 0;
    }
    account();
    return true;
}

bool Series::fold_tail() {
    if (sealed_count() == 0 && folded_ == 0 && tail_len_ <= 1) {
        // A lone point with nothing folded before it costs least as it is, in the smallest
        // tail: a 64-byte block, where a bucket takes 128.
        if (tail_cap_ <= 2) return false;
        if (tail_len_ == 0)
            release_tail();
        else
            grow_tail(2);  // a smaller block: the point moves with it
        account();
        return true;
    }
    if (sealed_count() == 0 && tail_cap_ == 0) return false;
    while (fold_oldest()) {
    }
    if (tail_len_ > 0) {
        // Every point, the last too: a repeated step then replaces the bucket's last value
        // (replace_or_restart), its extremes keeping the old one, which is what a restart cut
        // into folded data does. The tail's block is a fifth of what a series at the floor
        // costs, and a million series at the floor are what this round is for.
        summaries_.push_back(memory_->arena(),
                             summarize(tail_steps(), tail_walls(), tail_values(), tail_len_));
        ++folded_;
        fix_levels_from(summaries_.size() - 1);
    }
    summaries_.shrink_to_fit(memory_->arena());  // the budget is why we are here: no slack
    release_tail();
    account();
    return true;
}

void Series::release_tail() {
    memory_->arena().release(tail_, tail_cap_ * kTailPointBytes);
    tail_ = nullptr;
    tail_cap_ = 0;
    tail_len_ = 0;
}

std::size_t Series::merge_buckets() {
    if (folded_ < 2) return 0;
    // The older half of the buckets merges pairwise where neighbours are at the same level,
    // like a binary counter: old data ends up in few wide buckets while recent data keeps
    // its resolution. With no such pair, the two oldest merge.
    const std::size_t older = std::max<std::size_t>(2, folded_ / 2);
    std::size_t out = 0;
    for (std::size_t i = 0; i < folded_;) {
        if (i + 1 < older && summaries_[i].level == summaries_[i + 1].level) {
            summaries_[out++] = merged(summaries_[i], summaries_[i + 1]);
            i += 2;
        } else {
            summaries_[out++] = summaries_[i++];
        }
    }
    if (out == folded_) {  // no two neighbours at the same level
        summaries_[0] = merged(summaries_[0], summaries_[1]);
        for (std::size_t i = 1; i + 1 < folded_; ++i) summaries_[i] = summaries_[i + 1];
        out = folded_ - 1;
    }
    const std::size_t gone = folded_ - out;
    summaries_.erase(out, folded_);
    folded_ = out;
    // Give the memory back now: the budget is why we are here.
    summaries_.shrink_to_fit(memory_->arena());
    if (extra_) {
        extra_->levels.clear();
        extra_->levels.shrink_to_fit();
    }
    fix_levels_from(0);
    account();
    return gone;
}

std::uint64_t Series::truncate_from(std::int64_t step) {
    if (count_ == 0 || step > last_step_) return 0;
    std::uint64_t dropped = 0;
    auto cut_tail = [&] {
        const auto keep = static_cast<std::size_t>(
            std::lower_bound(tail_steps(), tail_steps() + tail_len_, step) - tail_steps());
        dropped += tail_len_ - keep;
        count_ -= tail_len_ - keep;
        tail_len_ = static_cast<std::uint8_t>(keep);
    };
    cut_tail();
    if (tail_len_ == 0 && !summaries_.empty()) {
        // Segments wholly at or after `step` go.
        while (!summaries_.empty() && summaries_.back().first_step >= step) {
            dropped += summaries_.back().count;
            count_ -= summaries_.back().count;
            if (sealed_count() > 0) {
                packed_bytes_ -= PointArena::footprint(sealed_.back().bytes());
                release_chunk(sealed_.back(), memory_->arena());
                sealed_.pop_back();
            } else {
                --folded_;
            }
            summaries_.pop_back();
        }
        std::size_t first_changed = summaries_.size();
        if (sealed_count() > 0) {
            // The last sealed chunk goes back to the tail, whether it straddles `step` or not:
            // the last point lives in the tail, where a repeated step can replace it.
            unseal_last();
            cut_tail();
            first_changed = summaries_.size();
        } else if (!summaries_.empty() && summaries_.back().last_step >= step) {
            SegmentSummary& b = summaries_.back();  // cut: see clip_before
            const std::uint64_t before = b.count;
            b.clip_before(step);
            dropped += before - b.count;
            count_ -= before - b.count;
            first_changed = summaries_.size() - 1;
        }
        if (sealed_count() == 0) {
            sealed_.clear();
            sealed_head_ = 0;
        }
        fix_levels_from(first_changed);
    }
    if (tail_len_ > 0)
        last_step_ = tail_steps()[tail_len_ - 1];
    else if (!summaries_.empty())
        last_step_ = summaries_.back().last_step;
    else
        last_step_ = 0;
    account();
    return dropped;
}

void Series::replace_or_restart(const Point& p) {
    if (p.step == last_step_) {  // the same step written again: the later write wins
        if (tail_len_ > 0) {
            tail_walls()[tail_len_ - 1] = p.wall_time;
            tail_values()[tail_len_ - 1] = p.value;
            return;
        }
        // The last point is a bucket's (a restart cut back into folded data, or the budget
        // folded the whole tail): its counts and sum swap the values; its extremes keep the
        // old one too (they cannot forget).
        SegmentSummary& b = summaries_.back();
        b.remove_value(b.last_value);
        b.add_value(p.value);
        b.last_wall = p.wall_time;
        b.last_value = p.value;
        fix_levels_from(summaries_.size() - 1);
        return;
    }
    const std::uint64_t dropped = truncate_from(p.step);
    mark_restart({p.step, p.wall_time, dropped});
    push(p);
}

void Series::mark_restart(const RestartMarker& marker) {
    Extra& e = extra();
    if (e.restarts.size() < kMaxRestarts) {
        push_grow(e.restarts, marker);
        account();
    } else {
        ++e.restarts_lost;
    }
}

void Series::fix_levels_from(std::size_t first_changed) {
    if (!extra_ && summaries_.size() < kGroup) return;  // no level yet, none needed
    std::vector<Summaries>& levels = extra().levels;
    std::size_t valid = first_changed / kGroup;  // level-0 groups wholly before it
    for (Summaries& level : levels) {
        if (level.size() > valid) level.truncate(valid);
        valid /= kGroup;
    }
    std::size_t k = 0;
    for (;; ++k) {
        const std::size_t below = k == 0 ? summaries_.size() : levels[k - 1].size();
        if (below < kGroup) break;
        if (k == levels.size()) levels.emplace_back(memory_->arena());
        const SummaryBuffer& from = k == 0 ? summaries_ : levels[k - 1];
        Summaries& level = levels[k];
        while ((level.size() + 1) * kGroup <= below)
            level.push_back(aggregate(from.data() + level.size() * kGroup, kGroup));
    }
    levels.erase(levels.begin() + static_cast<std::ptrdiff_t>(k), levels.end());
}

void Series::account() {
    auto arena_bytes = [](const auto& v) {
        return PointArena::footprint(v.capacity() * sizeof(v[0]));
    };
    std::uint64_t bytes = arena_bytes(summaries_) + arena_bytes(sealed_) + packed_bytes_ +
                          PointArena::footprint(tail_cap_ * kTailPointBytes);
    if (extra_) {
        bytes += sizeof(Extra) + extra_->levels.capacity() * sizeof(Summaries) +
                 extra_->restarts.capacity() * sizeof(RestartMarker);
        for (const Summaries& level : extra_->levels) bytes += arena_bytes(level);
    }
    memory_->resize(accounted_, bytes);
    accounted_ = bytes;
}

}  // namespace runtop
