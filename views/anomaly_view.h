// View 4, the anomaly log as incidents (core/analysis/incidents.h; views/anomaly_rows.h): one
// row per incident naming its root, its members folded under it (Enter or Right unfolds, Left
// folds), a minor incident dim; then the conditions (series bad from their first point), a row
// each. The records of series the filter hides are left out (run-level ones, with no tag, always
// shown). Below the table, a readout of the selected row, every field and the message whole
// (views/anomaly_readout.h):
//
//   INCIDENT     STEP  RUN  RANK  TAG              RULE   SEVERITY  VALUE  SOURCE  MESSAGE
//   ▾ major (3)  200   job  1     train/loss       spike  △ warn    34.08  runtop  34.0845146…
//     ·          200   job  0     train/grad_norm  spike  △ warn    9.1    runtop  9.1 is 8.2x…
//   ...
//   ─────────────────────────────────────────────────────────────────────────────────────────
//   step 200  run fx/job  rank 1  tag train/grad_norm  value 34.0845146  rule spike
//   severity △ warn  source runtop
//   34.0845146 is 27.6x the level 1.23672482 of the values before (z 31.5)
//
// The columns and their widths are the whole list's (views/anomaly_layout.h), so paging never
// changes them; when the canvas is narrow, columns give way in a fixed order. One row is selected
// (reversed); the page is the one holding it. An empty log is one calm line saying what the rules
// are watching.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <vector>

#include "views/actions.h"
#include "views/anomaly_rows.h"
#include "views/anomaly_state.h"
#include "views/canvas.h"
#include "views/model.h"
#include "views/view_api.h"

namespace runtop::ui {

// Rows of the table per page on a canvas this size (header, readout and status line excluded).
int anomaly_rows_per_page(const ViewModel& model, const AnomalyState& state, int width, int height);

void draw_anomalies(Canvas& canvas, const ViewModel& model, const AnomalyState& state);

// Up/down, pages, first/last for a canvas this high; Right unfolds the selected incident, Left
// folds the one the selected row is of. Returns whether the state changed.
bool anomalies_handle(AnomalyState& state, Action action, const ViewModel& model, int width,
                      int height);
// The wheel moves three rows; a click selects a row, a click on the selected row opens it.
Pointer anomalies_mouse(AnomalyState& state, const InputEvent& event, const ViewModel& model,
                        int width, int height);
// The selected record's chart (its series in front, at its step). No tag is carried to other
// views: they keep their own.
ViewSelection anomalies_selected(const AnomalyState& state, const ViewModel& model, int width,
                                 int height);
// Enter on a folded incident of several members: unfolds it (true); else Enter opens the chart.
bool anomalies_unfold(AnomalyState& state, const ViewModel& model);
// The selected record (an index into AnomalyLog::records()), or nullopt when the list is empty.
std::optional<std::size_t> anomaly_selected_record(const AnomalyState& state,
                                                   const ViewModel& model);
// What `a` acknowledges: a folded incident's every member, else the selected row's record.
std::vector<std::size_t> anomaly_selected_records(const AnomalyState& state,
                                                  const ViewModel& model);

}  // namespace runtop::ui
