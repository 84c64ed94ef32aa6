#include "core/analysis/smoothing.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace runtop {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> smooth(const std::vector<double>& in, double w) {
    std::vector<double> out(in.size());
    classic_smooth(in, w, out);
    return out;
}

// TensorBoard's classicSmoothing transcribed line by line, with no shortcut: the oracle for
// bit-exact comparisons (the weight here is already in [0, 1]).
std::vector<double> tensorboard(const std::vector<double>& ys, double w) {
    bool constant = true;
    for (double y : ys) constant = constant && y == ys.front();
    if (constant) return ys;
    std::vector<double> out;
    double last = 0;
    int num_accum = 0;
    for (double y : ys) {
        if (!std::isfinite(y)) {
            out.push_back(y);
            continue;
        }
        last = last * w + (1 - w) * y;
        ++num_accum;
        const double debias = w == 1 ? 1 : 1 - std::pow(w, num_accum);
        out.push_back(last / debias);
    }
    return out;
}

// Equal as bit patterns, so NaN == NaN and -0 != 0.
void expect_same_bits(const std::vector<double>& got, const std::vector<double>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(std::bit_cast<std::uint64_t>(got[i]), std::bit_cast<std::uint64_t>(want[i]))
            << "at " << i << ": " << got[i] << " vs " << want[i];
    }
}

TEST(ClassicSmooth, HandComputedWeight06) {
    // w = 0.6 on [1, 2, 3]; last starts at 0:
    //   n=1: last = 0.4*1              = 0.4,   debias 1 - 0.6   = 0.4,   0.4 / 0.4     = 1
    //   n=2: last = 0.4*0.6 + 0.4*2    = 1.04,  debias 1 - 0.36  = 0.64,  1.04 / 0.64   = 1.625
    //   n=3: last = 1.04*0.6 + 0.4*3   = 1.824, debias 1 - 0.216 = 0.784, 1.824 / 0.784 = 114/49
    const auto out = smooth({1, 2, 3}, 0.6);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_DOUBLE_EQ(out[0], 1.0);
    EXPECT_DOUBLE_EQ(out[1], 1.625);
    EXPECT_DOUBLE_EQ(out[2], 114.0 / 49.0);
    // TensorBoard's rounding, not the exact quotient: 114/49 rounds one ulp lower.
    EXPECT_EQ(out[2], 2.3265306122448983);
    expect_same_bits(out, tensorboard({1, 2, 3}, 0.6));
}

TEST(ClassicSmooth, TwoPoints) {
    // w = 0.5 on [10, 20]: 5 / 0.5 = 10, then (2.5 + 10) / 0.75 = 16.666...
    const auto out = smooth({10, 20}, 0.5);
    EXPECT_EQ(out[0], 10.0);
    EXPECT_DOUBLE_EQ(out[1], 50.0 / 3.0);
}

TEST(ClassicSmooth, NanInTheMiddlePassesThroughAndDoesNotCount) {
    // The NaN neither moves `last` nor counts in n: the finite points smooth as [1, 2, 3] do.
    const auto out = smooth({1, kNaN, 2, 3}, 0.6);
    EXPECT_EQ(out[0], 1.0);
    EXPECT_TRUE(std::isnan(out[1]));
    EXPECT_EQ(out[2], 1.625);
    EXPECT_EQ(out[3], 2.3265306122448983);
}

TEST(ClassicSmooth, InfinitiesPassThroughWithTheirSign) {
    const auto out = smooth({1, kInf, 2, -kInf, 3}, 0.6);
    EXPECT_EQ(out[0], 1.0);
    EXPECT_EQ(out[1], kInf);
    EXPECT_EQ(out[2], 1.625);
    EXPECT_EQ(out[3], -kInf);
    EXPECT_EQ(out[4], 2.3265306122448983);
}

TEST(ClassicSmooth, LeadingNanThenFirstFinitePoint) {
    const auto out = smooth({kNaN, kNaN, 1, 2}, 0.6);
    EXPECT_TRUE(std::isnan(out[0]));
    EXPECT_TRUE(std::isnan(out[1]));
    EXPECT_EQ(out[2], 1.0);
    EXPECT_EQ(out[3], 1.625);
}

TEST(ClassicSmooth, ConstantSeriesIsReturnedUnsmoothed) {
    // The debiased EMA of a flat 0.1 is not flat in doubles (0.4*0.1 / 0.4 is 0.1 + 1 ulp):
    // the reason for TensorBoard's constant check (#786).
    const std::vector<double> flat(6, 0.1);
    const std::vector<double> ema = tensorboard({0.1, 0.1, 0.1, 0.1, 0.1, 0.2}, 0.6);
    ASSERT_NE(ema[0], 0.1);
    expect_same_bits(smooth(flat, 0.6), flat);
    expect_same_bits(smooth({kInf, kInf}, 0.9), {kInf, kInf});
    // -0 == 0 in TensorBoard's check, so the series is copied, signs included.
    expect_same_bits(smooth({-0.0, 0.0, -0.0}, 0.9), {-0.0, 0.0, -0.0});
    expect_same_bits(smooth({5}, 0.9), {5});
}

TEST(ClassicSmooth, NanMakesAFlatSeriesNonConstantAsInTensorBoard) {
    // TensorBoard compares with `==`, and NaN == 0.1 is false, so this series is smoothed (its
    // first point becomes 0.1 + 1 ulp) rather than copied.
    const std::vector<double> in = {0.1, kNaN, 0.1};
    const auto out = smooth(in, 0.6);
    EXPECT_EQ(out[0], 0.10000000000000002);
    expect_same_bits(out, tensorboard(in, 0.6));
    expect_same_bits(smooth({kNaN, kNaN}, 0.6), {kNaN, kNaN});
}

TEST(ClassicSmooth, WeightZeroIsTheIdentity) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(1e3, 50);
    std::vector<double> in(1000);
    for (double& v : in) v = noise(rng);
    in[10] = kNaN;
    in[20] = -kInf;
    expect_same_bits(smooth(in, 0.0), in);
}

TEST(ClassicSmooth, WeightSanitisedLikeTensorBoard) {
    const std::vector<double> in = {1, 2, 3};
    expect_same_bits(smooth(in, kNaN), in);  // non-finite -> 0
    expect_same_bits(smooth(in, -0.5), in);  // clamped to 0
    // Clamped to 1: last stays 0 and debias is 1, so finite values smooth to 0.
    expect_same_bits(smooth(in, 7), {0, 0, 0});
    expect_same_bits(smooth({1, kNaN}, 1), {0, kNaN});
}

TEST(ClassicSmooth, InPlaceAndEmpty) {
    std::vector<double> v = {1, kNaN, 2, 3};
    classic_smooth(v, 0.6, v);
    expect_same_bits(v, smooth({1, kNaN, 2, 3}, 0.6));
    std::vector<double> none;
    classic_smooth(none, 0.6, none);
    EXPECT_TRUE(none.empty());
}

TEST(ClassicSmooth, MatchesTensorBoardOnLongSeries) {
    // Long enough that 1 - w^n rounds to 1 for every weight: checks the pow shortcut.
    std::mt19937_64 rng(11);
    std::normal_distribution<double> noise(0, 1);
    std::vector<double> in(60000);
    for (std::size_t i = 0; i < in.size(); ++i) {
        in[i] = 1e9 + 1e3 * std::exp(-1e-4 * static_cast<double>(i)) + noise(rng);
        if (i % 997 == 5) in[i] = kNaN;
        if (i % 1999 == 7) in[i] = (i % 2) ? kInf : -kInf;
    }
    for (double w : {0.0, 0.1, 0.5, 0.6, 0.9, 0.99, 0.999, 0.9999}) {
        SCOPED_TRACE(w);
        expect_same_bits(smooth(in, w), tensorboard(in, w));
    }
}

TEST(EmaSmoother, EachPushEqualsTheBatchOverThePrefix) {
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-5, 5);
    std::vector<double> in;
    for (int i = 0; i < 300; ++i) {
        double v = u(rng);
        if (i % 17 == 3) v = kNaN;
        if (i % 41 == 9) v = -kInf;
        in.push_back(v);
    }
    for (double w : {0.0, 0.6, 0.95, 1.0}) {
        SCOPED_TRACE(w);
        EmaSmoother s(w);
        for (std::size_t i = 0; i < in.size(); ++i) {
            const double got = s.push(in[i]);
            const std::vector<double> prefix(in.begin(), in.begin() + i + 1);
            const double want = smooth(prefix, w).back();
            ASSERT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(want))
                << "at " << i;
        }
        EXPECT_EQ(s.pushed(), in.size());
    }
}

TEST(EmaSmoother, ConstantUntilADifferentValueArrives) {
    EmaSmoother s(0.6);
    EXPECT_TRUE(s.constant());
    EXPECT_EQ(s.push(0.1), 0.1);  // the batch copies a flat series
    EXPECT_EQ(s.push(0.1), 0.1);
    EXPECT_TRUE(s.constant());
    // From here the batch smooths the whole series, and the smoother continues from the EMA
    // state it kept all along.
    const double got = s.push(0.2);
    EXPECT_FALSE(s.constant());
    EXPECT_EQ(got, smooth({0.1, 0.1, 0.2}, 0.6).back());
    EXPECT_NE(got, 0.2);
    EXPECT_TRUE(std::isnan(s.push(kNaN)));  // passes through, and is not counted
    EXPECT_EQ(s.finite_pushed(), 3u);
    EXPECT_EQ(s.push(-kInf), -kInf);
    s.reset();
    EXPECT_TRUE(s.constant());
    EXPECT_EQ(s.pushed(), 0u);
    EXPECT_EQ(s.push(1), 1.0);
    EXPECT_EQ(s.push(2), 1.625);
}

TEST(EmaSmoother, NanBreaksConstancyLikeTheBatch) {
    EmaSmoother s(0.6);
    EXPECT_EQ(s.push(0.1), 0.1);
    EXPECT_TRUE(std::isnan(s.push(kNaN)));
    EXPECT_FALSE(s.constant());
    EXPECT_EQ(s.push(0.1), smooth({0.1, kNaN, 0.1}, 0.6).back());
}

}  // namespace
}  // namespace runtop
