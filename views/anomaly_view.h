// View 4, the anomaly log: Analyzer::log().ordered() (first failure first, msProbe's analyser
// order) as a table, the records of series the filter hides left out (run-level ones, with no
// tag, always shown):
//
//   STEP  RUN   RANK  TAG              RULE       SEVERITY  VALUE  SOURCE  MESSAGE
//   250   job   1     train/grad_norm  spike      ! alert   36.41  runtop  value 36.4 is ...
//
// Columns give way right to left when the canvas is narrow (source, run, value, then the message
// shrinks), never the step, tag and rule. One row is selected (reversed); the page is the one
// holding it. An empty log is one calm line saying what the rules are watching.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <vector>

#include "views/actions.h"
#include "views/anomaly_state.h"
#include "views/canvas.h"
#include "views/model.h"
#include "views/view_api.h"

namespace runtop::ui {

// The entries shown, in order: indices into Analyzer::log().ordered().
std::vector<std::size_t> anomaly_rows(const ViewModel& model);
// Rows of the table per page on a canvas this high (header and status line excluded).
int anomaly_rows_per_page(int height);

void draw_anomalies(Canvas& canvas, const ViewModel& model, const AnomalyState& state);

// Up/down, pages, first/last for a canvas this high. Returns whether the state changed.
bool anomalies_handle(AnomalyState& state, Action action, const ViewModel& model, int width,
                      int height);
// The wheel moves three rows; a click selects a row, a click on the selected row opens it.
Pointer anomalies_mouse(AnomalyState& state, const InputEvent& event, const ViewModel& model,
                        int width, int height);
// The selected record's chart (its series in front, at its step). No tag is carried to other
// views: they keep their own.
ViewSelection anomalies_selected(const AnomalyState& state, const ViewModel& model, int width,
                                 int height);
// The selected record (an index into AnomalyLog::records()), or nullopt when the list is empty.
std::optional<std::size_t> anomaly_selected_record(const AnomalyState& state,
                                                   const ViewModel& model);

}  // namespace runtop::ui
