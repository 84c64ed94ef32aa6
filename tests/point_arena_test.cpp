// The slab arena's residency: empty slabs stay resident while the owner's budget has room for
// them (so a turnover of blocks does not give pages back and fault them in again), go back to
// the system beyond it, and fresh slabs are faulted in 256 KiB at a time.
#include "core/store/point_arena.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

namespace runtop {
namespace {

constexpr std::size_t kBlock = 1024;
constexpr std::size_t kPerSlab = (PointArena::kSlabBytes - 64) / kBlock;

struct FixedRoom final : PointArena::Room {
    std::uint64_t bytes = 0;
    std::uint64_t room_bytes() const override { return bytes; }
};

// Blocks filling `slabs` whole slabs, each written to.
std::vector<void*> fill(PointArena& arena, std::size_t slabs) {
    std::vector<void*> blocks;
    for (std::size_t i = 0; i < slabs * kPerSlab; ++i) {
        blocks.push_back(arena.allocate(kBlock));
        std::memset(blocks.back(), 0x5a, kBlock);
    }
    return blocks;
}

void release_all(PointArena& arena, std::vector<void*>& blocks) {
    for (void* b : blocks) arena.release(b, kBlock);
    blocks.clear();
}

// An arena whose owner's budget has `room` slabs of room, keeping `keep` empty slabs whatever.
struct RoomyArena {
    RoomyArena(std::uint64_t room_slabs, std::size_t keep) {
        room.bytes = room_slabs == UINT64_MAX ? UINT64_MAX : room_slabs * PointArena::kSlabBytes;
        arena.set_room(&room);
        arena.keep_empty(keep);
    }
    FixedRoom room;
    PointArena arena;
};

// Fills `slabs` slabs, releases every block, and expects `resident` of them kept.
void expect_kept(std::uint64_t room_slabs, std::size_t keep, std::size_t slabs,
                 std::size_t resident) {
    RoomyArena a(room_slabs, keep);
    auto blocks = fill(a.arena, slabs);
    release_all(a.arena, blocks);
    EXPECT_EQ(a.arena.empty_resident_slabs(), resident);
    EXPECT_EQ(a.arena.returned_slabs(), slabs - resident);
}

TEST(PointArena, EmptySlabsStayResidentWhileTheRoomHoldsThem) {
    expect_kept(10, 0, 12, 10);
}

TEST(PointArena, KeepEmptyHoldsSlabsWithNoRoomAtAll) {
    expect_kept(0, 3, 8, 3);
}

TEST(PointArena, TrimGivesBackWhatTheRoomNoLongerHolds) {
    RoomyArena a(100, 2);
    PointArena& arena = a.arena;
    auto blocks = fill(arena, 9);
    release_all(arena, blocks);
    ASSERT_EQ(arena.empty_resident_slabs(), 9u);
    arena.trim();  // the room still holds them
    EXPECT_EQ(arena.empty_resident_slabs(), 9u);
    a.room.bytes = 5 * PointArena::kSlabBytes;
    arena.trim();
    EXPECT_EQ(arena.empty_resident_slabs(), 5u);
    a.room.bytes = 0;
    arena.trim();
    EXPECT_EQ(arena.empty_resident_slabs(), 2u);
    EXPECT_EQ(arena.returned_slabs(), 7u);
}

TEST(PointArena, ResidentEmptySlabsAreUsedAgainBeforeNewOnes) {
    RoomyArena a(UINT64_MAX, 16);
    PointArena& arena = a.arena;
    auto blocks = fill(arena, 6);
    release_all(arena, blocks);
    const std::size_t mapped = arena.mapped_bytes();
    blocks = fill(arena, 6);
    EXPECT_EQ(arena.empty_resident_slabs(), 0u);
    EXPECT_EQ(arena.mapped_bytes(), mapped);
    // A block of another size takes a resident empty slab too, and its bytes are its own.
    release_all(arena, blocks);
    auto* other = static_cast<unsigned char*>(arena.allocate(192));
    std::memset(other, 0x11, 192);
    EXPECT_EQ(arena.empty_resident_slabs(), 5u);
    EXPECT_EQ(other[191], 0x11);
    arena.release(other, 192);
}

TEST(PointArena, FreshSlabsAreFaultedInAFewAtATime) {
    // Where the kernel cannot (before Linux 5.14), pages fault in one by one as before.
    void* probe = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(probe, MAP_FAILED);
    const bool supported = ::madvise(probe, 4096, 23 /* MADV_POPULATE_WRITE */) == 0;
    ::munmap(probe, 4096);
    if (!supported)
        GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (errno " << errno << ")";

    PointArena arena;
    auto* first = static_cast<unsigned char*>(arena.allocate(64));
    first[0] = 1;
    // The pages of the next slabs of the same 256 KiB are resident before anything touches them.
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    auto* slab = reinterpret_cast<unsigned char*>(reinterpret_cast<std::uintptr_t>(first) &
                                                  ~(PointArena::kSlabBytes - 1));
    const std::size_t span = 4 * PointArena::kSlabBytes;
    std::vector<unsigned char> resident(span / page);
    ASSERT_EQ(::mincore(slab, span, resident.data()), 0) << std::strerror(errno);
    for (std::size_t i = 0; i < resident.size(); ++i)
        EXPECT_TRUE(resident[i] & 1) << "page " << i << " of the first 4 slabs is not resident";
    arena.release(first, 64);
}

}  // namespace
}  // namespace runtop
