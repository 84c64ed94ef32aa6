#include "core/point_arena.h"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

namespace runtop {
namespace {

constexpr std::size_t kRegionBytes = std::size_t{64} << 20;  // a multiple of 2 MiB huge pages
constexpr std::size_t kHugePage = std::size_t{2} << 20;

}  // namespace

PointArena::~PointArena() {
    for (auto [base, bytes] : mappings_) ::munmap(base, bytes);
}

int PointArena::class_for(std::size_t bytes) {
    int c = 0;
    while (bytes_of(c) < bytes) ++c;
    return c;
}

void* PointArena::map(std::size_t bytes) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    // Only advice: where transparent huge pages are off, this is plain memory.
    ::madvise(p, bytes, MADV_HUGEPAGE);
    mappings_.emplace_back(p, bytes);
    mapped_ += bytes;
    return p;
}

void* PointArena::allocate(int size_class) {
    if (size_class < 0 || size_class >= kClasses) throw std::bad_alloc();
    if (FreeBlock* b = free_[static_cast<std::size_t>(size_class)]) {
        free_[static_cast<std::size_t>(size_class)] = b->next;
        return b;
    }
    const std::size_t bytes = bytes_of(size_class);
    if (bytes >= kRegionBytes / 4) {  // a very long series: a mapping of its own
        std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        return map(rounded);
    }
    if (static_cast<std::size_t>(end_ - cursor_) < bytes) {
        // The tail of the old region is handed to the free lists rather than lost.
        for (int c = size_class - 1; c >= 0; --c) {
            while (static_cast<std::size_t>(end_ - cursor_) >= bytes_of(c)) {
                release(cursor_, c);
                cursor_ += bytes_of(c);
            }
        }
        cursor_ = static_cast<char*>(map(kRegionBytes));
        end_ = cursor_ + kRegionBytes;
    }
    void* out = cursor_;
    cursor_ += bytes;
    return out;
}

void PointArena::release(void* block, int size_class) {
    if (!block) return;
    if (bytes_of(size_class) >= kRegionBytes / 4) {
        // Its own mapping: give it back to the system now.
        for (auto it = mappings_.begin(); it != mappings_.end(); ++it) {
            if (it->first == block) {
                ::munmap(it->first, it->second);
                mapped_ -= it->second;
                mappings_.erase(it);
                return;
            }
        }
        std::abort();  // not a block of this arena: a bug
    }
    auto* b = static_cast<FreeBlock*>(block);
    b->next = free_[static_cast<std::size_t>(size_class)];
    free_[static_cast<std::size_t>(size_class)] = b;
}

}  // namespace runtop
