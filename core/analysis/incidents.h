// Incidents (issue 19): the anomaly log grouped into what went wrong, each naming its root.
//
// One bad batch spikes one rank's loss and, through the all-reduce, the gradient norm on every
// rank: the log has a record per (rank, tag), the user wants one line that names rank 2's loss.
//
// Conditions first. A runtop record that began at its series' first point and never ended (a
// tensor NaN from step 0 on, a bound crossed from the start) is a condition: something about
// the setup, not an event. It is reported once, apart, and the records on the same series (for
// msProbe, the same statistic: msProbe reports it again every step) are folded into it.
//
// Grouping. The other entries of one run, in step order, form incidents. An entry joins
//   - when it is a NaN or Inf, the incident its series was NaN or Inf in, within `window`
//     steps of that incident's latest step: the event going on (msProbe reports a NaN again
//     every step);
//   - else the run's newest incident when that began at the entry's step: the same step;
//   - else it begins an incident. A series that goes wrong at a later step is a new event,
//     even when the earlier one caused it: the NaN that reached every rank's parameters at
//     step 10 shows at step 11 as an incident of its own, whose root says where it was seen
//     first then. Runtop's own episodes (a NaN that stays) are one record anyway.
// The root is the member that sorts first by:
//   1. its step (the cause comes first);
//   2. rank-local before shared: a tag that fired on two ranks or more in the incident with
//      the same value (NaN and Inf alike) is an all-reduced metric, a consequence;
//   3. upstream before downstream in the step's data flow (FlowStage): forward activations and
//      loss, activation gradients, gradients before reduction, after it, optimizer state,
//      updated parameters, then the rest (schedules, clocks);
//   4. msProbe's analyser order between two msProbe records (its call id orders modules);
//   5. the larger deviation;
//   6. the log's order.
//
// Strength is the median deviation of the members (a ratio >= 1; NaN/Inf count kDeviationCap).
// Major or minor (the rule, docs/incidents.md):
//   - a member of alert severity (NaN, Inf, an alert rule) makes it major;
//   - so does a member one of runtop's own judging rules found (spike, cross_rank, threshold):
//     they are robust by construction (warm-up, noise scale, peers);
//   - an incident of msProbe's warnings only (its turbulence rule compares a value with the mean
//     of its history, and fires on the ordinary turbulence of the first steps) is major when it
//     stands out against the run's other such incidents: strength and breadth (members) each at
//     least `stand_out` times their median over them. With fewer than `min_peers` others to
//     compare with, when its strength alone reaches `lone_strength`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/anomaly_log.h"

namespace runtop {

// Where a record's series sits in one training step's data flow.
enum class FlowStage : std::uint8_t {
    kForward,         // activations, loss, accuracy
    kActivationGrad,  // gradients of activations
    kLocalGrad,       // parameter gradients before reduction (one rank's)
    kReducedGrad,     // after it (every rank's), global norms
    kOptimizer,       // optimizer state (Adam's moments, the update direction)
    kParameter,       // parameters, updated
    kOther,           // schedules, clocks, counters, run-level findings
};
std::string_view flow_stage_name(FlowStage stage);
// msProbe's kind when the record has one, else the tag's words.
FlowStage flow_stage(const AnomalyRecord& record);

// How far off a record is: the ratio of its value to what it was judged against, >= 1 either
// way; kDeviationCap for NaN, Inf, a NaN-count rule, or a reference of 0; 1 when unknown.
inline constexpr double kDeviationCap = 1e6;
double deviation(const AnomalyRecord& record);

struct IncidentOptions {
    std::int64_t window = 2;    // steps a lasting episode lets an incident reach
    double stand_out = 2;       // msProbe-only incidents: times the median strength and breadth
    std::size_t min_peers = 3;  // ... over at least this many others of the run
    double lone_strength = 10;  // ... else this strength alone
};

struct Incident {
    std::string run;
    std::int64_t step = 0;       // the root's
    std::int64_t last_step = 0;  // the latest member's
    // Indices into AnomalyLog::ordered(): the root first, then in root order.
    std::vector<std::size_t> members;
    double strength = 1;
    Severity severity = Severity::kWarn;  // the worst member's
    bool major = false;
    std::size_t root() const { return members.front(); }
};

// One series (for msProbe, one statistic of one rank: all its ops) bad from its first point.
struct Condition {
    std::size_t record = 0;  // the first runtop record that began at the series' first point
    std::int64_t since_step = 0;
    std::string series;                // the tag, or msProbe's "<prefix>/<name>"
    std::vector<std::size_t> records;  // every such runtop record (one per op)
    std::vector<std::size_t> entries;  // the ordered() entries folded into it
};

struct IncidentReport {
    std::vector<Incident> incidents;    // in step order (then run)
    std::vector<Condition> conditions;  // in the order their records were made
    std::optional<std::size_t> first_major;
    // For each ordered() entry: its incident, or kNoIncident (in a condition).
    std::vector<std::size_t> incident_of;
};
inline constexpr std::size_t kNoIncident = static_cast<std::size_t>(-1);

IncidentReport find_incidents(const AnomalyLog& log, const IncidentOptions& options = {});

// "rank 2 train/loss spike at step 1234: 4.754, 23.1x its reference" — the root line's words.
std::string incident_root_text(const AnomalyLog& log, const Incident& incident);

}  // namespace runtop
