#include "readers/crc32c.h"

#include <algorithm>
#include <array>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <nmmintrin.h>
#include <wmmintrin.h>
#define RUNTOP_CRC_X86 1
#endif

namespace runtop {
namespace {

constexpr std::uint32_t kPoly = 0x82F63B78u;  // reflected 0x1EDC6F41

using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

constexpr Tables make_tables() {
    Tables t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ ((c & 1) ? kPoly : 0);
        t[0][i] = c;
    }
    for (std::size_t k = 1; k < 8; ++k)
        for (std::uint32_t i = 0; i < 256; ++i)
            t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xff];
    return t;
}

constexpr Tables kTables = make_tables();

std::uint32_t portable_update(std::uint32_t crc, const unsigned char* p, std::size_t n) {
    while (n >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);  // little-endian hosts only, like every supported target
        word ^= crc;
        crc = kTables[7][word & 0xff] ^ kTables[6][(word >> 8) & 0xff] ^
              kTables[5][(word >> 16) & 0xff] ^ kTables[4][(word >> 24) & 0xff] ^
              kTables[3][(word >> 32) & 0xff] ^ kTables[2][(word >> 40) & 0xff] ^
              kTables[1][(word >> 48) & 0xff] ^ kTables[0][word >> 56];
        p += 8;
        n -= 8;
    }
    while (n--) crc = (crc >> 8) ^ kTables[0][(crc ^ *p++) & 0xff];
    return crc;
}

#ifdef RUNTOP_CRC_X86
// The crc32 instruction has a latency of about 3 cycles and a throughput of 1 per cycle, so
// one dependent chain runs at a third of the speed the CPU can give. Buffers of
// kThreeWayMin bytes or more are split into three streams that run interleaved and are then
// combined: for the raw CRC state, with A, B, C of L bytes each,
//   crc(s, A|B|C) = shift(crc(s, A), 2L) ^ shift(crc(0, B), L) ^ crc(0, C)
// where shift(c, L) = c * x^(8L) mod P, which is what feeding L zero bytes does. The shift is
// one carry-less multiply by a constant and one crc32 to reduce it (see kShifts).

constexpr std::size_t kMaxStreamWords = 64;  // longest stream, in 8-byte words (512 bytes)
// Below this one stream is faster: a scalar record's payload (70-100 bytes) is checked in
// about 5 ns, the chains of consecutive records already overlap in the out-of-order core,
// and the combination (two multiplies, two reductions) costs more than it saves. Measured
// on AMD EPYC (Zen 4): the split wins from about 150 bytes, and is 2.4x faster at 4 KiB.
constexpr std::size_t kThreeWayMin = 192;

// kShifts[k] = x^(64k - 33) mod P, bit-reflected (bit 31 is x^0). Multiplying a state by it
// carry-lessly gives a 63-bit product that _mm_crc32_u64(0, .) reads as one more power of x
// and multiplies by x^32 while reducing mod P: c * x^(64k-33) * x * x^32 = c * x^(8 * 8k).
using ShiftTable = std::array<std::uint32_t, 2 * kMaxStreamWords + 1>;
constexpr ShiftTable make_shifts() {
    ShiftTable t{};
    std::uint32_t r = 1u << 31;  // x^0
    std::uint64_t power = 0;
    for (std::size_t k = 1; k < t.size(); ++k) {
        for (; power < 64 * k - 33; ++power) r = (r & 1) ? (r >> 1) ^ kPoly : r >> 1;
        t[k] = r;
    }
    return t;
}
constexpr ShiftTable kShifts = make_shifts();

__attribute__((target("sse4.2,pclmul"))) inline std::uint64_t shift_state(std::uint64_t state,
                                                                          std::uint32_t k) {
    __m128i product = _mm_clmulepi64_si128(_mm_cvtsi64_si128(static_cast<long long>(state)),
                                           _mm_cvtsi32_si128(static_cast<int>(k)), 0x00);
    return _mm_crc32_u64(0, static_cast<std::uint64_t>(_mm_cvtsi128_si64(product)));
}

inline std::uint64_t load_word(const unsigned char* p) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    return word;
}

// One stream: short buffers, the SSE4.2 path without PCLMUL, and the tail of every buffer.
__attribute__((target("sse4.2"), always_inline)) inline std::uint32_t hardware_update(
    std::uint32_t crc, const unsigned char* p, std::size_t n) {
    std::uint64_t c = crc;
    while (n >= 8) {
        c = _mm_crc32_u64(c, load_word(p));
        p += 8;
        n -= 8;
    }
    auto c32 = static_cast<std::uint32_t>(c);
    if (n >= 4) {
        std::uint32_t word;
        std::memcpy(&word, p, 4);
        c32 = _mm_crc32_u32(c32, word);
        p += 4;
        n -= 4;
    }
    while (n--) c32 = _mm_crc32_u8(c32, *p++);
    return c32;
}

__attribute__((target("sse4.2,pclmul"))) std::uint32_t hardware_update_3way(std::uint32_t crc,
                                                                            const unsigned char* p,
                                                                            std::size_t n) {
    std::uint64_t c = crc;
    while (n >= kThreeWayMin) {
        const std::size_t words = std::min(n / 24, kMaxStreamWords);
        const unsigned char* p1 = p + 8 * words;
        const unsigned char* p2 = p1 + 8 * words;
        std::uint64_t c1 = 0, c2 = 0;
        for (std::size_t i = 0; i < 8 * words; i += 8) {
            c = _mm_crc32_u64(c, load_word(p + i));
            c1 = _mm_crc32_u64(c1, load_word(p1 + i));
            c2 = _mm_crc32_u64(c2, load_word(p2 + i));
        }
        c = shift_state(c, kShifts[2 * words]) ^ shift_state(c1, kShifts[words]) ^ c2;
        p += 24 * words;
        n -= 24 * words;
    }
    return hardware_update(static_cast<std::uint32_t>(c), p, n);
}

// crc32c() reaches both of these with a tail jump and needs no stack frame: a scalar record
// checks two short buffers, and a few instructions more per call show in the scan loop.
__attribute__((noinline)) std::uint32_t crc32c_long(const unsigned char* p, std::size_t n) {
    return ~hardware_update_3way(~0u, p, n);
}

__attribute__((target("sse4.2"), noinline)) std::uint32_t crc32c_short(const unsigned char* p,
                                                                       std::size_t n) {
    return ~hardware_update(~0u, p, n);
}

bool detect_hardware() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
}
bool detect_clmul() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("pclmul");
}
#else
bool detect_hardware() {
    return false;
}
bool detect_clmul() {
    return false;
}
#endif

const bool kHardware = detect_hardware();
const bool kClmul = kHardware && detect_clmul();

}  // namespace

std::uint32_t crc32c_portable(const void* data, std::size_t size) {
    return ~portable_update(~0u, static_cast<const unsigned char*>(data), size);
}

std::uint32_t crc32c(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
#ifdef RUNTOP_CRC_X86
    if (kHardware) {
        if (size >= kThreeWayMin && kClmul) return crc32c_long(p, size);
        return crc32c_short(p, size);
    }
#endif
    return ~portable_update(~0u, p, size);
}

bool crc32c_is_hardware() {
    return kHardware;
}

}  // namespace runtop
