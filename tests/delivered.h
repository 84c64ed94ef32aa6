// What a reader delivered to a RecordingSink, keyed for comparing: "tag@step", or "rank
// tag@step" when ranks matter, to the last value, and how many times each came (a reader
// delivers each point once).
#pragma once

#include <map>
#include <string>

#include "tests/test_support.h"

namespace runtop::testing {

struct Delivered {
    std::map<std::string, double> value;
    std::map<std::string, int> count;
};

inline Delivered delivered(const RecordingSink& sink, bool by_rank = false) {
    Delivered d;
    for (const auto& s : sink.scalars) {
        std::string id = s.key.tag + "@" + std::to_string(s.point.step);
        if (by_rank) id = std::to_string(s.key.rank) + " " + id;
        d.value[id] = s.point.value;
        ++d.count[id];
    }
    return d;
}

}  // namespace runtop::testing
