// What the module x step heatmap (views/modules_view.h) keeps between keys.
#pragma once

#include <memory>
#include <optional>
#include <string>

namespace runtop::ui {

// What a cell aggregates over ranks (`a` cycles): the max, the selected rank's value, or the
// spread (max / min across ranks).
enum class ModuleAggregation { kMax, kRank, kSpread };
// How cells are coloured (`c`): on the page's ramp, or by distance from the row's own median.
enum class ModuleColour { kRamp, kDeviation };

// The family structure and anomaly marks worked out from the Store (views/modules_view.cpp):
// made again only when series arrive, the filter changes or the data grows.
struct ModulesCache;

struct ModulesState {
    // The family shown: nullopt = grad_unreduced (else the first task), and norm (else the
    // task's first op).
    std::optional<std::string> task, op;
    int row = 0;      // selected row; clamped
    int column = -1;  // selected step column, -1 = the newest (it follows new steps); clamped
    int zoom = 0;     // 0: a module a row; z > 0: 2^(z-1) layers a row
    ModuleAggregation aggregation = ModuleAggregation::kMax;
    int rank = 0;  // kRank: an index into ViewModel::run_ranks(); clamped
    ModuleColour colour = ModuleColour::kRamp;
    std::optional<bool> log;  // the ramp's scale as `l` chose it (true: log); nullopt: log when
                              // every value is positive
    mutable std::shared_ptr<ModulesCache> cache;  // made by the first frame; copies share it
};

}  // namespace runtop::ui
