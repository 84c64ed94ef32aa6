// Placeholder until the heatmap view lands (being written now).
#include "views/heatmap_view.h"

#include "views/view_common.h"

namespace runtop::ui {

void draw_heatmap(Canvas& canvas, const ViewModel& model, const HeatmapState&) {
    canvas.clear();
    draw_status(canvas, model, "heatmap");
}
bool heatmap_handle(HeatmapState&, Action, const ViewModel&, int, int) { return false; }
bool heatmap_click(HeatmapState&, int, int, const ViewModel&, int, int) { return false; }
HeatmapSelection heatmap_selection(const HeatmapState&, const ViewModel& model, int, int) {
    HeatmapSelection s;
    if (!model.groups().empty()) s.group = &model.groups()[0];
    return s;
}

}  // namespace runtop::ui
