// Reads many files at once on a few threads while the calling thread stores what they hold
// (issue 17: `runtop ls` on thousands of msProbe files used one core of two).
//
// Files are taken in read order. A pool thread makes the file's reader anew, bound to its own
// PoolSink and ReaderFactory (msProbe key tables are per thread), and records what the reader
// hands over in chunks. The calling thread replays the files in read order into the real
// sink, each file's chunks as they come, so every series receives its points in file order and
// the sink sees exactly the calls a one-thread read makes, in the same order (a series is
// announced before its first point; a key a pool thread saw before is not announced again,
// but that earlier file of the same thread comes first). When the next file to replay is not
// taken yet, the calling thread reads it itself, straight into the sink.
//
// Memory stays bounded: at most Limits::files_ahead files are in flight past the one being
// replayed, a file waits once Limits::chunks_ahead chunks of it are queued, and all files share
// Limits::chunks chunks (the last one free is kept for the file being replayed).
//
// A read that needs no single sink (ls, dump) is split instead (run_split): every thread reads
// whole (run, rank) groups of files straight into a sink of its own.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/point_sink.h"
#include "readers/source_reader.h"

namespace runtop {

class ReaderFactory;
class SplitSink;

// How many threads a one-shot read uses, the calling one included: the CPUs this process may
// run on (taskset counts), at most 4. Unless the read is split, the calling thread stores every
// point (the Store is single-threaded) and parses the files no pool thread took yet; on 2 CPUs one
// pool thread beside it pays once it may run far enough ahead (ReaderPoolLimits::files_ahead): ls
// of 512k msProbe series 1.28x faster, check 1.34x, ls of 1 GB of event files 1.22x (2-CPU VM,
// paired whole-process timings, unpinned vs taskset -c 0; docs/design.md).
std::size_t default_reader_threads();

struct ReaderPoolLimits {
    std::size_t chunk_entries = std::size_t{1} << 15;  // a chunk: about 1 MB
    std::size_t chunks_ahead = 2;                      // queued of one file, waiting for its replay
    // Chunks in existence at once (being filled, queued, or kept for reuse): the pool's memory
    // beside its threads' readers. At least the pool's threads plus one.
    std::size_t chunks = 8;
    // msProbe key tables a pool thread keeps once no reader holds them (msprobe_csv_reader.h):
    // a thread's files are near each other in read order, the last few ranks' tables serve
    // them; all of them would be every rank's rows once more per thread.
    std::size_t msprobe_tables = 16;
    // Files past the one being replayed that pool threads may take. With one file a thread, a
    // pool thread waited for the replay of the file before its own, then the calling thread for
    // it: two threads on 2 CPUs were slower than one. A file in flight holds only its reader's
    // small state (the read buffer is per thread) and its recorded chunks (bounded by `chunks`).
    std::size_t files_ahead = 32;
    // Once pool threads parsed `probe_files` files, they stop taking more when those averaged
    // fewer than `min_points_a_file` points (series, texts and points recorded): such files
    // cost the calling thread more handed over than read by itself (reader_pool.cpp).
    std::size_t probe_files = 64;
    std::size_t min_points_a_file = 2048;

    // A 32nd of a whole-process budget (`--memory`) for recordings in flight: part of the
    // eighth StoreLimits::for_process leaves outside the Store, which also pays for every
    // reader's state (the pool threads' msProbe key tables among them) and the Store's slack.
    // Chunks shrink with a small budget (down to 32 KB) so a few still fit.
    static ReaderPoolLimits for_process(std::uint64_t process_bytes);
};

class ReaderPool {
  public:
    using Limits = ReaderPoolLimits;
    // What one poll() of a reader said: its error ("" when it read) and its warnings.
    struct PollOutcome {
        std::string error;
        std::vector<std::string> warnings;
    };
    struct Job {
        std::unique_ptr<SourceReader>* reader;  // never polled yet; a pool thread makes it
        bool pooled = false;  // the format shares nothing between files (not the JSON readers)
    };
    // Makes job i's reader on a pool thread, bound to that thread's factory and sink.
    using MakeReader = std::function<std::unique_ptr<SourceReader>(
        std::size_t i, ReaderFactory& factory, PointSink& sink)>;
    // Reads job i here, on the calling thread, into the real sink.
    using ReadHere = std::function<void(std::size_t i)>;
    // Job i, read by a pool thread, is replayed: what each poll said, in order.
    using Finish = std::function<void(std::size_t i, std::vector<PollOutcome>& polls)>;

    // `threads` counts the calling thread: 2 or more. `target` and `stop` must outlive the pool.
    ReaderPool(PointSink& target, std::size_t threads, const std::function<bool()>& stop,
               Limits limits = {});
    ~ReaderPool();
    ReaderPool(const ReaderPool&) = delete;
    ReaderPool& operator=(const ReaderPool&) = delete;

    // Reads every job to its end (or until `stop`). Afterwards the readers made by pool threads
    // forward to the target directly: polling them again is one-thread reading as usual.
    void run(std::vector<Job> jobs, const MakeReader& make, const ReadHere& read_here,
             const Finish& finish);

    // The files of one run's rank, in read order: read on one thread, into one sink.
    struct Group {
        std::string run;
        int rank = kNoRank;
        std::vector<std::size_t> jobs;
    };
    // Split reading, for reads that need no single sink (SourceSet::split_between): each thread,
    // this one included, takes whole groups and reads them straight into a sink of its own
    // (`sinks[0]` here, with `here`'s key tables; `sinks[k]` on pool thread k), so both cores
    // parse and store, and nothing is recorded or replayed. A series' points still come in file
    // order: its files are one group's. `finish` is told of each job once it is read, here,
    // in the order they end. Every job must be pooled; afterwards readers stay bound to the
    // sink they were read into.
    void run_split(std::vector<Job> jobs, std::vector<Group> groups,
                   const std::vector<PointSink*>& sinks, ReaderFactory& here,
                   const MakeReader& make, const Finish& finish);
    // Whether a file read by run_split() named another (run, rank) than its group's
    // (split_sink.h): then a series may be in two sinks, and the read must be done again into one.
    bool strayed() const;
    // What its runs did, for tests to check the bounds.
    struct Stats {
        std::size_t peak_chunks = 0;   // the most chunks that existed at once
        std::size_t peak_lead = 0;     // the farthest past the replayed file a pool thread took one
        std::size_t pooled_files = 0;  // files parsed on pool threads
        std::size_t split_reads = 0;   // run_split() calls
        // Another run's (or pool's): peaks the larger, counts added.
        void add(const Stats& o) {
            peak_chunks = std::max(peak_chunks, o.peak_chunks);
            peak_lead = std::max(peak_lead, o.peak_lead);
            pooled_files += o.pooled_files;
            split_reads += o.split_reads;
        }
    };
    const Stats& stats() const { return stats_; }

  private:
    struct Worker;
    struct Slot;
    struct Shared;
    void work(Worker& worker, Shared& shared);
    void parse(Worker& worker, Shared& shared, std::size_t i);
    struct SplitShared;
    // Polls the reader until its file is read (or `stop`, or `*quit`): what each poll said.
    std::vector<PollOutcome> read_whole(SourceReader& reader, const bool* quit = nullptr);
    void split_work(SplitShared& shared, ReaderFactory& factory, SplitSink& sink, bool here);

    PointSink& target_;
    const std::function<bool()>& stop_;
    Limits limits_;
    std::vector<std::unique_ptr<Worker>> workers_;
    std::unique_ptr<SplitSink> here_split_;  // this thread's, in run_split()
    Stats stats_;
};

}  // namespace runtop
