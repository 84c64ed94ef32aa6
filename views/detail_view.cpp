// Placeholder until the detail chart lands (being written now).
#include "views/detail_view.h"

#include "views/view_common.h"

namespace runtop::ui {

void open_detail(DetailState& state, const ViewModel&, std::string tag,
                 std::optional<RunRank> focus, std::optional<std::int64_t> step) {
    state.tag = std::move(tag);
    state.focus = std::move(focus);
    state.cursor = step;
}
void draw_detail(Canvas& canvas, const ViewModel& model, const DetailState& state) {
    canvas.clear();
    canvas.text(0, 0, state.tag);
    draw_status(canvas, model, "detail");
}
bool detail_handle(DetailState&, Action, const ViewModel&, int, int) { return false; }
bool detail_mouse(DetailState&, int, int, MouseButton, const ViewModel&, int, int) {
    return false;
}

}  // namespace runtop::ui
