// CRC-32C (Castagnoli) and TFRecord's masked variant (TFEVENTS.md §2).
// Uses the SSE4.2 crc32 instruction when the CPU has it (three interleaved streams combined
// with PCLMUL when that is there too), a slicing-by-8 table otherwise.
#pragma once

#include <cstddef>
#include <cstdint>

namespace runtop {

std::uint32_t crc32c(const void* data, std::size_t size);
// The portable implementation, exposed so tests can compare it with the hardware one.
std::uint32_t crc32c_portable(const void* data, std::size_t size);
bool crc32c_is_hardware();

inline std::uint32_t mask_crc(std::uint32_t crc) {
    return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u;
}
inline std::uint32_t masked_crc32c(const void* data, std::size_t size) {
    return mask_crc(crc32c(data, size));
}

}  // namespace runtop
