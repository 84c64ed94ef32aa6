// Which tags count samples rather than steps, whatever file they come from: DeepSpeed's
// TensorBoard monitor ("Train/Samples/...") and MindFormers' "<tag> vs samples" series (as
// written, or as tensorboardX sanitises them). Readers of free-text tags give their series the
// axis the tag says through SourcesByTagAxis.
#pragma once

#include <string_view>

#include "core/series_source.h"

namespace runtop {

inline StepAxis axis_of_tag(std::string_view tag) {
    if (tag.starts_with("Train/Samples/") || tag.ends_with("_vs_samples") ||
        tag.ends_with(" vs samples"))
        return StepAxis::kSamples;
    return StepAxis::kSteps;
}

// A format's two sources, on steps and on samples, registered once (hold it in a static).
class SourcesByTagAxis {
  public:
    explicit SourcesByTagAxis(std::string_view format)
        : steps_(source_id({format})), samples_(source_id({format, StepAxis::kSamples})) {}
    // The source of a series with this tag.
    SourceId of(std::string_view tag) const {
        return axis_of_tag(tag) == StepAxis::kSamples ? samples_ : steps_;
    }

  private:
    SourceId steps_;
    SourceId samples_;
};

}  // namespace runtop
