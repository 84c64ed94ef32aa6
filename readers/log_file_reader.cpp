#include "readers/log_file_reader.h"

#include <string.h>  // memrchr
#include <sys/stat.h>
#include <cmath>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "core/format.h"
#include "core/series_source.h"
#include "readers/log_line.h"
#include "readers/msprobe_anomaly_reader.h"
#include "readers/trainer_state_lookup.h"

namespace runtop {
namespace {

// What makes a line a candidate: a literal of each format, or an escape. The literals are
// looked for in the raw bytes, and a colour sequence may sit inside one (torchtitan colours
// each key): a line with an escape is cleaned and tried whatever it holds.
std::vector<std::vector<std::string_view>> candidate_literals(
    const std::vector<LogFormat>& formats) {
    std::vector<std::vector<std::string_view>> out;
    for (const LogFormat& f : formats) out.emplace_back(f.required().begin(), f.required().end());
    out.push_back({"\x1b"});
    return out;
}

}  // namespace

LogFileReader::LogFileReader(SourceFile file, PointSink& sink,
                             const std::vector<LogFormat>& formats, bool forced)
    : TailedReader(std::move(file), sink),
      formats_(formats),
      forced_(forced),
      ordinals_(formats.size(), 0),
      anchors_(candidate_literals(formats)),
      strides_(formats.size(), 0) {}

bool LogFileReader::changed_since_left() const {
    struct stat st;
    if (::stat(file_.path.c_str(), &st) != 0) return true;  // gone: the tail says so
    // As FileTail computes its mtime(), so the same time compares equal.
    const double mtime = static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec * 1e-9;
    return static_cast<std::uint64_t>(st.st_size) != left_size_ || mtime != left_mtime_;
}

Status LogFileReader::poll() {
    if (ignored_) {
        if (!changed_since_left()) return ok_status();
        // Written since: maybe a job's log after a long preamble. Read on from where the
        // sample stopped (what it looked at matched nothing), another sample's worth at least.
        ignored_ = false;
        sampled_ = 0;
    }
    return TailedReader::poll();
}

void LogFileReader::add_totals(IngestTotals& t) const {
    t.bytes += tail_.offset();
    t.records += metric_lines_;
    t.scalars += values_;
    t.anomalies += anomalies_;
}

void LogFileReader::on_rewrite(const std::string& why) {
    (void)why;  // read again from the start: the same steps replace what they gave
    skipping_ = false;
    std::fill(ordinals_.begin(), ordinals_.end(), 0);
    last_step_.clear();
    ignored_ = false;
    sampled_ = 0;
}

void LogFileReader::sampled(std::size_t bytes) {
    if (matched_ || forced_) return;
    sampled_ += bytes;
    if (sampled_ >= kSampleBytes) {
        ignored_ = true;
        left_size_ = tail_.size();
        left_mtime_ = tail_.mtime();
    }
}

std::size_t LogFileReader::consume(const char* data, std::size_t len, bool at_eof) {
    std::size_t used = 0;
    while (used < len && !ignored_) {
        if (skipping_) {
            const auto* nl = static_cast<const char*>(std::memchr(data + used, '\n', len - used));
            if (!nl) return len;  // still inside the overlong line
            skipping_ = false;
            used = static_cast<std::size_t>(nl - data) + 1;
            continue;
        }
        // Most lines hold no format's anchor literal: they go whole, passed over by one scan
        // for every format's, not line by line.
        const std::size_t candidate = anchors_.find(data, used, len);
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
    if (ignored_) return used;  // the rest is read if the file changes
    if (at_eof && used < len && !skipping_ && matched_)
        pending_ = fmt::format("incomplete last line ({} bytes) at offset {}", len - used,
                               tail_.offset() + used);
    return used;
}

void LogFileReader::long_line(std::uint64_t offset) {
    if (++long_lines_ == 1)
        warn(visible(
            fmt::format("{}: a line longer than {} MiB at offset {} is skipped (so is any other)",
                        file_.path, kMaxLineBytes >> 20, offset)));
}

SeriesId LogFileReader::series_of(int rank, std::string_view name, const LogFormat& format) {
    if (!format.prefix().empty()) {
        name_.assign(format.prefix());
        name_.append(name);
        name = name_;
    }
    key_.assign(reinterpret_cast<const char*>(&rank), sizeof rank);
    key_.append(name);
    const auto it = ids_.find(key_);
    if (it != ids_.end()) return it->second;
    const SourceId source = source_id({format.name(), StepAxis::kSteps});
    const SeriesId id = sink_.series(SeriesKey{file_.run, rank, std::string(name)}, source);
    ids_.emplace(key_, id);
    return id;
}

std::int64_t LogFileReader::stride_of(std::size_t f) {
    if (strides_[f] == 0) {
        const std::string& key = formats_[f].stride_key();
        const std::int64_t found = key.empty() ? 0 : trainer_state_integer(file_.path, key);
        strides_[f] = found > 0 ? found : 1;
    }
    return strides_[f];
}

void LogFileReader::alarm(std::string_view text, int rank) {
    ImportedAnomaly a;
    if (!anomaly_from_alarm(text, a)) return;
    if (a.rank == kNoRank) a.rank = rank;  // the tag names the rank it concerns, if it can
    // msProbe writes its files to ./monitor_output by default, and the console log is usually
    // next to it: the alarms belong to that run. A rank whose anomaly.json is there has every
    // alarm in it already, exactly and with its call id, stages and group mates: the console's
    // copy is left out. A rank without one (another output directory, a job that died before
    // writing it) gets the console's.
    const std::filesystem::path output =
        std::filesystem::path(file_.path).parent_path() / "monitor_output";
    std::error_code ec;
    if (alarm_run_.empty())
        alarm_run_ =
            std::filesystem::is_directory(output, ec) ? file_.run + "/monitor_output" : file_.run;
    auto [known, fresh] = rank_has_anomaly_file_.try_emplace(a.rank, false);
    if (fresh)
        known->second = std::filesystem::exists(
            output / "anomaly_detected" / fmt::format("rank{}", a.rank) / "anomaly.json", ec);
    if (known->second) return;
    a.run = alarm_run_;
    a.source_path = file_.path;
    sink_.anomaly(std::move(a));
    ++anomalies_;
}

void LogFileReader::line(std::string_view raw) {
    const LogLine clean = clean_log_line(raw, scratch_);
    const int matched = match_log_line(formats_, clean.text, ordinals_, record_);
    if (matched < 0) return;
    const auto f = static_cast<std::size_t>(matched);
    const LogFormat& format = formats_[f];
    matched_ = true;
    ++metric_lines_;
    const int rank = record_.rank >= 0 ? record_.rank : clean.rank >= 0 ? clean.rank : file_.rank;
    if (format.msprobe_anomalies()) {
        alarm(clean.text, rank);
        return;
    }
    if (!format.stride_key().empty()) record_.step *= stride_of(f);
    const double wall = std::isnan(record_.wall_time) ? tail_.mtime() : record_.wall_time;
    const std::uint64_t at = (std::uint64_t{static_cast<std::uint32_t>(rank)} << 32) | f;
    auto [last, first] = last_step_.try_emplace(at, record_.step);
    if (!first && record_.step < last->second)  // restarted from a checkpoint
        sink_.session_start(file_.run, rank, record_.step, wall);
    last->second = record_.step;
    for (const auto& [name, value] : record_.metrics) {
        const SeriesId id = series_of(rank, name, format);
        if (id == kSkippedSeries) continue;
        sink_.append(id, Point{record_.step, wall, value});
        ++values_;
    }
}

}  // namespace runtop
