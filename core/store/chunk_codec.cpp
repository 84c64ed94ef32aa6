#include "core/store/chunk_codec.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

namespace runtop {
namespace {

constexpr std::uint64_t kExponent = 0x7ff0000000000000;  // all ones: NaN or an infinity

// How one column is packed.
struct Plan {
    std::uint64_t base = 0;
    std::uint64_t slope = 0;
    unsigned width = 0;
    bool linear = false;
};

// Chooses between frame of reference (from lo, hi: the column's smallest and largest pattern)
// and the line through the first and last patterns, whichever is narrower, and writes the
// residuals. Sealing runs once per kChunk appends, so this is on the append path: one pass
// for the line's residuals (kept: usually the line wins), a second only if it does not.
Plan plan_column(const std::uint64_t* v, std::size_t n, std::uint64_t lo, std::uint64_t hi,
                 std::uint64_t* residuals) {
    const unsigned for_width = bitpack::width_of(hi - lo);
    if (for_width == 0 || n < 2) return {lo, 0, for_width, false};  // residuals[] unused
    // Wrapping arithmetic: any slope round-trips, a poor one only costs width.
    const auto slope = static_cast<std::uint64_t>(static_cast<std::int64_t>(v[n - 1] - v[0]) /
                                                  static_cast<std::int64_t>(n - 1));
    std::uint64_t any = 0;
    std::uint64_t line = v[0];
    for (std::size_t i = 0; i < n; ++i, line += slope) {
        residuals[i] = bitpack::zigzag(v[i] - line);
        any |= residuals[i];
    }
    const unsigned linear_width = bitpack::width_of(any);
    if (linear_width < for_width) return {v[0], slope, linear_width, true};
    for (std::size_t i = 0; i < n; ++i) residuals[i] = v[i] - lo;
    return {lo, 0, for_width, false};
}

// Patterns [from, from + n) of a packed column (see SealedChunk::decode).
void decode_column(const std::uint64_t* words, std::size_t from, std::size_t n, unsigned width,
                   std::uint64_t base, std::uint64_t slope, bool linear, std::uint64_t* out) {
    if (width == 0) {  // the common case: an exact line (or one repeated pattern)
        const std::uint64_t step = linear ? slope : 0;
        for (std::size_t k = 0; k < n; ++k) out[k] = base + (from + k) * step;
        return;
    }
    if (linear) {
        for (std::size_t k = 0; k < n; ++k)
            out[k] = base + (from + k) * slope +
                     bitpack::unzigzag(bitpack::unpack(words, from + k, width));
        return;
    }
    for (std::size_t k = 0; k < n; ++k) out[k] = base + bitpack::unpack(words, from + k, width);
}

}  // namespace

void SealedChunk::steps(std::size_t from, std::size_t n, std::int64_t* out) const {
    std::uint64_t patterns[kChunk];
    decode_column(data, from, n, step_width, step_base, step_slope, step_linear, patterns);
    for (std::size_t k = 0; k < n; ++k) out[k] = step_of(patterns[k]);
}

void SealedChunk::walls(std::size_t from, std::size_t n, double* out) const {
    std::uint64_t patterns[kChunk];
    decode_column(data + bitpack::words_for(kChunk, step_width), from, n, wall_width, wall_base,
                  wall_slope, wall_linear, patterns);
    for (std::size_t k = 0; k < n; ++k) out[k] = wall_of(patterns[k]);
}

void SealedChunk::values(std::size_t from, std::size_t n, double* out) const {
    const char* packed = reinterpret_cast<const char*>(
        data + bitpack::words_for(kChunk, step_width) + bitpack::words_for(kChunk, wall_width));
    if (float_values) {
        float f[kChunk];
        std::memcpy(f, packed + from * sizeof(float), n * sizeof(float));
        for (std::size_t k = 0; k < n; ++k) out[k] = f[k];
        return;
    }
    std::memcpy(out, packed + from * sizeof(double), n * sizeof(double));
}

SealedChunk seal_chunk(const std::int64_t* steps, const double* walls, const double* values,
                       PointArena& arena, SegmentSummary& summary) {
    constexpr std::size_t n = kChunk;
    summary = summary_ends(steps, walls, values, n);
    // One pass without a branch per value: extremes and sum of the finite values (NaN and
    // infinities are rare and counted apart), and whether every value survives a trip
    // through float (NaN may come back quiet; infinities do). Values beyond float's range
    // are clamped before converting (converting them would be undefined) and then fail the
    // comparison.
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
    std::size_t non_finite = 0;
    bool floats = true;
    for (std::size_t i = 0; i < n; ++i) {
        const double v = values[i];
        const auto bits = std::bit_cast<std::uint64_t>(v);
        const bool finite = (bits & kExponent) != kExponent;
        lo = std::min(lo, finite ? v : lo);
        hi = std::max(hi, finite ? v : hi);
        sum += finite ? v : 0.0;
        non_finite += !finite;
        const double clamped = v < -FLT_MAX ? -FLT_MAX : (v > FLT_MAX ? FLT_MAX : v);
        const auto back = static_cast<double>(static_cast<float>(clamped));
        floats &= (std::bit_cast<std::uint64_t>(back) == bits) | !finite;
    }
    summary.min = lo;
    summary.max = hi;
    summary.sum = sum;
    summary.count = n;
    if (non_finite > 0) {
        for (std::size_t i = 0; i < n; ++i) {
            const double v = values[i];
            if (std::isnan(v))
                ++summary.nan;
            else if (v == std::numeric_limits<double>::infinity())
                ++summary.pos_inf;
            else if (v == -std::numeric_limits<double>::infinity())
                ++summary.neg_inf;
        }
    }

    std::uint64_t patterns[n];
    std::uint64_t step_residuals[n];
    std::uint64_t wall_residuals[n];
    // Steps strictly increase, and so do their patterns: the first is the least.
    for (std::size_t i = 0; i < n; ++i) patterns[i] = SealedChunk::step_pattern(steps[i]);
    const Plan sp = plan_column(patterns, n, patterns[0], patterns[n - 1], step_residuals);
    // Residuals of 0 from the line: an exact arithmetic progression (the steps increase, so
    // the line cannot have wrapped).
    summary.even = sp.linear && sp.width == 0;
    std::uint64_t wall_lo = ~std::uint64_t{0}, wall_hi = 0;
    for (std::size_t i = 0; i < n; ++i) {
        patterns[i] = SealedChunk::wall_pattern(walls[i]);
        wall_lo = std::min(wall_lo, patterns[i]);
        wall_hi = std::max(wall_hi, patterns[i]);
    }
    const Plan wp = plan_column(patterns, n, wall_lo, wall_hi, wall_residuals);

    SealedChunk c;
    c.step_base = sp.base;
    c.step_slope = sp.slope;
    c.step_width = static_cast<std::uint8_t>(sp.width);
    c.step_linear = sp.linear;
    c.wall_base = wp.base;
    c.wall_slope = wp.slope;
    c.wall_width = static_cast<std::uint8_t>(wp.width);
    c.wall_linear = wp.linear;
    c.float_values = floats;
    c.data = static_cast<std::uint64_t*>(arena.allocate(c.bytes()));
    std::uint64_t* out = c.data;
    bitpack::pack(step_residuals, n, sp.width, out);
    out += bitpack::words_for(n, sp.width);
    bitpack::pack(wall_residuals, n, wp.width, out);
    out += bitpack::words_for(n, wp.width);
    char* vout = reinterpret_cast<char*>(out);
    if (floats) {
        for (std::size_t i = 0; i < n; ++i) {
            const float f = static_cast<float>(values[i]);
            std::memcpy(vout + i * sizeof f, &f, sizeof f);
        }
    } else {
        std::memcpy(vout, values, n * sizeof(double));
    }
    return c;
}

void unseal_chunk(const SealedChunk& chunk, std::int64_t* steps, double* walls, double* values) {
    for (std::size_t i = 0; i < kChunk; ++i) {
        steps[i] = chunk.step(i);
        walls[i] = chunk.wall(i);
        values[i] = chunk.value(i);
    }
}

void release_chunk(SealedChunk& chunk, PointArena& arena) {
    arena.release(chunk.data, chunk.bytes());
    chunk.data = nullptr;
}

}  // namespace runtop
