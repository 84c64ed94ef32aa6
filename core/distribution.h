// Distributions: a histogram tag (TensorBoard `add_histogram`, tf.summary.histogram) shown as
// TensorBoard's distributions view shows it, a band of nine quantiles over steps. Each quantile
// is a series of its own in the Store, so memory budgets, tailing, restarts and `dump` treat it
// as any scalar; its SeriesSource says which quantile it is (`quantile`), and its tag is the
// histogram's tag plus a readable suffix (`weights#p50`) so `ls` and `dump` say what it is.
//
// The quantiles are TensorBoard's, to the bit: compress_histogram() ports
// tensorboard/plugins/distribution/compressor.py (compress_histogram, over the [left, right,
// count] buckets its loader makes), and buckets_from_histo() the loader's conversion of a
// HistogramProto (tensorboard/data_compat.py, _migrate_histogram_value).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace runtop {

// TensorBoard's NORMAL_HISTOGRAM_BPS: the normal CDF at -inf, -1.5, -1, -0.5, 0, 0.5, 1, 1.5,
// +inf standard deviations, in basis points (1/100 of a percent).
inline constexpr std::array<int, 9> kDistributionBasisPoints = {0,    668,  1587, 3085, 5000,
                                                                6915, 8413, 9332, 10000};
inline constexpr int kDistributionQuantiles = 9;
inline constexpr int kMedianQuantile = 4;  // 5000 bp
using DistributionValues = std::array<double, kDistributionQuantiles>;

// The suffix each quantile's series adds to the histogram's tag: "#min", "#p07", "#p16", "#p31",
// "#p50", "#p69", "#p84", "#p93", "#max".
std::string_view distribution_suffix(int quantile);
// "min", "7%", "16%", ..., "max": how readouts name a quantile.
std::string_view distribution_label(int quantile);
// The histogram's tag of a quantile series' tag (the suffix taken off), or nullopt when `tag`
// does not end in `quantile`'s suffix.
std::optional<std::string_view> distribution_base(std::string_view tag, int quantile);

struct HistogramBucket {
    double left = 0, right = 0, count = 0;
};

// compressor.compress_histogram: per basis point, the value where the buckets' cumulative
// count crosses it, interpolated linearly within that bucket; the buckets' last right edge for
// the points past the data; 0 for every point of an empty histogram. Float64 throughout, the
// sum of counts taken as numpy does (pairwise), so the result is TensorBoard's to the bit.
DistributionValues compress_histogram(std::span<const HistogramBucket> buckets);

// data_compat._migrate_histogram_value: a HistogramProto (min, max, bucket_limit, bucket) as
// TensorBoard's loader sees it: the empty buckets at either end dropped, the first left edge
// `min`, the last right edge `max` (so bucket_limit's closing DBL_MAX never shows), each other
// left edge the previous bucket's limit; every number rounded to float32, as the loader stores
// it. `bucket_limit` and `bucket` of different lengths: their common prefix.
std::vector<HistogramBucket> buckets_from_histo(double min, double max,
                                                std::span<const double> bucket_limit,
                                                std::span<const double> bucket);

}  // namespace runtop
