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
//   cross_rank  a rank off the median of the ranks at the same step (core/analysis/cross_rank.h);
//               with min_ratio (the built-in rule), only a rank that many times its peers. What
//               was on disk at start arrives rank after rank, so until set_live() (or finish())
//               values wait, flat, each step then judged with every rank's value (up to ~2M
//               waiting values; past that the growing tag's steps are judged with what they
//               have). Live: judged when every rank known for the tag has that step, or, for a
//               rank that lags, once 16 later steps are waiting
//   msprobe     msProbe's rules verbatim on msProbe's CSV series (core/analysis/msprobe_rules.h)
//   stall       a run that received data while watched and then nothing for the rule's
//               seconds (and for interval_factor of its usual step interval, if longer). Only
//               judged live (tick()): on disk a finished run and a stalled one look alike, so
//               a one-shot `check` never reports stalls.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
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
#include "core/analysis/step_list.h"
#include "core/series_filter.h"
#include "core/series_key.h"
#include "core/series_source.h"
#include "core/store/paged_vector.h"
#include "core/store/point_arena.h"
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

    // Spike windows within the budget (docs/design.md, "Spike windows within the budget"). A
    // series' values are judged by its own trailing window, or, once the window is shed, by its
    // tag's envelope: per (spike rule, run, tag), the value of the largest magnitude at each
    // step among the series without a window of their own, judged as one series (the same
    // detector, fed each step once every member has written it) and a finding attributed to the
    // member that holds it. A tag of one rank is judged exactly as by its own window.
    // Sheds windows until `bytes` are freed (or none is left) and closes them: from now on a new
    // series, or a window that would grow, goes to its envelope. Returns the bytes freed.
    std::uint64_t shed_windows(std::uint64_t bytes);
    bool windows_closed() const { return windows_closed_; }
    std::uint64_t window_bytes() const { return window_bytes_; }  // per-series windows held
    std::size_t enveloped_series() const { return enveloped_; }   // judged by their envelope
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
    // The user saw log record `index`: its series counts as acknowledged only when nothing fired
    // on it after that record's episode (a later NaN after an acknowledged spike still counts).
    // Returns whether the series was acknowledged; false for a record without a series too.
    bool acknowledge_record(std::size_t index);
    void acknowledge_all();

  private:
    struct Compiled;  // a rule with its regexes and rank spec compiled
    static constexpr std::uint32_t kNoGroup = 0xffffffffu;
    static constexpr std::uint32_t kNoEpisode = 0xffffffffu;
    static constexpr std::size_t kInlineSlots = 3;
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
    struct SeriesState {  // what one point touches, together: 64 bytes, a cache line
        std::int64_t last_step = 0;
        std::uint32_t run = 0;  // in runs_
        // Its key: the run above, this rank and this tag (in tags_). Not a SeriesKey: a key's
        // strings would cost more than the rest of the state.
        std::int32_t rank = kNoRank;
        std::uint32_t tag = 0;
        // The rules applied to it: up to kInlineSlots inside the state itself (the defaults
        // need three: nonfinite, spike, cross_rank), so a point touches its series' state, not a
        // separate allocation; with more, all of them in more_slots_[more].
        std::uint32_t more = 0;
        std::array<Slot, kInlineSlots> inline_slots;
        std::uint8_t slot_count = 0;
        // Bits, so that three slots still fit in a cache line.
        bool known : 1 = false;
        bool selected : 1 = false;        // by the selection (--filter, --ranks)
        bool msprobe_series : 1 = false;  // its reader says its tag ends in an msProbe op
        bool msprobe_nans : 1 = false;    // msProbe's `nans` op: a count of NaN elements
        bool has_step : 1 = false;
        bool alerted : 1 =
            false;  // it has an AlertState in alerts_ (it fired, or was acknowledged)
    };
    // Millions of series: what they cost is checked here (docs/design.md, memory).
    static_assert(sizeof(Slot) == 12);
    static_assert(sizeof(SeriesState) <= 64);
    std::span<Slot> slots(SeriesState& s) {
        return s.slot_count <= kInlineSlots ? std::span<Slot>(s.inline_slots.data(), s.slot_count)
                                            : std::span<Slot>(more_slots_[s.more]);
    }
    void add_slot(SeriesState& s, Slot slot);
    AlertState& alert_of(SeriesId id);  // made on first use
    // Spike slots judged by an envelope have this bit in Slot::state, the envelope's index
    // below it.
    static constexpr std::uint32_t kEnveloped = 0x80000000u;
    // One step of an envelope: the member value of the largest magnitude, whose it is, and how
    // many members wrote the step.
    struct EnvelopeStep {
        std::int64_t step = 0;
        double value = 0;
        SeriesId arg = kNoSeries;
        std::uint32_t count = 0;
    };
    struct Envelope {  // one (spike rule, run, tag) for the members without a window
        static constexpr std::size_t kRecent = 16;
        Envelope(const SpikeParams& params, bool loss_like, std::uint32_t rule_index)
            : detector(params, loss_like), rule(rule_index) {}
        SpikeDetector detector;
        // Steps not yet judged, [head, end) in step order: a vector, not a tree (a point looks
        // its step up among a few dozen contiguous ones; judged ones leave from the front).
        std::vector<EnvelopeStep> pending;
        std::size_t head = 0;
        std::size_t waiting() const { return pending.size() - head; }
        // The member at each of the latest steps judged: a finding is confirmed a few values
        // after its step (SpikeParams::confirm).
        std::array<std::pair<std::int64_t, SeriesId>, kRecent> recent = [] {
            std::array<std::pair<std::int64_t, SeriesId>, kRecent> none;
            none.fill({0, kNoSeries});  // no member: member_at() finds none here
            return none;
        }();
        std::int64_t judged_through = std::numeric_limits<std::int64_t>::min();
        SeriesId open = kNoSeries;  // the member whose episode the latest step extended
        std::uint32_t members = 0;
        std::uint32_t rule = 0;
        std::uint32_t fed = 0;  // steps judged (recent's next place)
    };
    // Hands a series' spike slot over to its envelope, its window freed; returns the bytes freed.
    std::uint64_t join_envelope(SeriesState& s, Slot& slot);
    // Moves the detectors still in use together and frees the rest: once windows are closed,
    // shed series' detectors would otherwise be kept for reuse by series that never come.
    void compact_spikes();
    void envelope_point(SeriesId id, Envelope& e, std::int64_t step, double value);
    void judge_envelope_step(Envelope& e);  // its oldest waiting step
    void judge_envelope(Envelope& e);       // every waiting step, its memory given back
    void finish_envelope(Envelope& e);
    Slot* spike_slot(SeriesId id, std::uint32_t rule);
    std::uint32_t envelope_for(std::uint32_t rule, const SeriesState& s, bool loss_like);
    // The member that held the envelope at `step`, one of its latest judged steps.
    static SeriesId member_at(const Envelope& e, std::int64_t step);
    // When a spike is decided: at its own point (an episode the next spike extends), once a
    // later value fell back, or at the end of the data.
    enum class SpikeWhen : std::uint8_t { kNow, kFellBack, kDataEnded };
    // `envelope_members`: 0 for a series' own window.
    void report_spike(SeriesId id, Slot& slot, const SpikeFinding& f, SpikeWhen when,
                      std::uint32_t envelope_members);
    struct Group {  // one (rule, run, tag) across ranks, for a cross-rank rule
        using PendingMap = std::map<std::int64_t, std::vector<RankValue>>;
        std::uint32_t rule = 0;
        std::uint32_t members = 0;  // its series, one per rank
        // The signs of every value seen (CrossRankParams::min_ratio judges one-signed tags only).
        bool seen_positive = false;
        bool seen_negative = false;
        bool fired = false;  // a member fired: one may have an episode a later step ends
        // Before set_live(), a member's steps did not follow `steps`: every value is in `backlog`.
        bool loose = false;
        // Live: values by step, each naming its series (RankValue::series), judged when every
        // rank has the step.
        PendingMap pending;
        // Before set_live() (what was on disk arrives rank after rank, so no step is complete
        // before the last rank is read) values wait until judged. Usually every rank writes the
        // same steps: the group keeps them once, in `steps`, and each member its values in a
        // column (4 bytes a value while every value is a float exactly, else 8; judged step by
        // step without a sort).
        struct Column {
            SeriesId series = kNoSeries;
            std::uint32_t size = 0;
            std::uint32_t capacity = 0;
            // Its values, the i-th at steps[i], in column_arena_: floats while every value of
            // the group is one exactly (event files hold floats), doubles after (`wide`).
            void* values = nullptr;
        };
        bool wide = false;
        double value(const Column& c, std::size_t i) const {
            return wide ? static_cast<const double*>(c.values)[i]
                        : static_cast<const float*>(c.values)[i];
        }
        std::size_t value_bytes() const { return wide ? sizeof(double) : sizeof(float); }
        StepList steps;
        std::vector<Column> columns;  // in the order their first value came
        struct Waiting {              // a value in the backlog, and its step
            std::int64_t step = 0;
            RankValue value;
        };
        // Once a member's steps did not follow `steps` (a missing or repeated step, a restart):
        // every value flat, a point costs a push_back, sorted by step only when judged.
        std::vector<Waiting> backlog;
    };
    // Backfill: a value of series `id` (rank `rank`) at `step` for group `g`.
    void wait_in_backfill(Group& g, SeriesId id, int rank, std::int64_t step, double value);
    void loosen(Group& g);        // moves g's columns into its backlog
    void drop_columns(Group& g);  // gives their memory back
    void widen(Group& g);         // its columns' floats become doubles
    // Room for `want` values in `c`, of group `g`'s width.
    void resize_column(Group& g, Group::Column& c, std::size_t want);
    std::size_t column_bytes(const Group& g) const;
    // Records a firing of `slot`'s rule on series `id`; returns whether it began an episode.
    // `reference`: what the value was judged against (AnomalyRecord::reference); `first_point`:
    // the point is its series' first (a condition may begin there).
    bool fire(SeriesId id, Slot& slot, std::int64_t step, double value, std::string message,
              std::string_view rule_name = {}, std::optional<Severity> severity = {},
              double reference = std::numeric_limits<double>::quiet_NaN(),
              bool first_point = false);
    // The rule passed a point: its open episode, if any, is over.
    void pass(Slot& slot) {
        if (slot.open != kNoEpisode) log_.at(slot.open).ended = true;
        slot.open = kNoEpisode;
    }
    // level_counts_ without `state`'s share (sign -1) or with it (+1).
    void count_state(const AlertState& state, int sign);
    void judge_group(Group& group, std::int64_t step, std::span<const RankValue> values);
    void judge_backlog(Group& group);  // every step of its backlog, with the ranks it has
    void judge_oldest(Group& group);   // the group's oldest waiting step, with what it has
    void judge_waiting_steps();        // every group's waiting steps, oldest first
    void run_fired(std::uint32_t run, Severity severity, std::int64_t step, bool new_episode);
    std::uint32_t run_index(const std::string& name);
    // Counts again what grows with the number of series and tags (O(1)): after add_series.
    void account_structure();
    std::uint64_t structure_bytes() const;
    // Memory of the running parts changed by `delta` bytes.
    void charge(std::int64_t delta) { bytes_ += static_cast<std::uint64_t>(delta); }
    // The same, for what the backfill's waiting cross-rank values hold.
    void hold(std::int64_t delta) {
        charge(delta);
        backfill_bytes_ += static_cast<std::uint64_t>(delta);
    }
    // Charges what a detector's heap changed by since it held `held` bytes; returns the change.
    std::int64_t recharge(const SpikeDetector& d, std::size_t held) {
        const std::int64_t delta =
            static_cast<std::int64_t>(d.heap_bytes()) - static_cast<std::int64_t>(held);
        charge(delta);
        return delta;
    }

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
    // The alert states of the series that ever fired (or were acknowledged): a few among
    // millions, so not a field of every SeriesState (32 bytes each). Like the anomaly log, it
    // grows with anomalies, not with series: not in memory_bytes().
    std::unordered_map<SeriesId, AlertState> alerts_;
    PagedVector<SpikeDetector, 256> spikes_;      // Slot::state of spike slots
    PagedVector<MsProbeHistory, 256> histories_;  // Slot::state of msprobe slots
    std::vector<std::vector<Slot>> more_slots_;   // SeriesState::more: series with 3 rules or more
    std::vector<std::uint32_t> free_spikes_;      // detectors of shed windows, to reuse
    std::vector<Envelope> envelopes_;             // Slot::state of enveloped spike slots
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t>
        envelope_ids_;    // (rule, run, tag) -> envelopes_
    InternedNames tags_;  // of known series (the Store may not be at hand): every rank shares them
    std::vector<RunStatus> runs_;
    std::unordered_map<std::string, std::uint32_t> run_ids_;
    std::map<std::tuple<std::uint32_t, std::string, std::string>, std::uint32_t> group_ids_;
    std::vector<Group> groups_;
    // Per distinct tag, per rule: kTagSelected | kLossLike (analyzer.cpp).
    std::unordered_map<std::string, std::vector<std::uint8_t>> tag_matches_;
    std::vector<float> scratch_;
    std::vector<RankValue> step_values_;  // judge_backlog()'s, reused
    std::vector<int> column_ranks_;       // judge_backlog()'s, reused
    CrossRankScratch cross_scratch_;
    CrossRankStats cross_stats_;
    std::vector<std::unique_ptr<MsProbeRuleSet>> msprobe_sets_;  // per rule (msprobe rules only)
    double now_ = 0;
    bool live_ = false;
    std::uint64_t backfill_bytes_ = 0;  // what the waiting values of the backfill hold
    // Before set_live(): the column of each series in its cross-rank group (Group::columns).
    std::vector<std::uint32_t> column_of_;
    // The columns' values: a slab arena, as the Store's points, for the same reason (malloc's
    // bookkeeping and a fault per page were most of what the cross-rank rule cost).
    // Made with the first column; gone, mapping and all, once the backfill is judged.
    std::unique_ptr<PointArena> column_arena_;
    std::size_t envelope_steps_ = 0;  // envelope steps waiting, over every envelope
    std::uint64_t window_bytes_ = 0;  // per-series spike windows (and their candidates)
    std::size_t enveloped_ = 0;
    std::size_t shed_cursor_ = 0;  // where shed_windows() goes on
    // window_bytes_ after a whole round of shed_windows() that could not free what it was asked.
    std::uint64_t unsheddable_bytes_ = std::numeric_limits<std::uint64_t>::max();
    bool windows_closed_ = false;
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
