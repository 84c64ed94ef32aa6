// Placeholder until the ranks view lands (being written now).
#include "views/ranks_view.h"

#include "views/view_common.h"

namespace runtop::ui {

void draw_ranks(Canvas& canvas, const ViewModel& model, const RanksState&) {
    canvas.clear();
    draw_status(canvas, model, "ranks");
}
bool ranks_handle(RanksState&, Action, const ViewModel&, int, int) { return false; }
bool ranks_click(RanksState&, int, int, const ViewModel&, int, int) { return false; }
RanksSelection ranks_selection(const RanksState&, const ViewModel& model, int, int) {
    RanksSelection s;
    if (!model.groups().empty()) s.group = &model.groups()[0];
    return s;
}

}  // namespace runtop::ui
