#include "readers/crc32c.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace runtop {
namespace {

// Vectors from TFEVENTS.md §2.
TEST(Crc32c, StandardCheckValue) {
    EXPECT_EQ(crc32c("123456789", 9), 0xE3069283u);
    EXPECT_EQ(crc32c_portable("123456789", 9), 0xE3069283u);
}

TEST(Crc32c, ThirtyTwoZeroBytes) {
    std::string zeros(32, '\0');
    EXPECT_EQ(crc32c(zeros.data(), zeros.size()), 0x8A9136AAu);
}

TEST(Crc32c, MaskedVectors) {
    std::string s =
        "\x1a\x11"
        "CRC test, one two";
    EXPECT_EQ(masked_crc32c(s.data(), s.size()), 0x5794D08Au);
    const unsigned char len24[8] = {0x18, 0, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(masked_crc32c(len24, 8), 0x224B7FA3u);
    const unsigned char zeros[8] = {};
    EXPECT_EQ(masked_crc32c(zeros, 8), 0x07980329u);
    std::string rec =
        std::string("\x09\x00\x00\x80\x38\x99\xd6\xd7\x41\x1a\x0d", 11) + "brain.Event:2";
    EXPECT_EQ(masked_crc32c(rec.data(), rec.size()), 0xAB364B12u);
}

TEST(Crc32c, HardwareMatchesPortableOnEveryLengthAndAlignment) {
    std::mt19937 rng(1);
    // Past 192 bytes the hardware path runs three interleaved streams: cover both paths and
    // every tail length around the block boundaries.
    std::string data(9000, '\0');
    for (char& c : data) c = static_cast<char>(rng());
    for (std::size_t offset = 0; offset < 9; ++offset)
        for (std::size_t n = 0; n + offset <= data.size(); n += (n < 1200 ? 1 : 61))
            ASSERT_EQ(crc32c(data.data() + offset, n), crc32c_portable(data.data() + offset, n))
                << "offset " << offset << " length " << n;
}

}  // namespace
}  // namespace runtop
