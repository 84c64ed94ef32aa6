#include "core/analysis/step_list.h"

namespace runtop {

bool StepList::push_back(std::int64_t step) {
    if (count_ > 0 && step <= back()) return false;
    if (!listed_.empty()) {
        listed_.push_back(step);
    } else if (count_ == 0) {
        first_ = step;
    } else {
        const std::uint64_t gap =
            static_cast<std::uint64_t>(step) - static_cast<std::uint64_t>(back());
        if (count_ == 1) {
            stride_ = gap;
        } else if (gap != stride_) {
            listed_.reserve(count_ * 2);
            for (std::size_t i = 0; i < count_; ++i) listed_.push_back(progression(i));
            listed_.push_back(step);
        }
    }
    ++count_;
    return true;
}

}  // namespace runtop
