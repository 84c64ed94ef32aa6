#include "app/ingest_thread.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

#include "core/filtering_sink.h"

namespace runtop {

// Records sink calls into batches, handing each over when it is full (and at the end of every
// watcher turn), so the event loop sees a backfill arrive in pieces.
class IngestThread::RecordingSink final : public PointSink {
  public:
    explicit RecordingSink(IngestThread& owner) : owner_(owner) {}
    // What each batch reports of the readers' own memory.
    void measure(const SourceSet& sources) { sources_ = &sources; }

    // A fresh id per call and no map of the keys it saw (~250 bytes a key: 500 MB at 2 M
    // series): readers ask once per key (msProbe's step files share their key tables), and the
    // event loop maps two ids of one key to the sink's one (the Store finds series by key).
    SeriesId series(const SeriesKey& key, SourceId source) override {
        const SeriesId id = next_id_++;
        batch_.add_series(id, key, source);
        full_check();
        return id;
    }
    void append(SeriesId id, const Point& point) override {
        batch_.add_point(id, point);
        full_check();
    }
    void session_start(std::string_view run, int rank, std::int64_t step,
                       double wall_time) override {
        batch_.add_session_start(run, rank, step, wall_time);
        full_check();
    }
    void config_text(ConfigText text) override {
        batch_.add_config(std::move(text));
        full_check();
    }
    void anomaly(ImportedAnomaly anomaly) override {
        batch_.add_anomaly(std::move(anomaly));
        full_check();
    }

    void flush() {
        if (batch_.empty()) return;
        if (sources_)
            owner_.reader_bytes_.store(sources_->memory_bytes(), std::memory_order_relaxed);
        owner_.publish(std::move(batch_));
        batch_ = {};
        batch_.reserve(kBatchEntries);
    }

  private:
    void full_check() {
        if (batch_.size() >= kBatchEntries) flush();
    }

    IngestThread& owner_;
    const SourceSet* sources_ = nullptr;
    SeriesId next_id_ = 0;
    IngestBatch batch_;
};

IngestThread::IngestThread(std::vector<RootSpec> roots, WatchOptions options,
                           std::optional<SeriesFilter> only)
    : roots_(std::move(roots)), options_(std::move(options)), only_(std::move(only)) {
    notify_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    stop_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

IngestThread::~IngestThread() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    room_.notify_all();
    if (stop_fd_ >= 0) {
        const std::uint64_t one = 1;
        [[maybe_unused]] ssize_t n = ::write(stop_fd_, &one, sizeof one);
    }
    if (thread_.joinable()) thread_.join();
    if (notify_fd_ >= 0) ::close(notify_fd_);
    if (stop_fd_ >= 0) ::close(stop_fd_);
}

void IngestThread::start() {
    thread_ = std::thread([this] { run(); });
}

void IngestThread::run() {
    RecordingSink sink(*this);
    std::optional<FilteringSink> filtering;
    if (only_) {
        filtering.emplace(*only_, sink);
        filtering->count_skipped();
    }
    SourceSet sources(filtering ? static_cast<PointSink&>(*filtering) : sink);
    sink.measure(sources);
    // A quit during a backfill of gigabytes is not kept waiting.
    sources.stop_when([this] { return stopping_.load(std::memory_order_relaxed); });
    for (const RootSpec& root : roots_) sources.add_root(root);
    sources.watch(options_);
    bool first = true;
    while (!stopping_) {
        sources.on_watch_ready();
        sink.flush();
        {
            std::lock_guard lock(mutex_);
            totals_ = sources.totals();
            if (filtering) skipped_series_ = filtering->skipped_series();
            watching_ = sources.watch_summary();
            readable_roots_ = sources.readable_roots();
            for (std::string& m : sources.take_messages()) messages_.push_back(std::move(m));
            if (first) first_pass_read_ = true;
        }
        if (first) signal();  // the backfill may have been empty: say it is over
        first = false;
        // A turn at least every 250 ms: unreadable files are retried, polled roots re-stat'ed.
        int timeout = sources.watch_timeout_ms();
        if (timeout < 0 || timeout > 250) timeout = 250;
        pollfd fds[2] = {{stop_fd_, POLLIN, 0}, {sources.watch_fd(), POLLIN, 0}};
        ::poll(fds, fds[1].fd >= 0 ? 2 : 1, timeout);
    }
}

void IngestThread::publish(IngestBatch batch) {
    const std::uint64_t bytes = batch.bytes();  // not under the lock: it walks the new keys
    {
        std::unique_lock lock(mutex_);
        room_.wait(lock, [this] { return stopping_ || queue_.size() < kMaxQueued; });
        if (stopping_) return;
        queued_points_ += batch.points();
        queued_bytes_ += bytes;
        queue_.push_back({std::move(batch), bytes});
    }
    signal();
}

void IngestThread::signal() {
    const std::uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(notify_fd_, &one, sizeof one);
}

std::uint64_t IngestThread::apply(PointSink& sink, std::chrono::steady_clock::time_point deadline) {
    std::uint64_t applied = 0;
    while (true) {
        if (!has_current_) {
            std::lock_guard lock(mutex_);
            if (queue_.empty()) break;
            current_ = std::move(queue_.front().batch);
            current_bytes_ = queue_.front().bytes;
            queue_.pop_front();
            queued_points_ -= current_.points();
            queued_bytes_ -= current_bytes_;
            position_ = 0;
            has_current_ = true;
            room_.notify_one();
        }
        const std::size_t size = current_.size();
        // The clock is read every 4096 entries: cheap, and a slice overshoots by well under 1 ms.
        while (position_ < size) {
            const std::size_t end = std::min(size, position_ + 4096);
            applied += current_.replay(sink, real_ids_, position_, end);
            position_ = end;
            if (std::chrono::steady_clock::now() >= deadline) break;
        }
        if (position_ >= size) {
            has_current_ = false;
            current_ = {};
            current_bytes_ = 0;
        }
        if (std::chrono::steady_clock::now() >= deadline) break;
    }
    // Still more: make sure the event loop comes back for it.
    if (has_waiting()) signal();
    return applied;
}

bool IngestThread::has_waiting() const {
    if (has_current_) return true;
    std::lock_guard lock(mutex_);
    return !queue_.empty();
}

std::uint64_t IngestThread::memory_bytes() const {
    std::uint64_t n = reader_bytes_.load(std::memory_order_relaxed) + current_bytes_ +
                      real_ids_.capacity() * sizeof(SeriesId);
    std::lock_guard lock(mutex_);
    return n + queued_bytes_;
}

std::uint64_t IngestThread::waiting_points() const {
    std::lock_guard lock(mutex_);
    std::uint64_t n = queued_points_;
    if (has_current_) n += current_.points();  // about: part of it may be applied
    return n;
}

bool IngestThread::backfilled() const {
    if (has_current_) return false;
    std::lock_guard lock(mutex_);
    return first_pass_read_ && queue_.empty();
}

std::size_t IngestThread::skipped_series() const {
    std::lock_guard lock(mutex_);
    return skipped_series_;
}

IngestTotals IngestThread::totals() const {
    std::lock_guard lock(mutex_);
    return totals_;
}

std::vector<std::string> IngestThread::watching() const {
    std::lock_guard lock(mutex_);
    return watching_;
}

std::vector<std::string> IngestThread::take_messages() {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    out.swap(messages_);
    return out;
}

std::size_t IngestThread::readable_roots() const {
    std::lock_guard lock(mutex_);
    return readable_roots_;
}

}  // namespace runtop
