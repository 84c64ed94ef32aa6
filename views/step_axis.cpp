#include "views/step_axis.h"

#include <algorithm>
#include <string>

#include "views/model.h"

namespace runtop::ui {
namespace {

// A round step interval at least `min` steps wide: 1, 2, 5 times a power of ten.
std::int64_t nice_interval(double min) {
    double p = 1;
    while (p * 10 <= min) p *= 10;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= min) return static_cast<std::int64_t>(m * p);
    return static_cast<std::int64_t>(10 * p);
}

}  // namespace

void draw_step_axis(Canvas& canvas, const StepAxis& l, bool ascii) {
    const int y = l.y;
    canvas.text(0, y, "step", {Role::kDim}, l.label_w);
    const std::uint64_t span = static_cast<std::uint64_t>(l.hi - l.lo) + 1;
    auto column_of = [&](std::int64_t step) {
        return static_cast<int>(static_cast<unsigned __int128>(step - l.lo) * l.columns / span);
    };
    const int sel = l.map_x + l.column;
    const std::string last = short_step(l.hi);
    const int last_x = l.map_x + l.columns - display_width(last);
    const int widest = std::max(display_width(short_step(l.lo)), display_width(last));
    const double per_column = static_cast<double>(span) / l.columns;
    const std::int64_t every = nice_interval(per_column * (widest + 3));
    int free_from = l.map_x;  // labels never touch
    auto place = [&](int x, const std::string& text) {
        const int w = display_width(text);
        if (x < free_from || x + w > l.map_x + l.columns) return;
        if (sel >= x - 1 && sel <= x + w) return;  // the selection's mark has the spot
        canvas.text(x, y, text, {Role::kDim});
        free_from = x + w + 2;
    };
    std::int64_t step = l.lo % every == 0 ? l.lo : (l.lo / every + (l.lo > 0)) * every;
    for (; step <= l.hi; step += every) {
        const int x = l.map_x + column_of(step);
        if (step != l.hi && x + widest + 2 > last_x) break;  // the last step's spot
        place(x, short_step(step));
    }
    place(last_x, last);
    canvas.put(sel, y, ascii ? U'^' : U'▲', {Role::kAccent, true});
}

}  // namespace runtop::ui
