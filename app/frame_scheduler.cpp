#include "app/frame_scheduler.h"

#include <algorithm>

namespace runtop {

std::optional<FrameScheduler::Frame> FrameScheduler::due(Clock::time_point now,
                                                         bool key_pending) const {
    if (!dirty_) return std::nullopt;
    if (!urgent_ && (key_pending || now - last_frame_ < interval_)) return std::nullopt;
    return Frame{urgent_ && !force_, force_};
}

void FrameScheduler::drawn(const Frame& frame, Clock::time_point start, Clock::time_point end) {
    last_frame_ = end;
    interval_ = std::max<Clock::duration>(refresh_, 4 * (end - start));
    // A key's frame may have shown what an earlier frame queried: the new data is still owed.
    dirty_ = data_changed_ = frame.key_frame && data_changed_;
    force_ = urgent_ = false;
}

int FrameScheduler::wait_ms(Clock::time_point now) const {
    if (!dirty_) return -1;
    if (urgent_) return 0;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(last_frame_ + interval_ - now);
    return static_cast<int>(std::max<long long>(0, left.count()));
}

}  // namespace runtop
