// The points a run comparison walks (core/compare/compare_pair.cpp), one at a time in step order: a
// series' full-resolution points decoded a chunk at a time (Series::read), or the mean over a
// run's ranks at each step (core/compare/run_compare.h says what the mean is).
//
// Either cursor runs in one of two modes. "Final only" offers just the points no later write
// can change, so that a pair can remember where it stopped and resume there (RunComparer):
// a series' last point can be replaced by a write of the same step, and a mean at a step is
// final only below the lowest last step of its ranks (any rank may still add that step).
// Otherwise every point is offered.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/store/chunk_codec.h"
#include "core/store/series.h"

namespace runtop::compare {

class SeriesCursor {
  public:
    // From full-resolution point `pos`; walls are decoded only when `walls` is set.
    SeriesCursor(const Series& series, std::size_t pos, bool walls)
        : series_(&series), n_(series.retained()), i_(pos), walls_(walls) {
        set_final_only(false);
    }

    void set_final_only(bool final_only) {
        limit_ = final_only && n_ > 0 ? n_ - 1 : n_;
        if (i_ < limit_ && (i_ < lo_ || i_ >= hi_)) load();
    }
    bool has() const { return i_ < limit_; }
    // The current point; only when has().
    std::int64_t step() const { return steps_[i_ - lo_]; }
    double wall() const { return walls_buf_[i_ - lo_]; }
    double value() const { return values_[i_ - lo_]; }
    void next() {
        if (++i_ == hi_ && i_ < limit_) load();
    }
    std::size_t pos() const { return i_; }

  private:
    // Decodes the chunk holding i_.
    void load() {
        lo_ = i_ / kChunk * kChunk;
        hi_ = std::min(lo_ + kChunk, n_);
        series_->read(lo_, hi_ - lo_, steps_, walls_ ? walls_buf_ : nullptr, values_);
    }

    const Series* series_;
    std::size_t n_;       // retained() when made
    std::size_t limit_;   // has() below it
    std::size_t i_;       // the current point
    std::size_t lo_ = 0;  // the decoded points: [lo_, hi_)
    std::size_t hi_ = 0;
    bool walls_;
    std::int64_t steps_[kChunk];
    double walls_buf_[kChunk];
    double values_[kChunk];
};

// At each step any rank has, the mean of the ranks' values at that step (summed in the order
// the ranks are given, so that it is the same however the walk was split), and the latest of
// their walls.
class MeanCursor {
  public:
    // `series`: the ranks, in rank order; `pos`: where each one's cursor starts. `final_below`:
    // the steps below which a mean is final (the lowest last step of the ranks that have
    // points).
    MeanCursor(const std::vector<const Series*>& series, const std::vector<std::size_t>& pos,
               bool walls, std::int64_t final_below)
        : final_below_(final_below), walls_(walls) {
        ranks_.reserve(series.size());
        for (std::size_t r = 0; r < series.size(); ++r)
            ranks_.emplace_back(*series[r], pos[r], walls);
        settle();
    }
    MeanCursor(const MeanCursor&) = delete;
    MeanCursor& operator=(const MeanCursor&) = delete;

    void set_final_only(bool final_only) { final_only_ = final_only; }
    bool has() const { return valid_ && (!final_only_ || step_ < final_below_); }
    std::int64_t step() const { return step_; }
    double wall() const { return wall_; }
    double value() const { return value_; }
    void next() {
        for (SeriesCursor& r : ranks_)
            if (r.has() && r.step() == step_) r.next();
        settle();
    }
    void positions(std::vector<std::size_t>& out) const {
        out.clear();
        for (const SeriesCursor& r : ranks_) out.push_back(r.pos());
    }

  private:
    // The mean at the lowest step any rank is at.
    void settle() {
        valid_ = false;
        for (const SeriesCursor& r : ranks_)
            if (r.has() && (!valid_ || r.step() < step_)) {
                step_ = r.step();
                valid_ = true;
            }
        if (!valid_) return;
        // A plain sum: a NaN or an infinity carries through (and +inf with -inf gives NaN).
        double sum = 0;
        std::size_t count = 0;
        for (const SeriesCursor& r : ranks_) {
            if (!r.has() || r.step() != step_) continue;
            sum = count == 0 ? r.value() : sum + r.value();
            if (walls_) wall_ = count == 0 ? r.wall() : std::max(wall_, r.wall());
            ++count;
        }
        value_ = sum / static_cast<double>(count);
    }

    std::vector<SeriesCursor> ranks_;
    std::int64_t final_below_;
    bool walls_;
    bool final_only_ = false;
    bool valid_ = false;
    std::int64_t step_ = 0;
    double wall_ = 0;
    double value_ = 0;
};

}  // namespace runtop::compare
