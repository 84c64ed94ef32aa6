#include "readers/log_file_reader.h"

#include <string.h>  // memmem, memrchr
#include <cmath>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "core/format.h"
#include "core/series_source.h"
#include "readers/log_line.h"

namespace runtop {

LogFileReader::LogFileReader(SourceFile file, PointSink& sink,
                             const std::vector<LogFormat>& formats)
    : file_(std::move(file)),
      sink_(sink),
      formats_(formats),
      tail_(file_.path),
      ordinals_(formats.size(), 0) {}

Status LogFileReader::poll() {
    if (ignored_) return ok_status();
    pending_.clear();
    Status status = tail_.poll(*this);
    if (status && tail_.removed()) pending_ = "file was removed";
    return status;
}

void LogFileReader::moved_to(std::string path) {
    tail_.moved_to(path);
    file_.path = std::move(path);
}

std::vector<std::string> LogFileReader::take_warnings() {
    std::vector<std::string> out;
    out.swap(warnings_);
    return out;
}

void LogFileReader::add_totals(IngestTotals& t) const {
    t.bytes += tail_.offset();
    t.records += metric_lines_;
    t.scalars += values_;
}

void LogFileReader::on_rewrite(const std::string& why) {
    (void)why;  // read again from the start: the same steps replace what they gave
    skipping_ = false;
    std::fill(ordinals_.begin(), ordinals_.end(), 0);
    last_step_.clear();
}

std::size_t LogFileReader::next_candidate(const char* data, std::size_t from, std::size_t len) {
    std::size_t first = len;
    for (std::size_t f = 0; f < formats_.size(); ++f) {
        const std::string_view anchor = formats_[f].anchor();
        if (anchor.empty()) return from;  // a format that any line may match
        std::size_t& at = next_anchor_[f];
        if (at == kUnknown || (at < from && at != len)) {
            const void* hit = memmem(data + from, len - from, anchor.data(), anchor.size());
            at = hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - data) : len;
        }
        first = std::min(first, at);
    }
    return first;
}

void LogFileReader::sampled(std::size_t bytes) {
    if (matched_) return;
    sampled_ += bytes;
    if (sampled_ >= kSampleBytes) ignored_ = true;
}

std::size_t LogFileReader::consume(const char* data, std::size_t len, bool at_eof) {
    std::size_t used = 0;
    next_anchor_.assign(formats_.size(), kUnknown);
    while (used < len && !ignored_) {
        if (skipping_) {
            const auto* nl = static_cast<const char*>(std::memchr(data + used, '\n', len - used));
            if (!nl) return len;  // still inside the overlong line
            skipping_ = false;
            used = static_cast<std::size_t>(nl - data) + 1;
            continue;
        }
        // Most lines hold no format's anchor literal: they go whole, found by one memmem a
        // format over the buffer, not line by line.
        const std::size_t candidate = next_candidate(data, used, len);
        std::size_t start = used;
        if (candidate > used) {
            const std::size_t span = candidate - used;
            const auto* nl = static_cast<const char*>(memrchr(data + used, '\n', span));
            if (nl) start = static_cast<std::size_t>(nl - data) + 1;
            sampled(start - used);
            used = start;
            if (ignored_) break;
            if (candidate == len) {  // no candidate left: what remains is a line being written
                if (len - used < kMaxLineBytes) break;
                long_line(tail_.offset() + used);
                skipping_ = true;
                return len;
            }
        }
        const char* begin = data + used;
        const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', len - used));
        if (!nl) {
            if (len - used < kMaxLineBytes) break;  // a line being written: read it whole later
            long_line(tail_.offset() + used);
            skipping_ = true;
            return len;
        }
        const std::size_t n = static_cast<std::size_t>(nl - begin);
        if (n > kMaxLineBytes) {
            long_line(tail_.offset() + used);
            used += n + 1;
            continue;
        }
        used += n + 1;
        line(std::string_view(begin, n));
        sampled(n + 1);
    }
    if (ignored_) return len;
    if (at_eof && used < len && !skipping_ && matched_)
        pending_ = fmt::format("incomplete last line ({} bytes) at offset {}", len - used,
                               tail_.offset() + used);
    return used;
}

void LogFileReader::long_line(std::uint64_t offset) {
    if (++long_lines_ == 1)
        warnings_.push_back(visible(
            fmt::format("{}: a line longer than {} MiB at offset {} is skipped (so is any other)",
                        file_.path, kMaxLineBytes >> 20, offset)));
}

SeriesId LogFileReader::series_of(int rank, std::string_view name, const LogFormat& format) {
    key_.assign(reinterpret_cast<const char*>(&rank), sizeof rank);
    key_.append(name);
    const auto it = ids_.find(key_);
    if (it != ids_.end()) return it->second;
    const SourceId source = source_id({format.name(), StepAxis::kSteps});
    const SeriesId id = sink_.series(SeriesKey{file_.run, rank, std::string(name)}, source);
    ids_.emplace(key_, id);
    return id;
}

void LogFileReader::line(std::string_view raw) {
    const LogLine clean = clean_log_line(raw, scratch_);
    for (std::size_t f = 0; f < formats_.size(); ++f) {
        const LogFormat& format = formats_[f];
        if (!format.may_match(clean.text) || !format.match(clean.text, ordinals_[f], record_))
            continue;
        ++ordinals_[f];
        matched_ = true;
        ++metric_lines_;
        const int rank = clean.rank >= 0 ? clean.rank : file_.rank;
        const double wall = std::isnan(record_.wall_time) ? tail_.mtime() : record_.wall_time;
        auto [last, first] = last_step_.try_emplace(rank, record_.step);
        if (!first && record_.step < last->second)  // restarted from a checkpoint
            sink_.session_start(file_.run, rank, record_.step, wall);
        last->second = record_.step;
        for (const auto& [name, value] : record_.metrics) {
            const SeriesId id = series_of(rank, name, format);
            if (id == kSkippedSeries) continue;
            sink_.append(id, Point{record_.step, wall, value});
            ++values_;
        }
        return;
    }
}

}  // namespace runtop
