// One series, (run, rank, tag) → points in strictly increasing step order after restart
// semantics (DESIGN.md §2), in bounded memory. Oldest first it holds:
//
//   buckets        folded chunks: only their SegmentSummary is left (min, max, sum, count,
//                  NaN/±Inf counts, first/last step, wall and value). Under memory pressure
//                  adjacent buckets merge pairwise, the oldest first: exact for every field,
//                  so no spike and no NaN is ever lost, only where in the bucket it was.
//   sealed chunks  kChunk (128) points each, packed losslessly (core/store/chunk_codec.h), each
//                  point readable in O(1), plus the chunk's summary;
//   tail           the newest points (up to kChunk), plain columns in one arena block that
//                  grows 2, 8, 16 ... 128.
//                  A full tail is sealed when the next point arrives, so the last point is
//                  in the tail, where a repeated step can replace it; only the budget's
//                  last resort (fold_tail) folds it into a bucket, whose last value a
//                  repeated step then replaces (its extremes keep the old one).
//
// Full-resolution points are `retained()`: the sealed chunks and the tail; `point(i)` reads
// them oldest first. Everything, folded or not, is `count()`. Over StoreLimits::series_points
// the oldest sealed chunks are folded; the Store's global budget folds the globally oldest
// chunks and merges buckets (core/store/store.h).
//
// Summaries of every segment (buckets, then sealed chunks) sit in one vector in step order,
// with a pyramid of aggregates over groups of 16, 256, ... segments above it, so `query`
// answers a column spanning millions of points from O(log) summaries and decodes points only
// in the at most two chunks cut by the column's edges.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/series_key.h"
#include "core/series_source.h"
#include "core/store/arena_vector.h"
#include "core/store/chunk_codec.h"
#include "core/store/segment_summary.h"
#include "core/store/store_memory.h"

namespace runtop {

// Where a series restarted: a step went backwards (or a session started) and `dropped`
// points at or after `step` were replaced.
struct RestartMarker {
    std::int64_t step;
    double wall_time;
    std::uint64_t dropped;
};

// One column of a view: the points of a step range, summarised.
struct ColumnSummary {
    std::uint64_t count = 0;  // every point; 0: an empty column
    std::uint64_t nan = 0;
    std::uint64_t pos_inf = 0;
    std::uint64_t neg_inf = 0;
    // Of count, points known only through buckets. A bucket counts in the column that holds
    // its last step (the last column when that is past the range), so a bucket wider than a
    // column shows its extremes once and every point is counted once.
    std::uint64_t folded = 0;
    double min = 0;   // over finite values; NaN when there is none
    double max = 0;   // ditto
    double mean = 0;  // ditto
    double last = 0;  // the last point's value (a bucket's last value)
    std::int64_t last_step = 0;

    bool empty() const { return count == 0; }
};

// The union of two columns, as if one query had covered both series: counts, NaN and Inf add
// up, the extremes of the extremes, the mean of every finite point, the newer last. What an
// envelope of many series (a card, a bin of ranks) is made of, so no series hides in it.
void merge_into(ColumnSummary& into, const ColumnSummary& c);

// What a query cost: summaries combined and points decoded (tests check it stays small).
struct QueryWork {
    std::uint64_t summaries = 0;
    std::uint64_t points = 0;
};

// Where column c of n starts when [step_lo, step_hi) is split as Series::query splits it:
// step_lo + c * (step_hi - step_lo) / n, in 128-bit arithmetic (no overflow, whatever the
// range). Views that draw columns find their steps with it.
inline std::int64_t column_start(std::int64_t step_lo, std::int64_t step_hi, std::uint64_t n,
                                 std::uint64_t c) {
    const auto lo = static_cast<std::uint64_t>(step_lo);
    const std::uint64_t width = static_cast<std::uint64_t>(step_hi) - lo;
    const auto offset = static_cast<std::uint64_t>(static_cast<unsigned __int128>(width) * c / n);
    return static_cast<std::int64_t>(lo + offset);
}

class Series {
  public:
    Series(SourceId source, SeriesId id, StoreMemory& memory);
    Series(Series&&) noexcept = default;
    Series& operator=(Series&&) = delete;
    Series(const Series&) = delete;
    // Blocks go back with the whole arena (the Store's), not one by one.
    ~Series() = default;

    // Interned in the Store (core/store/series_index.h): the strings live there.
    SeriesKeyRef key() const { return memory_->index().key(id_); }
    // Where it came from, as its reader described it.
    const SeriesSource& source() const { return series_source(source_); }

    // Every point held, full resolution or folded.
    std::uint64_t count() const { return count_; }
    bool empty() const { return count_ == 0; }
    // Full-resolution points, readable with point().
    std::size_t retained() const { return sealed_count() * kChunk + tail_len_; }
    // The i-th full-resolution point, oldest first, for i < retained(). O(1).
    Point point(std::size_t i) const {
        const std::size_t c = i / kChunk;
        if (c < sealed_count()) return sealed_[sealed_head_ + c].point(i % kChunk);
        i -= sealed_count() * kChunk;
        return {tail_steps()[i], tail_walls()[i], tail_values()[i]};
    }
    // Full-resolution points [first, first + n) into columns (a null column is skipped), for
    // first + n <= retained(): the same points as point(), a chunk decoded at a time (several
    // times faster where every point is read, as a run comparison does).
    void read(std::size_t first, std::size_t n, std::int64_t* steps, double* walls,
              double* values) const;
    // The last point (a bucket's last step, wall and value, if a restart cut back into
    // folded data or the budget folded the whole tail). Not for an empty series.
    Point back() const;
    std::int64_t first_step() const;  // 0 for an empty series
    std::int64_t last_step() const { return last_step_; }

    // Folded buckets, oldest first; then the summaries of every segment (buckets, then one per
    // sealed chunk).
    std::span<const SegmentSummary> buckets() const { return {summaries_.data(), folded_}; }
    std::span<const SegmentSummary> segments() const {
        return {summaries_.data(), summaries_.size()};
    }

    // Restart markers, oldest first; only the first kMaxRestarts are kept, restart_count()
    // counts them all.
    static constexpr std::size_t kMaxRestarts = 4096;
    std::span<const RestartMarker> restarts() const {
        return extra_ ? std::span<const RestartMarker>(extra_->restarts)
                      : std::span<const RestartMarker>();
    }
    std::uint64_t restart_count() const {
        return extra_ ? extra_->restarts.size() + extra_->restarts_lost : 0;
    }
    std::uint64_t received() const { return received_; }  // points offered, before replacement

    // Splits [step_lo, step_hi) into out.size() equal columns (column c covers
    // [lo + c*(hi-lo)/n, lo + (c+1)*(hi-lo)/n)) and summarises each. Full-resolution points
    // count exactly; a bucket counts whole in the column holding its last step (see
    // ColumnSummary::folded). Cost O(columns × (log segments + kChunk)), never O(points).
    // `snap`: where a column spans at least a sealed chunk, an edge that cuts a chunk moves to
    // the chunk's nearer boundary, so the chunk is summarised instead of decoded. Every point
    // still counts in exactly one column (no spike is lost), at most half a column from its
    // exact one: right for sparklines (a braille dot), not for a chart with a cursor.
    // `path`: how the columns are found. kSummaries: per column from the segment summaries and
    // their pyramid, decoding the chunks an edge cuts. kLinear: one pass over the range's
    // buckets and points in step order, the columns advancing with it (faster when columns are
    // narrower than a chunk: no per-column search, each point decoded once). kAuto picks
    // kLinear when the series holds at most 24 segments and points a column. Both give the
    // same columns (tests compare them with a brute force).
    enum class QueryPath { kAuto, kSummaries, kLinear };
    void query(std::int64_t step_lo, std::int64_t step_hi, std::span<ColumnSummary> out,
               QueryWork* work = nullptr, bool snap = false,
               QueryPath path = QueryPath::kAuto) const;

    // Steps are kept strictly increasing: an equal step replaces the last point, a lower step
    // drops every point at or after it and records a restart.
    void append(const Point& p) {
        ++received_;
        if (count_ != 0 && p.step <= last_step_) {
            replace_or_restart(p);
            return;
        }
        push(p);
    }
    // Drops points at or after `step`; returns how many were dropped. A bucket that straddles
    // `step` is kept, clipped (SegmentSummary::clip_before): its extremes, NaN/Inf counts and
    // last value may still include dropped points (nothing says which values went), so it
    // stays conservative: an extreme is never lost, at worst one that was replaced is still
    // shown. Its count (and so count() and the dropped count) stays exact when its steps are
    // evenly spaced, as they nearly always are; otherwise it is an upper bound.
    std::uint64_t truncate_from(std::int64_t step);
    void mark_restart(const RestartMarker& marker);

    // For the Store's budget.
    std::uint64_t oldest_sealed_seq() const {
        return sealed_count() == 0 ? UINT64_MAX : sealed_[sealed_head_].seq;
    }
    // Folds the oldest sealed chunk into a bucket; false if there is none.
    bool fold_oldest();
    // Merges adjacent buckets pairwise, oldest first (see series.cpp); returns how many
    // buckets went.
    std::size_t merge_buckets();
    // The last resort of the Store's budget: folds every sealed chunk and the whole tail into
    // buckets and lets the tail's block go (a series of one point and nothing folded keeps it,
    // shrunk to the smallest: that costs less than a bucket); false if there was nothing to
    // fold. What a series costs at least is then its object and one bucket; its last point is
    // the bucket's (back()).
    bool fold_tail();

  private:
    std::size_t sealed_count() const { return sealed_.size() - sealed_head_; }
    void push(const Point& p) {
        if (tail_len_ == tail_cap_) make_room();
        tail_steps()[tail_len_] = p.step;
        tail_walls()[tail_len_] = p.wall_time;
        tail_values()[tail_len_] = p.value;
        ++tail_len_;
        ++count_;
        last_step_ = p.step;
    }
    void make_room();  // grows the tail, or seals it when it is full
    // A tail block of `capacity` points (at least tail_len_), the points moved into it.
    void grow_tail(std::size_t capacity);
    void release_tail();  // the tail's block and its points go
    void seal_tail();
    void unseal_last();
    void replace_or_restart(const Point& p);
    // Drops the level aggregates that cover segment `first_changed` or later, then adds
    // every complete group again.
    void fix_levels_from(std::size_t first_changed);
    // Updates the Store's byte count with this series' current size.
    void account();

    // query() helpers (series_query.cpp).
    struct Accumulator;
    template <class Edge>
    void query_linear(std::int64_t step_lo, std::int64_t step_hi, std::span<ColumnSummary> out,
                      QueryWork* work, Edge edge) const;
    void accumulate(std::int64_t a, std::int64_t b, bool last_column, Accumulator& acc) const;
    void combine(std::size_t level, std::size_t from, std::size_t to, bool folded,
                 Accumulator& acc) const;
    void add_chunk_points(std::size_t segment, std::int64_t a, std::int64_t b,
                          Accumulator& acc) const;

    static constexpr std::size_t kGroup = 16;           // segments per level-aggregate
    static constexpr std::size_t kTailPointBytes = 24;  // a step, a wall, a value

    // The tail is one arena block: steps, walls and values, tail_cap_ of each.
    std::int64_t* tail_steps() const { return static_cast<std::int64_t*>(tail_); }
    double* tail_walls() const { return reinterpret_cast<double*>(tail_steps() + tail_cap_); }
    double* tail_values() const { return tail_walls() + tail_cap_; }

    // In the arena too: vectors that grow and shrink under the budget would leave malloc
    // holes that count in RSS and not in memory_bytes().
    using Summaries = ArenaVector<SegmentSummary>;
    // The series' own summaries: the same, without an arena pointer of its own (memory_'s).
    using SummaryBuffer = ArenaBuffer<SegmentSummary>;
    // What only long or restarted series need, allocated when they first do: most series of
    // a large job never have 16 chunks or a restart, and every byte here is paid a million
    // times.
    struct Extra {
        // levels[k][j] aggregates segments [j*16^(k+1), (j+1)*16^(k+1)); complete groups only.
        std::vector<Summaries> levels;
        std::vector<RestartMarker> restarts;
        std::uint64_t restarts_lost = 0;
    };
    Extra& extra();
    const std::vector<Summaries>& levels() const;

    StoreMemory* memory_;
    void* tail_ = nullptr;
    SummaryBuffer summaries_;          // buckets [0, folded_), then sealed chunks
    ArenaBuffer<SealedChunk> sealed_;  // live from sealed_head_ (folding pops the front)
    std::unique_ptr<Extra> extra_;
    std::uint64_t count_ = 0;
    std::int64_t last_step_ = 0;
    std::uint64_t received_ = 0;
    std::uint64_t packed_bytes_ = 0;  // arena bytes of the sealed chunks' data
    std::uint64_t accounted_ = 0;     // what this series last added to the Store's byte count
    SeriesId id_;
    std::uint32_t folded_ = 0;
    std::uint32_t sealed_head_ = 0;
    std::uint8_t tail_len_ = 0;  // at most kChunk
    std::uint8_t tail_cap_ = 0;
    SourceId source_;
};
// Millions of series: what one costs beside its points is checked here (docs/design.md).
static_assert(kChunk <= 0xff);
static_assert(sizeof(Series) <= 112);

}  // namespace runtop
