// The one shape every view exports, which the view table (views/view_table.h) puts in a row:
//
//   void draw_<view>(Canvas&, const ViewModel&, const <View>State&);
//   bool <view>_handle(<View>State&, Action, const ViewModel&, int width, int height);
//   Pointer <view>_mouse(<View>State&, const InputEvent&, const ViewModel&, int width, int height);
//   ViewSelection <view>_selected(const <View>State&, const ViewModel&, int width, int height);
//
// handle answers the view's own keys (true: the state changed); mouse a click or the wheel;
// selected says what the view has selected, for the view switched to and for Enter. The sizes
// are the canvas's: views lay out pages and hit-test with them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "views/detail_state.h"
#include "views/input.h"
#include "views/model.h"

namespace runtop::ui {

// What a click or the wheel did.
enum class Pointer {
    kNothing,
    kChanged,  // the view's state changed: redraw
    kOpen,     // a click on the selection: open it, as Enter does
};

// What Enter opens in the detail chart.
struct ChartTarget {
    std::string tag;
    std::optional<RunRank> focus;          // the series in front
    std::optional<std::int64_t> step;      // the cursor's step, the window centred on it
    std::optional<CompareDetail> compare;  // set: the chart's compare mode
};

// What a view has selected.
struct ViewSelection {
    const TagGroup* group = nullptr;   // the tag it shows: the view switched to takes it
    std::optional<ChartTarget> chart;  // what Enter opens (nullopt: nothing)
    std::string no_chart;              // a selection with no chart: why (said on Enter)
};

// The (run, rank) of a series, nullopt for kNoSeries.
inline std::optional<RunRank> focus_of(const ViewModel& model, SeriesId id) {
    if (id == kNoSeries) return std::nullopt;
    return model.run_rank(id);
}

}  // namespace runtop::ui
