// A data file whose name carries the range of steps it holds ("grad_10-14.csv"): the writer
// starts a new file for the next range and never returns to an older one, so once a file with a
// higher range exists in the same directory, the older file is complete. The Watcher uses this
// to stop following complete files (watcher.h, FileChange::kCompleted).
#pragma once

#include <cstdint>
#include <string>

namespace runtop {

struct StepRange {
    // The name with its range taken out: files of one series share it ("grad_#.csv"; a part
    // suffix stays: "actv_#_part_1.csv" is another series than "actv_#.csv").
    std::string series;
    std::uint64_t first = 0;
    std::uint64_t last = 0;
};

}  // namespace runtop
