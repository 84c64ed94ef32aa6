#include "core/series_key.h"

#include <tuple>

namespace runtop {

bool SeriesKey::operator<(const SeriesKey& other) const {
    return std::tie(run, rank, tag) < std::tie(other.run, other.rank, other.tag);
}

bool SeriesKeyRef::operator<(const SeriesKeyRef& other) const {
    return std::tie(run, rank, tag) < std::tie(other.run, other.rank, other.tag);
}

std::size_t SeriesKeyHash::operator()(const SeriesKey& key) const noexcept {
    std::size_t h = std::hash<std::string_view>{}(key.run);
    h ^= std::hash<std::string_view>{}(key.tag) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= static_cast<std::size_t>(key.rank + 1) * 0xff51afd7ed558ccdULL;
    return h;
}

}  // namespace runtop
