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

// A key whose strings live elsewhere (a Store's interned names): what Series::key() returns,
// so a million series do not each carry their run and tag. A SeriesKey converts to it.
struct SeriesKeyRef {
    std::string_view run;
    int rank = kNoRank;
    std::string_view tag;

    SeriesKeyRef() = default;
    SeriesKeyRef(std::string_view run_, int rank_, std::string_view tag_)
        : run(run_), rank(rank_), tag(tag_) {}
    SeriesKeyRef(const SeriesKey& key)  // NOLINT: implicit, as std::string to string_view
        : run(key.run), rank(key.rank), tag(key.tag) {}

    SeriesKey owned() const { return {std::string(run), rank, std::string(tag)}; }
    bool operator==(const SeriesKeyRef&) const = default;
    // Runs, then ranks numerically (no rank first), then tags.
    bool operator<(const SeriesKeyRef& other) const;
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
