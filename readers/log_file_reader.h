// A training job's text log (`*.log`, `*.out`, `*.err`, `*.txt`) as a source: every line the log
// formats (log_format.h) recognise becomes points, tailed like the CSVs.
//
// Complete lines only: a line the job is still writing is read once whole. A line longer than
// kMaxLineBytes is skipped to its end, counted and reported. Lines are cleaned first
// (log_line.h: CRLF, tqdm's '\r' redraws, ANSI colours, launcher prefixes). A file is sampled:
// while none of its first kSampleBytes of lines matched a format it is only looked at, and
// when none did it is left alone (a README, a dataset's text); one line that matches makes it
// a log. The rank of a line is its launcher prefix's, else the file's (a `rank_N/` directory).
// An iteration going back on a rank is a restart, as a SessionLog START is in an event file:
// what that rank had from that step on is superseded.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "readers/file_tail.h"
#include "readers/log_format.h"
#include "readers/source_reader.h"

namespace runtop {

class LogFileReader final : public SourceReader, private TailConsumer {
  public:
    static constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;
    static constexpr std::uint64_t kSampleBytes = std::uint64_t{64} << 10;

    // `formats`: tried on each line in order, the first that takes it wins; they outlive the
    // reader.
    LogFileReader(SourceFile file, PointSink& sink, const std::vector<LogFormat>& formats);

    Status poll() override;
    bool more() const override { return tail_.more(); }
    const FileId* identity() const override { return tail_.id(); }
    void moved_to(std::string path) override;
    bool holds_what_was_read(const std::string& path) const override {
        return tail_.holds_what_was_read(path);
    }
    const SourceFile& file() const override { return file_; }
    const std::string& pending() const override { return pending_; }
    std::vector<std::string> take_warnings() override;
    void add_totals(IngestTotals& totals) const override;
    bool holds_data() const override { return matched_; }

    // No line of the sample matched a format: the file is left alone.
    bool ignored() const { return ignored_; }
    std::uint64_t metric_lines() const { return metric_lines_; }
    std::uint64_t long_lines() const { return long_lines_; }

  private:
    void on_rewrite(const std::string& why) override;
    std::size_t consume(const char* data, std::size_t len, bool at_eof) override;
    void line(std::string_view raw);
    void long_line(std::uint64_t offset);  // counts it, and warns of the first
    // Where in data[from, len) the first anchor of any format is (`len`: none); a format
    // without one makes every line a candidate (`from`).
    std::size_t next_candidate(const char* data, std::size_t from, std::size_t len);
    void sampled(std::size_t bytes);  // of lines that matched nothing, while none did
    SeriesId series_of(int rank, std::string_view name, const LogFormat& format);

    SourceFile file_;
    PointSink& sink_;
    const std::vector<LogFormat>& formats_;
    FileTail tail_;
    std::string pending_;
    std::vector<std::string> warnings_;
    bool matched_ = false;  // a line matched a format: the file is a log
    bool ignored_ = false;
    bool skipping_ = false;  // inside an overlong line, looking for its end
    std::uint64_t sampled_ = 0;
    std::uint64_t metric_lines_ = 0;
    std::uint64_t values_ = 0;
    std::uint64_t long_lines_ = 0;
    std::vector<std::uint64_t> ordinals_;  // per format: lines it matched
    static constexpr std::size_t kUnknown = ~std::size_t{0};
    std::vector<std::size_t> next_anchor_;             // per format, in consume()'s buffer
    std::unordered_map<int, std::int64_t> last_step_;  // per rank
    std::unordered_map<std::string, SeriesId> ids_;    // rank '\0' name
    std::string key_;                                  // ids_' lookup key, reused
    std::string scratch_;                              // clean_log_line()'s
    LogRecord record_;
};

}  // namespace runtop
