// A misbehaving training job for the fault-injection suite (fault_injection_test.cpp): it
// writes event files, a Lightning-style metrics.csv and msProbe monitor CSVs with plain POSIX
// calls (open, write, ftruncate, rename, unlink; never through runtop's readers) and does to
// them what real jobs and log rotation do: split records with a pause between the halves,
// rotation out of the root and within it, truncation and rewrite, deleted rank directories,
// corrupt bytes, length headers past the format's limit, endless CSV lines, thousands of files.
//
// It keeps a ledger of every point it made durable on disk, as runtop must report it: (run,
// rank, tag, step, value) with run and rank as the caller says runtop derives them from the path
// (DESIGN.md §2). Every value is unique and exactly representable in a float32 with at most 9
// significant digits (n / 2 for the n-th value, n < 2^24), so dump's %.9g prints it exactly and a
// point paired with the wrong step cannot match by accident. Bytes that hold no valid point
// (garbage, a record that fails its checksum) carry values the ledger never holds.
//
// Before an operation that destroys data (truncate, delete, rename out of the root), the
// writer calls the sync hook: the test waits there until runtop has printed every point written
// so far, so only runtop's own losses count. Operations runtop must not be able to watch half
// done (a burst then a rotation, a truncation then the rewrite) run between the hold and release
// hooks: the test keeps runtop busy meanwhile, so it sees only the outcome, every time.
// Randomness comes from one seed.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace runtop::testing {

struct LedgerPoint {
    std::string run;
    int rank;  // kNoRank when the path names none
    std::string tag;
    std::int64_t step;
    double value;
};

enum class Corruption {
    kGarbage,       // random non-zero bytes (CSV: a line that is no row)
    kBadDataCrc,    // a whole record whose payload fails its checksum
    kBadLengthCrc,  // a whole record whose length header fails its checksum
};

class FaultWriter {
  public:
    // `root`: the directory runtop is given; `outside`: where rotated files go, not below it.
    FaultWriter(std::string root, std::string outside, std::uint64_t seed);
    ~FaultWriter();
    FaultWriter(const FaultWriter&) = delete;
    FaultWriter& operator=(const FaultWriter&) = delete;

    struct Hooks {
        std::function<void()> sync;     // before every operation that destroys data on disk
        std::function<void()> hold;     // after the sync, before an operation runtop must
        std::function<void()> release;  // see only whole; release after it
        std::function<void()> tick;     // from tick(): now and then while writing
    };
    void set_hooks(Hooks hooks) { hooks_ = std::move(hooks); }
    // append_split() splits a record with this probability and writes its second half up to
    // `max_pause_ms` later; bursts before a rotation split the same way, pausing inline.
    void set_split(double probability, int max_pause_ms);

    // A stream is one file a rank keeps appending to; it lives on through rotations (a new
    // file at the same path), rewrites and a deleted directory (a new file in a new one).
    // TensorBoard event file "events.out.tfevents..." in `rel_dir` below the root; its tags
    // are "loss" and "grad_norm" after `tag_prefix`.
    int add_event_stream(const std::string& rel_dir, std::string run, int rank,
                         std::string tag_prefix = "");
    // Lightning's metrics.csv: step,train_loss,val_loss (val_loss every third step).
    int add_csv_stream(const std::string& rel_dir, std::string run);
    // msProbe monitor output of one rank: run dir `rel_dir`, one grad_reduced_<s>-<s>.csv per
    // step (created header-only, then the step's rows appended), as msProbe writes by default.
    int add_msprobe_stream(const std::string& rel_dir, std::string run, int rank);

    // Whole records (msProbe: whole steps, a file each), one write() each.
    void append(int s, int records);
    // Whole records in one write(), as a writer flushing a large buffer.
    void append_block(int s, int records);
    // One record, split with the configured probability; the second half is written by
    // tick() once due, or before anything else goes into the stream.
    void append_split(int s);
    bool half_pending(int s) const;
    void tick();  // also calls the tick hook
    void complete_all();

    // Sync, hold, a burst of `burst` records (some split, pausing inline), close, rename the
    // file to `outside`, create a new file with the same name and go on there, release.
    void rotate_out(int s, int burst);
    // The same, renamed to "<name>.old" (".old2", ...) in the same directory.
    void rotate_in(int s, int burst);
    // Sync, hold, truncate to 0 and rewrite, longer than before, with new records, release.
    void truncate_rewrite(int s);
    // Sync, truncate to 0, pause, rewrite with new records (shorter or longer than before).
    void truncate_pause_rewrite(int s, int pause_ms);
    // Sync, then delete the stream's directory with everything in it. The stream's next write
    // makes the directory again, with a new file.
    void delete_dir(int s);
    // Bytes that hold no point, then the stream goes on with valid records.
    void corrupt(int s, Corruption kind);
    // A record header whose length claims `length` bytes, with a valid length checksum; no
    // payload follows (valid records do).
    void oversized_header(int s, std::uint64_t length);
    // A CSV line of `bytes` bytes that is no row, written in `pieces` writes `pause_ms` apart
    // with no newline until the last.
    void long_line(int s, std::size_t bytes, int pieces, int pause_ms);

    // Every point made durable, in the order written.
    const std::vector<LedgerPoint>& ledger() const { return ledger_; }
    // The points the files below the root hold now (what a one-shot read must find).
    std::vector<LedgerPoint> on_disk() const;
    std::mt19937_64& rng() { return rng_; }
    int random(int lo, int hi);  // uniform in [lo, hi]
    std::string path_of(int s) const;

  private:
    enum class Kind { kEvents, kCsv, kMsProbe };
    struct Half {
        std::string bytes;
        std::chrono::steady_clock::time_point due;
        std::vector<LedgerPoint> points;
    };
    struct Stream {
        Kind kind = Kind::kEvents;
        std::string dir;  // absolute
        std::string name;
        std::string run;
        int rank = 0;
        std::string tag_prefix;
        int fd = -1;
        int file_index = 0;  // event file names: events.out.tfevents.<t>.<host>.<pid>.<index>
        int rotations_in = 0;
        int records = 0;  // records made so far: event tags take turns, a step per round
        bool dir_deleted = false;
        std::int64_t next_step = 0;
        std::optional<Half> half;
        std::string path() const { return dir + "/" + name; }
    };

    Stream new_stream(Kind kind, const std::string& rel_dir, std::string run, int rank) const;
    Stream& stream(int s);
    std::string header_bytes(const Stream& st) const;
    // The bytes of `n` new records and the points they carry.
    std::string records(Stream& st, int n, std::vector<LedgerPoint>& points);
    double next_value();
    void open_new_file(Stream& st);
    void write_or_throw(Stream& st, std::string_view bytes);
    void ensure_open(Stream& st);
    void made_durable(const std::string& path, std::vector<LedgerPoint>& points);
    void complete(Stream& st);
    void burst(Stream& st, int n);
    void call(const std::function<void()>& hook) {
        if (hook) hook();
    }
    void write_msprobe_step(Stream& st);

    std::string root_;
    std::string outside_;
    std::mt19937_64 rng_;
    double split_probability_ = 0;
    int max_pause_ms_ = 0;
    Hooks hooks_;
    std::vector<Stream> streams_;
    std::vector<LedgerPoint> ledger_;
    std::map<std::string, std::vector<std::size_t>> on_disk_;  // path -> ledger indices
    std::uint64_t serial_ = 0;
    int outside_count_ = 0;
};

}  // namespace runtop::testing
