#include "core/store/point_arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
// Under AddressSanitizer blocks not handed out are poisoned: a read past a block or of a
// released one is reported as it would be with malloc.
#define RUNTOP_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define RUNTOP_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define RUNTOP_POISON(p, n) ((void)(p), (void)(n))
#define RUNTOP_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace runtop {
namespace {

constexpr std::size_t kRegionBytes = std::size_t{64} << 20;  // a multiple of 2 MiB huge pages
// Small enough that the zeroed lines are still in the cache when blocks are written there (a
// 2 MiB step was 1.06x slower where faults are cheap), large enough to save 63 faults of 64.
constexpr std::size_t kPopulateBytes = std::size_t{256} << 10;

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels say EINVAL and pages fault as before
#endif

// Faults [p, p + bytes) in with one call. Best effort: where the kernel cannot (too old, or out
// of memory for now), the pages fault in as they are touched, as without it.
void populate(void* p, std::size_t bytes) {
    static std::atomic<bool> supported{true};  // arenas of several threads ask
    if (supported.load(std::memory_order_relaxed) &&
        ::madvise(p, bytes, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
        supported.store(false, std::memory_order_relaxed);
}

void* map(std::size_t bytes) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return p;
}

}  // namespace

PointArena::~PointArena() {
    for (auto [base, bytes] : mappings_) {
        RUNTOP_UNPOISON(base, bytes);
        ::munmap(base, bytes);
    }
}

void PointArena::map_region() {
    // One slab more than the region, to start it on a slab boundary: a block finds its
    // slab's header by masking its address.
    char* p = static_cast<char*>(map(kRegionBytes + kSlabBytes));
    mappings_.emplace_back(p, kRegionBytes + kSlabBytes);
    mapped_ += kRegionBytes + kSlabBytes;
    const auto aligned = (reinterpret_cast<std::uintptr_t>(p) + kSlabBytes - 1) & ~(kSlabBytes - 1);
    cursor_ = reinterpret_cast<char*>(aligned);
    end_ = cursor_ + kRegionBytes;
    populated_ = cursor_;
    // Not advised for transparent huge pages: where the kernel's THP defrag is "madvise" (the
    // default), a fault in an advised region compacts memory to find 2 MiB, and on a machine
    // whose page cache holds the files being read that made ls of 1.3 GB of msProbe CSVs
    // 1.35-1.6x slower (a third of its time zeroing and compacting). Where THP is "always",
    // the kernel still uses huge pages it has at hand. Pages are touched (and count in RSS)
    // only as blocks are handed out.
    RUNTOP_POISON(cursor_, kRegionBytes);
}

void PointArena::populate_fresh(char* slab) {
    if (slab < populated_) return;
    const std::size_t bytes = std::min<std::size_t>(kPopulateBytes, end_ - slab);
    populate(slab, bytes);
    populated_ = slab + bytes;
}

bool PointArena::may_keep(std::size_t slabs) const {
    return slabs <= keep_empty_ ||
           (room_ && slabs * std::uint64_t{kSlabBytes} <= room_->room_bytes());
}

void PointArena::trim() {
    while (!empty_resident_.empty() && !may_keep(empty_resident_.size())) {
        Slab* s = empty_resident_.back();
        empty_resident_.pop_back();
        give_back(s);
    }
}

void PointArena::give_back(Slab* s) {
    // The address range stays ours for a later slab.
    ::madvise(s, kSlabBytes, MADV_DONTNEED);
    empty_released_.push_back(s);
    ++returned_;
}

PointArena::Slab* PointArena::new_slab(std::size_t block_bytes) {
    char* at;
    if (!empty_resident_.empty()) {
        at = reinterpret_cast<char*>(empty_resident_.back());
        empty_resident_.pop_back();
    } else if (!empty_released_.empty()) {
        at = reinterpret_cast<char*>(empty_released_.back());
        empty_released_.pop_back();
        populate(at, kSlabBytes);
    } else {
        if (cursor_ == end_) map_region();
        at = cursor_;
        populate_fresh(at);
        cursor_ += kSlabBytes;
    }
    RUNTOP_UNPOISON(at, kHeader);
    Slab* s = new (at) Slab{};
    s->block_bytes = static_cast<std::uint32_t>(block_bytes);
    s->capacity = static_cast<std::uint32_t>((kSlabBytes - kHeader) / block_bytes);
    return s;
}

void PointArena::link(Slab* s) {
    Slab*& head = partial_[s->block_bytes / kGranule];
    s->prev = nullptr;
    s->next = head;
    if (head) head->prev = s;
    head = s;
}

void PointArena::unlink(Slab* s) {
    Slab*& head = partial_[s->block_bytes / kGranule];
    if (s->prev)
        s->prev->next = s->next;
    else
        head = s->next;
    if (s->next) s->next->prev = s->prev;
    s->prev = s->next = nullptr;
}

void* PointArena::allocate(std::size_t bytes) {
    if (bytes == 0) return nullptr;
    bytes = footprint(bytes);
    if (bytes > kMaxBlock) return map(bytes);
    Slab* s = partial_[bytes / kGranule];
    if (!s) {
        s = new_slab(bytes);
        link(s);
    }
    void* out;
    if (s->free) {
        RUNTOP_UNPOISON(s->free, sizeof(FreeBlock));
        out = s->free;
        s->free = s->free->next;
    } else {
        out = reinterpret_cast<char*>(s) + kHeader + std::size_t{s->carved} * bytes;
        ++s->carved;
    }
    if (++s->live == s->capacity) unlink(s);
    RUNTOP_UNPOISON(out, bytes);
    return out;
}

void PointArena::release(void* block, std::size_t bytes) {
    if (!block) return;
    bytes = footprint(bytes);
    if (bytes > kMaxBlock) {
        ::munmap(block, bytes);
        return;
    }
    if (closing_) return;
    Slab* s = reinterpret_cast<Slab*>(reinterpret_cast<std::uintptr_t>(block) & ~(kSlabBytes - 1));
    const bool was_full = s->live == s->capacity;
    auto* b = static_cast<FreeBlock*>(block);
    b->next = s->free;
    s->free = b;
    RUNTOP_POISON(block, bytes);
    if (--s->live == 0) {
        if (!was_full) unlink(s);
        RUNTOP_POISON(s, kSlabBytes);
        if (may_keep(empty_resident_.size() + 1)) {
            empty_resident_.push_back(s);
        } else {
            give_back(s);
        }
    } else if (was_full) {
        link(s);
    }
}

void* PointArena::reallocate(void* block, std::size_t old_bytes, std::size_t keep,
                             std::size_t new_bytes) {
    const std::size_t from = block ? footprint(old_bytes) : 0, to = footprint(new_bytes);
    if (block && from == to) return block;
    if (block && from > kMaxBlock && to > kMaxBlock) {
        void* p = ::mremap(block, from, to, MREMAP_MAYMOVE);
        if (p == MAP_FAILED) throw std::bad_alloc();
        return p;
    }
    void* p = allocate(new_bytes);
    if (keep > 0) std::memcpy(p, block, keep);
    release(block, old_bytes);
    return p;
}

}  // namespace runtop
