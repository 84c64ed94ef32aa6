#include "views/actions.h"

#include <algorithm>

namespace runtop::ui {

std::span<const Binding> bindings() {
    static const std::vector<Binding> table = {
        {Action::kViewOverview, {"1"}, "overview: a card per tag", Scope::kGlobal, "Views"},
        {Action::kViewRanks,
         {"2"},
         "ranks: tags x ranks, off-median cells coloured",
         Scope::kGlobal,
         "Views"},
        {Action::kViewHeatmap,
         {"3"},
         "heatmap: rank x step of the selected tag",
         Scope::kGlobal,
         "Views"},
        {Action::kViewAnomalies, {"4"}, "anomalies, first failure first", Scope::kGlobal, "Views"},
        {Action::kViewCompare,
         {"5"},
         "compare two runs: delta, first divergence, config diff",
         Scope::kGlobal,
         "Views"},
        {Action::kViewModules,
         {"6"},
         "modules: module x step heatmap of a family (msProbe, layers.N)",
         Scope::kGlobal,
         "Views"},
        {Action::kOpenDetail,
         {"Enter"},
         "detail chart of the selection (an anomaly: at its step)",
         Scope::kGlobal,
         "Views"},
        {Action::kBack, {"Esc"}, "back", Scope::kGlobal, "Views"},
        {Action::kToggleRankSparklines,
         {"v"},
         "table, or one sparkline per rank of the selected tag",
         Scope::kRanks,
         "Views"},
        {Action::kCycleRankCells,
         {"c"},
         "cells: newest value, worst distance from the median, anomalies (every step)",
         Scope::kRanks,
         "Views"},
        {Action::kTreeUp,
         {"Backspace"},
         "up one level of the tag tree (Enter on a group card opens it)",
         Scope::kOverview,
         "Views"},
        {Action::kToggleTagTree,
         {"t"},
         "the tag tree beside the cards: groups, counts, alert marks",
         Scope::kOverview,
         "Views"},
        {Action::kToggleRankBins,
         {"b"},
         "many ranks: bins of neighbours (outliers apart), or a row per rank",
         Scope::kHeatmap,
         "Views"},
        {Action::kToggleOutliersFirst,
         {"o"},
         "outlier ranks on top, worst first, or rank order",
         Scope::kHeatmap,
         "Views"},
        {Action::kToggleRankBins,
         {"b"},
         "sparklines of many ranks: bins of neighbours, or a row per rank",
         Scope::kRanks,
         "Views"},
        {Action::kToggleOutliersFirst,
         {"o"},
         "sparklines: outlier ranks on top, worst first, or rank order",
         Scope::kRanks,
         "Views"},
        {Action::kCycleModuleTask,
         {"t"},
         "task: the next family task (grad_unreduced, actv, ...)",
         Scope::kModules,
         "Modules"},
        {Action::kCycleModuleOp,
         {"o"},
         "op: the task's next op (norm, max, ...)",
         Scope::kModules,
         "Modules"},
        {Action::kCycleModuleAggregation,
         {"a"},
         "cells: max over ranks, one rank (Tab picks it), spread max/min across ranks",
         Scope::kModules,
         "Modules"},
        {Action::kToggleModuleColour,
         {"c"},
         "colours: the page's ramp, or distance from the row's own median",
         Scope::kModules,
         "Modules"},
        {Action::kGoToEarliest,
         {"e"},
         "go to the earliest anomalous cell (alerts before warnings)",
         Scope::kModules,
         "Modules"},
        {Action::kZoomOut,
         {"-"},
         "more layers a row (a module, 1, 2, 4 ... layers)",
         Scope::kModules,
         "Modules"},
        {Action::kZoomIn, {"+", "="}, "fewer layers a row", Scope::kModules, "Modules"},
        {Action::kResetZoom, {"0"}, "a module a row", Scope::kModules, "Modules"},
        {Action::kNextSeries, {"Tab"}, "cells: the next rank", Scope::kModules, "Modules"},
        {Action::kPreviousSeries,
         {"BackTab"},
         "cells: the previous rank",
         Scope::kModules,
         "Modules"},
        {Action::kCycleRunA, {"["}, "run A: the next run (not B)", Scope::kCompare, "Compare"},
        {Action::kCycleRunB, {"]"}, "run B: the next run (not A)", Scope::kCompare, "Compare"},
        {Action::kCycleCompareSort,
         {"o"},
         "sort: divergence (earliest first), size of delta (relative), name",
         Scope::kCompare,
         "Compare"},
        {Action::kToggleCompareAlign,
         {"a"},
         "align by step, or by wall time since each run's start",
         Scope::kCompare,
         "Compare"},
        {Action::kToggleCompareMean,
         {"m"},
         "pair rank N with rank N, or compare the means over ranks",
         Scope::kCompare,
         "Compare"},
        {Action::kToggleConfigDiff,
         {"c"},
         "configuration diff: keys added, removed, changed",
         Scope::kCompare,
         "Compare"},
        {Action::kFilterTags,
         {"/"},
         "tag filter (RE2, live preview; Enter applies, empty clears)",
         Scope::kGlobal,
         "Filters"},
        {Action::kFilterRanks,
         {"r"},
         "rank filter: 0-7, 0,2,5, !3, or nodes: n3, !n2",
         Scope::kGlobal,
         "Filters"},
        {Action::kFilterRuns,
         {"R"},
         "run filter: globs on the run's path, csv_monitor/*, !*tmp*",
         Scope::kGlobal,
         "Filters"},
        {Action::kCycleSmoothing,
         {"s"},
         "cycle smoothing (TensorBoard's debiased EMA)",
         Scope::kGlobal,
         "Charts"},
        {Action::kToggleLogY,
         {"l"},
         "log or linear y (detail chart, rank sparklines, heatmap and modules colours)",
         Scope::kGlobal,
         "Charts"},
        {Action::kZoomIn, {"+", "="}, "zoom in", Scope::kDetail, "Charts"},
        {Action::kZoomOut, {"-"}, "zoom out", Scope::kDetail, "Charts"},
        {Action::kResetZoom, {"0"}, "show every step again", Scope::kDetail, "Charts"},
        {Action::kPanLeft, {"[", "Shift-Left"}, "pan left", Scope::kDetail, "Charts"},
        {Action::kPanRight, {"]", "Shift-Right"}, "pan right", Scope::kDetail, "Charts"},
        {Action::kCycleXAxis,
         {"x"},
         "x axis: step, relative time, wall time",
         Scope::kDetail,
         "Charts"},
        {Action::kToggleClipOutliers,
         {"o"},
         "y range without outliers (clipped points marked at the edge)",
         Scope::kDetail,
         "Charts"},
        {Action::kNextSeries, {"Tab"}, "next rank/run in front", Scope::kDetail, "Charts"},
        {Action::kPreviousSeries,
         {"BackTab"},
         "previous rank/run in front",
         Scope::kDetail,
         "Charts"},
        {Action::kToggleFollow, {"f"}, "follow / pause the live tail", Scope::kGlobal, "Live"},
        {Action::kUp, {"Up", "k"}, "move up", Scope::kGlobal, "Move"},
        {Action::kDown, {"Down", "j"}, "move down", Scope::kGlobal, "Move"},
        {Action::kLeft,
         {"Left", "h"},
         "move left (detail chart: the cursor, panning at the edge)",
         Scope::kGlobal,
         "Move"},
        // Not `l`: DESIGN.md gives `l` to log-Y, which the detail chart needs most.
        {Action::kRight,
         {"Right"},
         "move right (detail chart: the cursor, panning at the edge)",
         Scope::kGlobal,
         "Move"},
        {Action::kPageUp, {"PgUp"}, "previous page", Scope::kGlobal, "Move"},
        {Action::kPageDown, {"PgDn", "Space"}, "next page", Scope::kGlobal, "Move"},
        {Action::kFirst,
         {"g", "Home"},
         "first (chart and heatmaps: g goes to a step, Home is first)",
         Scope::kGlobal,
         "Move"},
        {Action::kLast, {"G", "End"}, "last", Scope::kGlobal, "Move"},
        {Action::kPanLeft, {"[", "Shift-Left"}, "previous page of ranks", Scope::kRanks, "Move"},
        {Action::kPanRight, {"]", "Shift-Right"}, "next page of ranks", Scope::kRanks, "Move"},
        {Action::kNextSeries,
         {"Tab"},
         "every card: the next rank (several runs: run) in front",
         Scope::kOverview,
         "Move"},
        {Action::kPreviousSeries,
         {"BackTab"},
         "every card: the previous rank or run in front",
         Scope::kOverview,
         "Move"},
        {Action::kGoToStep, {"g"}, "go to a step (type it, Enter)", Scope::kDetail, "Move"},
        {Action::kGoToStep,
         {"g"},
         "go to a step: the column holding it (type it, Enter)",
         Scope::kHeatmap,
         "Move"},
        {Action::kNextMark,
         {"]"},
         "next marked cell (spike, dip, nan), in step order",
         Scope::kHeatmap,
         "Move"},
        {Action::kPreviousMark, {"["}, "previous marked cell", Scope::kHeatmap, "Move"},
        {Action::kGoToStep,
         {"g"},
         "go to a step: the column holding it (type it, Enter)",
         Scope::kModules,
         "Move"},
        {Action::kNextMark,
         {"]"},
         "next marked cell (anomaly, first nan/inf), in step order",
         Scope::kModules,
         "Move"},
        {Action::kPreviousMark, {"["}, "previous marked cell", Scope::kModules, "Move"},
        {Action::kNextSeries, {"Tab"}, "next tag", Scope::kHeatmap, "Move"},
        {Action::kPreviousSeries, {"BackTab"}, "previous tag", Scope::kHeatmap, "Move"},
        {Action::kAcknowledge,
         {"a"},
         "acknowledge the selected anomaly (a folded incident: every member)",
         Scope::kAnomalies,
         "Anomalies"},
        {Action::kNextAnomaly,
         {"n"},
         "next incident (its root's chart)",
         Scope::kGlobal,
         "Anomalies"},
        {Action::kPreviousAnomaly, {"N"}, "previous incident", Scope::kGlobal, "Anomalies"},
        {Action::kRedraw, {"Ctrl-L"}, "redraw the screen", Scope::kGlobal, "Other"},
        {Action::kHelp, {"?", "F1"}, "this help", Scope::kGlobal, "Other"},
        {Action::kQuit, {"q", "F10", "Ctrl-C"}, "quit", Scope::kGlobal, "Other"},
    };
    return table;
}

const Binding* binding_for_key(std::string_view key, Scope scope) {
    const Binding* global = nullptr;
    for (const Binding& b : bindings()) {
        if (std::find(b.keys.begin(), b.keys.end(), key) == b.keys.end()) continue;
        if (b.scope == scope && scope != Scope::kGlobal) return &b;
        if (b.scope == Scope::kGlobal && !global) global = &b;
    }
    return global;
}

std::string_view scope_name(Scope scope) {
    switch (scope) {
        case Scope::kGlobal:
            return "everywhere";
        case Scope::kOverview:
            return "overview";
        case Scope::kRanks:
            return "ranks";
        case Scope::kHeatmap:
            return "heatmap";
        case Scope::kAnomalies:
            return "anomalies";
        case Scope::kDetail:
            return "detail chart";
        case Scope::kCompare:
            return "compare";
        case Scope::kModules:
            return "modules";
    }
    return "?";
}

std::string keys_markdown() {
    std::string out =
        "# runtop keys\n\n"
        "Generated from the action table (`views/actions.cpp`) that also dispatches the keys and\n"
        "draws the `?` help screen; `tests/actions_test.cpp` fails when this file is out of "
        "step.\n";
    std::string_view group;
    for (const Binding& b : bindings()) {
        if (b.group != group) {
            group = b.group;
            out += "\n## ";
            out += group;
            out += "\n\n| keys | action | where |\n|---|---|---|\n";
        }
        out += "| ";
        for (std::size_t i = 0; i < b.keys.size(); ++i) {
            if (i) out += ", ";
            out += '`';
            out += b.keys[i];
            out += '`';
        }
        out += " | ";
        for (char c : b.help) {
            if (c == '|') out += '\\';  // a pipe in a cell would end it
            out += c;
        }
        out += " | ";
        out += scope_name(b.scope);
        out += " |\n";
    }
    return out;
}

}  // namespace runtop::ui
