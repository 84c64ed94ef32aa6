// Which tags count samples rather than steps, whatever file they come from: DeepSpeed's
// TensorBoard monitor ("Train/Samples/...") and MindFormers' "<tag> vs samples" series (as
// written, or as tensorboardX sanitises them). Readers apply it to the axis they supply.
#pragma once

#include <string_view>

#include "core/series_source.h"

namespace runtop {

inline StepAxis axis_of_tag(std::string_view tag, StepAxis otherwise = StepAxis::kSteps) {
    if (tag.starts_with("Train/Samples/") || tag.ends_with("_vs_samples") ||
        tag.ends_with(" vs samples"))
        return StepAxis::kSamples;
    return otherwise;
}

}  // namespace runtop
