#include "core/compare/run_compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace runtop {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool same_kind(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b)) return a == b;
    return true;
}

// Whether `p` stands for its tag better than `head` (see TagComparison::head); pairs come in
// rank order, so a tie keeps the lower rank.
bool better_head(const SeriesComparison& p, const SeriesComparison& head) {
    if (p.first_divergence || head.first_divergence) {
        if (!head.first_divergence) return true;
        if (!p.first_divergence) return false;
        if (*p.first_divergence != *head.first_divergence)
            return *p.first_divergence < *head.first_divergence;
        return p.max_relative_difference > head.max_relative_difference;
    }
    auto newest = [](const SeriesComparison& c) {
        return c.last_common_step ? relative_difference(c.a, c.b) : -1.0;
    };
    return newest(p) > newest(head);
}

}  // namespace

std::string_view compare_align_name(CompareAlign align) {
    return align == CompareAlign::kStep ? "step" : "wall";
}

std::string_view compare_ranks_name(CompareRanks ranks) {
    return ranks == CompareRanks::kPerRank ? "rank" : "mean";
}

double relative_difference(double a, double b) {
    if (!same_kind(a, b)) return kInf;
    if (!std::isfinite(a)) return 0;  // both NaN, or the same infinity
    const double scale = std::max(std::fabs(a), std::fabs(b));
    if (scale == 0) return 0;
    const double difference = std::fabs(b - a);
    // Values of opposite sign near the largest double: b - a overflows, though the quotient is
    // at most kMaxRelativeDifference (|b - a| = |a| + |b| then, and one of the two is `scale`).
    if (std::isinf(difference)) return 1 + std::min(std::fabs(a), std::fabs(b)) / scale;
    return difference / scale;
}

bool values_diverge(double a, double b, double tolerance) {
    return relative_difference(a, b) > tolerance;
}

std::size_t RunComparison::diverging() const {
    return static_cast<std::size_t>(std::count_if(
        pairs.begin(), pairs.end(), [](const SeriesComparison& p) { return p.first_divergence; }));
}

std::vector<TagComparison> tag_rows(const RunComparison& comparison) {
    std::map<std::string, TagComparison, std::less<>> rows;
    auto row = [&rows](const std::string& tag) -> TagComparison& {
        TagComparison& r = rows[tag];
        r.tag = tag;
        return r;
    };
    for (const SeriesComparison& p : comparison.pairs) {
        TagComparison& r = row(p.tag);
        r.ranks_a += p.ranks_a;
        r.ranks_b += p.ranks_b;
        if (r.compared == 0 || better_head(p, r.head)) r.head = p;
        ++r.compared;
        if (p.first_divergence) ++r.diverging;
    }
    for (const auto& [tag, rank] : comparison.only_a) ++row(tag).ranks_a;
    for (const auto& [tag, rank] : comparison.only_b) ++row(tag).ranks_b;
    std::vector<TagComparison> out;
    out.reserve(rows.size());
    for (auto& [tag, r] : rows) out.push_back(std::move(r));
    return out;
}

}  // namespace runtop
