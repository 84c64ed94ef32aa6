#include "readers/csv_file_reader.h"

#include <fmt/format.h>

#include <cstring>

#include "core/format.h"

namespace runtop {
namespace {

// Enough to show what is wrong without flooding the log with one line per row.
constexpr std::uint64_t kDescribedBadRows = 3;

}  // namespace

CsvFileReader::CsvFileReader(SourceFile file, PointSink& sink)
    : TailedReader(std::move(file), sink) {}

void CsvFileReader::add_totals(IngestTotals& t) const {
    t.bytes += tail_.offset();
    t.records += rows_;
    t.scalars += values_;
    t.bad_rows += bad_rows_;
}

bool CsvFileReader::is_header_again(std::span<const std::string_view> fields) const {
    return !fields.empty() && !header_.empty() && fields[0] == header_[0];
}

void CsvFileReader::bad_row(std::string_view why) {
    ++bad_rows_;
    if (bad_rows_ <= kDescribedBadRows) {
        std::string line = fmt::format("{}: record {}: {}; skipped", file_.path, line_, why);
        if (bad_rows_ == kDescribedBadRows)
            line += " (further bad rows of this file are counted only)";
        warn(visible(line));
    }
}

std::optional<ResumePoint> CsvFileReader::resume_point() const {
    if (!resumes_from_header() || !tail_.id()) return std::nullopt;
    // Without a header yet (an empty file), the next record is the header: nothing to re-read.
    return ResumePoint{tail_.mark(have_header_ ? header_at_ : tail_.offset()), line_, ignored_};
}

void CsvFileReader::resume_from(const ResumePoint& point) {
    // A file left alone stays so, as with the reader that left it (it never looks again).
    ignored_ = point.ignored;
    line_ = point.records;
    header_at_ = point.tail.context_at;
    tail_.resume_from(point.tail);
}

bool CsvFileReader::take_context(const char* data, std::size_t len) {
    bool taken = false;
    tokenizer_.split(data, len,
                     [this, &taken](std::span<const std::string_view> fields, std::size_t) {
                         if (!taken) accept_header(fields);
                         taken = true;
                     });
    return taken;
}

void CsvFileReader::on_rewrite(const std::string& why) {
    warn(fmt::format("{}: {}; reading it again from the start", file_.path, why));
    have_header_ = false;
    header_.clear();
    header_at_ = 0;
    line_ = 0;
    skipping_ = false;
    on_restart();
}

std::size_t CsvFileReader::skip_long(const char* data, std::size_t len) {
    const void* nl = std::memchr(data, '\n', len);
    if (!nl) return len;
    skipping_ = false;
    return static_cast<std::size_t>(static_cast<const char*>(nl) - data) + 1;
}

std::size_t CsvFileReader::consume(const char* data, std::size_t len, bool at_eof) {
    pending_.clear();  // what the last call of a poll leaves counts
    std::size_t used = 0;
    while (true) {
        if (skipping_) {
            used += skip_long(data + used, len - used);
            if (skipping_) break;
        }
        const std::uint64_t base = tail_.offset() + used;  // where data + used is in the file
        used += tokenizer_.split(data + used, len - used,
                                 [this, base](std::span<const std::string_view> fields,
                                              std::size_t at) { record(fields, base + at); });
        if (ignored_) return len;
        if (len - used < kMaxRecordBytes) break;
        // No record ends within kMaxRecordBytes: skip this one to its line end (a newline in
        // a quoted field may end the skip early; the rest then reads as a bad row or two).
        skipping_ = true;
        skipping_from_ = tail_.offset() + used;
        ++line_;
        ++long_records_;
        bad_row(fmt::format("longer than {} MiB, from offset {} to the end of its line",
                            kMaxRecordBytes >> 20, skipping_from_));
    }
    if (skipping_)
        pending_ = fmt::format("skipping a record longer than {} MiB (from offset {})",
                               kMaxRecordBytes >> 20, skipping_from_);
    else if (at_eof && used < len)
        pending_ = fmt::format("incomplete last line ({} bytes) at offset {}", len - used,
                               tail_.offset() + used);
    return used;
}

bool CsvFileReader::accept_header(std::span<const std::string_view> fields) {
    std::string why;
    Header verdict = on_header(fields, why);
    if (verdict != Header::kAccepted) {
        if (verdict == Header::kRejected)
            warn(visible(fmt::format("{}: {}; file ignored", file_.path, why)));
        ignored_ = true;
        return false;
    }
    header_.assign(fields.begin(), fields.end());
    have_header_ = true;
    return true;
}

void CsvFileReader::record(std::span<const std::string_view> fields, std::uint64_t at) {
    if (ignored_) return;
    ++line_;
    if (!have_header_ || is_header_again(fields)) {
        if (accept_header(fields)) header_at_ = at;
        return;
    }
    ++rows_;
    on_row(fields);
}

}  // namespace runtop
