// The one action table (DESIGN.md §5): every key the dashboard answers, what it does and where.
// The event loop dispatches from it, the `?` help screen is drawn from it, and docs/keys.md is
// generated from it (a test keeps the file in step), so keys, help and docs cannot drift apart.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace runtop::ui {

enum class Action {
    kViewOverview,
    kViewRanks,
    kViewHeatmap,
    kViewAnomalies,
    kViewCompare,
    kViewModules,
    kOpenDetail,
    kBack,
    kFilterTags,
    kFilterRanks,
    kFilterRuns,
    kCycleSmoothing,
    kToggleLogY,
    kToggleFollow,
    kUp,
    kDown,
    kLeft,
    kRight,
    kPageUp,
    kPageDown,
    kFirst,
    kLast,
    kAcknowledge,
    kNextAnomaly,
    kPreviousAnomaly,
    kGoToStep,
    kNextMark,
    kPreviousMark,
    kToggleRankBins,
    kTreeUp,
    kToggleTagTree,
    kToggleOutliersFirst,
    kZoomIn,
    kZoomOut,
    kResetZoom,
    kPanLeft,
    kPanRight,
    kCycleXAxis,
    kToggleClipOutliers,
    kNextSeries,
    kPreviousSeries,
    kToggleRankSparklines,
    kCycleRankCells,
    kCycleRunA,
    kCycleRunB,
    kCycleCompareSort,
    kToggleCompareAlign,
    kToggleCompareMean,
    kToggleConfigDiff,
    kCycleModuleTask,
    kCycleModuleOp,
    kCycleModuleAggregation,
    kToggleModuleColour,
    kGoToEarliest,
    kRedraw,
    kHelp,
    kQuit,
};

// Where an action applies: everywhere, or in one view.
enum class Scope { kGlobal, kOverview, kRanks, kHeatmap, kAnomalies, kDetail, kCompare, kModules };

struct Binding {
    Action action;
    std::vector<std::string_view> keys;  // as drawn in help: "1", "Enter", "Ctrl-L", "Up", "k"
    std::string_view help;
    Scope scope;
    std::string_view group;  // the help screen's section
};

// Every binding, in help order.
std::span<const Binding> bindings();

// The action a key name triggers in `scope` (global bindings apply everywhere; a view's own
// binding wins over a global one with the same key). Key names as in Binding::keys.
const Binding* binding_for_key(std::string_view key, Scope scope);

// Where a scope applies, as help and docs say it: "everywhere", "overview", "detail chart"...
std::string_view scope_name(Scope scope);

// docs/keys.md: generated, never edited by hand.
std::string keys_markdown();

}  // namespace runtop::ui
