// Fixed-width bit packing for the Store's sealed chunks (core/store/chunk_codec.h): n unsigned
// values of `width` bits (0..64) take words_for(n, width) 64-bit words, value i starting at bit i *
// width, and any one value is read back in O(1) without touching the others.
#pragma once

#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace runtop::bitpack {

// Bits needed for v: 0 for 0, 64 for values with the top bit set.
inline unsigned width_of(std::uint64_t v) {
    return static_cast<unsigned>(std::bit_width(v));
}

inline std::size_t words_for(std::size_t n, unsigned width) {
    return (n * width + 63) / 64;
}

inline std::uint64_t mask(unsigned width) {
    return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

// Packs in[0..n) (each below 2^width) into out[0..words_for(n, width)).
inline void pack(const std::uint64_t* in, std::size_t n, unsigned width, std::uint64_t* out) {
    if (width == 0) return;
    if (width == 64) {
        std::memcpy(out, in, n * sizeof(std::uint64_t));
        return;
    }
    std::uint64_t acc = 0;
    unsigned fill = 0;  // bits of acc in use
    std::size_t o = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t v = in[i];
        assert((v & ~mask(width)) == 0);
        acc |= v << fill;
        fill += width;
        if (fill >= 64) {
            out[o++] = acc;
            fill -= 64;
            // The bits of v that did not fit (none when it ended exactly on the word).
            acc = fill == 0 ? 0 : v >> (width - fill);
        }
    }
    if (fill > 0) out[o] = acc;
}

// Value i of a packed array.
inline std::uint64_t unpack(const std::uint64_t* words, std::size_t i, unsigned width) {
    if (width == 0) return 0;
    const std::size_t bit = i * width;
    const std::size_t w = bit >> 6;
    const unsigned off = static_cast<unsigned>(bit & 63);
    std::uint64_t v = words[w] >> off;
    if (off + width > 64) v |= words[w + 1] << (64 - off);
    return v & mask(width);
}

// Signed residuals as small unsigned numbers: 0, -1, 1, -2, 2 ... → 0, 1, 2, 3, 4 ...
// A bijection on 64-bit patterns, so wrapped (overflowed) residuals still round-trip.
inline std::uint64_t zigzag(std::uint64_t v) {
    return (v << 1) ^ (0 - (v >> 63));
}
inline std::uint64_t unzigzag(std::uint64_t u) {
    return (u >> 1) ^ (0 - (u & 1));
}

}  // namespace runtop::bitpack
