// Which major incidents (core/analysis/incidents.h) are new since the dashboard last looked:
// it rings or notifies for each (config "notify", views/terminal/notify.h).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/incidents.h"

namespace runtop {

class IncidentWatch {
  public:
    // The root words (incident_root_text) of each major incident not seen before. While
    // `loading` (the backlog being read) they are taken as seen, not announced: a run's history
    // is no news, and the status line names its first major incident anyway.
    std::vector<std::string> fresh(const AnomalyLog& log, const IncidentReport& report,
                                   bool loading);

  private:
    // By run and first step: the root can change as members join, the incident stays.
    std::set<std::pair<std::string, std::int64_t>> seen_;
};

}  // namespace runtop
