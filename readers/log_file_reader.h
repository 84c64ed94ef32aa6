// A training job's text log (`*.log`, `*.out`, `*.err`, `*.txt`) as a source: every line the log
// formats (log_format.h) recognise becomes points, tailed like the CSVs.
//
// Complete lines only: a line the job is still writing is read once whole. A line longer than
// kMaxLineBytes is skipped to its end, counted and reported. Lines are cleaned first
// (log_line.h: CRLF, tqdm's '\r' redraws, ANSI colours, launcher prefixes). A file is sampled:
// while none of its first kSampleBytes of lines matched a format it is only looked at, and
// when none did it is left alone (a README, a dataset's text) until it changes, and then read
// on from where the sample stopped; one line that matches makes it a log. The rank of a line
// is the one the line names (a format's `rank` group), else its launcher prefix's, else the
// file's (a `rank_N/` directory). msProbe's console alarms become imported anomalies.
// An iteration going back on a rank is a restart, as a SessionLog START is in an event file:
// what that rank had from that step on is superseded.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "readers/anchor_scan.h"
#include "readers/log_format.h"
#include "readers/tailed_reader.h"

namespace runtop {

class LogFileReader final : public TailedReader {
  public:
    static constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;
    static constexpr std::uint64_t kSampleBytes = std::uint64_t{64} << 10;

    // `formats`: tried on each line in order, the first that takes it wins; they outlive the
    // reader. `forced` (--log-format): the file is read whole, never left alone.
    LogFileReader(SourceFile file, PointSink& sink, const std::vector<LogFormat>& formats,
                  bool forced = false);

    // Reads what is new; a file left alone that changed since is read on.
    Status poll() override;
    void add_totals(IngestTotals& totals) const override;
    bool holds_data() const override { return matched_; }

    std::uint64_t metric_lines() const { return metric_lines_; }
    std::uint64_t long_lines() const { return long_lines_; }

  private:
    void on_rewrite(const std::string& why) override;
    std::size_t consume(const char* data, std::size_t len, bool at_eof) override;
    bool wants_more() const override { return !ignored_; }
    void line(std::string_view raw);
    void alarm(std::string_view text, int rank);
    // What an ordinal step of `format` is multiplied by (its `stride`, from trainer_state.json).
    std::int64_t stride_of(std::size_t format);
    void long_line(std::uint64_t offset);  // counts it, and warns of the first
    void sampled(std::size_t bytes);       // of lines that matched nothing, while none did
    // The file was left alone: whether it changed since (then it is read on).
    bool changed_since_left() const;
    SeriesId series_of(int rank, std::string_view name, const LogFormat& format);

    const std::vector<LogFormat>& formats_;
    bool matched_ = false;  // a line matched a format: the file is a log
    bool forced_ = false;
    std::uint64_t left_size_ = 0;  // the file's size and mtime when it was left alone
    double left_mtime_ = 0;
    bool skipping_ = false;  // inside an overlong line, looking for its end
    std::uint64_t sampled_ = 0;
    std::uint64_t metric_lines_ = 0;
    std::uint64_t values_ = 0;
    std::uint64_t long_lines_ = 0;
    std::uint64_t anomalies_ = 0;
    std::vector<std::uint64_t> ordinals_;  // per format: lines it matched
    AnchorScan anchors_;  // a literal of each format: a line without any is no candidate
    std::vector<std::int64_t> strides_;  // per format; 0: not looked up yet
    // The last step per (rank, format): a step going back there is a restart (the formats of
    // one file count steps their own way: Hugging Face's evaluations apart from training).
    std::unordered_map<std::uint64_t, std::int64_t> last_step_;
    std::unordered_map<std::string, SeriesId> ids_;        // rank '\0' name
    std::string key_;                                      // ids_' lookup key, reused
    std::string name_;                                     // a prefixed metric name, reused
    std::string alarm_run_;                                // the run of msProbe's alarms
    std::unordered_map<int, bool> rank_has_anomaly_file_;  // beside the console: its alarms
    std::string scratch_;                                  // clean_log_line()'s
    LogRecord record_;
};

}  // namespace runtop
