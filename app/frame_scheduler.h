// When the dashboard draws a frame. Nothing is drawn unless something changed; a key's answer
// (or a resize) is drawn at once; a frame for new data or a changed status line waits until
// the data interval has passed since the last frame, and yields to a key waiting to be read
// (the key's own frame comes first). The data interval is refresh_ms, stretched to 4x the last
// frame's drawing time, so a large job streaming in costs at most a fifth of a core in drawing.
// A key's frame may show what the last frame queried (views reuse it while data streams in):
// when data arrived before it, a data frame follows at the usual pace.
#pragma once

#include <chrono>
#include <optional>

namespace runtop {

class FrameScheduler {
  public:
    using Clock = std::chrono::steady_clock;

    struct Frame {
        bool key_frame = false;  // answering a key: views may reuse what they last queried
        bool force = false;      // repaint every cell (a resize, Ctrl-L)
    };

    explicit FrameScheduler(Clock::duration refresh) : refresh_(refresh), interval_(refresh) {}

    // What happened since the last frame.
    void key_answered(bool force) {  // a key changed what is shown (force: repaint every cell)
        dirty_ = urgent_ = true;
        force_ |= force;
    }
    void resized() { key_answered(true); }
    void data_arrived() { dirty_ = data_changed_ = true; }  // points applied to the Store
    void status_changed() { dirty_ = true; }  // what the status line shows (ingest, stalls)

    // Whether a key's frame is owed: then no key needs to be looked for before drawing.
    bool urgent() const { return urgent_; }
    // The frame to draw now, if any; `key_pending`: a key waits to be read.
    std::optional<Frame> due(Clock::time_point now, bool key_pending) const;
    // A frame was drawn from `start` to `end`.
    void drawn(const Frame& frame, Clock::time_point start, Clock::time_point end);
    // How long the loop may sleep before a frame is owed (-1: until something happens).
    int wait_ms(Clock::time_point now) const;

  private:
    Clock::duration refresh_;
    Clock::duration interval_;  // between data frames
    Clock::time_point last_frame_ = Clock::now() - std::chrono::hours(1);
    bool dirty_ = true;          // the first frame
    bool urgent_ = true;         // drawn at once
    bool force_ = false;         // every cell
    bool data_changed_ = false;  // data arrived since the last frame that queried it
};

}  // namespace runtop
