// Memory for series points. Series grow by doubling; with malloc that meant a fault per 4 KiB
// page touched and malloc/free bookkeeping on every growth, together a third of the time of
// ingesting a large CSV tree. The arena hands out power-of-two blocks from large mappings
// advised for transparent huge pages, keeps freed blocks in per-size free lists for the next
// series to grow into, and returns everything at once when the Store goes.
// Not thread-safe: one Store, one thread.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace runtop {

class PointArena {
  public:
    PointArena() = default;
    ~PointArena();
    PointArena(const PointArena&) = delete;
    PointArena& operator=(const PointArena&) = delete;

    // A block of (kMinBytes << size_class) bytes, 64-byte aligned.
    void* allocate(int size_class);
    void release(void* block, int size_class);
    static std::size_t bytes_of(int size_class) { return kMinBytes << size_class; }
    // The smallest class whose blocks hold `bytes`.
    static int class_for(std::size_t bytes);
    std::size_t mapped_bytes() const { return mapped_; }

    static constexpr std::size_t kMinBytes = 64;
    static constexpr int kClasses = 40;

  private:
    struct FreeBlock {
        FreeBlock* next;
    };
    void* map(std::size_t bytes);

    std::array<FreeBlock*, kClasses> free_{};
    char* cursor_ = nullptr;
    char* end_ = nullptr;
    std::vector<std::pair<void*, std::size_t>> mappings_;
    std::size_t mapped_ = 0;
};

}  // namespace runtop
