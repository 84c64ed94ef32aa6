// What the anomaly log (views/anomaly_view.h) keeps between keys.
#pragma once

#include <cstddef>
#include <set>

namespace runtop::ui {

struct AnomalyState {
    int selected = 0;  // a row of anomaly_rows(); clamped
    // Records the user acknowledged (`a`), by index into AnomalyLog::records(): drawn dim,
    // marked "ack", never removed.
    std::set<std::size_t> acknowledged;
};

}  // namespace runtop::ui
