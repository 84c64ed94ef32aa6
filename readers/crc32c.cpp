#include "readers/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <nmmintrin.h>
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
        for (std::uint32_t i = 0; i < 256; ++i) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xff];
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
__attribute__((target("sse4.2"))) std::uint32_t hardware_update(std::uint32_t crc,
                                                                  const unsigned char* p,
                                                                  std::size_t n) {
    std::uint64_t c = crc;
    while (n >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        c = _mm_crc32_u64(c, word);
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

bool detect_hardware() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
}
#else
bool detect_hardware() { return false; }
#endif

const bool kHardware = detect_hardware();

}  // namespace

std::uint32_t crc32c_portable(const void* data, std::size_t size) {
    return ~portable_update(~0u, static_cast<const unsigned char*>(data), size);
}

std::uint32_t crc32c(const void* data, std::size_t size) {
#ifdef RUNTOP_CRC_X86
    if (kHardware) return ~hardware_update(~0u, static_cast<const unsigned char*>(data), size);
#endif
    return crc32c_portable(data, size);
}

bool crc32c_is_hardware() { return kHardware; }

}  // namespace runtop
