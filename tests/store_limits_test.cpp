#include "core/store/store_limits.h"

#include <gtest/gtest.h>

namespace runtop {
namespace {

std::uint64_t size(std::string_view text) {
    Result<std::uint64_t> r = parse_memory_size(text);
    EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : 0;
}

TEST(StoreLimits, MemorySizesInBinaryUnits) {
    constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
    EXPECT_EQ(size("1G"), kGiB);
    EXPECT_EQ(size("1GiB"), kGiB);
    EXPECT_EQ(size("1gb"), kGiB);
    EXPECT_EQ(size("512M"), 512u << 20);
    EXPECT_EQ(size("512MiB"), 512u << 20);
    EXPECT_EQ(size("256m"), 256u << 20);
    EXPECT_EQ(size("64k"), 64u << 10);
    EXPECT_EQ(size("2T"), std::uint64_t{2} << 40);
    EXPECT_EQ(size("1073741824"), kGiB);
    EXPECT_EQ(size("100B"), 100u);
    EXPECT_EQ(size("2.5G"), 5 * kGiB / 2);
    EXPECT_EQ(size("0.5K"), 512u);
    EXPECT_EQ(size("18446744073709551615"), ~std::uint64_t{0});
}

TEST(StoreLimits, BadMemorySizesSayWhy) {
    for (const char* text : {"", "0", "0G", "-1G", "-5", "G", "1X", "1 G", "1GG", "1iB", "1.2.3M",
                             "0.1", "1.5", "abc", "18446744073709551616", "16777216T", "1e9"}) {
        Result<std::uint64_t> r = parse_memory_size(text);
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_NE(r.error().message.find(text), std::string::npos) << r.error().message;
        EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
    }
    EXPECT_NE(parse_memory_size("0").error().message.find("zero"), std::string::npos);
    EXPECT_NE(parse_memory_size("-1G").error().message.find("negative"), std::string::npos);
    EXPECT_NE(parse_memory_size("99999999999999999999").error().message.find("too large"),
              std::string::npos);
}

TEST(StoreLimits, UnboundedMeansNoBudget) {
    EXPECT_FALSE(StoreLimits::unbounded().bounded_memory());
    EXPECT_TRUE(StoreLimits{}.bounded_memory());
    EXPECT_EQ(StoreLimits{}.memory_bytes, std::uint64_t{1} << 30);
    EXPECT_EQ(StoreLimits{}.series_points, std::uint64_t{1} << 20);
}

// --memory bounds the whole process: the Store's share, what the process held before reading
// (10 MiB here) and a 16th for the allocator's slack are read against its resident set, and what
// the baseline leaves of the last 16th is for what grows between two readings.
TEST(StoreLimits, TheResidentReserveKeepsTheWholeProcessWithinItsBudget) {
    constexpr std::uint64_t kMiB = 1 << 20, kBaseline = 10 * kMiB;
    for (std::uint64_t process : {1024 * kMiB, 256 * kMiB}) {
        const StoreLimits limits = StoreLimits::for_process(process);
        EXPECT_EQ(limits.memory_bytes + limits.resident_reserve(kBaseline),
                  process - process / 16 + kBaseline);
    }
    // The default: the baseline and half the last 16th (what 2 M series grew between two
    // readings) fit.
    const StoreLimits gib = StoreLimits::for_process(1024 * kMiB);
    EXPECT_LE(gib.memory_bytes + gib.resident_reserve(kBaseline) + 32 * kMiB, 1024 * kMiB);
}

}  // namespace
}  // namespace runtop
