// The interface every per-file reader implements, and what the SourceSet knows of a file.
// One reader per data file keeps its own position, reads only what is new on poll(), turns
// it into PointSink calls, and describes bad input in warnings rather than failing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/identity.h"
#include "core/point_sink.h"
#include "core/result.h"
#include "readers/file_tail.h"
#include "readers/open_file.h"

namespace runtop {

// What a file holds, decided from its name (and for plain CSVs, from its header).
enum class SourceFormat : std::uint8_t {
    kEventFile,              // TensorBoard / MindSpore event file
    kMsProbeCsv,             // msProbe monitor `<prefix>_<a>-<b>[_part_K].csv`
    kMsProbeV2Csv,           // msProbe monitor_v2 `<slug>_step<a>-<b>.csv`
    kMsProbeAnomaly,         // msProbe `anomaly_detected/rank<R>/anomaly.json`
    kMsProbeAnomalyAnalyse,  // msProbe offline `anomaly_analyse.json`
    kDeepSpeedCsv,           // DeepSpeed csv_monitor `Train_Samples_<name>.csv` etc.
    kDeepSpeedConfig,        // DeepSpeed `deepspeed_config.csv` (key,value)
    kLightningCsv,           // Lightning `metrics.csv`
    kLightningHparams,       // Lightning `hparams.yaml`
    kHfTrainerState,         // Hugging Face `trainer_state.json`
    kOumiTelemetry,          // Oumi `telemetry_callback_*.json` (written once, at the end)
    kPlainCsv,               // any other `.csv`: its header decides (step column or not)
    kTextLog,                // `*.log`, `*.out`, `*.err`, `*.txt`: its lines decide (log formats)
};

// Where a data file sits in the identity scheme (DESIGN.md §2); made by discovery.
struct SourceFile {
    std::string path;
    std::string run;
    int rank = kNoRank;
    SourceFormat format = SourceFormat::kEventFile;
};

// Sums over every reader, for `ls` and the status bar.
struct IngestTotals {
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
    std::uint64_t records = 0;  // event records, CSV data rows, JSON entries
    std::uint64_t scalars = 0;
    std::uint64_t texts = 0;
    std::uint64_t distributions = 0;  // histograms taken in as quantiles (core/distribution.h)
    std::uint64_t non_scalar_values = 0;
    std::uint64_t bad_data_crc = 0;
    std::uint64_t resyncs = 0;
    std::uint64_t bytes_skipped = 0;
    std::uint64_t undecodable = 0;
    std::uint64_t bad_rows = 0;       // CSV rows that did not fit their header, skipped
    std::uint64_t anomalies = 0;      // imported from the job's own monitor
    std::uint64_t pending_files = 0;  // files waiting on an incomplete or corrupt tail
    std::uint64_t unreadable_files = 0;
    std::uint64_t unreadable_dirs = 0;  // below the roots, at the last rescan
    // Files that yielded at least one valid record of their format: records beyond the bad
    // rows and undecodable ones (the set counts this from each reader's add_totals()).
    std::uint64_t files_with_records = 0;
};

// Where a reader let go of a complete file (SourceSet's Released): a later reader of the same
// path goes on from there instead of reading the file again (points are never delivered twice).
struct ResumePoint {
    TailMark tail;
    std::uint64_t records = 0;  // records read before the offset, so messages number on
    bool ignored = false;       // the reader had left the file alone (not its format)
};

class SourceReader {
  public:
    virtual ~SourceReader() = default;
    // Reads whatever is new. An error means the file could not be opened or read at all; the
    // caller reports it. Problems inside the file are counted and described in warnings.
    virtual Status poll() = 0;
    // The last poll() stopped at its budget (file_tail.h) with more to read: poll again.
    virtual bool more() const { return false; }
    // The file read, once it was opened: a file renamed within the roots keeps its reader.
    virtual const FileId* identity() const { return nullptr; }
    // The file is now at `path` (same device and inode): read on there, nothing again.
    virtual void moved_to(std::string path) = 0;
    // Whether the file at `path` (same device and inode) holds what this reader read: a rename,
    // not a new file that was given a freed inode number.
    virtual bool holds_what_was_read(const std::string& path) const {
        (void)path;
        return true;
    }
    // Where a later reader could go on from, or nullopt when this format cannot (its reader
    // keeps more than a few bytes about what it read).
    virtual std::optional<ResumePoint> resume_point() const { return std::nullopt; }
    // Before the first poll: go on from `point`, made by another reader of this path, as
    // FileTail::resume_from() says (read from the start when the file is not the one read).
    virtual void resume_from(const ResumePoint& point) { (void)point; }
    virtual const SourceFile& file() const = 0;
    // Why the reader waits rather than being at the end of the file, or "".
    virtual const std::string& pending() const = 0;
    // One line each, naming the file and the reason; cleared by the call.
    virtual std::vector<std::string> take_warnings() = 0;
    // Adds this reader's counts (not files/pending/unreadable/files_with_records, which the set
    // counts).
    virtual void add_totals(IngestTotals& totals) const = 0;
    // Whether the file is one of its format's so far: a text file no log format matched yet
    // (a README) is not, and counts in no total.
    virtual bool holds_data() const { return true; }
    // The file was read to its end for now (a pool thread's reader, readers/reader_pool.h):
    // state shared with other files' readers that can be rebuilt may be let go.
    virtual void let_go_of_shared() {}
};

}  // namespace runtop
