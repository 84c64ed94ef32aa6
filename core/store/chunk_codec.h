// Sealed chunks: kChunk consecutive points of one series packed losslessly, each point still
// readable on its own in O(1) (Series::point).
//
// Steps and walls become 64-bit patterns that grow with the value (a step with its sign bit
// flipped; a wall's IEEE bits with negative numbers inverted), packed one of two ways,
// whichever needs fewer bits per point:
//   frame of reference: base = the smallest pattern, each point stores (pattern - base);
//   linear:             the line through the first and last patterns, each point stores its
//                       zigzagged residual from the line (consecutive or evenly strided steps,
//                       and walls of a job that logs at a steady pace, need 0 bits).
// Wall times a second apart differ by a few million ulps: a handful of bytes a point at worst,
// 0 bits when they are equal (CSV points take their file's mtime) or evenly spaced. Any
// pattern (NaN, wrapping steps) round-trips; odd ones only take more bits. Values take 4 bytes
// when every value of the chunk is a float (event-file scalars are float32: NaN may come back
// as the quiet NaN, infinities keep their sign, -0.0 stays -0.0), else their 8 raw bytes.
//
// Bytes per point, with the chunk's summary (104 B), its header (56 B) and the Store's
// bookkeeping (its seal record, the summary pyramid, vector slack): 1.5 to 1.8 B a point more.
//   event file: consecutive steps, float32 values, walls 1 s apart   4 + 0..3 + 1.5 ≈ 5.5..8.5
//   CSV: consecutive steps, double values, equal walls                8 + 0 + 1.7    ≈ 9.7
//   irregular steps (gaps 1..1000), double values, irregular walls    ≈ 14 (measured)
//   worst: random 64-bit steps and wall patterns, non-float values    8 + 8 + 8 + 1.8 ≈ 26
// The newest points of each series (at most 128) sit in its plain tail at 24 B a point.
// Figures measured by the StoreBytesPerPoint tests and the store benchmarks.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/series_key.h"
#include "core/store/bit_pack.h"
#include "core/store/point_arena.h"
#include "core/store/segment_summary.h"

namespace runtop {

inline constexpr std::size_t kChunk = 128;

struct SealedChunk {
    std::uint64_t* data = nullptr;  // arena block: step residuals, wall residuals, values
    std::uint64_t seq = 0;          // store-wide sealing order: the budget folds the oldest first
    std::uint64_t step_base = 0;
    std::uint64_t step_slope = 0;
    std::uint64_t wall_base = 0;
    std::uint64_t wall_slope = 0;
    std::uint8_t step_width = 0;
    std::uint8_t wall_width = 0;
    bool step_linear = false;
    bool wall_linear = false;
    bool float_values = false;

    std::size_t bytes() const {
        return (bitpack::words_for(kChunk, step_width) + bitpack::words_for(kChunk, wall_width)) *
                   8 +
               kChunk * (float_values ? 4 : 8);
    }

    std::int64_t step(std::size_t i) const {
        return step_of(decode(data, i, step_width, step_base, step_slope, step_linear));
    }
    double wall(std::size_t i) const {
        return wall_of(decode(data + bitpack::words_for(kChunk, step_width), i, wall_width,
                              wall_base, wall_slope, wall_linear));
    }
    double value(std::size_t i) const {
        const char* values = reinterpret_cast<const char*>(
            data + bitpack::words_for(kChunk, step_width) + bitpack::words_for(kChunk, wall_width));
        if (float_values) {
            float f;
            std::memcpy(&f, values + i * sizeof(float), sizeof f);
            return f;
        }
        double d;
        std::memcpy(&d, values + i * sizeof(double), sizeof d);
        return d;
    }
    Point point(std::size_t i) const { return {step(i), wall(i), value(i)}; }
    // Points [from, from + n) of one column at once, exactly what step(i), wall(i) and value(i)
    // return: a loop the compiler can vectorise instead of one unpack per call (a comparison
    // walks tens of millions of points).
    void steps(std::size_t from, std::size_t n, std::int64_t* out) const;
    void walls(std::size_t from, std::size_t n, double* out) const;
    void values(std::size_t from, std::size_t n, double* out) const;

    // Columns hold order-preserving patterns: a step with its sign bit flipped, a wall with
    // the usual sortable-double transform (negative numbers inverted), so that the frame of
    // reference stays narrow across zero too.
    static constexpr std::uint64_t kSign = std::uint64_t{1} << 63;
    static std::uint64_t step_pattern(std::int64_t step) {
        return static_cast<std::uint64_t>(step) ^ kSign;
    }
    static std::int64_t step_of(std::uint64_t pattern) {
        return static_cast<std::int64_t>(pattern ^ kSign);
    }
    static std::uint64_t wall_pattern(double wall) {
        const auto u = std::bit_cast<std::uint64_t>(wall);
        return (u & kSign) ? ~u : u | kSign;
    }
    static double wall_of(std::uint64_t pattern) {
        return std::bit_cast<double>((pattern & kSign) ? pattern & ~kSign : ~pattern);
    }

    static std::uint64_t decode(const std::uint64_t* words, std::size_t i, unsigned width,
                                std::uint64_t base, std::uint64_t slope, bool linear) {
        const std::uint64_t r = bitpack::unpack(words, i, width);
        return linear ? base + i * slope + bitpack::unzigzag(r) : base + r;
    }
};

// Packs kChunk points (steps strictly increasing) into a block of `arena`, and summarises them.
SealedChunk seal_chunk(const std::int64_t* steps, const double* walls, const double* values,
                       PointArena& arena, SegmentSummary& summary);
// The points back, exactly as sealed (a NaN stored as float comes back as a quiet NaN).
void unseal_chunk(const SealedChunk& chunk, std::int64_t* steps, double* walls, double* values);
void release_chunk(SealedChunk& chunk, PointArena& arena);

}  // namespace runtop
