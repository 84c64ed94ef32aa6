// The bound of a relative difference (core/compare/run_compare.h: at most 2, for values of
// opposite sign, even where b - a overflows), and the tolerances at or above it that
// parse_tolerance refuses, since they could only report NaN and infinities.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "app/compare_options.h"
#include "core/compare/run_compare.h"

namespace runtop {
namespace {

TEST(RelativeDifferenceBound, TwoForOppositeSignsAndNeverMoreForNumbers) {
    constexpr double kMax = std::numeric_limits<double>::max();
    constexpr double kMin = std::numeric_limits<double>::denorm_min();
    EXPECT_EQ(relative_difference(1, -1), kMaxRelativeDifference);
    EXPECT_EQ(relative_difference(1, 0), 1);
    EXPECT_EQ(relative_difference(kMin, -kMin), kMaxRelativeDifference);
    // b - a overflows here; the quotient does not.
    EXPECT_EQ(relative_difference(kMax, -kMax), kMaxRelativeDifference);
    EXPECT_DOUBLE_EQ(relative_difference(kMax, -kMax / 2), 1.5);
    std::mt19937_64 rng(19);
    std::uniform_real_distribution<double> exponent(-300, 300), sign(-1, 1);
    double largest = 0;
    for (int i = 0; i < 100000; ++i) {
        const double a = std::copysign(std::pow(10, exponent(rng)), sign(rng));
        const double b = std::copysign(std::pow(10, exponent(rng)), sign(rng));
        largest = std::max(largest, relative_difference(a, b));
        ASSERT_LE(relative_difference(a, b), kMaxRelativeDifference) << a << " " << b;
    }
    EXPECT_GT(largest, 1.9);  // the samples did reach opposite signs of near magnitude
    // At the bound only NaN and infinities diverge.
    EXPECT_FALSE(values_diverge(kMax, -kMax, kMaxRelativeDifference));
    EXPECT_TRUE(values_diverge(1, std::numeric_limits<double>::quiet_NaN(), 2));
}

TEST(ToleranceBound, AToleranceThatCanNeverFireIsRefusedWithItsReason) {
    for (const char* text : {"2", "2.0", "3", "1e9"}) {
        const Result<double> t = parse_tolerance(text);
        ASSERT_FALSE(t) << text;
        EXPECT_EQ(t.error().message,
                  "--tolerance " + std::string(text) +
                      " can never fire: a relative difference |b - a| / max(|a|, |b|) is at most "
                      "2 (values of opposite sign), so only NaN/Inf would be reported");
    }
    // Below the bound a tolerance still catches a sign flip.
    for (const char* text : {"1.999", "1", "0.05", "0"}) {
        const Result<double> t = parse_tolerance(text);
        ASSERT_TRUE(t) << text;
        EXPECT_LT(*t, kMaxRelativeDifference);
    }
    EXPECT_TRUE(values_diverge(1, -0.999, *parse_tolerance("1.99")));
}

}  // namespace
}  // namespace runtop
