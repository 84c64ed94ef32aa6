#include "app/incident_watch.h"

namespace runtop {

std::vector<std::string> IncidentWatch::fresh(const AnomalyLog& log, const IncidentReport& report,
                                              bool loading) {
    std::vector<std::string> out;
    for (const Incident& incident : report.incidents) {
        if (!incident.major || !seen_.emplace(incident.run, incident.step).second) continue;
        if (!loading) out.push_back(incident_root_text(log, incident));
    }
    return out;
}

}  // namespace runtop
