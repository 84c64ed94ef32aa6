// Statistics across ranks for one tag at one step: what makes a rank that diverges from its
// peers visible. Only finite values enter the numeric statistics; NaN and ±Inf ranks are listed
// apart, as they are a failure of their own kind rather than a distant value.
//
// Outliers are robust: a finite value is an outlier when
//     |value - median| > max(k * MAD, rel_floor * |median|, abs_floor)
// MAD (median absolute deviation from the median, unscaled) ignores up to half the ranks going
// wrong, where mean and std would be dragged along. The floors are why identical or
// near-identical ranks give no outliers: with most ranks equal MAD is 0 (or a rounding error),
// and k * MAD alone would flag a rank that differs in its last digit. rel_floor = 0.05 asks a
// rank to be 5 % off the median before it stands out however tight the others are. With one or
// two finite ranks there is no majority to stand out from, so nothing is an outlier.
//
// Cost O(n) per call (nth_element), n = ranks; the scratch overload allocates nothing once warm.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace runtop {

struct RankValue {
    int rank = 0;
    double value = 0;
    std::uint32_t series = 0;  // the caller's: which series the value came from
};

struct CrossRankOptions {
    double k = 5.0;           // outlier beyond k * MAD (unscaled) of the median
    double rel_floor = 0.05;  // ... and beyond rel_floor * |median|
    double abs_floor = 0.0;   // ... and beyond this (a median of 0 leaves only this floor)
};

// 1.4826 * MAD estimates the standard deviation of normally distributed values.
inline constexpr double kMadToSigma = 1.4826;

struct CrossRankStats {
    int count = 0;       // ranks given
    int finite = 0;      // ranks with a finite value: the ones the statistics below describe
    int non_finite = 0;  // NaN or ±Inf
    // NaN when no rank is finite.
    double mean = 0;
    double std = 0;  // population std (ddof = 0): the ranks are the whole population
    double min = 0;
    double max = 0;
    double median = 0;      // the mean of the two middle values for an even count
    double mad = 0;         // unscaled
    double mad_scaled = 0;  // kMadToSigma * mad
    int argmin_rank = -1;   // the lowest rank among equal minima; -1 when no rank is finite
    int argmax_rank = -1;
    std::vector<int> outlier_ranks;     // finite outliers, ascending
    std::vector<int> non_finite_ranks;  // ascending
};

// Buffers reused across calls.
struct CrossRankScratch {
    std::vector<double> values;
};

void compute_cross_rank(std::span<const RankValue> ranks, const CrossRankOptions& options,
                        CrossRankScratch& scratch, CrossRankStats& out);

CrossRankStats compute_cross_rank(std::span<const RankValue> ranks,
                                  const CrossRankOptions& options = {});

}  // namespace runtop
