// Memory for series points: the Store's open tails, its packed chunks and the vectors of
// summaries (core/store/series.h). With malloc, growing series meant a fault per 4 KiB page touched
// and malloc/free bookkeeping on every growth, together a third of the time of ingesting a
// large CSV tree; and under the memory budget, chunks folded away would leave holes that
// malloc keeps. The arena is a slab allocator over large mappings: blocks in multiples of 64 bytes,
// each size from its own 64 KiB slabs. A slab whose blocks are all released goes back to the system
// (the budget folds the oldest chunks first, and those sit together in old slabs), so resident
// memory follows what the Store holds. Blocks over 16 KiB (a long series' summary vector) get a
// mapping of their own. Not thread-safe: one Store, one thread.
//
// A page's first touch is a fault, and a fault is dear on a virtual machine: 2.5 us a page where
// this was first measured, 14 us on the 2-core VM of issue 17 (3.6 s a GiB, most of `ls`'s
// system time). So fresh slabs are populated 256 KiB at a time (MADV_POPULATE_WRITE: one call, the
// same zeroing, no fault each page: 7x cheaper there), and an empty slab stays resident while the
// budget has room for it (`Room`), so the turnover of folding one rank's tails while the next
// rank's grow does not give pages back and fault them in again.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace runtop {

class PointArena {
  public:
    PointArena() = default;
    ~PointArena();
    PointArena(const PointArena&) = delete;
    PointArena& operator=(const PointArena&) = delete;

    static constexpr std::size_t kGranule = 64;
    static constexpr std::size_t kSlabBytes = 64 * 1024;
    static constexpr std::size_t kMaxBlock = 16 * 1024;  // larger blocks: their own mapping
    static constexpr std::size_t kPage = 4096;

    // What a block of `bytes` really takes.
    static std::size_t footprint(std::size_t bytes) {
        const std::size_t unit = bytes <= kMaxBlock ? kGranule : kPage;
        return (bytes + unit - 1) / unit * unit;
    }
    // A block of at least `bytes`, 64-byte aligned; nullptr for 0 bytes.
    void* allocate(std::size_t bytes);
    // `bytes` as given to allocate().
    void release(void* block, std::size_t bytes);
    // A block of `new_bytes` holding the first `keep` bytes of `block` (of `old_bytes`): in
    // place when both sizes have the same footprint, by mremap between own mappings.
    void* reallocate(void* block, std::size_t old_bytes, std::size_t keep, std::size_t new_bytes);
    std::size_t mapped_bytes() const { return mapped_; }
    // How much more the owner's budget can hold: empty slabs stay resident while they fit in
    // it (or number at most keep_empty()), and go back to the system beyond.
    struct Room {
        virtual std::uint64_t room_bytes() const = 0;

      protected:
        ~Room() = default;
    };
    void set_room(const Room* room) { room_ = room; }
    // Empty slabs kept resident whatever the room.
    void keep_empty(std::size_t slabs) { keep_empty_ = slabs; }
    // Gives back the empty slabs the room no longer holds (the owner's budget filled up).
    void trim();
    std::size_t empty_resident_slabs() const { return empty_resident_.size(); }
    // Empty slabs given back to the system so far.
    std::uint64_t returned_slabs() const { return returned_; }
    // The arena goes soon: releases of slab blocks are skipped (the mappings go whole), so
    // that freeing a large Store does not walk its slabs block by block.
    void closing() { closing_ = true; }

  private:
    struct FreeBlock {
        FreeBlock* next;
    };
    // At the start of every slab in use.
    struct Slab {
        Slab* prev;  // in partial_[class]: slabs with room
        Slab* next;
        FreeBlock* free;  // released blocks
        std::uint32_t block_bytes;
        std::uint32_t live;      // blocks handed out
        std::uint32_t carved;    // blocks ever handed out from the untouched part
        std::uint32_t capacity;  // blocks that fit
    };
    static constexpr std::size_t kHeader = 64;
    static_assert(sizeof(Slab) <= kHeader);

    Slab* new_slab(std::size_t block_bytes);
    void link(Slab* s);
    void unlink(Slab* s);
    void map_region();
    // A slab is about to be handed out: fault its pages in 256 KiB at a time, not one by one.
    void populate_fresh(char* slab);
    // Whether `slabs` empty slabs may stay resident: keep_empty() of them, or what the room holds.
    bool may_keep(std::size_t slabs) const;
    void give_back(Slab* s);

    std::array<Slab*, kMaxBlock / kGranule + 1> partial_{};  // by block size in granules
    std::vector<Slab*> empty_resident_;
    std::vector<Slab*> empty_released_;
    char* cursor_ = nullptr;  // slabs never used yet, in the newest region
    char* end_ = nullptr;
    char* populated_ = nullptr;  // fresh slabs below it are populated already
    std::vector<std::pair<void*, std::size_t>> mappings_;  // regions
    std::size_t mapped_ = 0;
    bool closing_ = false;
    std::size_t keep_empty_ = 16;
    const Room* room_ = nullptr;
    std::uint64_t returned_ = 0;
};

}  // namespace runtop
