#include "core/analysis/spike_detector.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "core/analysis/cross_rank.h"

namespace runtop {
namespace {

// The median of v (the mean of the two middle values for an even count); reorders v.
double median_of(float* v, std::size_t n) {
    float* mid = v + n / 2;
    std::nth_element(v, mid, v + n);
    double m = *mid;
    if (n % 2 == 0) m = (m + *std::max_element(v, mid)) / 2;
    return m;
}

}  // namespace

// One per series the spike rule judges (millions): its size is part of the per-series budget.
static_assert(sizeof(SpikeDetector) <= 80);

SpikeDetector::SpikeDetector(const SpikeParams& params, bool loss_like)
    : params_(&params),
      window_(static_cast<std::uint32_t>(std::max(params.window, 2))),
      mask_(std::min<std::uint32_t>(kFirstRing, std::bit_ceil(window_)) - 1),
      loss_like_(loss_like) {}

bool SpikeDetector::definite(bool positive, float magnitude) const {
    if (magnitude == 0) return false;
    // The window is the values numbered [seen_ - n, seen_): of one sign when the latest value
    // of the other sign (or zero) is older.
    const auto seen = static_cast<std::int64_t>(seen_);
    const std::int64_t first = seen - std::min<std::int64_t>(seen, window_);
    return (positive ? last_not_positive_ : last_not_negative_) < first;
}

void SpikeDetector::remember(float magnitude, bool positive) {
    if (seen_ % kLevelPoints == 0) {
        previous_block_min_ = block_min_;
        block_min_ = std::numeric_limits<float>::infinity();
    }
    block_min_ = std::min(block_min_, magnitude);
    const auto seq = static_cast<std::int64_t>(seen_);
    if (magnitude == 0 || !positive) last_not_positive_ = seq;
    if (magnitude == 0 || positive) last_not_negative_ = seq;
    ++seen_;
    // Only the values since the latest zero or change of sign are ever judged again (a window
    // is judged only when all of it has the sign of the value judged, definite()): the ring
    // holds that run, so a series of zeros (msProbe's `nans`) or of both signs (a gradient's
    // mean) holds little or nothing.
    const auto run_start =
        static_cast<std::uint64_t>(std::min(last_not_positive_, last_not_negative_) + 1);
    const std::uint32_t first_ring = std::min<std::uint32_t>(kFirstRing, std::bit_ceil(window_));
    if (run_start == seen_) {  // a zero: no run
        ring_.reset();
        mask_ = first_ring - 1;
        return;
    }
    const auto now = static_cast<std::uint64_t>(seq);
    if (run_start == now && mask_ + 1 > first_ring) {  // a new run: the longer ring goes
        ring_.reset();
        mask_ = first_ring - 1;
    }
    if (!ring_) ring_ = std::make_unique<float[]>(mask_ + 1);
    const std::uint64_t held = now - run_start;  // before this one
    if (held == mask_ + std::uint64_t{1} && held < std::bit_ceil(window_)) {
        // The run fills the ring before the window is full: twice the size, each value at its
        // number's place there.
        const std::uint32_t mask = 2 * mask_ + 1;
        auto grown = std::make_unique<float[]>(mask + std::size_t{1});
        for (std::uint64_t n = run_start; n < now; ++n) grown[n & mask] = ring_[n & mask_];
        ring_ = std::move(grown);
        mask_ = mask;
    }
    ring_[now & mask_] = magnitude;
}

bool SpikeDetector::judge(double value, std::vector<float>& scratch, SpikeFinding& out) const {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(seen_, window_));
    if (n < 3) return false;
    scratch.resize(3 * n);
    float* logs = scratch.data();  // oldest first
    float* work = logs + n;
    const std::uint64_t first = seen_ - n;

    // The level: the median of the newest few values, so a trend (a falling loss) does not
    // leave it behind. Most candidates fail here, so only these logs are taken first.
    const std::size_t recent = std::min<std::size_t>(n, kLevelPoints);
    for (std::size_t i = n - recent; i < n; ++i) logs[i] = std::log(ring_[(first + i) & mask_]);
    std::copy(logs + n - recent, logs + n, work);
    const double level = median_of(work, recent);
    const double x = std::log(std::fabs(value));
    const double deviation = x - level;
    if (!(deviation >= std::log(params_->min_ratio))) return false;
    for (std::size_t i = 0; i < n - recent; ++i) logs[i] = std::log(ring_[(first + i) & mask_]);

    // The scatter, from steps between neighbours: a trend barely moves them, noise does.
    float* steps = logs + 2 * n;
    for (std::size_t i = 1; i < n; ++i) steps[i - 1] = std::fabs(logs[i] - logs[i - 1]);
    const std::size_t m = n - 1;
    std::copy(steps, steps + m, work);
    // |a - b| of two N(0, s) values has median 0.954 s (MAD of the difference / sqrt 2 ...):
    // scaled so that sigma is the noise of one value.
    const double sigma = median_of(work, m) / 0.954;
    const double z = sigma > 0 ? deviation / sigma : std::numeric_limits<double>::infinity();
    if (z < params_->k) return false;
    // The series' own jumps: its 95th percentile step (a few earlier spikes do not raise it). A
    // heavy-tailed series (an RL policy's KL) jumps 5x now and then; a spike must go well past.
    const std::size_t tail_at = std::min(m - 1, static_cast<std::size_t>(0.95 * (m - 1) + 0.5));
    std::copy(steps, steps + m, work);
    std::nth_element(work, work + tail_at, work + m);
    if (deviation < params_->tail_factor * work[tail_at]) return false;

    const double typical = std::exp(level);
    out.value = value;
    out.median = value > 0 ? typical : -typical;
    out.ratio = std::fabs(value) / typical;
    out.z = z;
    return true;
}

std::optional<SpikeFinding> SpikeDetector::push(std::int64_t step, double value,
                                                std::vector<float>& scratch) {
    if (!std::isfinite(value)) return std::nullopt;
    const auto magnitude = static_cast<float>(std::fabs(value));
    const bool positive = value > 0;
    std::optional<SpikeFinding> out;
    bool fell_back = false;
    if (pending_) [[unlikely]] {
        if (std::log(magnitude) < pending_level_) {
            out = *pending_;
            fell_back = true;
            pending_.reset();
        } else if (--pending_left_ <= 0) {
            // It lasted: a level shift. Its plateau is not judged until the level (the median
            // of the newest 16) stands on it, or it falls back.
            pending_.reset();
            shift_left_ = static_cast<std::uint16_t>(kLevelPoints);
            shift_level_ = pending_level_;
        }
    } else if (shift_left_ > 0 && (--shift_left_ == 0 || std::log(magnitude) < shift_level_)) {
        shift_left_ = 0;
    }
    // A lower bound of the level: the smallest |value| since the start of the previous block
    // of 16, a superset of the newest 16. Below min_ratio x it, no value can be a spike.
    const float bound = std::min(previous_block_min_, block_min_);
    if (magnitude >= static_cast<float>(params_->min_ratio) * bound && !pending_ && !fell_back &&
        shift_left_ == 0 && seen_ >= static_cast<std::uint64_t>(params_->warmup) &&
        definite(positive, magnitude)) [[unlikely]] {
        SpikeFinding f;
        if (judge(value, scratch, f)) {
            f.step = step;
            if (loss_like_ || params_->confirm == 0) {
                out = f;
            } else {
                pending_ = std::make_unique<SpikeFinding>(f);
                pending_level_ = static_cast<float>(
                    (std::log(std::fabs(value)) + std::log(std::fabs(f.median))) / 2);
                pending_left_ = params_->confirm;
            }
        }
    }
    remember(magnitude, positive);
    return out;
}

std::optional<SpikeFinding> SpikeDetector::finish() {
    if (!pending_) return std::nullopt;
    SpikeFinding f = *pending_;
    f.unconfirmed = true;
    pending_.reset();
    return f;
}

}  // namespace runtop
