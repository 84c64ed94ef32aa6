// The compare chart's face: what the detail chart and the compare view call. Its data is
// compare_chart_data.cpp, its drawing compare_frame.cpp.
#include "views/compare/compare_chart.h"

#include "views/compare/compare_frame.h"
#include "views/view_common.h"

namespace runtop::ui {

namespace {
constexpr std::int64_t kOpenSpan = 1000;
}  // namespace

CompareReadout compare_readout(const ViewModel& model, const DetailState& state, int width,
                               int height) {
    if (!state.compare || width < kMinWidth || height < kMinHeight) return {};
    return build_compare_chart(model, state, width, height, CompareBuild::kFull).readout;
}

CompareDelta compare_delta(const ViewModel& model, const DetailState& state, int width,
                           int height) {
    if (!state.compare || width < kMinWidth || height < kMinHeight) return {};
    CompareChart ch = build_compare_chart(model, state, width, height, CompareBuild::kFull);
    CompareDelta out;
    out.columns = std::move(ch.delta);
    if (ch.divergence) {
        out.divergence = ch.divergence->a.step;
        out.divergence_x = ch.divergence_x;
    }
    return out;
}

DetailGeometry compare_geometry(const ViewModel& model, const DetailState& state, int width,
                                int height) {
    if (!state.compare || width < kMinWidth || height < kMinHeight) return {};
    return build_compare_chart(model, state, width, height, CompareBuild::kGeometry).g;
}

void compare_swap_front(DetailState& state) {
    if (!state.compare) return;
    const bool a = compare_front_is_a(state);
    state.focus = RunRank{a ? state.compare->run_b : state.compare->run_a, state.compare->rank};
}

void compare_open_window(DetailState& state, const ViewModel& model,
                         std::optional<std::int64_t> step) {
    state.window_lo.reset();
    state.window_hi.reset();
    state.cursor.reset();
    if (!state.compare || !step) return;
    const CompareSides sides = compare_sides(model, state.tag, *state.compare);
    std::optional<SidePoint> at = side_point_at_or_before(sides.a, *step);
    const CompareSide* side = &sides.a;
    if (!at) {
        at = side_point_at_or_before(sides.b, *step);
        side = &sides.b;
    }
    std::optional<std::pair<std::int64_t, std::int64_t>> range;
    for (const CompareSide* s : {&sides.a, &sides.b})
        if (auto r = side_x_range(*s, state.x_axis))
            range = range ? std::pair(std::min(range->first, r->first),
                                      std::max(range->second, r->second))
                          : *r;
    if (!range) return;
    const auto [lo, hi] = *range;
    const std::int64_t x =
        at ? compare_x(state.x_axis, at->step, at->wall, side->origin) : std::clamp(*step, lo, hi);
    state.cursor = std::clamp(x, lo, hi);
    // Centred on the step: the whole run when it is short, else a quarter of it.
    const std::int64_t full = hi - lo + 1;
    if (full <= kOpenSpan) return;
    const std::int64_t span = std::max(kOpenSpan, full / 4);
    std::int64_t a = *state.cursor - span / 2;
    a = std::clamp(a, lo, hi - span + 1);
    state.window_lo = a;
    state.window_hi = a + span - 1;
}

void compare_convert_x(DetailState& state, const ViewModel& model, XAxis before) {
    if (!state.compare || before == state.x_axis) return;
    const CompareSides sides = compare_sides(model, state.tag, *state.compare);
    const CompareSide& front = compare_front_is_a(state) ? sides.a : sides.b;
    auto convert = [&](std::optional<std::int64_t>& x) {
        if (!x) return;
        const std::optional<SidePoint> p = side_point_nearest(front, before, *x);
        if (p)
            x = compare_x(state.x_axis, p->step, p->wall, front.origin);
        else
            x.reset();
    };
    convert(state.cursor);
    convert(state.window_lo);
    convert(state.window_hi);
    // A window needs both ends (and some width); else the whole run.
    if (!state.window_lo || !state.window_hi || *state.window_hi <= *state.window_lo) {
        state.window_lo.reset();
        state.window_hi.reset();
    }
}

void draw_compare_detail(Canvas& canvas, const ViewModel& model, const DetailState& state) {
    const CompareChart ch =
        build_compare_chart(model, state, canvas.width(), canvas.height(), CompareBuild::kFull);
    draw_compare_frame(canvas, model, state, ch);
}

void open_compare_detail(DetailState& state, const ViewModel& model, std::string tag,
                         CompareDetail compare, std::optional<std::int64_t> step) {
    state.tag = std::move(tag);
    state.focus.reset();  // B in front
    // Runs paired by time line up on the relative-time axis; paired by step, on the step axis.
    state.x_axis = compare.align == CompareAlign::kRelativeWall ? XAxis::kRelative : XAxis::kStep;
    state.compare = std::move(compare);
    compare_open_window(state, model, step);
}

}  // namespace runtop::ui
