// An anomaly another tool detected and wrote to disk (msProbe's anomaly.json and
// anomaly_analyse.json, FORMATS.md §1.4), kept beside runtop's own for the anomaly list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/series_key.h"

namespace runtop {

struct ImportedAnomaly {
    std::string run;
    int rank = kNoRank;
    std::string key;      // the writer's own key: "<tag_name>_step_<s>_call_<c>"
    std::string tag;      // runtop's tag for the series it concerns ("" when unknown)
    std::string raw_tag;  // the writer's tag_name, e.g. "0:fc1.input:0/rank0/actv"
    std::string op;       // from the message, e.g. "norm" ("" in legacy messages)
    std::string rule;     // e.g. "AnomalyTurbulence"
    std::string message;
    std::int64_t step = 0;
    std::int64_t micro_step = 0;  // from the tag's ":<micro>" suffix when present
    std::int64_t pp_stage = 0;
    std::int64_t vpp_stage = 0;
    std::int64_t call_id = -1;
    double value = 0;         // "current value" of the message; NaN when absent
    double history_mean = 0;  // "history mean" of the message; NaN when absent
    std::vector<int> group_mates;
    std::string source_path;  // the file it was read from
};

}  // namespace runtop
