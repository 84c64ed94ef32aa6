// How much the Store may keep (`runtop ls --memory`). Full resolution for recent points, a
// pyramid of summaries for older ones (core/store/series.h): the limits only decide where the
// resolution drops, never whether an extreme or a NaN survives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include "core/result.h"

namespace runtop {

struct StoreLimits {
    // Every byte that grows with the data (core/store/store.h says what counts). Over it, the
    // globally oldest sealed chunks are folded into buckets, then buckets merged.
    std::uint64_t memory_bytes = std::uint64_t{1} << 30;
    // Full-resolution points per series; older chunks of a longer series are folded.
    std::uint64_t series_points = std::uint64_t{1} << 20;
    // Series a budget check may visit when the rounds over every series begin (merging
    // buckets, folding tails); the next checks go on where it stopped. 0: every round to its
    // end in one check, the tightest bound. The dashboard sets a few thousand: at millions of
    // series a whole round held its event loop for a third of a second, and memory may then
    // run up to a cycle of rounds ahead of the budget.
    std::size_t series_per_check = 0;
    // The whole-process budget memory_bytes is a share of (for_process); 0: none.
    std::uint64_t process_bytes = 0;

    // Nothing is ever folded: `runtop dump` prints every point whatever the budget.
    static StoreLimits unbounded() {
        return {std::numeric_limits<std::uint64_t>::max(),
                std::numeric_limits<std::uint64_t>::max()};
    }
    // The Store's share of a whole-process budget (`--memory`): an eighth stays for what the
    // Store does not count (the readers' per-file state and buffers, slab slack, the empty
    // slabs kept resident, the output being written), so that the process' peak RSS stays
    // within the budget (bench/scale_bench.sh measures it).
    static StoreLimits for_process(std::uint64_t process_bytes) {
        StoreLimits limits;
        limits.memory_bytes = process_bytes - process_bytes / 8;
        limits.process_bytes = process_bytes;
        return limits;
    }
    // What the process may hold beside what is counted, once its resident set is read
    // (Store::set_resident_probe), for a process that held `baseline` bytes before reading (the
    // binary, its libraries, the terminal): that baseline and a 16th for the allocator's slack.
    // The eighth for_process leaves holds those; what the baseline leaves of its other 16th is
    // for what grows between two readings (up to 30 MiB at 2 M series), so the whole process
    // stays within process_bytes. Below about 160 MiB the baseline is more than that 16th, and
    // what it exceeds it by is the fixed overhead beside the budget.
    std::uint64_t resident_reserve(std::uint64_t baseline) const {
        return baseline + process_bytes / 16;
    }
    bool bounded_memory() const {
        return memory_bytes != std::numeric_limits<std::uint64_t>::max();
    }
};

// "1G", "1GiB", "512M", "512MiB", "256m", "64k", "2.5G", "1073741824", "100B": a number of
// bytes with an optional binary unit (K, M, G, T = 1024^1..4, with or without "i" and "B",
// any case). Zero, negative, fractional bytes, junk and sizes over 2^64 - 1 are errors.
Result<std::uint64_t> parse_memory_size(std::string_view text);

}  // namespace runtop
