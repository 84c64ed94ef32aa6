// When the dashboard draws: keys at once, data at the data pace, a pending key first, slow
// frames stretching the pace, the data a key's frame reused still owed.
#include "app/frame_scheduler.h"

#include <gtest/gtest.h>

namespace runtop {
namespace {

using Clock = FrameScheduler::Clock;
using std::chrono::milliseconds;

struct Fixture {
    FrameScheduler frames{milliseconds(100)};
    Clock::time_point now = Clock::now();

    // Draws whatever is due now, taking `cost`; returns it.
    std::optional<FrameScheduler::Frame> step(milliseconds cost = milliseconds(1),
                                              bool key_pending = false) {
        std::optional<FrameScheduler::Frame> frame = frames.due(now, key_pending);
        if (frame) {
            frames.drawn(*frame, now, now + cost);
            now += cost;
        }
        return frame;
    }
};

TEST(FrameScheduler, TheFirstFrameIsDrawnAtOnceThenNothingUntilSomethingChanges) {
    Fixture f;
    ASSERT_TRUE(f.step());
    EXPECT_FALSE(f.step());
    EXPECT_EQ(f.frames.wait_ms(f.now), -1);
    f.now += std::chrono::seconds(5);
    EXPECT_FALSE(f.step());
}

TEST(FrameScheduler, AKeysFrameIsDrawnAtOnceAndDataFramesAtTheRefreshPace) {
    Fixture f;
    f.step();
    f.frames.data_arrived();
    EXPECT_FALSE(f.step()) << "a data frame right after the last one";
    EXPECT_EQ(f.frames.wait_ms(f.now), 100);
    f.frames.key_answered(false);
    const auto key = f.step();
    ASSERT_TRUE(key);
    EXPECT_TRUE(key->key_frame);
    EXPECT_FALSE(key->force);
    // The key's frame may have reused what was queried before the data came: still owed.
    EXPECT_FALSE(f.step());
    f.now += milliseconds(100);
    const auto data = f.step();
    ASSERT_TRUE(data);
    EXPECT_FALSE(data->key_frame);
    EXPECT_FALSE(f.step());
}

TEST(FrameScheduler, ADataFrameYieldsToAPendingKey) {
    Fixture f;
    f.step();
    f.frames.data_arrived();
    f.now += milliseconds(200);
    EXPECT_FALSE(f.step(milliseconds(1), /*key_pending=*/true));
    EXPECT_EQ(f.frames.wait_ms(f.now), 0);
    EXPECT_TRUE(f.step());
}

TEST(FrameScheduler, SlowFramesStretchTheDataPaceToFourTimesTheirCost) {
    Fixture f;
    f.step(milliseconds(50));  // a 50 ms frame: data frames at most every 200 ms
    f.frames.data_arrived();
    f.now += milliseconds(150);
    EXPECT_FALSE(f.step());
    EXPECT_EQ(f.frames.wait_ms(f.now), 50);
    f.now += milliseconds(50);
    EXPECT_TRUE(f.step(milliseconds(1)));
    f.frames.status_changed();  // a cheap frame brings the pace back to refresh_ms
    f.now += milliseconds(100);
    EXPECT_TRUE(f.step());
}

TEST(FrameScheduler, AResizeRepaintsEveryCellOnce) {
    Fixture f;
    f.step();
    f.frames.resized();
    const auto frame = f.step();
    ASSERT_TRUE(frame);
    EXPECT_TRUE(frame->force);
    EXPECT_FALSE(frame->key_frame) << "a repaint queries afresh";
    f.frames.key_answered(false);
    const auto next = f.step();
    ASSERT_TRUE(next);
    EXPECT_FALSE(next->force);
}

}  // namespace
}  // namespace runtop
