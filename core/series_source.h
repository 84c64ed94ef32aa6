// Where a series came from, as its reader describes it: core names no file format. Each reader
// registers the few descriptors it uses and hands the sink a one-byte id, so a Series costs no
// more than it did when core listed every format in an enum.
#pragma once

#include <cstdint>
#include <string_view>

namespace runtop {

// What a series' step counts; views label the x axis with it.
enum class StepAxis : std::uint8_t { kSteps, kSamples };
std::string_view step_axis_name(StepAxis axis);

struct SeriesSource {
    std::string_view format;           // the reader's name for its files: `runtop ls`' SOURCE
    StepAxis axis = StepAxis::kSteps;  // what the series' step counts
    // The tag ends in an msProbe monitor op (`<name>/<op>`): the msprobe rules apply and
    // `nans` counts NaN elements rather than being a value.
    bool msprobe_ops = false;
    // One quantile of a histogram tag (core/distribution.h): its index in
    // kDistributionBasisPoints, -1 for every other series.
    std::int8_t quantile = -1;

    bool operator==(const SeriesSource&) const = default;
};

using SourceId = std::uint8_t;

// The id of `source`, the same for equal descriptors; thread-safe. It takes a lock, so readers
// ask once per descriptor, not once per series. The format's text is copied.
SourceId source_id(const SeriesSource& source);
// The descriptor behind an id from source_id(): O(1), no lock.
const SeriesSource& series_source(SourceId id);

}  // namespace runtop
