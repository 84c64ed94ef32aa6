// The sink the readers of one pool thread are bound to (readers/reader_pool.h). While the pool
// reads, it records what they hand over into the file's PointRecording with series ids of its
// own, for the thread that owns the real sink to replay in file order; afterwards it forwards
// every call to the real sink at once (a reader keeps its sink and the ids it got for life).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/point_recording.h"
#include "core/point_sink.h"

namespace runtop {

class PoolSink final : public PointSink {
  public:
    explicit PoolSink(PointSink& target) : target_(target) {}

    // Calls go into `recording` (on the pool thread), or with nullptr straight to the target
    // (on the thread that owns it).
    void record_into(PointRecording* recording) { recording_ = recording; }
    // Called when the recording holds `entries`: the pool hands it over (and may wait for room),
    // so a file's recording is bounded whatever a reader's poll reads.
    void when_full(std::size_t entries, std::function<void()> full) {
        full_entries_ = entries;
        full_ = std::move(full);
    }
    // This sink's ids → the target's, filled by replaying its recordings; only the thread that
    // owns the target touches it.
    std::vector<SeriesId>& target_ids() { return target_ids_; }

    SeriesId series(const SeriesKey& key, SourceId source) override;
    void append(SeriesId id, const Point& point) override {
        // A skipped series' points are dropped by the target anyway (point_sink.h).
        if (id == kSkippedSeries) return;
        if (recording_) {
            recording_->add_point(id, point);
            if (recording_->size() >= full_entries_) full_();
        } else {
            target_.append(target_ids_[id], point);
        }
    }
    void session_start(std::string_view run, int rank, std::int64_t step,
                       double wall_time) override;
    void config_text(ConfigText text) override;
    void anomaly(ImportedAnomaly anomaly) override;

  private:
    PointSink& target_;
    PointRecording* recording_ = nullptr;
    std::size_t full_entries_ = SIZE_MAX;
    std::function<void()> full_;
    // Every series() call gets a fresh id: readers ask once per key, and a key two readers of
    // this thread ask for maps to the target's one id on replay. No map of keys: it would hold
    // every key of the run once per thread (~250 bytes each).
    SeriesId next_id_ = 0;
    std::vector<SeriesId> target_ids_;
};

}  // namespace runtop
