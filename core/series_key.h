// The identity of a series: (run, rank, tag). See DESIGN.md §2 "Identity of a point".
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace runtop {

inline constexpr int kNoRank = -1;

struct SeriesKey {
    std::string run;
    int rank = kNoRank;
    std::string tag;

    bool operator==(const SeriesKey&) const = default;
    // Runs, then ranks numerically (no rank first), then tags.
    bool operator<(const SeriesKey& other) const;
};

struct SeriesKeyHash {
    std::size_t operator()(const SeriesKey& key) const noexcept;
};

using SeriesId = std::uint32_t;

struct Point {
    std::int64_t step = 0;
    double wall_time = 0;
    double value = 0;
};

}  // namespace runtop
