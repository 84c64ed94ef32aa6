#include "readers/event_file_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "core/identity.h"
#include "readers/crc32c.h"
#include "readers/samples_axis.h"

namespace runtop {
namespace {

constexpr std::size_t kHeader = 12;  // u64 length + u32 masked CRC of the length
constexpr std::size_t kFooter = 4;   // u32 masked CRC of the payload

std::uint64_t load64(const char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}
std::uint32_t load32(const char* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

// TensorBoard's or MindSpore's event format, on the axis the tag says.
SourceId source_of(EventDecoder::Flavor flavor, std::string_view tag) {
    static const SourcesByTagAxis kTensorBoard("tfevents"), kMindSpore("mindspore");
    return (flavor == EventDecoder::Flavor::kMindSpore ? kMindSpore : kTensorBoard).of(tag);
}

// A histogram's quantile series: TensorBoard's format, on the axis its tag says.
SourceId distribution_source(std::string_view tag, int quantile) {
    // source_id() takes a lock: the 18 descriptors are registered once.
    static const auto kIds = [] {
        std::array<std::array<SourceId, kDistributionQuantiles>, 2> ids{};
        for (int axis = 0; axis < 2; ++axis)
            for (int q = 0; q < kDistributionQuantiles; ++q) {
                SeriesSource s{"tfevents", axis == 0 ? StepAxis::kSteps : StepAxis::kSamples};
                s.quantile = static_cast<std::int8_t>(q);
                ids[static_cast<std::size_t>(axis)][static_cast<std::size_t>(q)] = source_id(s);
            }
        return ids;
    }();
    const std::size_t axis = axis_of_tag(tag) == StepAxis::kSteps ? 0 : 1;
    return kIds[axis][static_cast<std::size_t>(quantile)];
}

bool header_valid(const char* p) {
    return masked_crc32c(p, 8) == load32(p + 8);
}

// The index of the first byte of p[0, n) that is not zero, or n. Eight bytes at a time: a sparse
// or zero-filled region is gigabytes of them.
std::size_t first_nonzero(const char* p, std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8)
        if (load64(p + i) != 0) break;
    for (; i < n; ++i)
        if (p[i] != 0) return i;
    return n;
}

bool all_zero(const char* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (p[i] != 0) return false;
    return true;
}

}  // namespace

EventFileReader::EventFileReader(SourceFile file, PointSink& sink)
    : file_(std::move(file)), sink_(sink), tail_(file_.path) {}

void EventFileReader::warn(std::string message) {
    warnings_.push_back(std::move(message));
}

void EventFileReader::add_totals(IngestTotals& t) const {
    t.bytes += tail_.offset();
    t.records += stats_.records;
    t.bad_data_crc += stats_.bad_data_crc;
    t.resyncs += stats_.resyncs;
    t.bytes_skipped += stats_.bytes_skipped;
    t.scalars += decoder_.counts().scalars;
    t.texts += decoder_.counts().texts;
    t.distributions += decoder_.counts().distributions;
    t.non_scalar_values += decoder_.counts().non_scalar_values;
    t.undecodable += decoder_.counts().undecodable;
}

std::vector<std::string> EventFileReader::take_warnings() {
    std::vector<std::string> out;
    out.swap(warnings_);
    return out;
}

void EventFileReader::moved_to(std::string path) {
    tail_.moved_to(path);
    file_.path = std::move(path);
}

void EventFileReader::on_rewrite(const std::string& why) {
    warn(fmt::format("{}: {}; reading it again from the start", file_.path, why));
    decoder_.reset();
    corrupt_since_ = UINT64_MAX;
    corrupt_warned_ = false;
    any_valid_record_ = false;
    pending_.clear();
    // Read again as a fresh reader would: session starts fan out only to the ranks seen again
    // (series() is asked again for each tag and returns the same ids).
    tags_.clear();
    tag_index_.clear();
    distribution_tags_.clear();
    last_tag_ = nullptr;
    ranks_seen_.clear();
    ++stats_.resets;
}

Status EventFileReader::poll() {
    pending_.clear();
    Status status = tail_.poll(*this);
    if (status && tail_.removed()) pending_ = "file was removed";
    return status;
}

std::size_t EventFileReader::consume(const char* data, std::size_t len, bool at_eof) {
    std::size_t pos = 0;
    scan(data, len, at_eof, tail_.offset(), pos);
    stats_.bytes_consumed += pos;
    return pos;
}

void EventFileReader::start_corruption(std::uint64_t at, const char* header) {
    if (corrupt_since_ != UINT64_MAX) return;
    corrupt_since_ = at;
    if (header_valid(header)) {
        ++stats_.oversized;
        corrupt_reason_ = fmt::format("record length {} is past the {} MiB limit", load64(header),
                                      kMaxRecordBytes >> 20);
    } else {
        corrupt_reason_ = "length checksum mismatch";
    }
}

void EventFileReader::end_corruption(std::uint64_t valid_at) {
    if (corrupt_since_ == UINT64_MAX) return;
    std::uint64_t skipped = valid_at - corrupt_since_;
    stats_.bytes_skipped += skipped;
    ++stats_.resyncs;
    warn(
        fmt::format("{}: corrupt data at offset {} ({}): skipped {} bytes to the next valid "
                    "record at offset {}",
                    file_.path, corrupt_since_, corrupt_reason_, skipped, valid_at));
    corrupt_since_ = UINT64_MAX;
    corrupt_warned_ = false;
}

void EventFileReader::scan(const char* data, std::size_t len, bool at_eof, std::uint64_t base,
                           std::size_t& pos) {
    while (true) {
        const std::size_t avail = len - pos;
        if (avail < kHeader) {
            if (at_eof && corrupt_since_ != UINT64_MAX)
                note_corrupt_tail(base + len);
            else if (at_eof && avail > 0)
                pending_ = fmt::format("incomplete record header at offset {} ({} bytes)",
                                       base + pos, avail);
            return;
        }
        const char* h = data + pos;
        if (!header_valid(h) || load64(h) > kMaxRecordBytes) {
            if (at_eof && all_zero(h, avail)) {
                // Network filesystems can publish a new size before the data lands.
                pending_ =
                    fmt::format("{} zero bytes at offset {} (not written yet?)", avail, base + pos);
                return;
            }
            start_corruption(base + pos, h);
            if (resync(data, len, at_eof, base, pos)) continue;
            return;
        }
        end_corruption(base + pos);
        const std::uint64_t n = load64(h);
        const std::uint64_t total = kHeader + n + kFooter;
        if (avail < total) {
            if (at_eof)
                pending_ = fmt::format("incomplete record at offset {} ({} of {} bytes)",
                                       base + pos, avail, total);
            return;
        }
        const char* payload = h + kHeader;
        if (masked_crc32c(payload, n) != load32(payload + n)) {
            const std::size_t after = pos + static_cast<std::size_t>(total);
            if (at_eof && all_zero(data + after, len - after)) {
                // The last record may still be landing: wait for the file to grow past it.
                pending_ = fmt::format(
                    "last record at offset {} fails its data checksum "
                    "(still being written?)",
                    base + pos);
                return;
            }
            ++stats_.bad_data_crc;
            warn(fmt::format("{}: record at offset {} fails its data checksum; skipped {} bytes",
                             file_.path, base + pos, total));
            pos = after;
            continue;
        }
        any_valid_record_ = true;
        ++stats_.records;
        if (!decoder_.decode(std::string_view(payload, n), *this))
            warn(fmt::format("{}: record at offset {} is not a valid Event protobuf; skipped",
                             file_.path, base + pos));
        pos += static_cast<std::size_t>(total);
    }
}

bool EventFileReader::resync(const char* data, std::size_t len, bool at_eof, std::uint64_t base,
                             std::size_t& pos) {
    for (std::size_t q = pos + 1; q + kHeader <= len; ++q) {
        // Twelve zero bytes are no header (its CRC would not be zero): skip runs of zeros.
        if (data[q] == 0) {
            const std::size_t z = q + first_nonzero(data + q, len - q);
            if (z >= q + kHeader) q = z - (kHeader - 1);
            if (q + kHeader > len) break;
        }
        if (header_valid(data + q) && load64(data + q) <= kMaxRecordBytes) {
            pos = q;  // the scan loop re-checks it and reports the skipped bytes
            return true;
        }
    }
    // Nothing valid yet; keep the last bytes that could still begin a header.
    pos = std::max(pos, len >= kHeader ? len - (kHeader - 1) : pos);
    if (at_eof) note_corrupt_tail(base + len);
    return false;
}

void EventFileReader::note_corrupt_tail(std::uint64_t end) {
    const bool not_event_file = !any_valid_record_ && corrupt_since_ == 0;
    // A file that never held a record is not "waiting": the warning below says what it is.
    if (!not_event_file) pending_ = fmt::format("corrupt data since offset {}", corrupt_since_);
    if (corrupt_warned_) return;
    corrupt_warned_ = true;
    if (not_event_file)
        warn(
            fmt::format("{}: not a TFRecord event file (no valid record in {} bytes); will keep "
                        "looking as it grows",
                        file_.path, end));
    else
        warn(
            fmt::format("{}: corrupt data from offset {} to the end of the file ({}); waiting "
                        "for the next valid record",
                        file_.path, corrupt_since_, corrupt_reason_));
}

SeriesId EventFileReader::series_for(std::string_view raw_tag) {
    if (last_tag_ != nullptr) {
        TagEntry* guess = last_tag_->next;
        if (guess != nullptr && guess->raw == raw_tag) {
            last_tag_ = guess;
            return guess->id;
        }
    }
    TagEntry* entry;
    auto found = tag_index_.find(raw_tag);
    if (found != tag_index_.end()) {
        entry = found->second;
    } else {
        TagIdentity tag = identity_of_tag(raw_tag);
        int rank = tag.rank != kNoRank ? tag.rank : file_.rank;
        if (std::find(ranks_seen_.begin(), ranks_seen_.end(), rank) == ranks_seen_.end())
            ranks_seen_.push_back(rank);
        const SourceId source = source_of(decoder_.flavor(), tag.tag);
        SeriesId id = sink_.series(SeriesKey{file_.run, rank, std::move(tag.tag)}, source);
        entry = &tags_.emplace_back(TagEntry{std::string(raw_tag), id, nullptr});
        tag_index_.emplace(entry->raw, entry);
    }
    if (last_tag_ != nullptr) last_tag_->next = entry;
    last_tag_ = entry;
    return entry->id;
}

const std::array<SeriesId, kDistributionQuantiles>& EventFileReader::distribution_for(
    std::string_view raw_tag) {
    if (auto found = distribution_tags_.find(raw_tag); found != distribution_tags_.end())
        return found->second;
    const TagIdentity tag = identity_of_tag(raw_tag);
    const int rank = tag.rank != kNoRank ? tag.rank : file_.rank;
    if (std::find(ranks_seen_.begin(), ranks_seen_.end(), rank) == ranks_seen_.end())
        ranks_seen_.push_back(rank);
    std::array<SeriesId, kDistributionQuantiles> ids{};
    // In quantile order, min first: views find a band's series by their keys, not this order.
    for (int q = 0; q < kDistributionQuantiles; ++q) {
        std::string name = tag.tag;
        name += distribution_suffix(q);
        ids[static_cast<std::size_t>(q)] = sink_.series(SeriesKey{file_.run, rank, std::move(name)},
                                                        distribution_source(tag.tag, q));
    }
    return distribution_tags_.emplace(std::string(raw_tag), ids).first->second;
}

void EventFileReader::on_distribution(std::string_view tag, std::int64_t step, double wall_time,
                                      const DistributionValues& quantiles) {
    const auto& ids = distribution_for(tag);
    for (int q = 0; q < kDistributionQuantiles; ++q) {
        const SeriesId id = ids[static_cast<std::size_t>(q)];
        if (id != kSkippedSeries)
            sink_.append(id, Point{step, wall_time, quantiles[static_cast<std::size_t>(q)]});
    }
}

void EventFileReader::on_scalar(std::string_view tag, std::int64_t step, double wall_time,
                                double value) {
    sink_.append(series_for(tag), Point{step, wall_time, value});
}

void EventFileReader::on_text(std::string_view tag, std::int64_t step, double /*wall_time*/,
                              std::string text) {
    TagIdentity id = identity_of_tag(tag);
    sink_.config_text(ConfigText{file_.run, id.rank != kNoRank ? id.rank : file_.rank,
                                 std::move(id.tag), step, std::move(text)});
}

void EventFileReader::on_session_start(std::int64_t step, double wall_time) {
    sink_.session_start(file_.run, file_.rank, step, wall_time);
    for (int rank : ranks_seen_)
        if (rank != file_.rank) sink_.session_start(file_.run, rank, step, wall_time);
}

}  // namespace runtop
