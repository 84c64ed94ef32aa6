#include "core/analysis/smoothing.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace runtop {
namespace {

// TensorBoard: `if (!Number.isFinite(w)) w = 0; w = Math.max(0, Math.min(w, 1));`
double sanitize_weight(double w) {
    if (!std::isfinite(w)) return 0;
    return std::max(0.0, std::min(w, 1.0));
}

}  // namespace

// TensorBoard's order of operations, so that the results are the same doubles.
double EmaSmoother::State::step(double w, double y) {
    last = last * w + (1 - w) * y;
    ++n;
    // TensorBoard: `w === 1 ? 1 : 1 - Math.pow(w, n)`. Once 1 - w^n rounds to 1 it stays 1 (w^n
    // only shrinks), so pow is skipped from then on: same result, no pow per point on long series.
    if (!settled) {
        debias = w == 1 ? 1 : 1 - std::pow(w, static_cast<double>(n));
        settled = debias == 1;
    }
    return last / debias;
}

void classic_smooth(std::span<const double> in, double weight, std::span<double> out) {
    assert(out.size() == in.size());
    assert(out.data() == in.data() || out.data() + out.size() <= in.data() ||
           in.data() + in.size() <= out.data());
    // TensorBoard: `series.points.every((point) => point.y == initialYVal)`; NaN != NaN.
    const bool constant =
        std::all_of(in.begin(), in.end(), [&](double y) { return y == in.front(); });
    if (constant) {
        if (out.data() != in.data()) std::copy(in.begin(), in.end(), out.begin());
        return;
    }
    const double w = sanitize_weight(weight);
    EmaSmoother::State ema;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double y = in[i];
        out[i] = std::isfinite(y) ? ema.step(w, y) : y;
    }
}

EmaSmoother::EmaSmoother(double weight) : weight_(sanitize_weight(weight)) {}

double EmaSmoother::push(double y) {
    if (pushed_ == 0) first_ = y;
    constant_ = constant_ && y == first_;
    ++pushed_;
    if (!std::isfinite(y)) return y;
    // The EMA runs while the series is constant too: should it stop being constant, this and
    // every later point are reported from the state the batch form would have reached.
    const double smoothed = ema_.step(weight_, y);
    return constant_ ? y : smoothed;
}

}  // namespace runtop
