// What `check` prints (docs/howto.md): incidents first, one line each naming the root, then the
// conditions apart; or the JSON contract scripts rely on. `check --follow` prints new incidents
// with the same line.
#pragma once

#include <string>
#include <string_view>

#include "core/analysis/incidents.h"
#include "core/result.h"

namespace runtop {

// --fail-on: what makes the exit code 1. minor: any incident or condition; warn (the default):
// a major incident; alert: a major incident with an alert among its members.
enum class FailOn : std::uint8_t { kMinor, kWarn, kAlert };
Result<FailOn> parse_fail_on(std::string_view text);
bool incident_fails(const Incident& incident, FailOn fail_on);

// The incidents table (with `members`, each member on a line of its own under its incident),
// then the conditions.
void print_check_text(const AnomalyLog& log, const IncidentReport& report, bool members,
                      std::string& out);
// {"incidents": [...], "conditions": [...], "first": i|null, "anomalies": [...]}
void print_check_json(const AnomalyLog& log, const IncidentReport& report, std::string& out);
// "3 incidents (2 major, 1 minor) of 616 anomalies, 8 conditions (...); first major: ..."
std::string incidents_summary(const AnomalyLog& log, const IncidentReport& report);
// One incident as `check --follow` prints it when it appears.
std::string incident_line(const AnomalyLog& log, const Incident& incident);

}  // namespace runtop
