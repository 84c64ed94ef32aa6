// How the anomaly list (views/anomaly_view.h) lays out on a canvas: which columns it shows, how
// wide, and how many lines the readout of the selected row takes. Everything is decided from
// every row of the (filtered) list, never from the page shown, so paging keeps the layout.
//
// A column is as wide as the longest cell it holds over the list (within a cap); the message
// takes what is left. When that is too little, the source goes (the readout names it) and the
// severity shows its mark alone; when it is still too little, the message column goes (the
// readout holds the selected row's whole) rather than any other column being cut for it. Past
// that, columns give way each only as far as it must: the source goes, the severity shows its
// mark, the run, the rule and the tag are cut; then the value, run, severity and rank go, and at
// last the tag and the rule are cut to their headers. The incident, step, tag and rule always stay.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "views/anomaly_rows.h"
#include "views/anomaly_state.h"
#include "views/model.h"

namespace runtop::ui {

enum AnomalyColumn {
    kIncident,
    kStep,
    kRun,
    kRank,
    kTag,
    kRule,
    kSeverity,
    kValue,
    kSource,
    kColumns
};
inline constexpr std::array<const char*, kColumns> kAnomalyHeads = {
    "INCIDENT", "STEP", "RUN", "RANK", "TAG", "RULE", "SEVERITY", "VALUE", "SOURCE"};

// A row's cells as the table shows them, the run without its first `run_strip` bytes (the
// readout names it whole). The severity cell is the bare name: the table draws it as a badge.
std::array<std::string, kColumns> anomaly_cells(const AnomalyLog& log, const AnomalyRow& row,
                                                std::size_t run_strip, bool ascii);

struct AnomalyLayout {
    std::array<bool, kColumns> shown{};
    std::array<int, kColumns> width{};
    bool compact_severity = false;  // the badge's mark alone, under "SEV"
    int message_width = 0;          // 0: no message column
    // What the run column leaves out of every run's name: the directories all the list's runs
    // share ("job/tensorboard", "job/monitor_output": "tensorboard", "monitor_output"), with
    // one run all but its last component.
    std::size_t run_strip = 0;
    int rows_per_page = 1;
    int readout_lines = 0;  // the readout's lines at the bottom, its rule included (0: none)
};

inline constexpr int kAnomalyGap = 2;  // columns between two columns

// `rows`: anomaly_rows(model, state).
AnomalyLayout anomaly_layout(const ViewModel& model, const AnomalyState& state,
                             const std::vector<AnomalyRow>& rows, int width, int height);

}  // namespace runtop::ui
