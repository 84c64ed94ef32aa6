// The dashboard's readers on a thread of their own, so a key is answered within 50 ms while
// gigabytes are backfilled: the thread runs the SourceSet and its Watcher and records what the
// readers hand over (series, points, session starts, texts, imported anomalies) into batches;
// the event loop replays batches into the real sink (Store + Analyzer) in slices with a
// deadline, between keys. Nothing is shared but the queue: the Store and the Analyzer belong to
// the event loop's thread alone, so views read them without locks.
//
// Backpressure: when the event loop falls behind (or the user paused the tail), the reader
// thread waits once kMaxQueued batches are queued, and the watcher keeps the rest on disk, so
// memory stays bounded and nothing is dropped.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/analysis/anomaly_log.h"
#include "core/point_recording.h"
#include "core/point_sink.h"
#include "core/series_filter.h"
#include "readers/source_reader.h"
#include "readers/source_set.h"
#include "readers/watcher.h"

namespace runtop {

// What the readers handed over, in order, with series ids of the reader thread's own.
using IngestBatch = PointRecording;

class IngestThread {
  public:
    static constexpr std::size_t kBatchEntries = 1 << 14;
    static constexpr std::size_t kMaxQueued = 64;  // batches: about 64 MB at most

    // `only`: the series to read (the dashboard started with --filter / --ranks); the rest are
    // skipped before they are decoded, and only counted (skipped_series()).
    IngestThread(std::vector<RootSpec> roots, WatchOptions options,
                 std::optional<SeriesFilter> only = std::nullopt);
    ~IngestThread();  // stops and joins
    IngestThread(const IngestThread&) = delete;
    IngestThread& operator=(const IngestThread&) = delete;

    void start();

    // Readable (an eventfd) when batches were queued; the event loop drains it.
    int notify_fd() const { return notify_fd_; }

    // Replays waiting batches into `sink` until they run out or `deadline` passes. Returns the
    // points applied.
    std::uint64_t apply(PointSink& sink, std::chrono::steady_clock::time_point deadline);
    bool has_waiting() const;
    std::uint64_t waiting_points() const;

    // The first pass over what was on disk is read and applied: the backfill is over.
    bool backfilled() const;

    IngestTotals totals() const;
    // What the reader thread holds that grows with the data: its readers' shared state
    // (SourceSet::memory_bytes(), as of the last batch) and the batches queued. The event loop
    // charges it to the Store's budget beside the view model, so `--memory` counts it.
    std::uint64_t memory_bytes() const;
    // The distinct series `only` left out so far (0 without it).
    std::size_t skipped_series() const;
    // How the roots are watched (SourceSet::watch_summary()).
    std::vector<std::string> watching() const;
    std::vector<std::string> take_messages();
    std::size_t readable_roots() const;

  private:
    class RecordingSink;
    void run();
    void publish(IngestBatch batch);  // blocks while the queue is full
    void signal();

    std::vector<RootSpec> roots_;
    WatchOptions options_;
    std::optional<SeriesFilter> only_;  // read on the reader thread only
    int notify_fd_ = -1;
    int stop_fd_ = -1;
    std::thread thread_;
    std::atomic<bool> stopping_{false};

    mutable std::mutex mutex_;
    std::condition_variable room_;  // the queue has room again
    struct Queued {
        IngestBatch batch;
        std::uint64_t bytes;  // its bytes(), taken once when queued
    };
    std::deque<Queued> queue_;
    std::uint64_t queued_points_ = 0;
    std::uint64_t queued_bytes_ = 0;              // IngestBatch::bytes() of the queue
    std::atomic<std::uint64_t> reader_bytes_{0};  // the SourceSet's, as of the last batch
    bool first_pass_read_ = false;
    IngestTotals totals_;
    std::size_t skipped_series_ = 0;
    std::vector<std::string> watching_;
    std::vector<std::string> messages_;
    std::size_t readable_roots_ = 0;

    // The event loop's side: the batch being applied and where it is.
    IngestBatch current_;
    std::uint64_t current_bytes_ = 0;
    std::size_t position_ = 0;
    bool has_current_ = false;
    std::vector<SeriesId> real_ids_;  // local id → the sink's id
};

}  // namespace runtop
