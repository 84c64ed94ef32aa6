// The points a run comparison walks (core/compare/compare_pair.cpp), one at a time in step order: a
// series' full-resolution points decoded a chunk at a time (Series::read), or the mean over a
// run's ranks at each step (core/compare/run_compare.h says what the mean is).
//
// Either cursor runs in one of two modes. "Final only" offers just the points no later write
// can change, so that a pair can remember where it stopped and resume there (RunComparer):
// a series' last point can be replaced by a write of the same step, and a mean at a step is
// final only below the lowest last step of its ranks (any rank may still add that step).
// Otherwise every point is offered.
//
// Either cursor can smooth (CompareOptions::smoothing): each series then has its own EmaSmoother,
// which takes every point the cursor moves past, so value() is the point smoothed over the
// series' points from where the walk started. The smoother's state goes with the position:
// a walk that resumes at a saved position resumes with the smoother saved there.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/analysis/smoothing.h"
#include "core/store/chunk_codec.h"
#include "core/store/series.h"

namespace runtop::compare {

class SeriesCursor {
  public:
    // From full-resolution point `pos`; walls are decoded only when `walls` is set. With `ema`,
    // values are smoothed, from that smoother's state (the one the points before `pos` left).
    SeriesCursor(const Series& series, std::size_t pos, bool walls,
                 const EmaSmoother* ema = nullptr)
        : series_(&series), n_(series.retained()), i_(pos), walls_(walls) {
        if (ema) ema_ = *ema;
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
    double value() const { return ema_ ? smoothed() : raw(); }
    void next() {
        if (ema_) ema_->push(raw());
        if (++i_ == hi_ && i_ < limit_) load();
    }
    std::size_t pos() const { return i_; }
    // The smoother's state at pos() (the points before it taken), when the cursor smooths.
    const std::optional<EmaSmoother>& ema() const { return ema_; }

  private:
    // Decodes the chunk holding i_.
    void load() {
        lo_ = i_ / kChunk * kChunk;
        hi_ = std::min(lo_ + kChunk, n_);
        series_->read(lo_, hi_ - lo_, steps_, walls_ ? walls_buf_ : nullptr, values_);
    }
    double raw() const { return values_[i_ - lo_]; }
    // The current point smoothed: what push() would return, on a copy, since only next() may
    // take the point (a walk can stop before it and save the state).
    double smoothed() const {
        EmaSmoother peek = *ema_;
        return peek.push(raw());
    }

    const Series* series_;
    std::size_t n_;       // retained() when made
    std::size_t limit_;   // has() below it
    std::size_t i_;       // the current point
    std::size_t lo_ = 0;  // the decoded points: [lo_, hi_)
    std::size_t hi_ = 0;
    bool walls_;
    std::optional<EmaSmoother> ema_;
    std::int64_t steps_[kChunk];
    double walls_buf_[kChunk];
    double values_[kChunk];
};

// At each step any rank has, the mean of the ranks' values at that step (summed in the order
// the ranks are given, so that it is the same however the walk was split), and the latest of
// their walls. Smoothing smooths each rank, so the mean is that of the smoothed ranks.
class MeanCursor {
  public:
    // `series`: the ranks, in rank order; `pos`: where each one's cursor starts. `final_below`:
    // the steps below which a mean is final (the lowest last step of the ranks that have
    // points). `ema`: nullptr, or each rank's smoother at its position.
    MeanCursor(const std::vector<const Series*>& series, const std::vector<std::size_t>& pos,
               bool walls, std::int64_t final_below, const std::vector<EmaSmoother>* ema = nullptr)
        : final_below_(final_below), walls_(walls) {
        ranks_.reserve(series.size());
        for (std::size_t r = 0; r < series.size(); ++r)
            ranks_.emplace_back(*series[r], pos[r], walls, ema ? &(*ema)[r] : nullptr);
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
    // Each rank's smoother at its position (left alone when the cursor does not smooth).
    void smoothers(std::vector<EmaSmoother>& out) const {
        if (ranks_.empty() || !ranks_[0].ema()) return;
        out.clear();
        for (const SeriesCursor& r : ranks_) out.push_back(*r.ema());
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
