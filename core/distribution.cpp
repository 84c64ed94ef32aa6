#include "core/distribution.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace runtop {
namespace {

constexpr std::array<std::string_view, kDistributionQuantiles> kSuffixes = {
    "#min", "#p07", "#p16", "#p31", "#p50", "#p69", "#p84", "#p93", "#max"};
constexpr std::array<std::string_view, kDistributionQuantiles> kLabels = {
    "min", "7%", "16%", "31%", "50%", "69%", "84%", "93%", "max"};

// numpy's sum of a float64 array (DOUBLE_pairwise_sum, blocks of 128 unrolled by 8): the order
// of the additions is numpy's, so a total of fractional counts rounds as TensorBoard's does.
// (Counts every writer gives are whole numbers: any order is exact for them.)
double pairwise_sum(const double* a, std::size_t n) {
    if (n < 8) {
        double res = 0.;
        for (std::size_t i = 0; i < n; ++i) res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        for (int j = 0; j < 8; ++j) r[j] = a[j];
        std::size_t i = 8;
        for (; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; ++j) r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i) res += a[i];
        return res;
    }
    std::size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

// numpy's ordering of doubles, NaN last (npysort's DOUBLE_LT).
bool npy_less(double a, double b) {
    return a < b || (b != b && a == a);
}

// np.searchsorted(weights, key, side="right"): numpy's binary search, step for step.
std::size_t search_right(const std::vector<double>& weights, double key) {
    std::size_t lo = 0, hi = weights.size();
    while (lo < hi) {
        const std::size_t mid = lo + ((hi - lo) >> 1);
        if (!npy_less(key, weights[mid]))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// Python's max(a, b) and min(a, b): the first argument unless the second is strictly beyond it
// (which decides what a NaN gives).
double py_max(double a, double b) {
    return b > a ? b : a;
}
double py_min(double a, double b) {
    return b < a ? b : a;
}

// A double rounded to the nearest float32 as numpy does, out of range too (C++ leaves that
// undefined): past FLT_MAX by half an ulp or more is infinite.
float to_float32(double v) {
    if (std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max()) {
        const double midpoint = std::ldexp(1.0, 128) - std::ldexp(1.0, 103);
        const float limit = std::fabs(v) >= midpoint ? std::numeric_limits<float>::infinity()
                                                     : std::numeric_limits<float>::max();
        return v < 0 ? -limit : limit;
    }
    return static_cast<float>(v);
}

// compressor._lerp, in its order of operations.
double lerp(double x, double x0, double x1, double y0, double y1) {
    return y0 + (x - x0) * (y1 - y0) / (x1 - x0);
}

}  // namespace

std::string_view distribution_suffix(int quantile) {
    return kSuffixes[static_cast<std::size_t>(quantile)];
}

std::string_view distribution_label(int quantile) {
    return kLabels[static_cast<std::size_t>(quantile)];
}

std::optional<std::string_view> distribution_base(std::string_view tag, int quantile) {
    const std::string_view suffix = distribution_suffix(quantile);
    if (!tag.ends_with(suffix)) return std::nullopt;
    return tag.substr(0, tag.size() - suffix.size());
}

DistributionValues compress_histogram(std::span<const HistogramBucket> buckets) {
    DistributionValues out{};
    if (buckets.empty()) return out;  // every point 0.0, as TensorBoard gives
    const double minmin = buckets.front().left;
    const double maxmax = buckets.back().right;
    const std::size_t n = buckets.size();
    std::vector<double> weights(n);
    for (std::size_t i = 0; i < n; ++i) weights[i] = buckets[i].count;
    double total = pairwise_sum(weights.data(), n);
    if (total == 0) total = 1.0;  // `counts.sum() or 1.0`
    const double last_bp = kDistributionBasisPoints.back();
    double running = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double w = weights[i] * last_bp / total;
        running = i == 0 ? w : running + w;  // cumsum
        weights[i] = running;
    }
    std::size_t j = 0;
    while (j < kDistributionBasisPoints.size()) {
        const double bp = kDistributionBasisPoints[j];
        std::size_t i = search_right(weights, bp);
        bool found = false;
        for (; i < n; ++i) {
            const double cumsum = weights[i];
            const double cumsum_prev = i > 0 ? weights[i - 1] : 0.0;
            if (cumsum == cumsum_prev) continue;  // TensorBoard skips it: no division by zero
            // `not cumsum_prev` is true only for 0.0 (a NaN is truthy).
            const double lhs =
                (i == 0 || cumsum_prev == 0.0) ? minmin : py_max(buckets[i - 1].right, minmin);
            const double rhs = py_min(buckets[i].right, maxmax);
            out[j++] = lerp(bp, cumsum_prev, cumsum, lhs, rhs);
            found = true;
            break;
        }
        if (!found) break;
    }
    for (; j < kDistributionBasisPoints.size(); ++j) out[j] = maxmax;
    return out;
}

std::vector<HistogramBucket> buckets_from_histo(double min, double max,
                                                std::span<const double> bucket_limit,
                                                std::span<const double> bucket) {
    const std::size_t n = std::min(bucket_limit.size(), bucket.size());
    std::size_t start = 0;
    while (start < n && !(bucket[start] > 0)) ++start;
    std::size_t end = n;  // one past the last non-empty bucket
    while (end > start && !(bucket[end - 1] > 0)) --end;
    std::vector<HistogramBucket> out;
    if (start == end) return out;
    // np.array(..., dtype=np.float32): each number rounded to float32, then read back as the
    // float64 the compressor computes in.
    auto f32 = [](double v) { return static_cast<double>(to_float32(v)); };
    out.reserve(end - start);
    for (std::size_t i = start; i < end; ++i) {
        const double left = i == start ? min : bucket_limit[i - 1];
        const double right = i + 1 == end ? max : bucket_limit[i];
        out.push_back({f32(left), f32(right), f32(bucket[i])});
    }
    return out;
}

}  // namespace runtop
