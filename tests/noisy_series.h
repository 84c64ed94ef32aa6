// A healthy series for the spike rule's tests: multiplicative noise (5%) around `level`, with
// the value at step `at` (if any) `factor` times what it would be.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace runtop {

inline std::vector<double> noisy(int n, double level, std::uint32_t seed, int at = -1,
                                 double factor = 1) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, 0.05);
    std::vector<double> v(n);
    for (int t = 0; t < n; ++t) v[t] = level * std::exp(noise(rng)) * (t == at ? factor : 1);
    return v;
}

}  // namespace runtop
