#include "core/run_compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace runtop {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool same_kind(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b)) return a == b;
    return true;
}

std::uint64_t folded_points(const Series& s) {
    std::uint64_t n = 0;
    for (const SegmentSummary& b : s.buckets()) n += b.count;
    return n;
}

}  // namespace

double relative_difference(double a, double b) {
    if (!same_kind(a, b)) return kInf;
    if (!std::isfinite(a)) return 0;  // both NaN, or the same infinity
    const double scale = std::max(std::fabs(a), std::fabs(b));
    return scale == 0 ? 0 : std::fabs(b - a) / scale;
}

bool values_diverge(double a, double b, double tolerance) {
    return relative_difference(a, b) > tolerance;
}

SeriesComparison compare_series(const Series& a, const Series& b, const CompareOptions& options) {
    SeriesComparison c;
    c.tag = a.key().tag;
    c.rank = a.key().rank;
    c.folded = folded_points(a) + folded_points(b);
    c.last_a = a.empty() ? kNaN : a.back().value;
    c.last_b = b.empty() ? kNaN : b.back().value;
    c.last_step_a = a.empty() ? 0 : a.back().step;
    c.last_step_b = b.empty() ? 0 : b.back().step;
    c.a = c.b = c.delta = c.ratio = kNaN;
    // Both kept in step order: one merge pass.
    const std::size_t na = a.retained(), nb = b.retained();
    std::size_t i = 0, j = 0;
    while (i < na && j < nb) {
        const Point pa = a.point(i), pb = b.point(j);
        if (pa.step < pb.step) {
            ++i;
            continue;
        }
        if (pb.step < pa.step) {
            ++j;
            continue;
        }
        ++c.common_steps;
        const double rel = relative_difference(pa.value, pb.value);
        c.max_relative_difference = std::max(c.max_relative_difference, rel);
        if (!c.first_divergence && rel > options.tolerance) c.first_divergence = pa.step;
        c.last_common_step = pa.step;
        c.a = pa.value;
        c.b = pb.value;
        ++i;
        ++j;
    }
    if (c.last_common_step) {
        c.delta = c.b - c.a;
        c.ratio = c.a == 0 && c.b == 0 ? kNaN : c.b / c.a;
    }
    return c;
}

std::size_t RunComparison::diverging() const {
    return static_cast<std::size_t>(std::count_if(
        pairs.begin(), pairs.end(), [](const SeriesComparison& p) { return p.first_divergence; }));
}

RunComparison compare_runs(const Store& store, std::string_view run_a, std::string_view run_b,
                           const CompareOptions& options) {
    using Key = std::pair<std::string, int>;  // (tag, rank): the order the result is listed in
    std::map<Key, SeriesId> in_a, in_b;
    for (SeriesId id : store.sorted_ids()) {
        const SeriesKey& k = store.at(id).key();
        if (k.run == run_a) in_a.emplace(Key{k.tag, k.rank}, id);
        if (k.run == run_b) in_b.emplace(Key{k.tag, k.rank}, id);
    }
    RunComparison out;
    for (const auto& [key, id] : in_a) {
        auto other = in_b.find(key);
        if (other == in_b.end()) {
            out.only_a.push_back(key);
            continue;
        }
        out.pairs.push_back(compare_series(store.at(id), store.at(other->second), options));
    }
    for (const auto& [key, id] : in_b)
        if (!in_a.count(key)) out.only_b.push_back(key);
    return out;
}

}  // namespace runtop
