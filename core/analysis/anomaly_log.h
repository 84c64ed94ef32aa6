// The anomaly log (issue 4, DESIGN.md §6): one record per firing of a rule, runtop's own beside
// the ones msProbe wrote (imported), in msProbe's analyser order so the first failure comes first.
//
// A firing is an episode: a rule that fires again on the very next point of the same series
// extends its record (last_step, count) instead of adding one, so a loss that stays NaN for a
// million steps is one record that says so. msProbe's rules are the exception: msProbe reports
// them at every step, and so does runtop, record for record.
//
// Duplicates merge: a runtop record on an msProbe statistic (same run, rank, "<prefix>/<name>",
// step) as an imported record is shown once, as the imported one, marked `also_runtop`. msProbe's
// own key names no op, so it matches runtop records on any op of that statistic. The merged entry
// takes the higher severity of the two: msProbe calls an Inf "turbulence" (a warning), and a gate
// on alerts must not pass because msProbe saw the same step first.
//
// Order (msprobe_anomaly_less, core/analysis/anomaly_order.h): step, micro-step, train stage,
// pipeline stages, call id; then rank, run, tag and arrival. msProbe's entries all say micro-step 0
// (its factory never sets it) and its analyser sorts by that, so records with a call id sort with
// micro-step 0 too, their call ids ordering the micro-steps. Series that are not msProbe's have no
// stage
// (-1) and no call id (-1). For runtop's records on msProbe statistics the pipeline stage and
// call id are learned from imported records of the same rank and tag_name when there are any.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "core/analysis/rule_config.h"
#include "core/anomaly_record.h"
#include "core/series_key.h"

namespace runtop {

inline constexpr SeriesId kNoSeries = std::numeric_limits<SeriesId>::max();
inline constexpr std::size_t kNoRecord = std::numeric_limits<std::size_t>::max();

enum class AnomalySource : std::uint8_t { kRuntop, kMsProbe };
std::string_view anomaly_source_name(AnomalySource source);

struct AnomalyRecord {
    std::string run;
    int rank = kNoRank;
    std::string tag;              // runtop's tag; "" for run-level findings (stall)
    SeriesId series = kNoSeries;  // the series it concerns, when runtop has it
    std::int64_t step = 0;        // the first step of the episode
    std::int64_t last_step = 0;   // the last step of the episode
    std::uint64_t count = 1;      // points in the episode
    std::int64_t micro_step = 0;
    std::string rule;  // "nonfinite", "spike", ..., "AnomalyTurbulence"
    Severity severity = Severity::kAlert;
    double value = 0;  // the first value of the episode
    // What the value was judged against (the spike's level, the ranks' median, msProbe's
    // history mean, the bound); NaN when nothing (a NaN is off by its kind).
    double reference = std::numeric_limits<double>::quiet_NaN();
    std::string message;
    AnomalySource source = AnomalySource::kRuntop;
    std::uint64_t sequence = 0;  // arrival order
    // msProbe order fields (call_id -1 and pp_stage 0 when unknown; learned at ordering time).
    std::string msprobe_kind;       // "actv", "post_grad", ... ("" when not an msProbe series)
    std::string msprobe_statistic;  // "<prefix>/<name>" ("" when not an msProbe series)
    std::string msprobe_tag_name;   // "<vpp>:<name>[:<micro>]/rank<R>/<kind>"
    std::int64_t vpp_stage = 0;
    std::int64_t pp_stage = 0;
    std::int64_t call_id = -1;
    // Conditions (core/analysis/incidents.h): the episode began at its series' first point, and
    // whether a later point of the series passed the rule (the episode is over).
    bool from_first_point = false;
    bool ended = false;
};

// A record as the log shows it: where it is, and what ordering learned about it.
struct LogEntry {
    std::size_t index = 0;     // into records()
    bool also_runtop = false;  // imported, and runtop found the same
    // What the entry shows and gates on: the record's severity, raised to that of the worst
    // runtop record merged into it (`runtop_index`, kNoRecord when none).
    Severity severity = Severity::kAlert;
    std::size_t runtop_index = kNoRecord;
    std::int64_t pp_stage = 0;
    std::int64_t call_id = -1;
};

class AnomalyLog {
  public:
    // Adds a runtop firing, or extends the episode `open` (a record index from an earlier
    // call) when the rule fired on the previous point of the same series. Returns the index.
    std::size_t fire(AnomalyRecord record, std::size_t open = kNone);
    // An msProbe record; the same (run, key) again replaces the earlier copy (msProbe rewrites
    // its file whole every step). Returns whether the record is new.
    bool import(const ImportedAnomaly& anomaly, SeriesId series);

    AnomalyRecord& at(std::size_t index) { return records_[index]; }
    const std::vector<AnomalyRecord>& records() const { return records_; }
    std::size_t size() const { return records_.size(); }

    // The records to show (merged duplicates left out), first failure first.
    const std::vector<LogEntry>& ordered() const;
    // Records absorbed by an imported duplicate (after ordered()).
    std::size_t merged_count() const;

    static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

  private:
    std::vector<AnomalyRecord> records_;
    std::map<std::pair<std::string, std::string>, std::size_t> imported_index_;  // (run, key)
    std::uint64_t next_sequence_ = 0;
    mutable std::vector<LogEntry> ordered_;
    mutable std::size_t merged_ = 0;
    mutable bool dirty_ = false;
};

// msProbe's rules as runtop ranks them: AnomalyNan (and anything else) alert, turbulence warn.
Severity msprobe_severity(std::string_view rule);

// How check and the anomaly list print a record: its steps ("300" or "300-319") and an entry's
// message with what the record says beyond it (the episode's length, runtop's agreement and the
// rule it fired).
std::string anomaly_steps_text(const AnomalyRecord& record);
std::string anomaly_message_text(const AnomalyLog& log, const LogEntry& entry);

// msProbe's view of a runtop tag on an msProbe CSV series: kind, statistic, tag_name, vpp and
// micro-step filled into the record (unchanged when the tag is not of that shape).
void fill_msprobe_fields(AnomalyRecord& record);

}  // namespace runtop
