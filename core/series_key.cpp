#include "core/series_key.h"

#include <tuple>

namespace runtop {

std::string_view source_kind_name(SourceKind kind) {
    switch (kind) {
        case SourceKind::kTfEvents:
            return "tfevents";
        case SourceKind::kMindSpore:
            return "mindspore";
        case SourceKind::kMsProbeCsv:
            return "msprobe-csv";
        case SourceKind::kMsProbeV2Csv:
            return "msprobe-v2-csv";
        case SourceKind::kDeepSpeedCsv:
            return "deepspeed-csv";
        case SourceKind::kLightningCsv:
            return "lightning-csv";
        case SourceKind::kHfTrainerState:
            return "hf-trainer-state";
    }
    return "unknown";
}

StepAxis step_axis(SourceKind kind, std::string_view tag) {
    if (kind == SourceKind::kDeepSpeedCsv) return StepAxis::kSamples;
    // DeepSpeed's TensorBoard monitor ("Train/Samples/...") and tensorboardX's sanitised
    // MindFormers "... vs samples" tags use samples as the step too.
    if (tag.starts_with("Train/Samples/") || tag.ends_with("_vs_samples") ||
        tag.ends_with(" vs samples"))
        return StepAxis::kSamples;
    return StepAxis::kSteps;
}

std::string_view step_axis_name(StepAxis axis) {
    return axis == StepAxis::kSamples ? "samples" : "steps";
}

bool SeriesKey::operator<(const SeriesKey& other) const {
    return std::tie(run, rank, tag) < std::tie(other.run, other.rank, other.tag);
}

std::size_t SeriesKeyHash::operator()(const SeriesKey& key) const noexcept {
    std::size_t h = std::hash<std::string_view>{}(key.run);
    h ^= std::hash<std::string_view>{}(key.tag) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= static_cast<std::size_t>(key.rank + 1) * 0xff51afd7ed558ccdULL;
    return h;
}

}  // namespace runtop
