// The robust spike rule on realistic training curves: quiet on healthy data (noisy, decaying,
// heavy-tailed, level shifts), exact on injected spikes; checked against a direct sort-based
// implementation of the rule as the header states it.
#include "core/analysis/spike_detector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <vector>

namespace runtop {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Feeds values at steps 0, 1, ... and collects every finding (finish() included).
class Feeder {
  public:
    explicit Feeder(bool loss_like, SpikeParams params = {})
        : params_(params), detector_(params_, loss_like) {}

    // The finding decided by this value, if any.
    std::optional<SpikeFinding> push(double value) {
        std::optional<SpikeFinding> f = detector_.push(step_++, value, scratch_);
        if (f) found.push_back(*f);
        return f;
    }
    void push_all(const std::vector<double>& values) {
        for (double v : values) push(v);
    }
    void finish() {
        if (std::optional<SpikeFinding> f = detector_.finish()) found.push_back(*f);
    }
    std::vector<std::int64_t> steps() const {
        std::vector<std::int64_t> out;
        for (const SpikeFinding& f : found) out.push_back(f.step);
        return out;
    }
    std::int64_t next_step() const { return step_; }
    const SpikeDetector& detector() const { return detector_; }

    std::vector<SpikeFinding> found;

  private:
    SpikeParams params_;
    SpikeDetector detector_;
    std::vector<float> scratch_;
    std::int64_t step_ = 0;
};

using Steps = std::vector<std::int64_t>;

// 2.5 exp(-t/3000) + 1.8 with multiplicative lognormal noise: a language model's loss.
std::vector<double> loss_curve(int n, std::uint32_t seed, double sigma = 0.05) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, sigma);
    std::vector<double> v(n);
    for (int t = 0; t < n; ++t) v[t] = (2.5 * std::exp(-t / 3000.0) + 1.8) * std::exp(noise(rng));
    return v;
}

// Constant level times lognormal noise.
std::vector<double> noisy_level(int n, double level, double sigma, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, sigma);
    std::vector<double> v(n);
    for (double& x : v) x = level * std::exp(noise(rng));
    return v;
}

TEST(SpikeDetector, NothingIsJudgedBeforeWarmup) {
    // 63 finite values, then a 100x jump: the 64th value is still warming up.
    Feeder early(/*loss_like=*/true);
    for (int i = 0; i < 63; ++i) early.push(1.0);
    EXPECT_FALSE(early.push(100.0));
    EXPECT_EQ(early.detector().finite_seen(), 64u);
    // One more value of history and the same jump is a spike.
    Feeder ready(/*loss_like=*/true);
    for (int i = 0; i < 64; ++i) ready.push(1.0);
    const std::optional<SpikeFinding> f = ready.push(100.0);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->step, 64);
}

TEST(SpikeDetector, InjectedLossSpikeIsFoundAtItsStep) {
    std::vector<double> loss = loss_curve(20000, 7);
    loss[12345] *= 10;
    Feeder feeder(/*loss_like=*/true);
    for (int t = 0; t < 20000; ++t) {
        const std::optional<SpikeFinding> f = feeder.push(loss[t]);
        if (f) {
            EXPECT_EQ(t, 12345) << "reported at once, not later";
        }
    }
    feeder.finish();
    ASSERT_EQ(feeder.steps(), Steps{12345});
    const SpikeFinding& f = feeder.found[0];
    EXPECT_EQ(f.value, loss[12345]);
    const double level = 2.5 * std::exp(-12345 / 3000.0) + 1.8;  // 1.841
    EXPECT_NEAR(f.median, level, 0.02 * level);
    EXPECT_NEAR(f.ratio, loss[12345] / f.median, 1e-3 * f.ratio);
    EXPECT_GT(f.ratio, 8);
    EXPECT_LT(f.ratio, 12.5);
    EXPECT_GT(f.z, 6);
    EXPECT_FALSE(f.unconfirmed);
}

TEST(SpikeDetector, HealthyLossCurveIsQuiet) {
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        Feeder loss_like(true), other(false);
        for (double v : loss_curve(20000, seed)) loss_like.push(v), other.push(v);
        loss_like.finish();
        other.finish();
        EXPECT_TRUE(loss_like.found.empty()) << seed;
        EXPECT_TRUE(other.found.empty()) << seed;
    }
}

// lognormal sigma 0.4 (an RL policy's KL, say) with a 3x bump every ~100 steps.
std::vector<double> heavy_tailed(int n, std::uint32_t seed) {
    std::vector<double> v = noisy_level(n, 0.02, 0.4, seed);
    std::mt19937 rng(seed + 1000);
    std::uniform_int_distribution<int> bump(0, 99);
    for (double& x : v)
        if (bump(rng) == 0) x *= 3;
    return v;
}

TEST(SpikeDetector, HeavyTailedHealthySeriesIsQuiet) {
    const std::vector<double> v = heavy_tailed(20000, 11);
    // The series does reach 3x its median now and then: the ratio test alone would fire.
    int over_3x = 0;
    for (double x : v) over_3x += x > 3 * 0.02;
    EXPECT_GT(over_3x, 100);
    Feeder loss_like(true), other(false);
    for (double x : v) loss_like.push(x), other.push(x);
    loss_like.finish();
    other.finish();
    EXPECT_EQ(loss_like.steps(), Steps{});
    EXPECT_EQ(other.steps(), Steps{});
}

TEST(SpikeDetector, HeavyTailedSeriesStillShowsA100xSpike) {
    std::vector<double> v = heavy_tailed(20000, 11);
    v[15000] = 100 * 0.02;
    Feeder loss_like(true), other(false);
    for (double x : v) loss_like.push(x), other.push(x);
    loss_like.finish();
    other.finish();
    EXPECT_EQ(loss_like.steps(), Steps{15000});
    EXPECT_EQ(other.steps(), Steps{15000});  // it falls back at once
}

// Accuracy leaving chance level: 0.01 then 0.6 for good. A jump, not a spike.
TEST(SpikeDetector, LastingLevelShiftIsNotASpikeUnlessLossLike) {
    std::vector<double> v = noisy_level(3000, 0.01, 0.05, 5);
    const std::vector<double> high = noisy_level(3000, 0.6, 0.05, 6);
    std::copy(high.begin() + 1000, high.end(), v.begin() + 1000);
    Feeder other(false);
    other.push_all(v);
    other.finish();
    EXPECT_EQ(other.steps(), Steps{});
    // A loss that jumps 60x and stays there is trouble, from its first high value until the
    // level (the median of the newest 16) has caught up.
    Feeder loss_like(true);
    loss_like.push_all(v);
    ASSERT_FALSE(loss_like.found.empty());
    EXPECT_EQ(loss_like.found.front().step, 1000);
    EXPECT_LT(loss_like.found.back().step, 1016);
}

TEST(SpikeDetector, TransientJumpIsReportedWhenItFallsBack) {
    std::vector<double> v = noisy_level(400, 0.5, 0.05, 8);
    v[300] *= 10;
    Feeder feeder(false);
    for (int t = 0; t < 300; ++t) feeder.push(v[t]);
    EXPECT_FALSE(feeder.push(v[300]));  // waits for the fall-back
    const std::optional<SpikeFinding> f = feeder.push(v[301]);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->step, 300);  // the spike's step, not the fall-back's
    EXPECT_EQ(f->value, v[300]);
    EXPECT_FALSE(f->unconfirmed);
    for (int t = 302; t < 400; ++t) feeder.push(v[t]);
    feeder.finish();
    EXPECT_EQ(feeder.steps(), Steps{300});
}

TEST(SpikeDetector, FallBackMayTakeUpToConfirmValues) {
    // confirm = 3: high, high, high, back: the third value after the jump falls back.
    std::vector<double> v = noisy_level(400, 0.5, 0.05, 9);
    v[300] *= 10, v[301] *= 10, v[302] *= 10;
    Feeder feeder(false);
    feeder.push_all(v);
    feeder.finish();
    EXPECT_EQ(feeder.steps(), Steps{300});
}

// "A jump that lasts is a level shift, not a spike": a plateau longer than `confirm` values is
// dropped, wherever it ends.
TEST(SpikeDetector, PlateauLongerThanConfirmIsALevelShift) {
    for (int length = 4; length <= 12; ++length) {
        std::vector<double> v = noisy_level(400, 0.5, 0.05, 9);
        for (int t = 300; t < 300 + length; ++t) v[t] *= 10;
        Feeder feeder(false);
        feeder.push_all(v);
        feeder.finish();
        EXPECT_EQ(feeder.steps(), Steps{}) << "plateau of " << length << " values";
    }
}

TEST(SpikeDetector, FallBackMeansBelowHalfwayInLogScale) {
    // Level 1, spike 100: halfway in log scale is 10.
    Feeder not_back(false);
    for (int i = 0; i < 100; ++i) not_back.push(1.0);
    not_back.push(100.0);
    for (int i = 0; i < 3; ++i) EXPECT_FALSE(not_back.push(10.5));
    EXPECT_EQ(not_back.steps(), Steps{});

    Feeder back(false);
    for (int i = 0; i < 100; ++i) back.push(1.0);
    back.push(100.0);
    EXPECT_FALSE(back.push(10.5));
    EXPECT_TRUE(back.push(9.5));
    EXPECT_EQ(back.steps(), Steps{100});
}

TEST(SpikeDetector, FinishReportsAPendingCandidateAsUnconfirmed) {
    std::vector<double> v = noisy_level(200, 0.5, 0.05, 10);
    v.back() *= 10;
    Feeder feeder(false);
    feeder.push_all(v);
    EXPECT_TRUE(feeder.found.empty());
    feeder.finish();
    ASSERT_EQ(feeder.steps(), Steps{199});
    EXPECT_TRUE(feeder.found[0].unconfirmed);
    EXPECT_EQ(feeder.found[0].value, v.back());
    feeder.finish();  // reported once
    EXPECT_EQ(feeder.found.size(), 1u);
}

TEST(SpikeDetector, NegativeDefiniteSeriesSpikesDownward) {
    std::vector<double> v = noisy_level(500, 0.1, 0.05, 12);
    for (double& x : v) x = -x;
    v[400] = -2.0;
    Feeder feeder(true);
    feeder.push_all(v);
    feeder.finish();
    ASSERT_EQ(feeder.steps(), Steps{400});
    const SpikeFinding& f = feeder.found[0];
    EXPECT_EQ(f.value, -2.0);
    EXPECT_LT(f.median, 0);
    EXPECT_NEAR(f.median, -0.1, 0.01);
    EXPECT_NEAR(f.ratio, 20, 2);
}

TEST(SpikeDetector, ZeroCrossingSeriesIsNeverJudged) {
    std::mt19937 rng(13);
    std::normal_distribution<double> noise(0, 0.1);
    Feeder feeder(true);
    for (int t = 0; t < 2000; ++t) feeder.push(t == 1500 ? 1000.0 : noise(rng));
    feeder.finish();
    EXPECT_EQ(feeder.steps(), Steps{});
}

TEST(SpikeDetector, AZeroInTheWindowStopsJudgementUntilItLeaves) {
    // A positive series with one 0 at step 100; window 128, so steps 101..228 see it.
    auto run = [](int spike_at) {
        Feeder feeder(true);
        for (int t = 0; t < 400; ++t) feeder.push(t == 100 ? 0.0 : t == spike_at ? 50.0 : 1.0);
        return feeder.steps();
    };
    EXPECT_EQ(run(150), Steps{});
    EXPECT_EQ(run(228), Steps{});
    EXPECT_EQ(run(229), Steps{229});
    EXPECT_EQ(run(90), Steps{90});
}

TEST(SpikeDetector, DownwardJumpIsNeverASpike) {
    for (bool loss_like : {true, false}) {
        Feeder feeder(loss_like);
        std::vector<double> v = noisy_level(600, 1.0, 0.05, 14);
        v[300] = 0.001;                                // a single drop
        for (int t = 450; t < 600; ++t) v[t] *= 0.01;  // a lasting one
        feeder.push_all(v);
        feeder.finish();
        EXPECT_EQ(feeder.steps(), Steps{}) << loss_like;
    }
}

TEST(SpikeDetector, NonFiniteValuesAreIgnored) {
    std::vector<double> v = noisy_level(400, 0.5, 0.05, 15);
    v[300] *= 10;
    Feeder feeder(false);
    for (int t = 0; t < 400; ++t) {
        if (t % 10 == 3) {
            EXPECT_FALSE(feeder.push(kNaN));  // steps 3, 13, ... carry a NaN instead
            continue;
        }
        feeder.push(v[t]);
        // NaN and ±Inf between the spike and its fall-back use up none of the three values.
        if (t == 300) {
            for (double x : {kNaN, kInf, -kInf, kNaN}) EXPECT_FALSE(feeder.push(x));
        }
    }
    feeder.finish();
    ASSERT_EQ(feeder.found.size(), 1u);
    EXPECT_EQ(feeder.found[0].value, v[300]);
    EXPECT_FALSE(feeder.found[0].unconfirmed);
    EXPECT_EQ(feeder.detector().finite_seen(), 360u);
}

TEST(SpikeDetector, InfinityIsNotASpike) {
    Feeder feeder(true);
    for (int i = 0; i < 100; ++i) feeder.push(1.0);
    EXPECT_FALSE(feeder.push(kInf));
    EXPECT_FALSE(feeder.push(-kInf));
    EXPECT_EQ(feeder.detector().finite_seen(), 100u);
    EXPECT_TRUE(feeder.push(10.0));  // the window is intact
}

TEST(SpikeDetector, ConstantSeriesThen5xIsASpike) {
    Feeder feeder(false);
    for (int i = 0; i < 200; ++i) feeder.push(2.0);
    feeder.push(10.0);
    feeder.push(2.0);
    ASSERT_EQ(feeder.steps(), Steps{200});
    const SpikeFinding& f = feeder.found[0];
    EXPECT_NEAR(f.median, 2.0, 1e-6);  // exp of a float log
    EXPECT_NEAR(f.ratio, 5.0, 1e-6);
    EXPECT_TRUE(std::isinf(f.z));  // MAD 0
}

TEST(SpikeDetector, BelowMinRatioIsNotASpike) {
    const double min_ratio = SpikeParams{}.min_ratio;
    Feeder feeder(true);
    for (int i = 0; i < 200; ++i) feeder.push(2.0);
    EXPECT_FALSE(feeder.push(2.0 * min_ratio * 0.98));
    for (int i = 0; i < 20; ++i) feeder.push(2.0);
    EXPECT_TRUE(feeder.push(2.0 * min_ratio * 1.02));
}

TEST(SpikeDetector, SpikesCloseTogetherAreAllFound) {
    // The 95th percentile of the window's 127 steps ignores its 6 largest: a spike is two large
    // steps (up and back down), so one spike does not hide the next 20 steps later, nor do three
    // hide a fourth.
    std::vector<double> v = loss_curve(3000, 16);
    for (int t : {2000, 2020, 2040, 2060}) v[t] *= 10;
    Feeder feeder(true);
    feeder.push_all(v);
    feeder.finish();
    EXPECT_EQ(feeder.steps(), (Steps{2000, 2020, 2040, 2060}));

    std::vector<double> w = loss_curve(3000, 17);
    w[2000] *= 10, w[2020] *= 10;
    Feeder not_loss_like(false);
    not_loss_like.push_all(w);
    not_loss_like.finish();
    EXPECT_EQ(not_loss_like.steps(), (Steps{2000, 2020}));
}

TEST(SpikeDetector, ParamsAreHonoured) {
    SpikeParams p;
    p.warmup = 10;
    p.window = 16;
    p.min_ratio = 2;
    Feeder feeder(true, p);
    for (int i = 0; i < 10; ++i) feeder.push(1.0);
    EXPECT_TRUE(feeder.push(2.5));  // 2.5x >= 2 after 10 values

    SpikeParams no_confirm;
    no_confirm.confirm = 0;  // report at once even when not loss-like
    Feeder at_once(false, no_confirm);
    for (int i = 0; i < 100; ++i) at_once.push(1.0);
    EXPECT_TRUE(at_once.push(10.0));
}

// The ring holds only the values since the latest zero or change of sign: nothing older is
// judged again. A series of zeros (msProbe's `nans`) holds none, one whose sign keeps changing
// holds the first ring, a definite one the window.
TEST(SpikeDetector, TheRingHoldsOnlyTheRunSinceTheLastZeroOrChangeOfSign) {
    SpikeParams p;
    p.window = 64;
    SpikeDetector zeros(p, false);
    std::vector<float> scratch;
    for (int i = 0; i < 200; ++i) zeros.push(i, 0.0, scratch);
    EXPECT_EQ(zeros.heap_bytes(), 0u);

    SpikeDetector mixed(p, false);
    for (int i = 0; i < 500; ++i)
        mixed.push(i, (i / 10) % 2 ? -1.0 - 0.01 * i : 1.0 + 0.01 * i, scratch);
    EXPECT_EQ(mixed.heap_bytes(), SpikeDetector::kFirstRing * sizeof(float));

    SpikeDetector definite(p, false);
    for (int i = 0; i < 100; ++i) definite.push(i, 1.0 + 0.01 * (i % 7), scratch);
    EXPECT_EQ(definite.heap_bytes(), 64 * sizeof(float));
    definite.push(100, 0.0, scratch);
    EXPECT_EQ(definite.heap_bytes(), 0u);
    definite.push(101, -2.0, scratch);
    EXPECT_EQ(definite.heap_bytes(), SpikeDetector::kFirstRing * sizeof(float));
    // A run long enough again is judged again: a spike after 64 values of the new sign.
    std::optional<SpikeFinding> found;
    for (int i = 102; i < 170; ++i) found = definite.push(i, -2.0 - 0.01 * (i % 5), scratch);
    EXPECT_FALSE(found);
    EXPECT_EQ(definite.heap_bytes(), 64 * sizeof(float));
    SpikeDetector again(p, true);
    for (int i = 0; i < 40; ++i) again.push(i, 1.0 + 0.01 * (i % 5), scratch);
    again.push(40, -1.0, scratch);  // one value of the other sign
    for (int i = 41; i < 120; ++i) again.push(i, 1.0 + 0.01 * (i % 5), scratch);
    found = again.push(120, 50.0, scratch);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->step, 120);
}

// ---- against a direct implementation of the rule as spike_detector.h states it ----

// Sort-based: the window kept as a plain list, medians and percentiles by sorting. The arithmetic
// is the detector's own (float magnitudes, logs and steps) so that findings agree exactly.
class ReferenceSpike {
  public:
    ReferenceSpike(const SpikeParams& p, bool loss_like) : p_(p), loss_like_(loss_like) {}

    std::optional<SpikeFinding> push(std::int64_t step, double value) {
        if (!std::isfinite(value)) return std::nullopt;
        std::optional<SpikeFinding> out;
        bool fell_back = false;
        if (pending_) {
            if (std::log(static_cast<float>(std::fabs(value))) < pending_level_) {
                out = pending_;
                fell_back = true;
                pending_.reset();
            } else if (--pending_left_ <= 0) {
                pending_.reset();  // a level shift: its plateau waits 16 values or a fall
                shift_left_ = 16;
                shift_level_ = pending_level_;
            }
        } else if (shift_left_ > 0 &&
                   (--shift_left_ == 0 ||
                    std::log(static_cast<float>(std::fabs(value))) < shift_level_)) {
            shift_left_ = 0;
        }
        if (!pending_ && !fell_back && shift_left_ == 0 &&
            seen_ >= static_cast<std::uint64_t>(p_.warmup)) {
            if (std::optional<SpikeFinding> f = judge(step, value)) {
                if (loss_like_ || p_.confirm == 0) {
                    out = f;
                } else {
                    pending_ = f;
                    pending_level_ = static_cast<float>(
                        (std::log(std::fabs(value)) + std::log(std::fabs(f->median))) / 2);
                    pending_left_ = p_.confirm;
                }
            }
        }
        window_.push_back(value);
        if (window_.size() > static_cast<std::size_t>(p_.window)) window_.erase(window_.begin());
        ++seen_;
        return out;
    }

  private:
    static double median_of(std::vector<float> v) {
        std::sort(v.begin(), v.end());
        const std::size_t n = v.size();
        return n % 2 ? v[n / 2] : (static_cast<double>(v[n / 2]) + v[n / 2 - 1]) / 2;
    }

    std::optional<SpikeFinding> judge(std::int64_t step, double value) const {
        if (window_.size() < 3) return std::nullopt;
        // Sign-definite: the value and every value of the window nonzero and of one sign.
        auto magnitude = [](double v) { return static_cast<float>(std::fabs(v)); };
        if (magnitude(value) == 0) return std::nullopt;
        for (double w : window_) {
            if (magnitude(w) == 0 || (w > 0) != (value > 0)) return std::nullopt;
        }
        std::vector<float> logs;  // oldest first
        for (double w : window_) logs.push_back(std::log(magnitude(w)));
        const std::size_t recent = std::min<std::size_t>(logs.size(), 16);
        const double level = median_of(std::vector<float>(logs.end() - recent, logs.end()));
        const double deviation = std::log(std::fabs(value)) - level;
        if (!(deviation >= std::log(p_.min_ratio))) return std::nullopt;
        std::vector<float> steps;
        for (std::size_t i = 1; i < logs.size(); ++i)
            steps.push_back(std::fabs(logs[i] - logs[i - 1]));
        const double sigma = median_of(steps) / 0.954;
        const double z = sigma > 0 ? deviation / sigma : kInf;
        if (z < p_.k) return std::nullopt;
        std::sort(steps.begin(), steps.end());
        const std::size_t m = steps.size();
        const std::size_t tail_at = std::min(m - 1, static_cast<std::size_t>(0.95 * (m - 1) + 0.5));
        if (deviation < p_.tail_factor * steps[tail_at]) return std::nullopt;
        SpikeFinding f;
        f.step = step;
        f.value = value;
        f.median = value > 0 ? std::exp(level) : -std::exp(level);
        f.ratio = std::fabs(value) / std::exp(level);
        f.z = z;
        return f;
    }

    SpikeParams p_;
    bool loss_like_;
    std::vector<double> window_;
    std::uint64_t seen_ = 0;
    std::optional<SpikeFinding> pending_;
    float pending_level_ = 0;
    int pending_left_ = 0;
    int shift_left_ = 0;
    float shift_level_ = 0;
};

// Random walks in and out of sign-definiteness, with level changes, zeros, NaNs and spikes of
// every size: the O(1) window (minimum deque, sign counts) must decide exactly as sorting does.
TEST(SpikeDetector, AgreesWithASortBasedReference) {
    int total_found = 0;
    for (std::uint32_t seed = 0; seed < 40; ++seed) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> u(0, 1);
        std::normal_distribution<double> noise(0, 1);
        SpikeParams p;
        p.window = seed % 3 == 0 ? 16 : 64;
        p.warmup = seed % 3 == 0 ? 8 : 32;
        const bool loss_like = seed % 2 == 0;
        SpikeDetector detector(p, loss_like);
        ReferenceSpike reference(p, loss_like);
        std::vector<float> scratch;
        double level = 1, sigma = 0.1 + 0.3 * u(rng), sign = 1;
        for (std::int64_t step = 0; step < 4000; ++step) {
            const double r = u(rng);
            if (r < 0.002) level *= std::exp(2 * noise(rng));  // a level shift
            if (r > 0.999) sign = -sign;                       // the series changes sign
            // Every fourth seed changes sign every ~30 values (a gradient's mean): its ring is
            // let go and grown again, run after run.
            if (seed % 4 == 1 && r > 0.967) sign = -sign;
            double x = sign * level * std::exp(sigma * noise(rng));
            const double s = u(rng);
            if (s < 0.01) {
                x *= 3 + 300 * u(rng);  // spikes, big and small
            } else if (s < 0.013) {
                x *= 0.01;  // dips
            } else if (s < 0.014) {
                x = 0;
            } else if (s < 0.016) {
                x = kNaN;
            } else if (s < 0.017) {
                x = -x;  // a single point of the other sign
            }
            const std::optional<SpikeFinding> got = detector.push(step, x, scratch);
            const std::optional<SpikeFinding> want = reference.push(step, x);
            ASSERT_EQ(got.has_value(), want.has_value()) << "seed " << seed << " step " << step;
            if (!got) continue;
            ++total_found;
            EXPECT_EQ(got->step, want->step) << seed;
            EXPECT_EQ(got->value, want->value) << seed;
            EXPECT_DOUBLE_EQ(got->median, want->median) << seed;
            EXPECT_DOUBLE_EQ(got->z, want->z) << seed;
        }
    }
    EXPECT_GT(total_found, 200);  // the comparison saw many findings, not just silence
}

}  // namespace
}  // namespace runtop
