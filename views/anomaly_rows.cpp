#include "views/anomaly_rows.h"

#include <fmt/format.h>

namespace runtop::ui {

std::size_t incident_key(const ViewModel& model, const Incident& incident) {
    return model.analyzer().log().ordered()[incident.root()].index;
}

std::vector<AnomalyRow> anomaly_rows(const ViewModel& model, const AnomalyState& state) {
    const AnomalyLog& log = model.analyzer().log();
    const std::vector<LogEntry>& ordered = log.ordered();
    const IncidentReport& report = model.incidents();
    auto selected = [&](std::size_t entry) {
        return model.selects(log.records()[ordered[entry].index]);
    };
    std::vector<AnomalyRow> rows;
    rows.reserve(report.incidents.size() + report.conditions.size());
    for (std::size_t i = 0; i < report.incidents.size(); ++i) {
        const Incident& inc = report.incidents[i];
        bool any = false;
        for (std::size_t m : inc.members) any = any || selected(m);
        if (!any) continue;
        AnomalyRow head{inc.root(), AnomalyRowKind::kIncident, i, inc.members.size(), inc.major};
        head.expanded =
            inc.members.size() > 1 && state.expanded.count(incident_key(model, inc)) > 0;
        rows.push_back(head);
        if (!head.expanded) continue;
        for (std::size_t k = 1; k < inc.members.size(); ++k)
            if (selected(inc.members[k]))
                rows.push_back({inc.members[k], AnomalyRowKind::kMember, i, 1, inc.major});
    }
    for (std::size_t c = 0; c < report.conditions.size(); ++c) {
        const Condition& cond = report.conditions[c];
        if (cond.entries.empty()) continue;  // nothing of it listed (merged away)
        std::size_t entry = cond.entries.front();
        for (std::size_t k : cond.entries)
            if (ordered[k].index == cond.record) entry = k;
        if (selected(entry)) rows.push_back({entry, AnomalyRowKind::kCondition, c});
    }
    return rows;
}

std::string anomaly_incident_cell(const AnomalyRow& row, bool ascii) {
    switch (row.kind) {
        case AnomalyRowKind::kMember:
            return ascii ? "  -" : "  ·";
        case AnomalyRowKind::kCondition:
            return "condition";
        case AnomalyRowKind::kIncident:
            break;
    }
    const char* size = row.major ? "major" : "minor";
    if (row.members <= 1) return fmt::format("  {}", size);
    const char* mark = row.expanded ? (ascii ? "-" : "▾") : (ascii ? "+" : "▸");
    return fmt::format("{} {} ({})", mark, size, row.members);
}

std::optional<int> incident_row_of(const std::vector<AnomalyRow>& rows, int row) {
    if (row < 0 || row >= static_cast<int>(rows.size())) return std::nullopt;
    if (rows[row].kind == AnomalyRowKind::kCondition) return std::nullopt;
    while (rows[row].kind == AnomalyRowKind::kMember) --row;  // the head comes before its members
    return row;
}

}  // namespace runtop::ui
