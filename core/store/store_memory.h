// What the series of one Store share for memory: the arena their points live in, their keys,
// the limits, a running count of every byte that grows with the data (so checking the budget
// after an append is one comparison), and the order chunks were sealed in (the budget folds the
// globally oldest first).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/series_key.h"
#include "core/store/point_arena.h"
#include "core/store/series_index.h"
#include "core/store/store_limits.h"

namespace runtop {

class StoreMemory final : private PointArena::Room {
  public:
    explicit StoreMemory(const StoreLimits& limits) : limits_(limits) {
        // Empty slabs kept resident: those the budget has room for, and at least a 64th of the
        // budget, 1 to 32 MiB (not counted in bytes(): the process' RSS may exceed the budget by
        // that much).
        const std::uint64_t keep =
            std::clamp<std::uint64_t>(limits.memory_bytes / 64, 1 << 20, 32 << 20);
        arena_.keep_empty(keep / PointArena::kSlabBytes);
        arena_.set_room(this);
    }
    StoreMemory(const StoreMemory&) = delete;
    StoreMemory& operator=(const StoreMemory&) = delete;

    PointArena& arena() { return arena_; }
    // Every series' key, interned; a Series finds its key here by its id.
    SeriesIndex& index() { return index_; }
    const SeriesIndex& index() const { return index_; }
    const StoreLimits& limits() const { return limits_; }
    std::uint64_t bytes() const { return bytes_; }
    // Something counted changed from `before` to `after` bytes.
    void resize(std::uint64_t before, std::uint64_t after) {
        bytes_ += after - before;
        if (after > before) grown_ += after - before;
    }
    // Every byte ever added to bytes(), what was freed not taken off: what was allocated, also
    // while folding holds bytes() in place.
    std::uint64_t grown() const { return grown_; }
    // What the process holds beside the Store and charges to its budget (the Analyzer's rule
    // state, the view model): the budget folds points until bytes() + outside() fits.
    std::uint64_t outside() const { return outside_; }
    void set_outside(std::uint64_t bytes) { outside_ = bytes; }
    // What the process holds beyond everything counted and the reserve left for it, as last
    // measured (Store::set_resident_probe): charged too, so the budget bounds the process.
    std::uint64_t unaccounted() const { return unaccounted_; }
    void set_unaccounted(std::uint64_t bytes) { unaccounted_ = bytes; }
    std::uint64_t charged() const { return bytes_ + outside_ + unaccounted_; }

    // A chunk was sealed: its number in sealing order, recorded for the budget (if any).
    std::uint64_t sealed(SeriesId series) {
        const std::uint64_t seq = next_seq_++;
        if (limits_.bounded_memory()) {
            const std::size_t before = seals_.capacity();
            seals_.push_back({series, seq});
            if (seals_.capacity() != before)
                resize(before * sizeof(Seal), seals_.capacity() * sizeof(Seal));
        }
        return seq;
    }
    struct Seal {
        SeriesId series;
        std::uint64_t seq;
    };
    // The oldest record not yet taken. It may be stale: its chunk folded (by the per-series
    // budget) or dropped by a restart since; Series::oldest_sealed_seq() tells.
    bool take_oldest(Seal& out) {
        if (head_ == seals_.size()) return false;
        out = seals_[head_++];
        if (head_ == seals_.size()) {
            seals_.clear();
            head_ = 0;
        } else if (head_ >= 4096 && head_ * 2 >= seals_.size()) {
            seals_.erase(seals_.begin(), seals_.begin() + static_cast<std::ptrdiff_t>(head_));
            head_ = 0;
        }
        return true;
    }

  private:
    std::uint64_t room_bytes() const override {
        if (!limits_.bounded_memory()) return UINT64_MAX;
        return limits_.memory_bytes > charged() ? limits_.memory_bytes - charged() : 0;
    }

    PointArena arena_;
    SeriesIndex index_;
    StoreLimits limits_;
    std::uint64_t bytes_ = 0;
    std::uint64_t grown_ = 0;
    std::uint64_t outside_ = 0;
    std::uint64_t unaccounted_ = 0;
    std::uint64_t next_seq_ = 0;
    std::vector<Seal> seals_;  // a FIFO: taken from head_
    std::size_t head_ = 0;
};

}  // namespace runtop
