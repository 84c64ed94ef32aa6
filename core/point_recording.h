// PointSink calls kept in order to be replayed into another sink later, on another thread: the
// dashboard's ingest thread hands them to the event loop in batches, the reader pool
// (readers/reader_pool.h) parses files ahead of the thread that stores them. Series ids in a
// recording are the recorder's own ("local"); replay maps them to the target sink's ids.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/heap_bytes.h"
#include "core/point_sink.h"

namespace runtop {

class PointRecording {
  public:
    // A series() call the recorder saw: `local` is the id it handed out (kSkippedSeries when the
    // recorder already knew the target skips it; replay still asks the target, which may count
    // skipped series).
    void add_series(SeriesId local, const SeriesKey& key, SourceId source);
    void add_point(SeriesId local, const Point& point) {
        entries_.push_back({Op::kPoint, local, point});
        ++points_;
    }
    void add_session_start(std::string_view run, int rank, std::int64_t step, double wall_time);
    void add_config(ConfigText text);
    void add_anomaly(ImportedAnomaly anomaly);

    std::size_t size() const { return entries_.size(); }
    // What it holds, near enough: its entries and new series with their keys' strings (the
    // rarer session starts, texts and anomalies are not counted).
    std::uint64_t bytes() const {
        std::uint64_t n =
            entries_.capacity() * sizeof(Entry) + series_.capacity() * sizeof(NewSeries);
        for (const NewSeries& s : series_)
            n += string_heap_bytes(s.key.run) + string_heap_bytes(s.key.tag);
        return n;
    }
    bool empty() const { return entries_.empty(); }
    std::uint64_t points() const { return points_; }
    void reserve(std::size_t entries) { entries_.reserve(entries); }
    // Empty again, keeping the memory: a recording reused is not paged in anew.
    void clear();

    // Replays entries [from, to) into `sink`; `ids` maps local ids to the sink's, filled as the
    // recorded series() calls are replayed (and kept by the caller across recordings of the
    // same recorder). Texts and anomalies are moved out: replay each entry once. Returns the
    // points replayed.
    std::uint64_t replay(PointSink& sink, std::vector<SeriesId>& ids, std::size_t from,
                         std::size_t to);
    std::uint64_t replay(PointSink& sink, std::vector<SeriesId>& ids) {
        return replay(sink, ids, 0, entries_.size());
    }

  private:
    enum class Op : std::uint8_t { kSeries, kPoint, kSessionStart, kConfig, kAnomaly };
    struct Entry {
        Op op;
        SeriesId id;  // kPoint: the local series id; others: an index into their vector
        Point point;  // kPoint; kSessionStart: step and wall_time
    };
    struct NewSeries {
        SeriesKey key;
        SourceId source;
        SeriesId local;
    };

    std::vector<Entry> entries_;
    std::vector<NewSeries> series_;
    std::vector<std::pair<std::string, int>> starts_;  // run, rank
    std::vector<ConfigText> configs_;
    std::vector<ImportedAnomaly> anomalies_;
    std::uint64_t points_ = 0;
};

}  // namespace runtop
