#include "core/analysis/cross_rank.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace runtop {
namespace {

// The median of v (n > 0), reordering it. Two nth_element passes at most: O(n).
double median_of(std::vector<double>& v) {
    const std::size_t n = v.size();
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(v.begin(), mid, v.end());
    const double upper = *mid;
    if (n % 2 == 1) return upper;
    // nth_element leaves every smaller-or-equal element before mid: the lower middle is their max.
    const double lower = *std::max_element(v.begin(), mid);
    return lower + (upper - lower) / 2;  // no overflow near ±DBL_MAX
}

}  // namespace

void compute_cross_rank(std::span<const RankValue> ranks, const CrossRankOptions& options,
                        CrossRankScratch& scratch, CrossRankStats& out) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    out.count = static_cast<int>(ranks.size());
    out.outlier_ranks.clear();
    out.non_finite_ranks.clear();
    std::vector<double>& v = scratch.values;
    v.clear();

    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    int lo_rank = -1, hi_rank = -1;
    for (const RankValue& r : ranks) {
        if (!std::isfinite(r.value)) {
            out.non_finite_ranks.push_back(r.rank);
            continue;
        }
        v.push_back(r.value);
        if (r.value < lo || (r.value == lo && r.rank < lo_rank)) lo = r.value, lo_rank = r.rank;
        if (r.value > hi || (r.value == hi && r.rank < hi_rank)) hi = r.value, hi_rank = r.rank;
    }
    std::sort(out.non_finite_ranks.begin(), out.non_finite_ranks.end());
    out.finite = static_cast<int>(v.size());
    out.non_finite = out.count - out.finite;
    out.argmin_rank = lo_rank;
    out.argmax_rank = hi_rank;
    if (v.empty()) {
        out.mean = out.std = out.min = out.max = out.median = out.mad = out.mad_scaled = kNaN;
        return;
    }
    out.min = lo;
    out.max = hi;

    // Sums scaled by the largest magnitude, so values near DBL_MAX give a finite mean and std.
    const double scale = std::max(std::fabs(lo), std::fabs(hi));
    const double n = static_cast<double>(v.size());
    if (scale == 0) {
        out.mean = out.std = 0;
    } else {
        double sum = 0;
        for (double x : v) sum += x / scale;
        const double mean_scaled = sum / n;
        double sq = 0;
        for (double x : v) {
            const double d = x / scale - mean_scaled;
            sq += d * d;
        }
        out.mean = mean_scaled * scale;
        out.std = std::sqrt(sq / n) * scale;
    }

    out.median = median_of(v);
    for (double& x : v) x = std::fabs(x - out.median);
    out.mad = median_of(v);
    out.mad_scaled = kMadToSigma * out.mad;

    if (v.size() < 3) return;  // no majority for a rank to stand out from
    const double limit = std::max(
        {options.k * out.mad, options.rel_floor * std::fabs(out.median), options.abs_floor});
    for (const RankValue& r : ranks) {
        if (std::isfinite(r.value) && std::fabs(r.value - out.median) > limit) {
            out.outlier_ranks.push_back(r.rank);
        }
    }
    std::sort(out.outlier_ranks.begin(), out.outlier_ranks.end());
}

CrossRankStats compute_cross_rank(std::span<const RankValue> ranks,
                                  const CrossRankOptions& options) {
    CrossRankScratch scratch;
    CrossRankStats out;
    compute_cross_rank(ranks, options, scratch, out);
    return out;
}

}  // namespace runtop
