// `runtop check --follow`: guard a live job (issue 19). Reads what is on disk, then tails it like
// `dump --follow`; after each batch of new data the incidents are found again, and each new one
// is printed as it appears. The first at or above --fail-on ends the guard with exit code 1
// (unless --keep-going); --exec CMD runs CMD once for each such incident, through /bin/sh -c,
// with the incident in its environment (RUNTOP_STEP, RUNTOP_RUN, RUNTOP_RANK, RUNTOP_TAG,
// RUNTOP_RULE, RUNTOP_SEVERITY, RUNTOP_MESSAGE). The command's failure is reported, never fatal.
#pragma once

#include <string>

#include "app/check_report.h"
#include "app/inputs.h"
#include "core/analysis/rule_config.h"

namespace runtop {

struct GuardOptions {
    FailOn fail_on = FailOn::kWarn;
    std::string exec;         // "" when none
    bool keep_going = false;  // do not exit on an incident: run --exec and go on watching
    WatchOptions watch;
};

// Returns the exit code: 1 after an incident at or above fail_on, else 0 once stopped by a
// signal. A root that cannot be read is reported as `dump --follow` reports it, and watched for.
int guard(const Selection& selection, RuleSet rules, const GuardOptions& options);

// Runs `command` through /bin/sh -c with the incident's fields in its environment and waits for
// it; returns "" or why it failed ("exited with 3", "killed by signal 9", "could not start: ...").
std::string run_incident_command(const std::string& command, const AnomalyLog& log,
                                 const Incident& incident);

}  // namespace runtop
