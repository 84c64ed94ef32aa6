// One incremental reader per event file. It keeps its own offset, reads only what is new,
// verifies both CRCs of every record and turns records into PointSink calls.
//
// What happens to bad input (TFEVENTS.md §7):
// - an incomplete last record (the writer is mid-write) is retried from the same offset when
//   the file grows; partial bytes are never cached, so a tail that reads as zeros on a network
//   filesystem is simply read again later;
// - a record whose data CRC fails is skipped and counted (unless it is the last record in the
//   file, which may still be landing);
// - a header whose length CRC fails, or whose length is past kMaxRecordBytes (no writer makes
//   such a record: a valid CRC over a wild length is corruption too), makes the reader scan
//   forward for the next valid record, with one warning naming the reason (TensorBoard's
//   readers stop at such a record forever);
// - moves, replacements, truncations and rewrites are FileTail's (file_tail.h): a file renamed
//   away is read to its end, a shrunk or rewritten one is read again from the start.
// The file is opened read-only and read with pread(): no locks, no mmap (a truncated mapped
// file raises SIGBUS).
#pragma once

#include <sys/types.h>

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/point_sink.h"
#include "core/result.h"
#include "readers/event_decoder.h"
#include "readers/file_tail.h"
#include "readers/source_reader.h"

namespace runtop {

struct ReaderStats {
    std::uint64_t bytes_consumed = 0;  // bytes of complete records (or skipped garbage)
    std::uint64_t records = 0;
    std::uint64_t bad_data_crc = 0;  // records skipped because their payload CRC failed
    std::uint64_t resyncs = 0;       // times the reader scanned past a corrupt header
    std::uint64_t bytes_skipped = 0;
    std::uint64_t oversized = 0;  // headers with a valid CRC and a length past kMaxRecordBytes
    std::uint64_t resets = 0;     // the file shrank or was replaced and was read again
};

class EventFileReader final : public SourceReader, private EventHandler, private TailConsumer {
  public:
    static constexpr std::uint64_t kMaxRecordBytes = 256ull << 20;

    EventFileReader(SourceFile file, PointSink& sink);
    EventFileReader(const EventFileReader&) = delete;
    EventFileReader& operator=(const EventFileReader&) = delete;

    // Reads whatever is new. An error means the file could not be opened or read at all; the
    // caller reports it. Problems inside the file are counted and described in warnings().
    Status poll() override;
    bool more() const override { return tail_.more(); }
    const FileId* identity() const override { return tail_.id(); }
    void moved_to(std::string path) override;
    bool holds_what_was_read(const std::string& path) const override {
        return tail_.holds_what_was_read(path);
    }

    const SourceFile& file() const override { return file_; }
    const ReaderStats& stats() const { return stats_; }
    const DecodeCounts& counts() const { return decoder_.counts(); }
    std::uint64_t offset() const { return tail_.offset(); }
    // Why the reader is waiting at `offset()` rather than at the end of the file, or "".
    const std::string& pending() const override { return pending_; }
    // One line each, naming the file and the reason; cleared by take_warnings().
    std::vector<std::string> take_warnings() override;
    void add_totals(IngestTotals& totals) const override;

  private:
    // TailConsumer
    void on_rewrite(const std::string& why) override;
    std::size_t consume(const char* data, std::size_t len, bool at_eof) override;

    // Consumes whole records from data[pos, len) (base: the file offset of data[0]).
    void scan(const char* data, std::size_t len, bool at_eof, std::uint64_t base, std::size_t& pos);
    bool resync(const char* data, std::size_t len, bool at_eof, std::uint64_t base,
                std::size_t& pos);
    void start_corruption(std::uint64_t at, const char* header);
    void end_corruption(std::uint64_t valid_at);
    void note_corrupt_tail(std::uint64_t end);
    void warn(std::string message);

    // EventHandler
    void on_scalar(std::string_view tag, std::int64_t step, double wall_time,
                   double value) override;
    void on_text(std::string_view tag, std::int64_t step, double wall_time,
                 std::string text) override;
    void on_session_start(std::int64_t step, double wall_time) override;
    void on_distribution(std::string_view tag, std::int64_t step, double wall_time,
                         const DistributionValues& quantiles) override;

    SeriesId series_for(std::string_view raw_tag);
    // A histogram tag's nine quantile series (core/distribution.h), made on first sight.
    const std::array<SeriesId, kDistributionQuantiles>& distribution_for(std::string_view raw_tag);

    SourceFile file_;
    PointSink& sink_;
    EventDecoder decoder_;
    FileTail tail_;
    std::string pending_;
    std::vector<std::string> warnings_;
    std::uint64_t corrupt_since_ = UINT64_MAX;  // start of the corrupt run being scanned
    std::string corrupt_reason_;                // what was wrong with its first header
    bool corrupt_warned_ = false;
    bool any_valid_record_ = false;
    ReaderStats stats_;
    std::vector<int> ranks_seen_;

    // Tags usually arrive in the same cycle every step: predicting the next tag from the
    // previous one turns most lookups into one string compare instead of a hash.
    // Entries link by pointer (a deque never moves its elements), not by index: deque
    // indexing costs a division on the hot path.
    struct TagEntry {
        std::string raw;
        SeriesId id;
        TagEntry* next;
    };
    std::deque<TagEntry> tags_;  // deque: entries and raw strings keep their address
    // Histogram tags: few, and a histogram costs far more to decode than a lookup.
    std::map<std::string, std::array<SeriesId, kDistributionQuantiles>, std::less<>>
        distribution_tags_;
    std::unordered_map<std::string_view, TagEntry*> tag_index_;
    TagEntry* last_tag_ = nullptr;
};

}  // namespace runtop
