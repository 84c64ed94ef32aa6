// Memory for series points: the Store's open tails, its packed chunks and the vectors of
// summaries (core/store/series.h). With malloc, growing series meant a fault per 4 KiB page touched
// and malloc/free bookkeeping on every growth, together a third of the time of ingesting a
// large CSV tree; and under the memory budget, chunks folded away would leave holes that
// malloc keeps. The arena is a slab allocator over large mappings: blocks in multiples of 64 bytes,
// each size from its own 64 KiB slabs. A slab whose blocks are all released goes back to the system
// (the budget folds the oldest chunks first, and those sit together in old slabs), so resident
// memory follows what the Store holds. Blocks over 16 KiB (a long series' summary vector) get a
// mapping of their own. Not thread-safe: one Store, one thread.
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
    // How many empty slabs stay resident for the next ones needed; beyond, they go back to the
    // system. A fresh page costs its zeroing on the next touch (1 to 7 s a GiB on a busy VM):
    // when the budget folds a rank's tails while the next rank's grow, a pool the size of that
    // turnover saves re-faulting it. The Store sizes it from its budget.
    void keep_empty(std::size_t slabs) { keep_empty_ = slabs; }
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

    std::array<Slab*, kMaxBlock / kGranule + 1> partial_{};  // by block size in granules
    std::vector<Slab*> empty_resident_;
    std::vector<Slab*> empty_released_;
    char* cursor_ = nullptr;  // slabs never used yet, in the newest region
    char* end_ = nullptr;
    std::vector<std::pair<void*, std::size_t>> mappings_;  // regions
    std::size_t mapped_ = 0;
    bool closing_ = false;
    std::size_t keep_empty_ = 16;
};

}  // namespace runtop
