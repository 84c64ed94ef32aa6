#include "views/view_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "views/anomaly_view.h"
#include "views/compare/compare_view.h"
#include "views/detail_view.h"
#include "views/heatmap_view.h"
#include "views/modules_view.h"
#include "views/overview_view.h"
#include "views/ranks_view.h"

namespace runtop::ui {
namespace {

Handled changed(bool redraw) {
    return {redraw, {}};
}

// --- overview ---
void overview_take(UiState& s, const TagGroup&, int index, const ViewModel& model, int w, int h) {
    overview_show_tag(s.overview, index, model, w, h);
}

// --- ranks ---
void ranks_take(UiState& s, const TagGroup&, int index, const ViewModel&, int, int) {
    s.ranks.row = index;
}

// --- heatmap ---
void heatmap_take(UiState& s, const TagGroup& group, int, const ViewModel&, int, int) {
    s.heatmap.tag = group.tag;
}

// --- detail ---
Handled detail_keys(UiState& s, Action action, const ViewModel& model, int w, int h) {
    if (action == Action::kBack) {
        s.view = s.detail_from;
        return changed(true);
    }
    return changed(detail_handle(s.detail, action, model, w, h));
}

// --- compare: its own keys say what they did ---
std::string compare_note(const CompareState& c, Action action, const ViewModel& model) {
    switch (action) {
        case Action::kCycleRunA:
        case Action::kCycleRunB: {
            const auto [a, b] = compare_runs_of(c, model);
            return "comparing A " + a + " with B " + b;
        }
        case Action::kCycleCompareSort:
            return "sorted by " + std::string(compare_sort_name(c.sort, model.ascii()));
        case Action::kToggleCompareAlign:
            return c.options.align == CompareAlign::kStep
                       ? "aligned by step"
                       : "aligned by wall time since each run's start";
        case Action::kToggleCompareMean:
            return c.options.ranks == CompareRanks::kPerRank
                       ? "rank N of A against rank N of B"
                       : "the mean over ranks of A against that of B";
        default:
            return {};
    }
}

bool compare_own(Action action) {
    return action == Action::kCycleRunA || action == Action::kCycleRunB ||
           action == Action::kCycleCompareSort || action == Action::kToggleCompareAlign ||
           action == Action::kToggleCompareMean || action == Action::kToggleConfigDiff;
}

Handled compare_keys(UiState& s, Action action, const ViewModel& model, int w, int h) {
    const bool done = compare_handle(s.compare, action, model, w, h);
    if (!compare_own(action)) return changed(done);
    if (!done) {
        if (action == Action::kCycleRunA || action == Action::kCycleRunB)
            return {true,
                    fmt::format("no other run to take ({} runs read)", model.run_names().size())};
        return changed(true);
    }
    return {true, compare_note(s.compare, action, model)};
}

void compare_take(UiState& s, const TagGroup& group, int, const ViewModel& model, int w, int h) {
    compare_select_tag(s.compare, model, group.tag);
    s.compare.scroll = compare_layout(s.compare, model, w, h).first;
}

// --- modules ---
// The tag the user chose (switch_view calls this before the view changes, so s.view is the one
// left): an overview where no card was picked names its first card, which is no choice, and
// the family stays grad_unreduced norm.
void modules_take(UiState& s, const TagGroup& group, int, const ViewModel& model, int, int) {
    if (s.view == ViewId::kOverview && s.overview.selected < 0) return;
    modules_take_tag(s.modules, group.tag, model);
}

Handled modules_keys(UiState& s, Action a, const ViewModel& m, int w, int h) {
    switch (a) {
        case Action::kToggleLogY:
            return {true, modules_toggle_log(s.modules, m, w, h)};
        case Action::kCycleModuleTask:
            return {true, modules_cycle_task(s.modules, m)};
        case Action::kCycleModuleOp:
            return {true, modules_cycle_op(s.modules, m)};
        case Action::kCycleModuleAggregation:
            return {true, modules_cycle_aggregation(s.modules, m)};
        case Action::kToggleModuleColour:
            return {true, modules_toggle_colour(s.modules)};
        case Action::kGoToEarliest:
            return {true, modules_go_to_earliest(s.modules, m, w, h)};
        case Action::kNextMark:
        case Action::kPreviousMark:
            return {true, modules_next_mark(s.modules, a == Action::kNextMark ? 1 : -1, m, w, h)};
        default:
            return changed(modules_handle(s.modules, a, m, w, h));
    }
}

// The rows, in the order `snapshot --view` lists them. Each adapter hands the view its own state.
const std::array<ViewRow, 7>& rows() {
    static const std::array<ViewRow, 7> kRows = {{
        {ViewId::kOverview,
         "overview",
         Action::kViewOverview,
         Scope::kOverview,
         [](Canvas& c, const ViewModel& m, const UiState& s) { draw_overview(c, m, s.overview); },
         [](UiState& s, Action a, const ViewModel& m, int w, int h) {
             return changed(overview_handle(s.overview, a, m, w, h));
         },
         [](UiState& s, const InputEvent& e, const ViewModel& m, int w, int h) {
             return overview_mouse(s.overview, e, m, w, h);
         },
         [](const UiState& s, const ViewModel& m, int w, int h) {
             return overview_selected(s.overview, m, w, h);
         },
         TakesTag::kFromOthers,
         overview_take,
         {},
         false,
         nullptr,
         [](UiState& s, const ViewModel& m, int w, int h) {
             return overview_enter(s.overview, m, w, h);
         }},
        {ViewId::kRanks,
         "ranks",
         Action::kViewRanks,
         Scope::kRanks,
         [](Canvas& c, const ViewModel& m, const UiState& s) { draw_ranks(c, m, s.ranks); },
         [](UiState& s, Action a, const ViewModel& m, int w, int h) {
             if (a == Action::kToggleLogY) return Handled{true, ranks_toggle_log(s.ranks, m, w, h)};
             if (a == Action::kToggleRankBins || a == Action::kToggleOutliersFirst) {
                 ranks_handle(s.ranks, a, m, w, h);
                 return Handled{true, ranks_rows_note(s.ranks, m, w, h)};
             }
             if (a == Action::kCycleRankCells) {
                 ranks_handle(s.ranks, a, m, w, h);
                 return Handled{true, "cells: " + std::string(rank_cells_caption(s.ranks.cells))};
             }
             return changed(ranks_handle(s.ranks, a, m, w, h));
         },
         [](UiState& s, const InputEvent& e, const ViewModel& m, int w, int h) {
             return ranks_mouse(s.ranks, e, m, w, h);
         },
         [](const UiState& s, const ViewModel& m, int w, int h) {
             return ranks_selected(s.ranks, m, w, h);
         },
         TakesTag::kAlways,
         ranks_take,
         {Action::kToggleLogY}},
        {ViewId::kHeatmap,
         "heatmap",
         Action::kViewHeatmap,
         Scope::kHeatmap,
         [](Canvas& c, const ViewModel& m, const UiState& s) { draw_heatmap(c, m, s.heatmap); },
         [](UiState& s, Action a, const ViewModel& m, int w, int h) {
             if (a == Action::kToggleLogY)
                 return Handled{true, heatmap_toggle_log(s.heatmap, m, w, h)};
             if (a == Action::kToggleRankBins || a == Action::kToggleOutliersFirst) {
                 heatmap_handle(s.heatmap, a, m, w, h);
                 return Handled{true, heatmap_rows_note(s.heatmap, m, w, h)};
             }
             if (a == Action::kNextMark || a == Action::kPreviousMark)
                 return Handled{
                     true, heatmap_next_mark(s.heatmap, a == Action::kNextMark ? 1 : -1, m, w, h)};
             return changed(heatmap_handle(s.heatmap, a, m, w, h));
         },
         [](UiState& s, const InputEvent& e, const ViewModel& m, int w, int h) {
             return heatmap_mouse(s.heatmap, e, m, w, h);
         },
         [](const UiState& s, const ViewModel& m, int w, int h) {
             return heatmap_selected(s.heatmap, m, w, h);
         },
         TakesTag::kAlways,
         heatmap_take,
         {Action::kToggleLogY},
         false,
         [](UiState& s, std::int64_t step, const ViewModel& m, int w, int h) {
             return heatmap_go_to_step(s.heatmap, step, m, w, h);
         }},
        {ViewId::kAnomalies,
         "anomalies",
         Action::kViewAnomalies,
         Scope::kAnomalies,
         [](Canvas& c, const ViewModel& m, const UiState& s) { draw_anomalies(c, m, s.anomalies); },
         [](UiState& s, Action a, const ViewModel& m, int w, int h) {
             return changed(anomalies_handle(s.anomalies, a, m, w, h));
         },
         [](UiState& s, const InputEvent& e, const ViewModel& m, int w, int h) {
             return anomalies_mouse(s.anomalies, e, m, w, h);
         },
         [](const UiState& s, const ViewModel& m, int w, int h) {
             return anomalies_selected(s.anomalies, m, w, h);
         },
         TakesTag::kNever,
         nullptr,
         {},
         true,
         nullptr,
         // Enter unfolds a folded incident; on any other row it opens the chart.
         [](UiState& s, const ViewModel& m, int, int) { return anomalies_unfold(s.anomalies, m); }},
        {ViewId::kCompare, "compare", Action::kViewCompare, Scope::kCompare,
         [](Canvas& c, const ViewModel& m, const UiState& s) { draw_compare(c, m, s.compare); },
         compare_keys,
         [](UiState& s, const InputEvent& e, const ViewModel& m, int w, int h) {
             return compare_mouse(s.compare, e, m, w, h);
         },
         [](const UiState& s, const ViewModel& m, int w, int h) {
             return compare_selected(s.compare, m, w, h);
         },
         TakesTag::kWhenShown, compare_take},
        {ViewId::kModules,
         "modules",
         Action::kViewModules,
         Scope::kModules,
         [](Canvas& c, const ViewModel& m, const UiState& s) { draw_modules(c, m, s.modules); },
         modules_keys,
         [](UiState& s, const InputEvent& e, const ViewModel& m, int w, int h) {
             return modules_mouse(s.modules, e, m, w, h);
         },
         [](const UiState& s, const ViewModel& m, int w, int h) {
             return modules_selected(s.modules, m, w, h);
         },
         TakesTag::kFromOthers,
         modules_take,
         {Action::kToggleLogY},
         false,
         [](UiState& s, std::int64_t step, const ViewModel& m, int w, int h) {
             return modules_go_to_step(s.modules, step, m, w, h);
         }},
        {ViewId::kDetail,
         "detail",
         std::nullopt,
         Scope::kDetail,
         [](Canvas& c, const ViewModel& m, const UiState& s) { draw_detail(c, m, s.detail); },
         detail_keys,
         [](UiState& s, const InputEvent& e, const ViewModel& m, int w, int h) {
             return detail_mouse(s.detail, e, m, w, h);
         },
         [](const UiState& s, const ViewModel& m, int w, int h) {
             return detail_selected(s.detail, m, w, h);
         },
         TakesTag::kNever,
         nullptr,
         {Action::kBack, Action::kToggleLogY},
         true,
         [](UiState& s, std::int64_t step, const ViewModel& m, int w, int h) {
             return detail_go_to_step(s.detail, step, m, w, h);
         }},
    }};
    return kRows;
}

}  // namespace

std::span<const ViewRow> view_rows() {
    return rows();
}

const ViewRow& view_row(ViewId id) {
    for (const ViewRow& row : rows())
        if (row.id == id) return row;
    return rows().front();  // not reached: every ViewId has a row
}

}  // namespace runtop::ui
