#include "readers/pool_sink.h"

namespace runtop {

SeriesId PoolSink::series(const SeriesKey& key, SourceId source) {
    if (recording_) {
        // Skipped series are not remembered (as FilteringSink does not), but the target is
        // still asked on replay: it may count them.
        const SeriesId id = target_.skips(key) ? kSkippedSeries : next_id_++;
        recording_->add_series(id, key, source);
        if (recording_->size() >= full_entries_) full_();
        return id;
    }
    const SeriesId real = target_.series(key, source);
    if (real == kSkippedSeries) return kSkippedSeries;
    const SeriesId id = next_id_++;
    if (target_ids_.size() <= id) target_ids_.resize(id + 1, kSkippedSeries);
    target_ids_[id] = real;
    return id;
}

void PoolSink::session_start(std::string_view run, int rank, std::int64_t step, double wall_time) {
    if (recording_)
        recording_->add_session_start(run, rank, step, wall_time);
    else
        target_.session_start(run, rank, step, wall_time);
}

void PoolSink::config_text(ConfigText text) {
    if (recording_)
        recording_->add_config(std::move(text));
    else
        target_.config_text(std::move(text));
}

void PoolSink::anomaly(ImportedAnomaly anomaly) {
    if (recording_)
        recording_->add_anomaly(std::move(anomaly));
    else
        target_.anomaly(std::move(anomaly));
}

}  // namespace runtop
