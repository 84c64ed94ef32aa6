// The Store: every series with its points, after restart semantics (DESIGN.md §2).
// Unbounded for now: `ls` and `dump` need every point. The bounded pyramid of issue 4 keeps
// this interface.
#pragma once

#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/point_arena.h"
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
    Series(SeriesKey key, SourceKind kind, PointArena& arena)
        : key_(std::move(key)), kind_(kind), arena_(&arena) {}
    Series(Series&& other) noexcept;
    Series& operator=(Series&&) = delete;
    Series(const Series&) = delete;
    // Blocks go back with the whole arena (the Store's), not one by one.
    ~Series() = default;

    const SeriesKey& key() const { return key_; }
    SourceKind kind() const { return kind_; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Point point(std::size_t i) const {
        const Chunk& c = chunks_[chunk_of(i)];
        const std::size_t at = i - first_index(chunk_of(i));
        return {c.steps[at], c.walls[at], c.values[at]};
    }
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
    // Points live in chunks of 8, 16, 32, ... points, each three column blocks of the arena:
    // a series grows without ever copying or freeing, so memory touched is about the data.
    static constexpr std::size_t kFirstChunk = PointArena::kMinBytes / sizeof(double);
    struct Chunk {
        std::int64_t* steps;
        double* walls;
        double* values;
    };
    static std::size_t chunk_of(std::size_t i) {
        return static_cast<std::size_t>(std::bit_width(i / kFirstChunk + 1) - 1);
    }
    static std::size_t first_index(std::size_t chunk) {
        return kFirstChunk * ((std::size_t{1} << chunk) - 1);
    }
    // Moves tail_ to the chunk after it, allocating it if there is none yet.
    void next_chunk();
    void push(const Point& p) {
        if (size_ == tail_end_) next_chunk();
        const std::size_t at = size_ - tail_first_;
        tail_.steps[at] = p.step;
        tail_.walls[at] = p.wall_time;
        tail_.values[at] = p.value;
        last_step_ = p.step;
        ++size_;
    }
    // Points tail_ at the chunk where the next point goes (after a truncation).
    void locate_tail();

    SeriesKey key_;
    SourceKind kind_;
    PointArena* arena_;
    std::vector<Chunk> chunks_;
    Chunk tail_{};                // the chunk the next point goes to
    std::size_t tail_chunk_ = 0;  // tail_'s number
    std::size_t tail_first_ = 0;  // index of tail_'s first point
    std::size_t tail_end_ = 0;    // one past tail_'s last index (0: no chunk yet)
    std::size_t size_ = 0;
    std::int64_t last_step_ = 0;
    std::vector<RestartMarker> restarts_;
    std::uint64_t received_ = 0;
};

class Store final : public PointSink {
  public:
    Store() : arena_(std::make_unique<PointArena>()) {}
    // The index refers to series_ by address: a Store stays where it was made.
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;
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
    std::unique_ptr<PointArena> arena_;  // before series_: outlives them
    std::vector<Series> series_;
    // The key index holds ids and looks keys up in series_, so each key is stored once.
    struct IdHash {
        using is_transparent = void;
        const std::vector<Series>* series;
        std::size_t operator()(SeriesId id) const { return SeriesKeyHash{}((*series)[id].key()); }
        std::size_t operator()(const SeriesKey& key) const { return SeriesKeyHash{}(key); }
    };
    struct IdEqual {
        using is_transparent = void;
        const std::vector<Series>* series;
        const SeriesKey& key(SeriesId id) const { return (*series)[id].key(); }
        const SeriesKey& key(const SeriesKey& k) const { return k; }
        template <class A, class B>
        bool operator()(const A& a, const B& b) const {
            return key(a) == key(b);
        }
    };
    std::unordered_set<SeriesId, IdHash, IdEqual> index_{16, IdHash{&series_}, IdEqual{&series_}};
    std::map<std::pair<std::string, int>, std::vector<SeriesId>, std::less<>> by_run_rank_;
    std::vector<SeriesId>* last_group_ = nullptr;  // by_run_rank_'s entry of the last new series
    SeriesKey last_group_key_;
    std::vector<ConfigText> configs_;
    std::vector<ImportedAnomaly> anomalies_;
    std::map<std::pair<std::string, std::string>, std::size_t> anomaly_index_;
};

}  // namespace runtop
