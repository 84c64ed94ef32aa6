// What the anomaly log (views/anomaly_view.h) keeps between keys.
#pragma once

#include <cstddef>
#include <memory>
#include <set>

namespace runtop::ui {

// The last layout worked out (views/anomaly_layout.h): reused while the log, the filter, the
// acknowledged rows and the canvas are unchanged, so a key does not measure the whole list.
struct AnomalyLayoutCache;

struct AnomalyState {
    int selected = 0;  // a row of anomaly_rows() (views/anomaly_rows.h); clamped
    // Records the user acknowledged (`a`), by index into AnomalyLog::records(): drawn dim,
    // marked "ack", never removed.
    std::set<std::size_t> acknowledged;
    // Incidents unfolded (Enter, Right), by their root's record: their members listed under
    // them.
    std::set<std::size_t> expanded;
    mutable std::shared_ptr<AnomalyLayoutCache> layout_cache;  // made by the first layout
};

}  // namespace runtop::ui
