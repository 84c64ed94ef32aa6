// The rows of the anomaly list (views/anomaly_view.h): the log's incidents
// (core/analysis/incidents.h), one row each naming its root, the members folded under it until
// the user unfolds it; then the conditions, one row each. Rows of what the filter hides are left
// out: an incident shows when any member is selected, its root always on its row.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "views/anomaly_state.h"
#include "views/model.h"

namespace runtop::ui {

enum class AnomalyRowKind { kIncident, kMember, kCondition };

struct AnomalyRow {
    std::size_t entry = 0;  // into AnomalyLog::ordered(): the root on an incident's row
    AnomalyRowKind kind = AnomalyRowKind::kIncident;
    std::size_t group = 0;    // into IncidentReport::incidents, or ::conditions
    std::size_t members = 1;  // an incident's, its root included
    bool major = false;
    bool expanded = false;  // an incident's members are listed under it
};

std::vector<AnomalyRow> anomaly_rows(const ViewModel& model, const AnomalyState& state);

// The INCIDENT cell: "▸ major (4)" folded, "▾ major (4)" unfolded, "  minor" alone, "  ·" a
// member, "condition".
std::string anomaly_incident_cell(const AnomalyRow& row, bool ascii);

// The key AnomalyState::expanded keeps an incident by: its root's record, which stays the same
// as the log grows (incident indices move when an earlier step's incident comes in).
std::size_t incident_key(const ViewModel& model, const Incident& incident);

// The row of the incident (its own, or its member's) at or around `row`; nullopt on a condition.
std::optional<int> incident_row_of(const std::vector<AnomalyRow>& rows, int row);

}  // namespace runtop::ui
