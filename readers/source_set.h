// Every data file under the roots, each with its own incremental reader, feeding one sink.
// Two ways to drive it: one-shot (`rescan()` then `poll()`: ls, dump, check, snapshot) or
// live (`watch()`, then `on_watch_ready()` whenever the watcher's fd is readable or its
// timeout expires: dump --follow, the dashboard), where only files the watcher names are
// read.
// `rescan()` finds new files, `poll()` reads what is new in each; both are cheap to repeat,
// which is all `dump --follow` needs until the inotify/poll watcher arrives.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/identity.h"
#include "core/point_sink.h"
#include "readers/reader_factory.h"
#include "readers/reader_pool.h"
#include "readers/source_reader.h"
#include "readers/watcher.h"

namespace runtop {

class SourceSet {
  public:
    explicit SourceSet(PointSink& sink) : sink_(sink) {}

    void add_root(RootSpec root) { roots_.push_back(std::move(root)); }
    // Reading stops soon after `stop()` turns true (within one read budget of a file,
    // file_tail.h): a quit while gigabytes are read takes milliseconds, not seconds.
    void stop_when(std::function<bool()> stop) { stop_ = std::move(stop); }
    // Finds files not seen before (in path order, so a run's files start in name order).
    void rescan();
    // Reads what is new in every file.
    void poll();
    // poll() reads the files never read before on `n` threads, this one included (readers/
    // reader_pool.h); the sink sees the same calls in the same order. 1, the default: this one.
    // (Tests give smaller limits to see chunks queue up and wait.)
    void set_reader_threads(std::size_t n, ReaderPool::Limits limits = {}) {
        reader_threads_ = n;
        pool_limits_ = limits;
    }
    // What its reader pools did, together (readers/reader_pool.h); zeros if none ran.
    ReaderPool::Stats pool_stats() const;
    // For a one-shot read whose caller needs no single sink (ls and dump: a Store each, merged
    // when printed): the pool's threads read whole (run, rank) groups of files into these, one
    // each, and this thread into the sink given at construction (ReaderPool::run_split). Used
    // by poll() when every file is new, its format shares nothing, and there are at least two
    // groups a thread; otherwise poll() reads as set_reader_threads() says. The sinks must
    // outlive this.
    void split_between(std::vector<PointSink*> sinks) { split_sinks_ = std::move(sinks); }
    // Whether a split read's file named another (run, rank) than its own (a series may then be
    // in two sinks): read again into one.
    bool split_strayed() const;

    // Live mode: starts a Watcher over the roots; its first report is every existing file.
    void watch(WatchOptions options);
    // For poll(2): the watcher's fd (-1 when every root is polled) and how long to wait at most.
    int watch_fd() const { return watcher_ ? watcher_->fd() : -1; }
    int watch_timeout_ms() const { return watcher_ ? watcher_->next_timeout_ms() : -1; }
    // Reads the files the watcher reports as new or changed.
    void on_watch_ready();
    const Watcher* watcher() const { return watcher_.get(); }
    // How the roots are watched (Watcher::describe()), or "" before watch().
    std::vector<std::string> watch_summary() const {
        return watcher_ ? watcher_->describe() : std::vector<std::string>();
    }
    // Warnings and errors since the last call, one line each; a repeated error is said once.
    std::vector<std::string> take_messages();
    IngestTotals totals() const;
    // The same, root by root (in the order given): a gate fails on a root that held nothing.
    std::vector<IngestTotals> totals_by_root() const;
    // How many roots existed and could be read at the last rescan.
    std::size_t readable_roots() const { return readable_roots_; }
    // What its readers' shared state holds that grows with the series (ReaderFactory): charged
    // to the budget by a caller that keeps a Store on another thread (the dashboard).
    std::uint64_t memory_bytes() const { return factory_.memory_bytes(); }
    // Complete files whose readers were let go (each kept as a Released of a few dozen bytes).
    std::size_t released_files() const { return released_.size(); }
    // Files with a reader now: read at least once and not let go (a file not read yet has none).
    std::size_t readers() const;
    // Lines describing files that wait on an incomplete or corrupt tail.
    std::vector<std::string> pending() const;

  private:
    // A file not read yet has no reader (a reader costs about a kilobyte and a half, times a
    // million step files): what its reader will be made from, the path aside (the key in files_).
    struct Unread {
        std::uint32_t run = 0;  // in runs_
        int rank = kNoRank;
        SourceFormat format = SourceFormat::kEventFile;
        std::unique_ptr<ResumePoint> resume;  // goes on from a released file (rare)
    };
    struct Entry {
        const std::string* path = nullptr;     // its key in files_ (follows a rename)
        std::unique_ptr<SourceReader> reader;  // made when first read
        Unread unread;                         // until then
        std::string last_error;
        std::size_t root = 0;  // index into roots_
        FileId indexed;        // the identity by_id_ holds for it, if `is_indexed`
        bool is_indexed = false;
        bool complete = false;     // the watcher said kCompleted: read to its end, then released
        bool had_records = false;  // goes on from a released file that yielded records
        bool polled = false;       // read at least once
    };
    // A complete file whose reader was let go: where a later reader goes on from if it changes
    // (a few dozen bytes, not the reader's state), and what its totals counted of it.
    struct Released {
        ResumePoint at;
        bool had_records = false;
    };
    using Files = std::map<std::string, Entry>;

    void report(std::string line);
    bool stopped() const { return stop_ && stop_(); }
    Entry* add_file(SourceFile file, std::size_t root);
    void add_totals(const Entry& entry, IngestTotals& t) const;
    // The file as its reader has it, or will have it.
    SourceFile file_of(const Entry& entry) const;
    SourceFormat format_of(const Entry& entry) const {
        return entry.reader ? entry.reader->file().format : entry.unread.format;
    }
    // Makes the entry's reader (`factory`, `sink`: a pool thread's own) from its Unread.
    std::unique_ptr<SourceReader> make_reader(const Entry& entry, ReaderFactory& factory,
                                              PointSink& sink) const;
    void poll_entry(Entry& entry);
    // What one poll() of the entry's reader said: reported as poll_entry() does (into `lines`,
    // or at once).
    void note_poll(Entry& entry, const std::string& error, std::vector<std::string> warnings,
                   std::vector<std::string>* lines = nullptr);
    // Reads `entries` on the pool; `read` is told of each once it is read, in order.
    void poll_pooled(const std::vector<Entry*>& entries, const std::function<void(Entry&)>& read);
    // The same, split between sinks (split_between); false when the files do not qualify.
    bool poll_split(const std::vector<Entry*>& entries, const std::function<void(Entry&)>& read);
    void index(Entry& entry);
    // Files the watcher reports at a new path that a reader already follows (same device and
    // inode): renamed within the roots. Their readers move with them.
    void follow_renames(const std::vector<FileEvent>& events);
    // Whether the file at a released path is not what its reader let go of: grown, shrunk or
    // another file. A new reader then goes on from the Released (resume_from), so a late append
    // is read once; one that is not the file read, or shrank, is read from its start, as the
    // reader that let it go would have read it.
    bool released_changed(const std::string& path, const Released& released) const;
    // Lets the readers of complete files go, keeping their totals and a Released each; a reader
    // that cannot say where a later one would go on from (resume_point) is kept.
    void release(const std::vector<Entry*>& complete);

    PointSink& sink_;
    ReaderFactory factory_;
    std::vector<RootSpec> roots_;
    std::vector<std::string> runs_;  // the run names of files, each once (Unread::run)
    std::unordered_map<std::string, std::uint32_t> run_ids_;
    // Before files_: the readers a pool thread made forward through its pool's sinks.
    std::vector<std::unique_ptr<ReaderPool>> pools_;
    std::size_t reader_threads_ = 1;
    ReaderPool::Limits pool_limits_;
    std::vector<PointSink*> split_sinks_;
    Files files_;                         // by path
    std::vector<Files::node_type> gone_;  // readers whose file left the roots (renamed out)
    std::vector<Entry*> to_drain_;        // of those, the ones to read to their end
    std::vector<Entry*> order_;           // discovery order
    std::unordered_map<FileId, Entry*, FileIdHash> by_id_;
    std::unordered_map<std::string, Released> released_;  // by path
    std::vector<IngestTotals> released_totals_;           // by root
    std::vector<std::string> messages_;
    std::map<std::string, std::string> root_errors_;
    std::vector<std::uint64_t> unreadable_dirs_;  // below each root, at the last rescan
    std::unique_ptr<Watcher> watcher_;
    std::chrono::steady_clock::time_point last_retry_{};
    std::size_t readable_roots_ = 0;
    std::function<bool()> stop_;
};

}  // namespace runtop
