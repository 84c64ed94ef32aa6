#include "core/point_recording.h"

namespace runtop {

void PointRecording::add_series(SeriesId local, const SeriesKey& key, SourceId source) {
    entries_.push_back({Op::kSeries, static_cast<SeriesId>(series_.size()), Point{}});
    series_.push_back({key, source, local});
}

void PointRecording::add_session_start(std::string_view run, int rank, std::int64_t step,
                                       double wall_time) {
    Point p;
    p.step = step;
    p.wall_time = wall_time;
    entries_.push_back({Op::kSessionStart, static_cast<SeriesId>(starts_.size()), p});
    starts_.emplace_back(std::string(run), rank);
}

void PointRecording::add_config(ConfigText text) {
    entries_.push_back({Op::kConfig, static_cast<SeriesId>(configs_.size()), Point{}});
    configs_.push_back(std::move(text));
}

void PointRecording::add_anomaly(ImportedAnomaly anomaly) {
    entries_.push_back({Op::kAnomaly, static_cast<SeriesId>(anomalies_.size()), Point{}});
    anomalies_.push_back(std::move(anomaly));
}

void PointRecording::clear() {
    entries_.clear();
    series_.clear();
    starts_.clear();
    configs_.clear();
    anomalies_.clear();
    points_ = 0;
}

std::uint64_t PointRecording::replay(PointSink& sink, std::vector<SeriesId>& ids, std::size_t from,
                                     std::size_t to) {
    std::uint64_t points = 0;
    for (std::size_t i = from; i < to; ++i) {
        const Entry& e = entries_[i];
        switch (e.op) {
            case Op::kPoint:
                sink.append(ids[e.id], e.point);
                ++points;
                break;
            case Op::kSeries: {
                const NewSeries& s = series_[e.id];
                const SeriesId real = sink.series(s.key, s.source);
                if (s.local == kSkippedSeries) break;
                if (ids.size() <= s.local) ids.resize(s.local + 1, kSkippedSeries);
                ids[s.local] = real;
                break;
            }
            case Op::kSessionStart: {
                const auto& [run, rank] = starts_[e.id];
                sink.session_start(run, rank, e.point.step, e.point.wall_time);
                break;
            }
            case Op::kConfig:
                sink.config_text(std::move(configs_[e.id]));
                break;
            case Op::kAnomaly:
                sink.anomaly(std::move(anomalies_[e.id]));
                break;
        }
    }
    return points;
}

}  // namespace runtop
