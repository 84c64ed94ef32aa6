// msProbe's analyser order for anomalies (GradAnomalyData.__lt__, reference/FORMATS.md §1.4):
// the key (step, micro_step, train_stage, vpp', pp', call_id), compared lexicographically.
// train_stage comes from the tag's kind (the text after the last '/' of tag_name) and is -1 for
// kinds msProbe does not list, so those sort before the forward pass of the same step. In the
// forward stage later pipeline stages sort later (vpp' = vpp_stage, pp' = pp_stage); in every
// other stage they are negated, so the last pipeline stage, where backward starts, comes first.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace runtop {

enum class MsProbeTrainStage : std::int8_t {
    kOther = -1,     // param_origin, param_updated, mg_direction, ... (sorts first)
    kForward = 0,    // actv
    kBackward = 1,   // actv_grad, pre_grad, post_grad, acc_grad
    kOptimizer = 2,  // exp_avg, exp_avg_sq
};

// The kind of a tag_name: "0:fc1.input:0/rank0/actv" -> "actv" (the whole name without '/').
std::string_view msprobe_tag_kind(std::string_view tag_name);

// The stage of a kind, exactly as msProbe's TRAIN_STAGE table (unknown kinds: kOther).
MsProbeTrainStage msprobe_train_stage(std::string_view kind);

// The fields of an anomaly that its order depends on. `kind` is a view: what it views must outlive
// them.
struct MsProbeAnomalyOrderFields {
    std::int64_t step = 0;
    std::int64_t micro_step = 0;
    std::string_view kind;
    std::int64_t vpp_stage = 0;
    std::int64_t pp_stage = 0;
    std::int64_t call_id = 0;
};

// The sort key msProbe builds, for callers that sort many records and want to compute it once.
using MsProbeAnomalyOrderKey = std::array<std::int64_t, 6>;
MsProbeAnomalyOrderKey msprobe_order_key(const MsProbeAnomalyOrderFields& fields);

// msProbe's `a < b`: a strict weak order. Records with equal keys (different ranks at the same
// pp_stage, or tags without a call_id, -1) are equivalent; msProbe leaves their order to
// os.listdir and heapq, so it is not reproducible. Use std::stable_sort over records fed in
// (rank, file order) for a deterministic order that matches msProbe whenever msProbe's own is
// determined.
bool msprobe_anomaly_less(const MsProbeAnomalyOrderFields& a, const MsProbeAnomalyOrderFields& b);

}  // namespace runtop
