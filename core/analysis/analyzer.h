// The Analyzer (DESIGN.md §3): evaluates the alert rules as points arrive, keeps every series'
// and run's alert state, each run's pace, and the anomaly log.
//
// It sees what the Store sees, through AnalyzingSink (core/analysis/analyzing_sink.h), in arrival
// order. Per point it costs a few nanoseconds for the default rules: rules are matched to a series
// once, when it first appears, and each series keeps only the state its rules need.
//
// Rules (core/analysis/rule_config.h):
//   nonfinite   NaN or ±Inf (and msProbe's `nans` op above 0: NaN elements inside the tensor)
//   spike       core/analysis/spike_detector.h
//   threshold   value above / below a bound
//   cross_rank  a rank off the median of the ranks at the same step (core/analysis/cross_rank.h).
//   What
//               was on disk at start arrives rank after rank, so until set_live() (or finish())
//               steps wait, each then judged with every rank's value (up to ~2M waiting values;
//               past that the oldest step is judged with what it has). Live: judged when every
//               rank known for the tag has that step, or, for a rank that lags, once 16 later
//               steps are waiting
//   msprobe     msProbe's rules verbatim on msProbe's CSV series (core/analysis/msprobe_rules.h)
//   stall       a run that received data while watched and then nothing for the rule's
//               seconds (and for interval_factor of its usual step interval, if longer). Only
//               judged live (tick()): on disk a finished run and a stalled one look alike, so
//               a one-shot `check` never reports stalls.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/analysis/anomaly_log.h"
#include "core/analysis/cross_rank.h"
#include "core/analysis/msprobe_rules.h"
#include "core/analysis/rolling_stats.h"
#include "core/analysis/rule_config.h"
#include "core/analysis/spike_detector.h"
#include "core/series_filter.h"
#include "core/series_key.h"
#include "core/series_source.h"
#include "core/store/paged_vector.h"
#include "core/store/series_index.h"

namespace runtop {

enum class AlertLevel : std::uint8_t { kOk, kWarn, kAlert };
std::string_view alert_level_name(AlertLevel level);
// The level a firing of that severity raises a state to.
AlertLevel alert_level(Severity severity);

// What a series (or a run) has been through: the worst severity that fired, when, how often.
// The small fields last: 32 bytes, not 40 (every series has one).
struct AlertState {
    std::int64_t first_step = 0;  // of the first anomalous point
    std::int64_t last_step = 0;   // of the latest anomalous point
    std::uint64_t count = 0;      // anomalous points (a run: its series' and its own)
    AlertLevel level = AlertLevel::kOk;
    // Series: its latest point still fires a per-point rule. Run: one of its series is active,
    // or it is stalled now.
    bool active = false;
    bool acknowledged = false;  // seen by the user; a new episode clears it
};

inline constexpr double kPaceWindowSeconds = 60.0;

struct RunStatus {
    std::string name;
    AlertState state;
    RateMeter pace{kPaceWindowSeconds};
    std::uint32_t active_series = 0;  // series whose latest point still fires
    double last_arrival = -1;         // the analyzer's clock when its latest point arrived
    bool live = false;                // received data after set_live()
    bool stalled = false;
    std::int64_t furthest_step = 0;
};

class Analyzer {
  public:
    // `selection` (--filter, --ranks) limits which series are judged and which imported
    // anomalies are kept.
    explicit Analyzer(RuleSet rules, SeriesFilter selection = {});
    ~Analyzer();
    Analyzer(const Analyzer&) = delete;
    Analyzer& operator=(const Analyzer&) = delete;

    void add_series(SeriesId id, const SeriesKey& key, const SeriesSource& source);
    void add_point(SeriesId id, const Point& point);
    void import(const ImportedAnomaly& anomaly);

    // End of a one-shot read: judges what waits for more data (cross-rank steps some rank
    // never wrote, spike candidates not yet seen to fall back).
    void finish();

    // The wall clock (seconds), set by the caller before each batch of points and tick().
    void set_now(double now) { now_ = now; }
    // The backfill is over: from now on runs that receive points are live (watched while they
    // grow), and so are runs whose newest point is younger than the stall limit. Cross-rank
    // steps that waited for every rank's history are judged now.
    void set_live();
    // Judges stalls at the current clock.
    void tick();

    const AnomalyLog& log() const { return log_; }
    std::uint64_t points() const { return points_; }  // points seen
    // Of those, the series and points the selection (--filter, --ranks) takes: what `check`
    // says it read, as `ls` and `dump` count the series they list.
    std::size_t selected_series() const { return selected_series_; }
    std::size_t series_count() const { return series_.size(); }  // ids it has a state for
    std::uint64_t selected_points() const { return selected_points_; }
    const RuleSet& rules() const { return rules_; }
    // What it holds that grows with the data: every series' state and its rules' state (spike
    // windows, msProbe histories, cross-rank groups and their waiting values), the interned
    // tags and per-tag rule matches. A running sum (a load: the sink may ask on every point),
    // charged to the Store's budget (Store::set_outside_bytes) so that `--memory` bounds the
    // whole process. Not counted: the anomaly log and the runs (they grow with anomalies and
    // runs, not with series).
    std::uint64_t memory_bytes() const { return bytes_; }
    // The same, counted again by walking every structure (tests check the two agree).
    std::uint64_t recount_bytes() const;
    const AlertState& series_state(SeriesId id) const;
    // Series in warn or alert, by level and acknowledgement, kept as their states change: what
    // a status line shows every frame without a pass over millions of series.
    struct LevelCounts {
        std::size_t alert = 0;  // not acknowledged
        std::size_t warn = 0;   // not acknowledged
        std::size_t acknowledged = 0;
    };
    const LevelCounts& level_counts() const { return level_counts_; }
    const std::vector<RunStatus>& runs() const { return runs_; }
    const RunStatus* run(std::string_view name) const;
    void acknowledge_series(SeriesId id);
    void acknowledge_all();

  private:
    struct Compiled;  // a rule with its regexes and rank spec compiled
    static constexpr std::uint32_t kNoGroup = 0xffffffffu;
    static constexpr std::uint32_t kNoEpisode = 0xffffffffu;
    static constexpr std::size_t kInlineSlots = 2;
    // One rule applied to one series: 12 bytes, a series has one per rule (millions of series).
    // What a rule keeps beyond the episode lives in a pool of its kind, found by `state`.
    struct Slot {
        std::uint32_t open =
            kNoEpisode;  // the log record of the episode the previous point extended
        std::uint16_t rule = 0;
        RuleType type = RuleType::kNonFinite;
        // cross_rank: its (run, tag) group in groups_; spike: its detector in spikes_; msprobe:
        // its history in histories_.
        std::uint32_t state = kNoGroup;
    };
    struct SeriesState {  // what one point touches, together: 88 bytes
        AlertState alert;
        std::int64_t last_step = 0;
        std::uint32_t run = 0;  // in runs_
        // Its key: the run above, this rank and this tag (in tags_). Not a SeriesKey: a key's
        // strings would cost more than the rest of the state.
        std::int32_t rank = kNoRank;
        std::uint32_t tag = 0;
        // The rules applied to it: up to kInlineSlots inside the state itself (the defaults
        // need two), so a point touches its series' state, not a separate allocation; with
        // more, all of them in more_slots_[more].
        std::uint32_t more = 0;
        std::array<Slot, kInlineSlots> inline_slots;
        std::uint8_t slot_count = 0;
        bool known = false;
        bool selected = false;        // by the selection (--filter, --ranks)
        bool msprobe_series = false;  // its reader says its tag ends in an msProbe op
        bool msprobe_nans = false;    // msProbe's `nans` op: a count of NaN elements
        bool has_step = false;
    };
    // Millions of series: what they cost is checked here (docs/design.md, memory).
    static_assert(sizeof(Slot) == 12);
    static_assert(sizeof(SeriesState) <= 88);
    std::span<Slot> slots(SeriesState& s) {
        return s.slot_count <= kInlineSlots ? std::span<Slot>(s.inline_slots.data(), s.slot_count)
                                            : std::span<Slot>(more_slots_[s.more]);
    }
    void add_slot(SeriesState& s, Slot slot);
    struct Group {  // one (rule, run, tag) across ranks, for a cross-rank rule
        using RankMap = std::map<int, SeriesId>;
        using PendingMap = std::map<std::int64_t, std::vector<RankValue>>;
        std::uint32_t rule = 0;
        RankMap series_of_rank;
        PendingMap pending;
    };
    // Records a firing of `slot`'s rule on series `id`; returns whether it began an episode.
    bool fire(SeriesId id, Slot& slot, std::int64_t step, double value, std::string message,
              std::string_view rule_name = {}, std::optional<Severity> severity = {});
    void pass(Slot& slot) { slot.open = kNoEpisode; }
    // level_counts_ without `state`'s share (sign -1) or with it (+1).
    void count_state(const AlertState& state, int sign);
    void judge_group(Group& group, std::int64_t step, std::vector<RankValue>& values);
    void judge_oldest(Group& group);  // the group's oldest waiting step, with what it has
    void judge_waiting_steps();       // every group's waiting steps, oldest first
    void run_fired(std::uint32_t run, Severity severity, std::int64_t step, bool new_episode);
    std::uint32_t run_index(const std::string& name);
    // Counts again what grows with the number of series and tags (O(1)): after add_series.
    void account_structure();
    std::uint64_t structure_bytes() const;
    // Memory of the running parts changed by `delta` bytes.
    void charge(std::int64_t delta) { bytes_ += static_cast<std::uint64_t>(delta); }

    RuleSet rules_;
    std::vector<std::unique_ptr<Compiled>> compiled_;
    SeriesFilter selection_;
    AnomalyLog log_;
    SeriesKeyRef key(const SeriesState& s) const {
        return {runs_[s.run].name, s.rank, tags_.name(s.tag)};
    }
    // msProbe's op: the tag's last component.
    std::string_view op(const SeriesState& s) const;

    // Paged: no half-empty capacity, no copy while growing (millions of series).
    PagedVector<SeriesState, 256> series_;
    PagedVector<SpikeDetector, 256> spikes_;      // Slot::state of spike slots
    PagedVector<MsProbeHistory, 256> histories_;  // Slot::state of msprobe slots
    std::vector<std::vector<Slot>> more_slots_;   // SeriesState::more: series with 3 rules or more
    InternedNames tags_;  // of known series (the Store may not be at hand): every rank shares them
    std::vector<RunStatus> runs_;
    std::unordered_map<std::string, std::uint32_t> run_ids_;
    std::map<std::tuple<std::uint32_t, std::string, std::string>, std::uint32_t> group_ids_;
    std::vector<Group> groups_;
    // Per distinct tag, per rule: kTagSelected | kLossLike (analyzer.cpp).
    std::unordered_map<std::string, std::vector<std::uint8_t>> tag_matches_;
    std::vector<float> scratch_;
    CrossRankScratch cross_scratch_;
    CrossRankStats cross_stats_;
    std::vector<std::unique_ptr<MsProbeRuleSet>> msprobe_sets_;  // per rule (msprobe rules only)
    double now_ = 0;
    bool live_ = false;
    std::size_t pending_values_ = 0;  // cross-rank values waiting, over every group
    std::uint64_t points_ = 0;
    std::uint64_t selected_points_ = 0;
    std::size_t selected_series_ = 0;
    LevelCounts level_counts_;
    // memory_bytes(): structure_bytes() as last counted, plus what points change (spike
    // windows, waiting cross-rank values) and what add_series adds node by node (groups, tag
    // matches, slots past the inline ones).
    std::uint64_t bytes_ = 0;
    std::uint64_t structure_accounted_ = 0;
    std::uint64_t node_bytes_ = 0;  // groups, their ranks, tag matches, more_slots_' vectors
};

}  // namespace runtop
