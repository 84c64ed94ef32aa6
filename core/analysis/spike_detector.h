// The robust spike rule for one series (DESIGN.md §6, issue 4): a value far above what the series
// was just doing, judged so that healthy training stays quiet.
//
// Only sign-definite series are judged (every value of the trailing window > 0, or every one
// < 0: losses, norms, perplexities, msProbe's min/max of one sign). Their noise is
// multiplicative, so everything is in log|x|, over the trailing window of the last `window`
// finite values (after `warmup` of them):
//     level = median of the newest 16          (follows a trend: a falling loss)
//     sigma = median |step between neighbours| / 0.954   (the noise of one value; trend-free)
//     deviation = log|x| - level
// and x is a spike when
//     deviation >= log(min_ratio)                         |x| is min_ratio x the level
//     deviation >= k * sigma                              far outside the series' own noise
//     deviation >= tail_factor * p95(|steps|)             well past the jumps it makes anyway
// The last test is what keeps heavy-tailed series quiet (an RL policy's KL jumps 5x every few
// hundred steps); the 95th percentile ignores the window's largest few steps, so one earlier
// spike does not hide the next. A downward jump is never a spike: losses and norms fall during
// healthy training, and learning-rate decay drops values on purpose.
//
// A jump that lasts is a level shift, not a spike: accuracy leaving chance level, a new
// schedule phase. Unless the series is loss-like (higher is worse, so a lasting jump is trouble
// too), a candidate is reported only once one of the next `confirm` finite values has fallen
// back below the halfway point (in log scale) between it and the level; otherwise it is
// dropped, and the plateau it jumped to is not judged until the level stands on it (16 values)
// or it falls back. `finish()` reports a candidate still waiting when the data ends.
//
// Memory: the ring of the window's values starts at kFirstRing and doubles as values come, so a
// series shorter than the window (a job of millions of series, 50 steps each) pays for what it
// has. Cost: O(1) per value, a few instructions and one store into the window's ring: a value below
// min_ratio x the smallest |value| of the newest 16-31 cannot be min_ratio x the level (their
// median), and sign-definiteness is two "last seen" numbers, so the level, sigma and p95
// (O(window)) are computed only for values that pass, which on healthy data is almost none.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/rule_config.h"

namespace runtop {

struct SpikeFinding {
    std::int64_t step = 0;
    double value = 0;
    double median = 0;         // the level it is compared with (median of the newest 16), signed
    double ratio = 0;          // |value| / |median|
    double z = 0;              // deviation / sigma, log scale (infinite when sigma is 0)
    bool unconfirmed = false;  // reported at the end of the data without falling back
};

class SpikeDetector {
  public:
    // Values the level is the median of.
    static constexpr std::size_t kLevelPoints = 16;
    static constexpr std::uint32_t kFirstRing = 16;

    SpikeDetector(const SpikeParams& params, bool loss_like);

    // Feeds the next point (steps ascending); returns a spike when one is decided now. Non-finite
    // values are not the spike rule's business and are ignored.
    std::optional<SpikeFinding> push(std::int64_t step, double value, std::vector<float>& scratch);
    // The candidate still waiting for its fall-back, if any.
    std::optional<SpikeFinding> finish();
    std::uint64_t finite_seen() const { return seen_; }
    // A candidate waits for its fall-back: its series cannot hand its judging over now.
    bool waiting() const { return pending_ != nullptr; }
    bool loss_like() const { return loss_like_; }
    // What it holds outside itself (its ring, a waiting candidate): the Analyzer counts it.
    std::size_t heap_bytes() const {
        return (ring_ ? (mask_ + std::size_t{1}) * sizeof(float) : 0) +
               (pending_ ? sizeof(SpikeFinding) : 0);
    }

  private:
    bool judge(double value, std::vector<float>& scratch, SpikeFinding& out) const;
    bool definite(bool positive, float magnitude) const;
    void remember(float magnitude, bool positive);

    // Ordered by size, so that the detector (one per judged series) has no padding: 80 bytes.
    const SpikeParams* params_;
    std::unique_ptr<float[]> ring_;  // |value| of the finite values, by number & mask_; made by
                                     // the first one (a series with none pays nothing for it)
    std::uint64_t seen_ = 0;         // finite values seen, also the next one's number
    std::int64_t last_not_positive_ = -1;    // number of the latest value <= 0
    std::int64_t last_not_negative_ = -1;    // number of the latest value >= 0
    std::unique_ptr<SpikeFinding> pending_;  // rare: kept out of the per-point cache lines
    std::uint32_t window_;
    std::uint32_t mask_;  // ring size - 1: a power of two, up to the first >= window_
    float block_min_ = std::numeric_limits<float>::infinity();  // this block of 16
    float previous_block_min_ = std::numeric_limits<float>::infinity();
    float pending_level_ = 0;  // log|x| a later value must fall below to confirm the pending one
    float shift_level_ = 0;    // log|x| below which the plateau has ended
    int pending_left_ = 0;
    std::uint16_t shift_left_ = 0;  // values of a level shift's plateau still not judged
    bool loss_like_;
};

}  // namespace runtop
