// The Store: every series with its points, after restart semantics (DESIGN.md §2).
// Unbounded for now: `ls` and `dump` need every point. The bounded pyramid of issue 4 keeps
// this interface.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/point_sink.h"
#include "core/series_key.h"

namespace runtop {

// Where a series restarted: a step went backwards (or a session started) and `dropped`
// retained points at or after `step` were replaced.
struct RestartMarker {
    std::int64_t step;
    double wall_time;
    std::uint64_t dropped;
};

class Series {
  public:
    Series(SeriesKey key, SourceKind kind) : key_(std::move(key)), kind_(kind) {}

    const SeriesKey& key() const { return key_; }
    SourceKind kind() const { return kind_; }
    std::size_t size() const { return steps_.size(); }
    bool empty() const { return steps_.empty(); }
    Point point(std::size_t i) const { return {steps_[i], walls_[i], values_[i]}; }
    const Point back() const { return point(size() - 1); }
    const std::vector<RestartMarker>& restarts() const { return restarts_; }
    std::uint64_t received() const { return received_; }  // points offered, before replacement

    // Steps are kept strictly increasing: an equal step replaces the last point, a lower step
    // drops every point at or after it and records a restart.
    void append(const Point& p);
    // Drops points at or after `step`; returns how many were dropped.
    std::uint64_t truncate_from(std::int64_t step);
    void mark_restart(const RestartMarker& marker) { restarts_.push_back(marker); }

  private:
    SeriesKey key_;
    SourceKind kind_;
    std::vector<std::int64_t> steps_;
    std::vector<double> walls_;
    std::vector<double> values_;
    std::vector<RestartMarker> restarts_;
    std::uint64_t received_ = 0;
};

class Store final : public PointSink {
  public:
    SeriesId series(const SeriesKey& key, SourceKind kind) override;
    void append(SeriesId id, const Point& point) override { series_[id].append(point); }
    void session_start(std::string_view run, int rank, std::int64_t step,
                       double wall_time) override;
    void config_text(ConfigText text) override;
    void anomaly(ImportedAnomaly anomaly) override;

    std::size_t series_count() const { return series_.size(); }
    const Series& at(SeriesId id) const { return series_[id]; }
    // Ids ordered by (run, rank, tag), the order `ls` and `dump` print in.
    std::vector<SeriesId> sorted_ids() const;
    // The latest text per (run, rank, tag).
    const std::vector<ConfigText>& config_texts() const { return configs_; }
    std::uint64_t total_points() const;
    // Imported anomalies, one per (run, key), in arrival order.
    const std::vector<ImportedAnomaly>& imported_anomalies() const { return anomalies_; }

  private:
    std::vector<Series> series_;
    std::unordered_map<SeriesKey, SeriesId, SeriesKeyHash> index_;
    std::map<std::pair<std::string, int>, std::vector<SeriesId>, std::less<>> by_run_rank_;
    std::vector<ConfigText> configs_;
    std::vector<ImportedAnomaly> anomalies_;
    std::map<std::pair<std::string, std::string>, std::size_t> anomaly_index_;
};

}  // namespace runtop
