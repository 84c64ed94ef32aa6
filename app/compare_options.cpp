#include "app/compare_options.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <optional>
#include <string>

namespace runtop {
namespace {

// The whole text as a finite double; "-0" is 0. (from_chars also takes "nan" and "inf".)
std::optional<double> finite_number(std::string_view text) {
    double v = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v)) return std::nullopt;
    return v == 0 ? 0.0 : v;
}

}  // namespace

Result<double> parse_tolerance(std::string_view text) {
    const std::optional<double> v = finite_number(text);
    if (!v || *v < 0)
        return Error{"--tolerance needs a finite relative tolerance >= 0 (e.g. 1e-6), not '" +
                     std::string(text) + "'"};
    // Accepted, such a gate would pass any two runs whose values are numbers.
    if (*v >= kMaxRelativeDifference)
        return Error{"--tolerance " + std::string(text) +
                     " can never fire: a relative difference |b - a| / max(|a|, |b|) is at most " +
                     fmt::format("{:g}", kMaxRelativeDifference) +
                     " (values of opposite sign), so only NaN/Inf would be reported"};
    return *v;
}

Result<double> parse_smoothing(std::string_view text) {
    const std::optional<double> v = finite_number(text);
    // 1 is TensorBoard's limit too, but it smooths every non-constant series to 0.
    if (!v || *v < 0 || *v >= 1)
        return Error{
            "--smooth needs TensorBoard's smoothing weight, >= 0 and < 1 (e.g. 0.9; 0: "
            "raw values), not '" +
            std::string(text) + "'"};
    return *v;
}

Result<CompareAlign> parse_compare_align(std::string_view text) {
    // The words of compare_align_name() / compare_ranks_name().
    if (text == "step") return CompareAlign::kStep;
    if (text == "wall") return CompareAlign::kRelativeWall;
    return Error{"--align needs step or wall, not '" + std::string(text) + "'"};
}

Result<CompareRanks> parse_compare_ranks(std::string_view text) {
    if (text == "rank") return CompareRanks::kPerRank;
    if (text == "mean") return CompareRanks::kMean;
    return Error{"--by needs rank or mean, not '" + std::string(text) + "'"};
}

Result<CompareOptions> compare_options_from_args(const Args& args) {
    CompareOptions options;
    if (args.has(kToleranceOption.name)) {
        Result<double> tolerance = parse_tolerance(args.get(kToleranceOption.name));
        if (!tolerance) return tolerance.error();
        options.tolerance = *tolerance;
    }
    if (args.has(kAlignOption.name)) {
        Result<CompareAlign> align = parse_compare_align(args.get(kAlignOption.name));
        if (!align) return align.error();
        options.align = *align;
    }
    if (args.has(kSmoothOption.name)) {
        Result<double> smoothing = parse_smoothing(args.get(kSmoothOption.name));
        if (!smoothing) return smoothing.error();
        options.smoothing = *smoothing;
    }
    if (args.has(kByOption.name)) {
        Result<CompareRanks> ranks = parse_compare_ranks(args.get(kByOption.name));
        if (!ranks) return ranks.error();
        options.ranks = *ranks;
    }
    return options;
}

}  // namespace runtop
