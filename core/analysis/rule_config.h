// Alert rules as configured (DESIGN.md §6): the built-in defaults and what a rules file says.
//
// A rules file is JSON:
//   {"defaults": true,                       // keep the built-in rules (the default)
//    "rules": [
//      {"rule": "threshold", "tags": "loss", "above": 10, "severity": "alert"},
//      {"rule": "cross_rank", "tags": "grad_norm", "k": 5},   // a built-in type: replaces it
//      {"rule": "spike", "k": 8},             // a built-in type: replaces that default
//      {"rule": "nonfinite", "enabled": false},
//      {"rule_name": "AnomalyTurbulence", "args": {"threshold": 0.5}},   // msProbe, verbatim
//      {"rule_name": "AnomalyNan", "args": {"threshold": 1e10}}],
//    "msprobe": {"variant": "current", "tags": "...", "ranks": "..."}}
// msProbe's own monitor config works as is: its "alert": {"rules": [...]} is read too.
// Every rule takes "tags" (RE2, case-insensitive, anywhere in the tag), "exclude_tags",
// "ranks" (a rank spec) and "severity" ("warn" or "alert"). Unknown keys are errors, so a typo
// never silently turns a rule into something else.
//
// core/ does no I/O: the caller reads the file and passes its text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/msprobe_rules.h"
#include "core/result.h"

namespace runtop {

enum class Severity : std::uint8_t { kWarn, kAlert };
std::string_view severity_name(Severity severity);

enum class RuleType : std::uint8_t { kNonFinite, kSpike, kStall, kThreshold, kCrossRank, kMsProbe };
std::string_view rule_type_name(RuleType type);

struct RuleScope {
    std::string tags;          // empty: every tag
    std::string exclude_tags;  // empty: none excluded
    std::string ranks;         // empty: every rank
};

// Robust spike (core/analysis/spike_detector.h has the exact definition).
struct SpikeParams {
    int window = 128;        // trailing finite values sigma and the p95 step are taken over
    int warmup = 64;         // finite values a series must have before it is judged
    double k = 6.0;          // deviation (log scale) at least k x sigma, the noise of one value
    double min_ratio = 4;    // ... and at least this many times the level before it
    double tail_factor = 3;  // ... and this many times the window's 95th percentile step
    int confirm = 3;         // values within which a spike must fall back (not loss-like series)
    // Series where higher is worse and a lasting jump is trouble in itself: no fall-back needed.
    std::string loss_like =
        R"((^|[^a-z])(loss|nll|ppl|perplexity|grad.?norm|norm|error|err|mse|rmse|mae|kl)([^a-z]|$))";
};

struct StallParams {
    double seconds = 600;         // a run silent this long while watched is stalled...
    double interval_factor = 20;  // ... and for this many of its usual intervals, if longer
};

struct ThresholdParams {
    std::optional<double> above;  // fires when value > above (or is +Inf)
    std::optional<double> below;  // fires when value < below (or is -Inf)
};

struct CrossRankParams {
    double k = 5.0;
    double rel_floor = 0.05;
    double abs_floor = 0.0;
    int min_ranks = 4;  // ranks with a value at the step before it is judged
    // When > 0, an outlier must also be at least this many times the median in magnitude, on
    // a tag whose values all keep one sign and whose ranks' median is 1.5 (scaled) MADs or more
    // away from 0: only a rank that explodes above its peers, never one of many values around
    // 0 (a gradient's mean). The built-in rule's 10 keeps
    // the ordinary spread of ranks (batches, shards, experts) quiet from the first step.
    double min_ratio = 0;
};

struct MsProbeParams {
    std::vector<MsProbeRuleSpec> specs;
    MsProbeVariant variant = MsProbeVariant::kCurrent;
};

struct RuleConfig {
    RuleType type = RuleType::kNonFinite;
    std::string name;  // shown in the anomaly log: "nonfinite", "spike", ... or the file's name
    Severity severity = Severity::kAlert;
    RuleScope scope;
    SpikeParams spike;
    StallParams stall;
    ThresholdParams threshold;
    CrossRankParams cross_rank;
    MsProbeParams msprobe;
};

struct RuleSet {
    std::vector<RuleConfig> rules;
    std::vector<std::string> warnings;  // e.g. msProbe specs msProbe itself would skip
};

// The built-in rules, on unless a rules file turns them off: NaN/Inf on any series, robust
// spikes on sign-definite series that are not schedules or clocks, a rank ten times its peers'
// median (cross_rank, judged from the first step; same exclusions as spikes), and stalled runs.
RuleSet default_rules();

// Tags the default spike rule leaves alone: schedules (lr, loss scale, momentum, warmup),
// epochs and iterations, clocks and rates (time, throughput, memory, utilisation), msProbe's
// counting ops (zeros, nans, id, shape, dtype). Their jumps are planned or meaningless as
// spikes. Steps, samples and tokens are not listed: counters only grow gently (and DeepSpeed's
// tags all start with Train/Samples/).
std::string_view default_spike_exclusions();

// Parses a rules file; `origin` (its path) starts every error message.
Result<RuleSet> parse_rules(std::string_view json_text, std::string_view origin);

}  // namespace runtop
