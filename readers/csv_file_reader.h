// What every CSV reader shares: tailing the file (FileTail), splitting records (CsvTokenizer),
// the header and its repetition after a restart, counting and reporting bad rows. Subclasses
// map a header to series and rows to points.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "readers/csv_tokenizer.h"
#include "readers/tailed_reader.h"

namespace runtop {

class CsvFileReader : public TailedReader {
  public:
    CsvFileReader(SourceFile file, PointSink& sink);

    // A record this long without its end is skipped up to the next line end: one line must not
    // hold the file (or the memory: a 1 GB line with no newline) up.
    static constexpr std::size_t kMaxRecordBytes = std::size_t{1} << 20;

    // Only for readers that need nothing from before an offset but the header in effect there
    // (resumes_from_header()).
    std::optional<ResumePoint> resume_point() const override;
    void resume_from(const ResumePoint& point) override;
    void add_totals(IngestTotals& totals) const override;

    std::uint64_t rows() const { return rows_; }
    std::uint64_t bad_rows() const { return bad_rows_; }
    // Records skipped for being longer than kMaxRecordBytes.
    std::uint64_t long_records() const { return long_records_; }

  protected:
    enum class Header { kAccepted, kNotOurs, kRejected };
    // The first record. kNotOurs: silently ignore the file (a CSV that holds no metrics);
    // kRejected: ignore it with a warning naming `why`.
    virtual Header on_header(std::span<const std::string_view> fields, std::string& why) = 0;
    // Whether a later record is the header written again (DeepSpeed writes it after every
    // restart). The default: its first cell equals the header's first name.
    virtual bool is_header_again(std::span<const std::string_view> fields) const;
    virtual void on_row(std::span<const std::string_view> fields) = 0;
    // The file was rewritten and will be read again from the start.
    virtual void on_restart() {}
    // Whether the header is all this reader needs to go on reading a file from any record on
    // (no state built from rows: a later reader can resume where this one let go).
    virtual bool resumes_from_header() const { return false; }

    // Counts a skipped row; the first few of each file are described in a warning.
    void bad_row(std::string_view why);
    // Points from files without timestamps carry the file's modification time when read:
    // live, that is when the row was written; for a backfill, when the file was last written.
    double wall_time() const { return tail_.mtime(); }
    const std::vector<std::string>& header() const { return header_; }

    std::uint64_t values_ = 0;

  private:
    void on_rewrite(const std::string& why) override;
    std::size_t consume(const char* data, std::size_t len, bool at_eof) override;
    // Resuming: the header in effect at the resume offset, the first record offered.
    bool take_context(const char* data, std::size_t len) override;
    // `at`: the record's offset in the file.
    void record(std::span<const std::string_view> fields, std::uint64_t at);
    // False when the reader leaves the file alone from now on.
    bool accept_header(std::span<const std::string_view> fields);
    // Skips to the end of an overlong record's line; returns the bytes consumed.
    std::size_t skip_long(const char* data, std::size_t len);

    CsvTokenizer tokenizer_;
    std::vector<std::string> header_;
    bool have_header_ = false;
    std::uint64_t header_at_ = 0;  // where the header in effect starts in the file
    std::uint64_t rows_ = 0;
    std::uint64_t bad_rows_ = 0;
    std::uint64_t line_ = 0;  // records seen in this pass, for messages
    std::uint64_t long_records_ = 0;
    bool skipping_ = false;            // inside an overlong record, looking for its line end
    std::uint64_t skipping_from_ = 0;  // where it began
};

}  // namespace runtop
