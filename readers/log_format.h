// How one tool prints its metrics to a text log, as data: a log format. The built-in ones
// (log_formats_builtin.cpp) and a user's (~/.config/runtop/formats/*.json) are the same JSON:
//
//   {"name": "megatron",
//    "description": "Megatron-LM / MindSpeed-LLM: one line per logged iteration",
//    "require": [" iteration ", "consumed samples:"],
//    "line": "iteration\\s+(?P<step>\\d+)/",
//    "metrics": [{"fields": "|", "assign": ":"}]}
//
// - `require`: literals a line must all contain before any pattern runs (a log is mostly other
//   lines: a substring search dismisses them, memchr-fast).
// - `line`: an RE2 pattern the line must match (anywhere); its named groups may give `step`
//   (else the format has no step: see `step`), `epoch` and `epoch_steps` (then the step is
//   (epoch - 1) * epoch_steps + step, for tools that count steps within an epoch), `time`, and
//   one metric as `name` and `value`.
// - `time`: a pattern with a `time` group searched in the line when `line` has none; the text
//   is a local date and time, "YYYY-MM-DD HH:MM:SS" with an optional ".ffffff" or ",mmm".
// - `metrics`: each one of {"pairs": P} (every match of P in the line, left to right, gives a
//   metric named by its `name` group with its `value` group), {"name": N, "value": P} (the
//   first match of P gives metric N from its `value` group, or its whole match), or
//   {"fields": S, "assign": A} (the line split at every S, each field at its first A: a name
//   that begins with a letter and a value that is one number, both trimmed, are a metric; no
//   pattern runs, for the long lines of many fields a job prints every step).
// - `ignore`: names a `pairs` pattern finds that are not metrics (counters of the step itself).
// - `step`: "line" (the default: from the `step` group) or "ordinal" (the lines the format
//   matched, counted from 1, for tools that print no step).
// `{NUM}` in a pattern is a number as Python prints it: 1, -2.5, 1.0e-05, 1.043863E+01, nan,
// NAN, inf, -inf; `{TIME}` a local date and time as `time` reads it. A value that is not a
// number (False, None, unavailable) is no metric.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace re2 {
class RE2;
}

namespace runtop {

// What one line gave.
struct LogRecord {
    bool has_step = false;
    std::int64_t step = 0;
    double wall_time = 0;  // seconds since the epoch; NaN when the line had none
    // Names point into the line, or into the format.
    std::vector<std::pair<std::string_view, double>> metrics;
};

class LogFormat {
  public:
    // `origin` names the text in errors ("megatron.json": "megatron.json:4: ...").
    static Result<LogFormat> parse(std::string_view json, std::string_view origin);
    LogFormat(LogFormat&&) noexcept;
    LogFormat& operator=(LogFormat&&) noexcept;
    ~LogFormat();

    const std::string& name() const { return name_; }
    const std::string& description() const { return description_; }
    // The longest `require` literal ("" for none): a line without it is none of this format's,
    // so a reader looks for it over many lines at once.
    std::string_view anchor() const { return anchor_; }
    // Whether the line holds every required literal: cheap, before match().
    bool may_match(std::string_view line) const;
    // The step, time and metrics of a line of this format; false when it is not one (or has no
    // metric). `ordinal`: the lines this format matched before, in its file.
    bool match(std::string_view line, std::uint64_t ordinal, LogRecord& out) const;

  private:
    LogFormat();
    struct Metric;
    std::string name_;
    std::string description_;
    std::vector<std::string> require_;
    std::string anchor_;
    std::unique_ptr<re2::RE2> line_;
    std::unique_ptr<re2::RE2> time_;
    std::vector<Metric> metrics_;
    std::vector<std::string> ignore_;
    bool ordinal_step_ = false;
    // Capture indexes in line_ (0: none).
    int step_group_ = 0, epoch_group_ = 0, epoch_steps_group_ = 0, time_group_ = 0;
    int name_group_ = 0, value_group_ = 0;
    int time_pattern_group_ = 0;  // in time_
};

// The formats runtop knows, in the order they are tried on a line.
const std::vector<LogFormat>& builtin_log_formats();

// "YYYY-MM-DD HH:MM:SS[.ffffff|,mmm]" (or a 'T' between) as local time; false otherwise.
bool parse_log_time(std::string_view text, double& seconds);

}  // namespace runtop
