// msProbe's names for what it monitors, both ways (reference/FORMATS.md §1.3, §1.4):
//   its tag_name  "<vpp>:<name>[:<micro>]/rank<R>/<kind>"   (anomaly.json, rule histories)
//   runtop's tag  "<prefix>/[<vpp>:]<name>[:<micro>]/<op>"  (the CSV file's prefix, DESIGN.md §2)
// The kind and the CSV prefix differ for gradients: pre_grad/acc_grad are written to
// grad_unreduced_*.csv, post_grad to grad_reduced_*.csv, mg_direction to other_*.csv.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/series_key.h"

namespace runtop {

// The parts of an msProbe tag_name; `ok` false when it has no "/<kind>" part.
struct AnomalyTagName {
    bool ok = false;
    std::int64_t vpp = 0;
    bool has_vpp = false;
    std::string_view name;  // without the vpp prefix and the micro-step suffix
    std::int64_t micro = 0;
    bool has_micro = false;
    int rank = kNoRank;  // from "/rank<R>/"
    std::string_view kind;
};
AnomalyTagName parse_anomaly_tag_name(std::string_view tag_name);

// The CSV prefix of a tag_name kind: "post_grad" -> "grad_reduced", "actv" -> "actv".
std::string_view anomaly_kind_prefix(std::string_view kind);

// runtop's tag for a tag_name and op, or "" when either is unknown.
std::string anomaly_series_tag(std::string_view tag_name, std::string_view op);

// The parts of runtop's tag for an msProbe CSV series; `ok` false when it is not of that shape.
struct MsProbeSeriesTag {
    bool ok = false;
    std::string_view prefix;  // "grad_reduced"
    std::int64_t vpp = 0;
    std::string_view name;  // "fc1.weight", without vpp and micro-step
    std::int64_t micro = 0;
    bool has_micro = false;
    std::string_view op;  // "norm"
    // The statistic without its op, "grad_reduced/fc1.weight": the unit msProbe keys anomalies
    // by (its key names no op, so ops of one tag at one step collapse into one entry).
    std::string_view statistic;
};
MsProbeSeriesTag parse_msprobe_series_tag(std::string_view tag);

// The kind msProbe gives the statistics written under a CSV prefix. grad_unreduced is
// acc_grad or pre_grad (Megatron's bucket hook) depending on the model: both are in the backward
// stage, which is all msProbe's order asks of it; acc_grad is returned.
std::string_view msprobe_prefix_kind(std::string_view prefix);

// msProbe's tag_name for a parsed runtop tag on `rank` (vpp always written, as msProbe does).
std::string msprobe_tag_name(const MsProbeSeriesTag& tag, int rank);

}  // namespace runtop
