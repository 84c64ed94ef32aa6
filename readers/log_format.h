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
//   lines: one scan over many lines dismisses them, anchor_scan.h).
// - `line`: an RE2 pattern the line must match (anywhere); its named groups may give `step`
//   (else the format has no step: see `step`), `epoch` and `epoch_steps` (then the step is
//   (epoch - 1) * epoch_steps + step, for tools that count steps within an epoch), `time`, and
//   `rank` (the tool's own rank in the line, e.g. DeepSpeed's "[Rank 3]": before a launcher
//   prefix's and the path's), and one metric as `name` and `value`.
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
// - `stride`: with "ordinal", a key of Hugging Face's `trainer_state.json` next to the log
//   (`logging_steps`, `eval_steps`) whose value multiplies the ordinal, so the x axis is the
//   training step (the file is read once, when the format first matches; without it the
//   ordinal is the x axis).
// - `prefix`: put before every metric name ("validate/": torchtitan's validation line prints
//   the training line's names).
// - `anomalies`: "msprobe": a matched line is an msProbe monitor alarm ("Rule <rule> reports
//   anomaly signal in ... at step N ..."), imported like its anomaly.json; no metrics.
// A value may group its thousands with ',' (torchtitan's "tps: 7,282").
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
    int rank = -1;  // from a `rank` group; -1 when the line has none
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

    // The same format again (its patterns compiled anew).
    LogFormat copy() const;
    // The JSON it was parsed from.
    const std::string& source() const { return source_; }

    const std::string& name() const { return name_; }
    const std::string& description() const { return description_; }
    // Every `require` literal: a line without one of them is none of this format's, so a
    // reader looks for one over many lines at once (anchor_scan.h).
    const std::vector<std::string>& required() const { return require_; }
    // Whether the line holds every required literal: cheap, before match().
    bool may_match(std::string_view line) const;
    // The step, time and metrics of a line of this format; false when it is not one (or has no
    // metric). `ordinal`: the lines this format matched before, in its file.
    bool match(std::string_view line, std::uint64_t ordinal, LogRecord& out) const;
    // The trainer_state.json key that scales an ordinal step ("" for none).
    const std::string& stride_key() const { return stride_key_; }
    // A matched line is an msProbe alarm, not metrics.
    bool msprobe_anomalies() const { return msprobe_anomalies_; }
    // Put before every metric name.
    const std::string& prefix() const { return prefix_; }
    // Where the text came from ("built-in", or the user's file).
    const std::string& origin() const { return origin_; }

  private:
    LogFormat();
    struct Metric;
    std::string name_;
    std::string description_;
    std::vector<std::string> require_;
    std::unique_ptr<re2::RE2> line_;
    std::unique_ptr<re2::RE2> time_;
    std::vector<Metric> metrics_;
    std::vector<std::string> ignore_;
    bool ordinal_step_ = false;
    bool msprobe_anomalies_ = false;
    std::string stride_key_;
    std::string prefix_;
    std::string origin_;
    std::string source_;
    // Capture indexes in line_ (0: none).
    int step_group_ = 0, epoch_group_ = 0, epoch_steps_group_ = 0, time_group_ = 0;
    int name_group_ = 0, value_group_ = 0, rank_group_ = 0;
    int time_pattern_group_ = 0;  // in time_
};

// The formats runtop knows, in the order they are tried on a line; their origin() is
// kBuiltinLogFormatOrigin.
const std::vector<LogFormat>& builtin_log_formats();
inline constexpr std::string_view kBuiltinLogFormatOrigin = "built-in log format";

// The first of `formats` that takes a cleaned line (log_line.h), as a reader tries them: its
// index, or -1. `ordinals` (one per format) counts the lines each took.
int match_log_line(const std::vector<LogFormat>& formats, std::string_view text,
                   std::vector<std::uint64_t>& ordinals, LogRecord& out);

// "YYYY-MM-DD HH:MM:SS[.ffffff|,mmm]" (or a 'T' between) as local time; false otherwise.
bool parse_log_time(std::string_view text, double& seconds);

}  // namespace runtop
