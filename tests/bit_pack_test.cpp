#include "core/store/bit_pack.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace runtop {
namespace {

TEST(BitPack, WidthOfIsTheBitsNeeded) {
    EXPECT_EQ(bitpack::width_of(0), 0u);
    EXPECT_EQ(bitpack::width_of(1), 1u);
    EXPECT_EQ(bitpack::width_of(255), 8u);
    EXPECT_EQ(bitpack::width_of(256), 9u);
    EXPECT_EQ(bitpack::width_of(~std::uint64_t{0}), 64u);
    EXPECT_EQ(bitpack::words_for(128, 0), 0u);
    EXPECT_EQ(bitpack::words_for(128, 1), 2u);
    EXPECT_EQ(bitpack::words_for(3, 63), 3u);
}

// Every width, lengths that end mid-word and on a word, values at the top of the width.
TEST(BitPack, EveryWidthRoundTripsAndEachValueReadsAlone) {
    std::mt19937_64 rng(7);
    for (unsigned width = 0; width <= 64; ++width) {
        for (std::size_t n : {1u, 2u, 63u, 64u, 65u, 128u, 129u}) {
            std::vector<std::uint64_t> in(n);
            for (std::size_t i = 0; i < n; ++i) {
                in[i] = rng() & bitpack::mask(width);
                if (i % 5 == 0) in[i] = bitpack::mask(width);  // all ones
            }
            std::vector<std::uint64_t> words(bitpack::words_for(n, width) + 1, 0xdeadbeef);
            bitpack::pack(in.data(), n, width, words.data());
            EXPECT_EQ(words.back(), 0xdeadbeefu) << "wrote past words_for at width " << width;
            for (std::size_t i = 0; i < n; ++i)
                ASSERT_EQ(bitpack::unpack(words.data(), i, width), in[i])
                    << "width " << width << " n " << n << " i " << i;
        }
    }
}

TEST(BitPack, ZigzagIsABijectionThatKeepsSmallResidualsSmall) {
    EXPECT_EQ(bitpack::zigzag(0), 0u);
    EXPECT_EQ(bitpack::zigzag(static_cast<std::uint64_t>(-1)), 1u);
    EXPECT_EQ(bitpack::zigzag(1), 2u);
    EXPECT_EQ(bitpack::zigzag(static_cast<std::uint64_t>(-2)), 3u);
    std::mt19937_64 rng(3);
    for (int i = 0; i < 100000; ++i) {
        const std::uint64_t v = rng();
        ASSERT_EQ(bitpack::unzigzag(bitpack::zigzag(v)), v);
    }
    for (std::uint64_t v : {std::uint64_t{1} << 63, ~std::uint64_t{0} >> 1, ~std::uint64_t{0}})
        EXPECT_EQ(bitpack::unzigzag(bitpack::zigzag(v)), v);
}

}  // namespace
}  // namespace runtop
