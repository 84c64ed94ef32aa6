#include "core/analysis/anomaly_order.h"

namespace runtop {

std::string_view msprobe_tag_kind(std::string_view tag_name) {
    const std::size_t slash = tag_name.rfind('/');
    return slash == std::string_view::npos ? tag_name : tag_name.substr(slash + 1);
}

MsProbeTrainStage msprobe_train_stage(std::string_view kind) {
    if (kind == "actv") return MsProbeTrainStage::kForward;
    if (kind == "actv_grad" || kind == "pre_grad" || kind == "post_grad" || kind == "acc_grad") {
        return MsProbeTrainStage::kBackward;
    }
    if (kind == "exp_avg" || kind == "exp_avg_sq") return MsProbeTrainStage::kOptimizer;
    return MsProbeTrainStage::kOther;
}

MsProbeAnomalyOrderKey msprobe_order_key(const MsProbeAnomalyOrderFields& f) {
    const MsProbeTrainStage stage = msprobe_train_stage(f.kind);
    // msProbe negates vpp and pp by the stage of the left operand only, but the stage is
    // compared first, so the sign only matters between keys of one stage: per-key is the same.
    const std::int64_t sign = stage == MsProbeTrainStage::kForward ? 1 : -1;
    return {f.step,
            f.micro_step,
            static_cast<std::int64_t>(stage),
            sign * f.vpp_stage,
            sign * f.pp_stage,
            f.call_id};
}

bool msprobe_anomaly_less(const MsProbeAnomalyOrderFields& a, const MsProbeAnomalyOrderFields& b) {
    return msprobe_order_key(a) < msprobe_order_key(b);
}

}  // namespace runtop
