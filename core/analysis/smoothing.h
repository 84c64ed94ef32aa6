// TensorBoard's "classic" smoothing: a debiased exponential moving average, matched operation by
// operation so a runtop curve and a TensorBoard curve at the same weight are the same numbers.
#pragma once

#include <cstddef>
#include <span>

namespace runtop {

// Smooths `in` into `out` (same size; `out` may be `in` itself, not a partial overlap).
// Matches `classicSmoothing` in tensorflow/tensorboard
// tensorboard/webapp/widgets/line_chart_v2/data_transformer.ts:
//  - the weight is sanitised as TensorBoard does: non-finite -> 0, then clamped to [0, 1]
//    (w = 0 is the identity; w = 1 is accepted like TensorBoard, and smooths every finite value
//    of a non-constant series to 0);
//  - a series whose every value `==` the first is copied unchanged (TensorBoard #786: a flat
//    curve must not show debiasing round-off). `==` as in JavaScript: any NaN makes the series
//    non-constant, +Inf == +Inf, -0 == 0;
//  - otherwise `last = last * w + (1 - w) * y` from last = 0 over finite y only, reported as
//    `last / (1 - w^n)` with n the finite points so far; NaN and +-Inf are copied unchanged and
//    leave `last` and n alone.
void classic_smooth(std::span<const double> in, double weight, std::span<double> out);

// The same smoothing fed one point at a time. `push(y)` returns exactly what `classic_smooth`
// over every value pushed so far returns for its last element, bit for bit. Batch results for
// *earlier* points change once, when a series that was constant receives a different value
// (they turn from raw to smoothed); `constant()` lets a caller that caches them notice.
class EmaSmoother {
  public:
    explicit EmaSmoother(double weight);

    double push(double y);

    double weight() const { return weight_; }
    // Every value pushed so far `==` the first (true before any push).
    bool constant() const { return constant_; }
    std::size_t pushed() const { return pushed_; }
    std::size_t finite_pushed() const { return ema_.n; }
    void reset() { *this = EmaSmoother(weight_); }

    // The running state of the debiased EMA; `classic_smooth` uses it too, which is what makes
    // the two agree bit for bit.
    struct State {
        double last = 0;       // the biased EMA, TensorBoard's `last`
        std::size_t n = 0;     // finite points so far, TensorBoard's `numAccum`
        double debias = 0;     // 1 - w^n, TensorBoard's `debiasWeight`
        bool settled = false;  // w^n is too small to change 1 - w^n any more
        // Takes one finite `y`, returns its smoothed value.
        double step(double w, double y);
    };

  private:
    double weight_;
    State ema_;
    double first_ = 0;
    bool constant_ = true;
    std::size_t pushed_ = 0;
};

}  // namespace runtop
