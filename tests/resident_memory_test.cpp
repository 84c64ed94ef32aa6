// The resident-memory probe behind --memory's whole-process bound (app/resident_memory.h).
#include "app/resident_memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

namespace runtop {
namespace {

TEST(ResidentMemory, FollowsWhatThisProcessTouches) {
    const std::uint64_t before = resident_bytes();
    if (before == 0) GTEST_SKIP() << "no /proc/self/statm, or a sanitizer build (no probe there)";
    EXPECT_GT(before, std::uint64_t{1} << 20);
    constexpr std::size_t kBytes = std::size_t{64} << 20;
    auto block = std::make_unique<char[]>(kBytes);
    std::memset(block.get(), 1, kBytes);  // every page touched: resident
    const std::uint64_t after = resident_bytes();
    EXPECT_GE(after, before + kBytes * 3 / 4);
    EXPECT_LT(after, before + kBytes * 2);
    EXPECT_EQ(block[kBytes - 1], 1);
}

}  // namespace
}  // namespace runtop
