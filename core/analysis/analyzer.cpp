#include "core/analysis/analyzer.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cmath>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "core/distribution.h"
#include "core/format.h"
#include "core/identity.h"
#include "core/rank_spec.h"

namespace runtop {
namespace {

// Live: pending cross-rank steps per group before the oldest is judged with the ranks it has.
constexpr std::size_t kMaxPendingSteps = 16;
// CrossRankParams::min_ratio: the ranks' median must be this many (scaled) MADs away from 0.
constexpr double kLevelMads = 1.5;
// While the backfill reads what was on disk, files arrive one after another, a rank's whole
// history before the next rank's, so no step can be judged until every rank is read: steps wait
// for set_live() or finish(). This bounds what waits (values over every group: 4 or 8 bytes each
// in a column, 32 in a backlog); past it the growing group's steps are judged with the ranks it
// has.
constexpr std::uint64_t kMaxBackfillBytes = std::uint64_t{64} << 20;
constexpr std::uint32_t kNoColumn = 0xffffffffu;

// The bytes a vector's capacity grew (or shrank) by since it was `held` elements.
template <class T>
std::int64_t grown_bytes(const std::vector<T>& v, std::size_t held) {
    return (static_cast<std::int64_t>(v.capacity()) - static_cast<std::int64_t>(held)) *
           static_cast<std::int64_t>(sizeof(T));
}
// The same bound for envelope steps (one per spike rule, run, tag and step; about 80 bytes
// each): past it the oldest step of the growing envelope is judged with the members it has.
constexpr std::size_t kMaxBackfillEnvelopeSteps = std::size_t{1} << 19;

// What a node of a std::map / std::unordered_map costs beside its value: the tree's links and
// colour (or the next pointer and cached hash) and the allocator's header. An estimate the
// running count and the recount share (Analyzer::memory_bytes()).
constexpr std::size_t kTreeNodeBytes = 48;
constexpr std::size_t kHashNodeBytes = 32;

template <class Map>
std::size_t tree_node_bytes() {
    return kTreeNodeBytes + sizeof(typename Map::value_type);
}

// What a rule's regexes say of a tag (Analyzer::tag_matches_).
constexpr std::uint8_t kTagSelected = 1;
constexpr std::uint8_t kLossLike = 2;

std::unique_ptr<RE2> compile(const std::string& pattern) {
    if (pattern.empty()) return nullptr;
    RE2::Options options;
    options.set_case_sensitive(false);
    options.set_log_errors(false);
    auto re = std::make_unique<RE2>(pattern, options);
    return re->ok() ? std::move(re) : nullptr;  // parse_rules rejected bad ones already
}

std::string value_text(double v) {
    return format_value(v);
}

// Python's repr of a float, as msProbe's messages print values: the shortest round trip.
std::string python_float(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    std::string out;
    append_shortest(out, v);
    if (out.find_first_of(".en") == std::string::npos) out += ".0";
    return out;
}

std::string duration_text(double seconds) {
    const auto s = static_cast<long long>(seconds);
    if (s < 120) return fmt::format("{} s", s);
    if (s < 7200) return fmt::format("{}m {:02}s", s / 60, s % 60);
    return fmt::format("{}h {:02}m", s / 3600, (s / 60) % 60);
}

// `active` is not set here: it says whether the latest point still fires (add_point) or the run
// is stalled now (tick), not whether something once fired.
void note(AlertState& a, Severity severity, std::int64_t step, bool new_episode) {
    if (a.count == 0) a.first_step = step;
    a.last_step = step;
    ++a.count;
    a.level = std::max(a.level, alert_level(severity));
    if (new_episode) a.acknowledged = false;
}

}  // namespace

struct Analyzer::Compiled {
    std::unique_ptr<RE2> tags, exclude, loss_like;
    RankSpec ranks;

    bool selects_tag(const std::string& tag) const {
        if (tags && !RE2::PartialMatch(tag, *tags)) return false;
        return !(exclude && RE2::PartialMatch(tag, *exclude));
    }
};

AlertLevel alert_level(Severity severity) {
    return severity == Severity::kAlert ? AlertLevel::kAlert : AlertLevel::kWarn;
}

std::string_view alert_level_name(AlertLevel level) {
    switch (level) {
        case AlertLevel::kOk:
            return "ok";
        case AlertLevel::kWarn:
            return "warn";
        case AlertLevel::kAlert:
            return "alert";
    }
    return "?";
}

Analyzer::Analyzer(RuleSet rules, SeriesFilter selection)
    : rules_(std::move(rules)), selection_(std::move(selection)) {
    for (const RuleConfig& r : rules_.rules) {
        auto c = std::make_unique<Compiled>();
        c->tags = compile(r.scope.tags);
        c->exclude = compile(r.scope.exclude_tags);
        if (r.type == RuleType::kSpike) c->loss_like = compile(r.spike.loss_like);
        if (Result<RankSpec> ranks = RankSpec::parse(r.scope.ranks)) c->ranks = std::move(*ranks);
        compiled_.push_back(std::move(c));
        msprobe_sets_.push_back(
            r.type == RuleType::kMsProbe
                ? std::make_unique<MsProbeRuleSet>(r.msprobe.specs, r.msprobe.variant)
                : nullptr);
    }
    account_structure();
}

Analyzer::~Analyzer() = default;

std::uint32_t Analyzer::run_index(const std::string& name) {
    auto [it, inserted] = run_ids_.try_emplace(name, static_cast<std::uint32_t>(runs_.size()));
    if (inserted) {
        runs_.emplace_back();
        runs_.back().name = name;
    }
    return it->second;
}

const RunStatus* Analyzer::run(std::string_view name) const {
    auto it = run_ids_.find(std::string(name));
    return it == run_ids_.end() ? nullptr : &runs_[it->second];
}

const AlertState& Analyzer::series_state(SeriesId id) const {
    static const AlertState kNone;
    if (id >= series_.size() || !series_[id].alerted) return kNone;
    return alerts_.find(id)->second;
}

AlertState& Analyzer::alert_of(SeriesId id) {
    series_[id].alerted = true;
    return alerts_[id];
}

void Analyzer::acknowledge_series(SeriesId id) {
    if (id >= series_.size()) return;
    AlertState& state = alert_of(id);
    count_state(state, -1);
    state.acknowledged = true;
    count_state(state, +1);
}

bool Analyzer::acknowledge_record(std::size_t index) {
    if (index >= log_.size()) return false;
    const AnomalyRecord& r = log_.records()[index];
    if (r.series == kNoSeries || r.series >= series_.size()) return false;
    if (series_state(r.series).last_step > r.last_step) return false;
    acknowledge_series(r.series);
    return true;
}

void Analyzer::acknowledge_all() {
    // Only series that fired have a state to acknowledge: the others are ok, and a first
    // episode starts unacknowledged anyway.
    for (auto& [id, state] : alerts_) state.acknowledged = true;
    level_counts_.acknowledged += level_counts_.alert + level_counts_.warn;
    level_counts_.alert = level_counts_.warn = 0;
    for (RunStatus& r : runs_) r.state.acknowledged = true;
}

std::string_view Analyzer::op(const SeriesState& s) const {
    return base_name(tags_.name(s.tag));
}

void Analyzer::add_series(SeriesId id, const SeriesKey& key, const SeriesSource& source) {
    while (series_.size() <= id) series_.emplace_back();
    SeriesState& s = series_[id];
    if (s.known) return;
    s.known = true;
    s.run = run_index(key.run);
    s.rank = key.rank;
    s.tag = tags_.intern(key.tag);
    s.msprobe_series = source.msprobe_ops;
    s.msprobe_nans = s.msprobe_series && op(s) == "nans";
    if (!selection_.selects(key)) {
        account_structure();
        return;
    }
    s.selected = true;
    ++selected_series_;
    // Every rank of a run has the same tags: the regexes run once per distinct tag.
    auto [cached, fresh] = tag_matches_.try_emplace(key.tag);
    std::vector<std::uint8_t>& matches = cached->second;
    if (fresh) {
        node_bytes_ += kHashNodeBytes + sizeof(*cached) + key.tag.size() + rules_.rules.size();
        matches.resize(rules_.rules.size());
        for (std::uint32_t i = 0; i < rules_.rules.size(); ++i) {
            const Compiled& c = *compiled_[i];
            matches[i] = (c.selects_tag(key.tag) ? kTagSelected : 0) |
                         (c.loss_like && RE2::PartialMatch(key.tag, *c.loss_like) ? kLossLike : 0);
        }
    }
    // A histogram's nine quantiles (core/distribution.h) are judged only for non-finite values,
    // and only the min, the median and the max: a NaN in the histogram turns them all NaN and an
    // Inf reaches an end, so those three catch it. Spike, threshold and cross-rank rules on
    // quantiles would fire nine times for one shift of a distribution that moves as a whole.
    const bool quantile = source.quantile >= 0;
    const bool judged_quantile = source.quantile == 0 || source.quantile == kMedianQuantile ||
                                 source.quantile == kDistributionQuantiles - 1;
    for (std::uint32_t i = 0; i < rules_.rules.size(); ++i) {
        const RuleConfig& rule = rules_.rules[i];
        if (rule.type == RuleType::kStall || !(matches[i] & kTagSelected) ||
            !compiled_[i]->ranks.selects(key.rank))
            continue;
        if (quantile && (!judged_quantile || rule.type != RuleType::kNonFinite)) continue;
        Slot slot;
        slot.rule = static_cast<std::uint16_t>(i);
        slot.type = rule.type;
        switch (rule.type) {
            case RuleType::kSpike: {
                const bool loss_like = (matches[i] & kLossLike) != 0;
                if (windows_closed_) {
                    slot.state = kEnveloped | envelope_for(i, s, loss_like);
                } else if (!free_spikes_.empty()) {
                    slot.state = free_spikes_.back();
                    free_spikes_.pop_back();
                    spikes_[slot.state] = SpikeDetector(rule.spike, loss_like);
                } else {
                    slot.state = static_cast<std::uint32_t>(spikes_.size());
                    spikes_.emplace_back(rule.spike, loss_like);
                }
                break;
            }
            case RuleType::kCrossRank: {
                if (key.rank == kNoRank) continue;
                auto [it, inserted] = group_ids_.try_emplace(
                    {i, key.run, key.tag}, static_cast<std::uint32_t>(groups_.size()));
                if (inserted) {
                    groups_.emplace_back();
                    groups_.back().rule = i;
                    node_bytes_ +=
                        tree_node_bytes<decltype(group_ids_)>() + key.run.size() + key.tag.size();
                }
                slot.state = it->second;
                ++groups_[slot.state].members;  // one series per (run, tag, rank)
                break;
            }
            case RuleType::kMsProbe:
                if (!s.msprobe_series) continue;
                slot.state = static_cast<std::uint32_t>(histories_.size());
                histories_.emplace_back();
                break;
            case RuleType::kNonFinite:
            case RuleType::kThreshold:
            case RuleType::kStall:
                break;
        }
        add_slot(s, slot);
    }
    account_structure();
}

std::uint64_t Analyzer::structure_bytes() const {
    return series_.bytes() + spikes_.bytes() + histories_.bytes() + tags_.bytes() +
           more_slots_.capacity() * sizeof(more_slots_[0]) +
           tag_matches_.bucket_count() * sizeof(void*) + groups_.capacity() * sizeof(Group) +
           envelopes_.capacity() * sizeof(Envelope) +
           free_spikes_.capacity() * sizeof(free_spikes_[0]);
}

void Analyzer::account_structure() {
    const std::uint64_t now = structure_bytes() + node_bytes_;
    bytes_ += now - structure_accounted_;
    structure_accounted_ = now;
}

std::uint64_t Analyzer::recount_bytes() const {
    std::uint64_t n = structure_bytes();
    for (const std::vector<Slot>& more : more_slots_) n += more.capacity() * sizeof(Slot);
    for (const auto& [tag, matches] : tag_matches_)
        n += kHashNodeBytes + sizeof(std::pair<const std::string, std::vector<std::uint8_t>>) +
             tag.size() + matches.size();
    for (const auto& [key, group] : group_ids_)
        n += tree_node_bytes<decltype(group_ids_)>() + std::get<1>(key).size() +
             std::get<2>(key).size();
    for (const Group& g : groups_) {
        for (const auto& [step, values] : g.pending)
            n += tree_node_bytes<Group::PendingMap>() + values.capacity() * sizeof(RankValue);
        n += g.backlog.capacity() * sizeof(Group::Waiting) + column_bytes(g);
    }
    n += column_of_.capacity() * sizeof(std::uint32_t);
    spikes_.for_each([&n](const SpikeDetector& d) { n += d.heap_bytes(); });
    n += envelope_ids_.size() * tree_node_bytes<decltype(envelope_ids_)>();
    for (const Envelope& e : envelopes_)
        n += e.detector.heap_bytes() + e.pending.capacity() * sizeof(EnvelopeStep);
    return n;
}

void Analyzer::add_slot(SeriesState& s, Slot slot) {
    if (s.slot_count < kInlineSlots) {
        s.inline_slots[s.slot_count++] = slot;
        return;
    }
    if (s.slot_count == kInlineSlots) {
        s.more = static_cast<std::uint32_t>(more_slots_.size());
        more_slots_.emplace_back(s.inline_slots.begin(), s.inline_slots.end());
        node_bytes_ += more_slots_.back().capacity() * sizeof(Slot);
    }
    std::vector<Slot>& more = more_slots_[s.more];
    const std::size_t before = more.capacity();
    more.push_back(slot);
    node_bytes_ += (more.capacity() - before) * sizeof(Slot);
    ++s.slot_count;
}

bool Analyzer::fire(SeriesId id, Slot& slot, std::int64_t step, double value, std::string message,
                    std::string_view rule_name, std::optional<Severity> severity, double reference,
                    bool first_point) {
    const RuleConfig& rule = rules_.rules[slot.rule];
    const SeriesKeyRef key = this->key(series_[id]);
    const Severity sev = severity.value_or(rule.severity);
    const bool new_episode = slot.open == kNoEpisode;
    if (new_episode) {
        AnomalyRecord r;
        r.run = key.run;
        r.rank = key.rank;
        r.tag = key.tag;
        r.series = id;
        r.step = step;
        r.rule = rule_name.empty() ? rule.name : std::string(rule_name);
        r.severity = sev;
        r.value = value;
        r.reference = reference;
        r.from_first_point = first_point;
        r.message = std::move(message);
        if (series_[id].msprobe_series) fill_msprobe_fields(r);
        const std::size_t record = log_.fire(std::move(r));
        // A log past 4 G records no longer extends episodes: each firing is a record.
        slot.open = record < kNoEpisode ? static_cast<std::uint32_t>(record) : kNoEpisode;
    } else {
        log_.fire(AnomalyRecord{.step = step}, slot.open);
    }
    AlertState& state = alert_of(id);
    count_state(state, -1);
    note(state, sev, step, new_episode);
    count_state(state, +1);
    run_fired(series_[id].run, sev, step, new_episode);
    return new_episode;
}

void Analyzer::count_state(const AlertState& state, int sign) {
    if (state.level == AlertLevel::kOk) return;
    std::size_t& n = state.acknowledged                  ? level_counts_.acknowledged
                     : state.level == AlertLevel::kAlert ? level_counts_.alert
                                                         : level_counts_.warn;
    n += static_cast<std::size_t>(sign);
}

void Analyzer::run_fired(std::uint32_t run, Severity severity, std::int64_t step,
                         bool new_episode) {
    note(runs_[run].state, severity, step, new_episode);
}

void Analyzer::add_point(SeriesId id, const Point& p) {
    ++points_;
    SeriesState& s = series_[id];
    selected_points_ += s.selected;
    RunStatus& run = runs_[s.run];
    run.pace.record(p.step, p.wall_time);
    run.last_arrival = now_;
    if (live_) run.live = true;
    if (run.stalled) {
        run.stalled = false;
        run.state.active = run.active_series > 0;
        // The silence is not the run's pace: measuring it would stretch the next stall's limit.
        run.pace = RateMeter(kPaceWindowSeconds);
    }
    if (s.has_step && p.step < s.last_step) {
        run.pace.restart(p.step);
        // A step going back is a restarted writer: msProbe's histories start again with it.
        for (Slot& slot : slots(s))
            if (slot.type == RuleType::kMsProbe) histories_[slot.state] = MsProbeHistory{};
    }
    const bool repeated = s.has_step && p.step == s.last_step;
    const bool first_point = !s.has_step;
    s.last_step = p.step;
    s.has_step = true;
    run.furthest_step = std::max(run.furthest_step, p.step);
    if (s.slot_count == 0) return;

    bool fired = false;
    const double v = p.value;
    for (Slot& slot : slots(s)) {
        switch (slot.type) {
            case RuleType::kNonFinite: {
                if (std::isfinite(v) && !(s.msprobe_nans && v > 0)) {
                    pass(slot);
                    break;
                }
                std::string msg = std::isnan(v) ? "value is NaN"
                                  : std::isinf(v)
                                      ? (v > 0 ? "value is +Inf" : "value is -Inf")
                                      : fmt::format("{} NaN elements in the tensor", value_text(v));
                fire(id, slot, p.step, v, std::move(msg), {}, {},
                     std::numeric_limits<double>::quiet_NaN(), first_point);
                fired = true;
                break;
            }
            case RuleType::kSpike: {
                if (slot.state & kEnveloped) {
                    // A rewritten step: its member has counted at that step already.
                    if (!repeated)
                        envelope_point(id, envelopes_[slot.state & ~kEnveloped], p.step, v);
                    break;
                }
                SpikeDetector& spike = spikes_[slot.state];
                const std::size_t held = spike.heap_bytes();
                std::optional<SpikeFinding> f = spike.push(p.step, v, scratch_);
                window_bytes_ += static_cast<std::uint64_t>(recharge(spike, held));
                if (!f) {
                    if (std::isfinite(v)) pass(slot);
                } else if (f->step == p.step) {  // spikes on consecutive points are one episode
                    report_spike(id, slot, *f, SpikeWhen::kNow, 0);
                    fired = true;
                } else {  // confirmed a point or more after it
                    report_spike(id, slot, *f, SpikeWhen::kFellBack, 0);
                }
                // Windows are closed: one that grew goes, unless a candidate waits in it.
                if (windows_closed_ && spike.heap_bytes() > held && !spike.waiting()) {
                    join_envelope(s, slot);
                    account_structure();
                }
                break;
            }
            case RuleType::kThreshold: {
                const ThresholdParams& t = rules_.rules[slot.rule].threshold;
                std::string msg;
                if (t.above && v > *t.above)
                    msg = fmt::format("{} is above {}", value_text(v), value_text(*t.above));
                else if (t.below && v < *t.below)
                    msg = fmt::format("{} is below {}", value_text(v), value_text(*t.below));
                if (msg.empty()) {
                    pass(slot);
                    break;
                }
                fire(id, slot, p.step, v, std::move(msg), {}, {},
                     t.above && v > *t.above ? *t.above : t.below.value_or(0), first_point);
                fired = true;
                break;
            }
            case RuleType::kCrossRank: {
                if (repeated) break;  // a rewritten step: its rank is already waiting
                Group& g = groups_[slot.state];
                g.seen_positive |= v > 0;
                g.seen_negative |= v < 0;
                if (!live_) {
                    wait_in_backfill(g, id, s.rank, p.step, v);
                    if (backfill_bytes_ > kMaxBackfillBytes) judge_backlog(g);
                    break;
                }
                const std::size_t steps = g.pending.size();
                std::vector<RankValue>& at = g.pending[p.step];
                const std::size_t held = at.capacity();
                at.push_back({s.rank, v, id});
                charge(static_cast<std::int64_t>((g.pending.size() - steps) *
                                                 tree_node_bytes<Group::PendingMap>()) +
                       grown_bytes(at, held));
                if (at.size() >= g.members) {
                    judge_group(g, p.step, at);
                    charge(-static_cast<std::int64_t>(tree_node_bytes<Group::PendingMap>()) -
                           grown_bytes(at, 0));
                    g.pending.erase(p.step);
                }
                while (g.pending.size() > kMaxPendingSteps) judge_oldest(g);
                break;
            }
            case RuleType::kMsProbe: {
                std::optional<MsProbeFiring> f =
                    msprobe_sets_[slot.rule]->evaluate(histories_[slot.state], op(s), v);
                if (!f) break;
                const std::string_view name = msprobe_rule_name(f->rule);
                const SeriesKeyRef key = this->key(s);
                AnomalyRecord probe{
                    .run = std::string(key.run), .rank = key.rank, .tag = std::string(key.tag)};
                fill_msprobe_fields(probe);
                std::string msg = fmt::format(
                    "Rule {} reports anomaly signal in ('{}', '{}') at step {}, current value {}, "
                    "history mean {}.",
                    name, probe.msprobe_tag_name.empty() ? key.tag : probe.msprobe_tag_name, op(s),
                    p.step, python_float(f->value), python_float(f->history_mean));
                slot.open = kNoEpisode;  // msProbe reports every step: no episodes
                fire(id, slot, p.step, v, std::move(msg), name, msprobe_severity(name),
                     f->history_mean);
                slot.open = kNoEpisode;
                fired = true;
                break;
            }
            case RuleType::kStall:
                break;
        }
    }
    if (!fired && !s.alerted) return;  // the usual point: no state to touch
    AlertState& state = alert_of(id);
    if (state.active != fired) {
        state.active = fired;
        run.active_series += fired ? 1 : -1;
        run.state.active = run.active_series > 0 || run.stalled;
    }
}

void Analyzer::report_spike(SeriesId id, Slot& slot, const SpikeFinding& f, SpikeWhen when,
                            std::uint32_t envelope_members) {
    const std::string of = envelope_members == 0
                               ? std::string("the values before")
                               : fmt::format("the tag's envelope over {} rank{} before",
                                             envelope_members, envelope_members == 1 ? "" : "s");
    const std::string z = std::isinf(f.z) ? std::string("inf") : fmt::format("{:.1f}", f.z);
    std::string msg = fmt::format("{} is {:.3g}x the level {} of {} (z {}){}", value_text(f.value),
                                  f.ratio, value_text(f.median), of, z,
                                  when == SpikeWhen::kNow        ? ""
                                  : when == SpikeWhen::kFellBack ? ", then fell back"
                                                                 : "; the data ends before it "
                                                                   "could fall back");
    if (when == SpikeWhen::kNow) {
        fire(id, slot, f.step, f.value, std::move(msg), {}, {}, f.median);
        return;
    }
    // Decided a point or more after it: a record of its own, at its own step.
    slot.open = kNoEpisode;
    fire(id, slot, f.step, f.value, std::move(msg), {}, {}, f.median);
    pass(slot);
}

std::uint32_t Analyzer::envelope_for(std::uint32_t rule, const SeriesState& s, bool loss_like) {
    auto [it, inserted] = envelope_ids_.try_emplace({rule, s.run, s.tag},
                                                    static_cast<std::uint32_t>(envelopes_.size()));
    if (inserted) {
        envelopes_.emplace_back(rules_.rules[rule].spike, loss_like, rule);
        node_bytes_ += tree_node_bytes<decltype(envelope_ids_)>();
    }
    ++envelopes_[it->second].members;
    ++enveloped_;
    return it->second;
}

std::uint64_t Analyzer::join_envelope(SeriesState& s, Slot& slot) {
    SpikeDetector& window = spikes_[slot.state];
    const bool loss_like = window.loss_like();
    const std::size_t held = window.heap_bytes();
    window_bytes_ -= held;
    free_spikes_.push_back(slot.state);
    pass(slot);
    const std::uint32_t index = envelope_for(slot.rule, s, loss_like);
    Envelope& e = envelopes_[index];
    std::size_t kept = 0;
    if (e.detector.finite_seen() == 0 && e.waiting() == 0 && window.finite_seen() > 0) {
        // The first member hands its history over, so the envelope does not warm up again from
        // nothing (a tag of one rank is then judged exactly as before). Live, its steps are
        // judged; in a backfill later ranks still bring theirs.
        e.detector = std::move(window);
        if (live_) e.judged_through = s.last_step;
        kept = held;
    }
    window = SpikeDetector(rules_.rules[slot.rule].spike, loss_like);  // its ring freed
    charge(static_cast<std::int64_t>(kept) - static_cast<std::int64_t>(held));
    slot.state = kEnveloped | index;
    return held - kept;
}

std::uint64_t Analyzer::shed_windows(std::uint64_t bytes) {
    windows_closed_ = true;
    // What is left waits for candidates to fall back: no round over millions of series again
    // until that changes.
    if (window_bytes_ == unsheddable_bytes_) return 0;
    std::uint64_t freed = 0;
    std::size_t visited = 0;
    // Round the series from where the last call stopped: each window is visited once however
    // often the sink asks (it does while the Store stays at its floor).
    for (; visited < series_.size() && freed < bytes && window_bytes_ > 0; ++visited) {
        if (shed_cursor_ >= series_.size()) shed_cursor_ = 0;
        const SeriesId id = static_cast<SeriesId>(shed_cursor_++);
        SeriesState& s = series_[id];
        for (Slot& slot : slots(s)) {
            if (slot.type != RuleType::kSpike || (slot.state & kEnveloped)) continue;
            const SpikeDetector& window = spikes_[slot.state];
            // A window not yet made goes when it is (add_point); a waiting candidate stays.
            if (window.heap_bytes() == 0 || window.waiting()) continue;
            freed += join_envelope(s, slot);
        }
    }
    if (visited == series_.size() && freed < bytes) unsheddable_bytes_ = window_bytes_;
    // Most detectors are free now (at 2 M series, 80 MB of them): no new series takes one while
    // windows are closed.
    if (free_spikes_.size() > 4096 && 2 * free_spikes_.size() > spikes_.size()) compact_spikes();
    account_structure();
#ifdef __GLIBC__
    // The windows and detectors were small heap blocks among the series' states: free, they are
    // holes malloc keeps (resident, and counted nowhere) unless it is told to give their pages
    // back. Once a round, not per window.
    if (freed > 0) ::malloc_trim(0);
#endif
    return freed;
}

void Analyzer::compact_spikes() {
    PagedVector<SpikeDetector, 256> kept;
    for (SeriesId id = 0; id < series_.size(); ++id)
        for (Slot& slot : slots(series_[id])) {
            if (slot.type != RuleType::kSpike || (slot.state & kEnveloped)) continue;
            kept.emplace_back(std::move(spikes_[slot.state]));
            slot.state = static_cast<std::uint32_t>(kept.size() - 1);
        }
    spikes_.swap(kept);
    std::vector<std::uint32_t>().swap(free_spikes_);
}

Analyzer::Slot* Analyzer::spike_slot(SeriesId id, std::uint32_t rule) {
    for (Slot& slot : slots(series_[id]))
        if (slot.type == RuleType::kSpike && slot.rule == rule) return &slot;
    return nullptr;
}

SeriesId Analyzer::member_at(const Envelope& e, std::int64_t step) {
    for (const auto& [at, member] : e.recent)
        if (at == step && member != kNoSeries) return member;
    return kNoSeries;
}

void Analyzer::envelope_point(SeriesId id, Envelope& e, std::int64_t step, double value) {
    // Judged already without this member (it lagged more than the envelope waits): the
    // detector takes steps in order only. The Store still has the point.
    if (step <= e.judged_through) return;
    std::vector<EnvelopeStep>& steps = e.pending;
    const std::size_t capacity = steps.capacity();
    auto it = steps.end();
    if (e.waiting() == 0 || steps.back().step < step) {  // the usual case: a newer step
        steps.push_back({.step = step});
        it = steps.end() - 1;
        ++envelope_steps_;
    } else {
        it =
            std::lower_bound(steps.begin() + static_cast<std::ptrdiff_t>(e.head), steps.end(), step,
                             [](const EnvelopeStep& a, std::int64_t b) { return a.step < b; });
        if (it == steps.end() || it->step != step) {
            it = steps.insert(it, EnvelopeStep{.step = step});
            ++envelope_steps_;
        }
    }
    charge(static_cast<std::int64_t>((steps.capacity() - capacity) * sizeof(EnvelopeStep)));
    EnvelopeStep& at = *it;
    ++at.count;
    if (std::isfinite(value) && (at.arg == kNoSeries || std::fabs(value) > std::fabs(at.value))) {
        at.value = value;
        at.arg = id;
    }
    if (!live_) {  // every rank's history first, as for cross-rank steps
        while (envelope_steps_ > kMaxBackfillEnvelopeSteps && e.waiting() > 0)
            judge_envelope_step(e);
        return;
    }
    while (e.waiting() > 0 && e.pending[e.head].count >= e.members) judge_envelope_step(e);
    while (e.waiting() > kMaxPendingSteps) judge_envelope_step(e);
}

void Analyzer::judge_envelope_step(Envelope& e) {
    const EnvelopeStep at = e.pending[e.head++];
    const std::int64_t step = at.step;
    --envelope_steps_;
    if (e.head == e.pending.size()) {
        e.pending.clear();
        e.head = 0;
    } else if (e.head >= 64 && 2 * e.head >= e.pending.size()) {  // judged ones leave
        e.pending.erase(e.pending.begin(), e.pending.begin() + static_cast<std::ptrdiff_t>(e.head));
        e.head = 0;
    }
    e.judged_through = step;
    if (at.arg == kNoSeries) return;  // no finite value: not the spike rule's business
    e.recent[e.fed++ % Envelope::kRecent] = {step, at.arg};
    const std::size_t held = e.detector.heap_bytes();
    const std::optional<SpikeFinding> f = e.detector.push(step, at.value, scratch_);
    recharge(e.detector, held);
    Slot* open = e.open == kNoSeries ? nullptr : spike_slot(e.open, e.rule);
    const bool now = f && f->step == step;
    if (open && !(now && e.open == at.arg)) pass(*open);
    e.open = kNoSeries;
    if (!f) return;
    const SeriesId who = now ? at.arg : member_at(e, f->step);
    Slot* slot = who == kNoSeries ? nullptr : spike_slot(who, e.rule);
    if (!slot) return;
    report_spike(who, *slot, *f, now ? SpikeWhen::kNow : SpikeWhen::kFellBack, e.members);
    if (now) e.open = who;
}

void Analyzer::judge_envelope(Envelope& e) {
    while (e.waiting() > 0) judge_envelope_step(e);
    charge(-static_cast<std::int64_t>(e.pending.capacity() * sizeof(EnvelopeStep)));
    std::vector<EnvelopeStep>().swap(e.pending);
}

void Analyzer::finish_envelope(Envelope& e) {
    judge_envelope(e);
    const std::size_t held = e.detector.heap_bytes();
    const std::optional<SpikeFinding> f = e.detector.finish();
    recharge(e.detector, held);
    if (!f) return;
    const SeriesId who = member_at(e, f->step);
    if (Slot* slot = who == kNoSeries ? nullptr : spike_slot(who, e.rule))
        report_spike(who, *slot, *f, SpikeWhen::kDataEnded, e.members);
}

void Analyzer::judge_oldest(Group& g) {
    auto oldest = g.pending.begin();
    judge_group(g, oldest->first, oldest->second);
    charge(-static_cast<std::int64_t>(tree_node_bytes<Group::PendingMap>()) -
           grown_bytes(oldest->second, 0));
    g.pending.erase(oldest);
}

void Analyzer::judge_waiting_steps() {
    // The columns go together with their arena: no slab is handed back one by one.
    if (column_arena_) column_arena_->closing();
    for (Group& g : groups_) {
        judge_backlog(g);
        while (!g.pending.empty()) judge_oldest(g);
    }
    charge(-grown_bytes(column_of_, 0));
    std::vector<std::uint32_t>().swap(column_of_);  // live values wait in Group::pending
    column_arena_.reset();
}

void Analyzer::wait_in_backfill(Group& g, SeriesId id, int rank, std::int64_t step, double value) {
    if (!g.loose) {
        if (column_of_.size() <= id) {
            const std::size_t held = column_of_.capacity();
            column_of_.resize(std::max<std::size_t>(id + 1, column_of_.size() * 2), kNoColumn);
            charge(grown_bytes(column_of_, held));
        }
        std::uint32_t& c = column_of_[id];
        if (c == kNoColumn) {
            if (!column_arena_) column_arena_ = std::make_unique<PointArena>();
            c = static_cast<std::uint32_t>(g.columns.size());
            const std::size_t held = g.columns.capacity();
            g.columns.push_back({.series = id});
            hold(grown_bytes(g.columns, held));
        }
        // A series with two cross-rank rules: its column is the other group's.
        Group::Column* column =
            c < g.columns.size() && g.columns[c].series == id ? &g.columns[c] : nullptr;
        const std::size_t at = column ? column->size : 0;
        bool follows = false;
        if (column && at < g.steps.size()) {
            follows = g.steps[at] == step;
        } else if (column && at == g.steps.size()) {
            const std::size_t held = g.steps.heap_bytes();
            follows = g.steps.push_back(step);
            hold(static_cast<std::int64_t>(g.steps.heap_bytes()) - static_cast<std::int64_t>(held));
        }
        if (follows) {
            const auto narrow = static_cast<float>(value);
            // NaN's payload does not matter: a NaN is never compared.
            if (!g.wide && narrow != value && !std::isnan(value)) widen(g);
            if (column->size == column->capacity)
                // Most ranks write the steps the first one did: room for them at once.
                resize_column(
                    g, *column,
                    std::max<std::size_t>({g.steps.size(), std::size_t{column->capacity} * 2, 8}));
            if (g.wide)
                static_cast<double*>(column->values)[column->size++] = value;
            else
                static_cast<float*>(column->values)[column->size++] = narrow;
            return;
        }
        loosen(g);
    }
    const std::size_t held = g.backlog.capacity();
    g.backlog.push_back({step, {rank, value, id}});
    hold(grown_bytes(g.backlog, held));
}

void Analyzer::resize_column(Group& g, Group::Column& c, std::size_t want) {
    const std::size_t unit = g.value_bytes();
    c.values = column_arena_->reallocate(c.values, c.capacity * unit, c.size * unit, want * unit);
    hold(static_cast<std::int64_t>(PointArena::footprint(want * unit)) -
         static_cast<std::int64_t>(PointArena::footprint(c.capacity * unit)));
    c.capacity = static_cast<std::uint32_t>(want);
}

void Analyzer::widen(Group& g) {
    for (Group::Column& c : g.columns) {
        const std::size_t bytes = c.capacity * sizeof(double);
        auto* wide = static_cast<double*>(column_arena_->allocate(bytes));
        const auto* narrow = static_cast<const float*>(c.values);
        std::copy(narrow, narrow + c.size, wide);
        column_arena_->release(c.values, c.capacity * sizeof(float));
        hold(static_cast<std::int64_t>(PointArena::footprint(bytes)) -
             static_cast<std::int64_t>(PointArena::footprint(c.capacity * sizeof(float))));
        c.values = wide;
    }
    g.wide = true;
}

std::size_t Analyzer::column_bytes(const Group& g) const {
    std::size_t n = g.steps.heap_bytes() + g.columns.capacity() * sizeof(Group::Column);
    for (const Group::Column& c : g.columns)
        n += PointArena::footprint(c.capacity * g.value_bytes());
    return n;
}

void Analyzer::drop_columns(Group& g) {
    hold(-static_cast<std::int64_t>(column_bytes(g)));
    for (const Group::Column& c : g.columns) {
        column_of_[c.series] = kNoColumn;
        column_arena_->release(c.values, c.capacity * g.value_bytes());
    }
    std::vector<Group::Column>().swap(g.columns);
    g.steps = StepList();
    g.wide = false;
}

void Analyzer::loosen(Group& g) {
    const std::size_t held = g.backlog.capacity();
    std::size_t values = 0;
    for (const Group::Column& c : g.columns) values += c.size;
    g.backlog.reserve(g.backlog.size() + values);
    for (const Group::Column& c : g.columns) {
        const int rank = series_[c.series].rank;
        for (std::size_t i = 0; i < c.size; ++i)
            g.backlog.push_back({g.steps[i], {rank, g.value(c, i), c.series}});
    }
    hold(grown_bytes(g.backlog, held));
    drop_columns(g);
    g.loose = true;
}

void Analyzer::judge_backlog(Group& g) {
    if (!g.columns.empty()) {
        // Step by step down the columns, in the order the ranks were read.
        std::vector<int>& ranks = column_ranks_;
        ranks.clear();
        for (const Group::Column& c : g.columns) ranks.push_back(series_[c.series].rank);
        for (std::size_t i = 0; i < g.steps.size(); ++i) {
            step_values_.clear();
            for (std::size_t c = 0; c < g.columns.size(); ++c) {
                const Group::Column& column = g.columns[c];
                if (i < column.size)
                    step_values_.push_back({ranks[c], g.value(column, i), column.series});
            }
            judge_group(g, g.steps[i], step_values_);
        }
        drop_columns(g);
    }
    g.loose = false;
    if (g.backlog.empty()) return;
    // Each rank's values came in step order: a stable sort keeps a step's ranks in the order
    // they were read.
    std::stable_sort(
        g.backlog.begin(), g.backlog.end(),
        [](const Group::Waiting& a, const Group::Waiting& b) { return a.step < b.step; });
    for (std::size_t i = 0; i < g.backlog.size();) {
        const std::int64_t step = g.backlog[i].step;
        step_values_.clear();
        for (; i < g.backlog.size() && g.backlog[i].step == step; ++i)
            step_values_.push_back(g.backlog[i].value);
        judge_group(g, step, step_values_);
    }
    hold(-grown_bytes(g.backlog, 0));
    std::vector<Group::Waiting>().swap(g.backlog);
}

void Analyzer::judge_group(Group& g, std::int64_t step, std::span<const RankValue> values) {
    const RuleConfig& rule = rules_.rules[g.rule];
    const CrossRankParams& p = rule.cross_rank;
    if (p.min_ratio > 0 && !g.fired) {
        // Most steps cannot fire, and none has an episode to end: a rank must be min_ratio
        // times the median, which for one-signed values is at least their smallest magnitude.
        // One pass over the values decides them, with no median.
        if (g.seen_positive == g.seen_negative) return;
        int finite = 0;
        double lo = std::numeric_limits<double>::infinity(), hi = 0;
        for (const RankValue& rv : values) {
            if (!std::isfinite(rv.value)) continue;  // never fires, never passes
            ++finite;
            const double m = std::fabs(rv.value);
            lo = std::min(lo, m);
            hi = std::max(hi, m);
        }
        if (finite < p.min_ranks || hi < p.min_ratio * lo) return;
    }
    compute_cross_rank(values, CrossRankOptions{p.k, p.rel_floor, p.abs_floor}, cross_scratch_,
                       cross_stats_);
    if (cross_stats_.finite < p.min_ranks) return;
    const CrossRankStats& st = cross_stats_;
    // A ratio to the median means something only for a tag whose values keep one sign and
    // whose ranks agree on a level clearly away from 0: around 0 (a gradient's mean) any rank
    // is many times the median.
    const bool level = g.seen_positive != g.seen_negative && st.median != 0 &&
                       std::fabs(st.median) >= kLevelMads * st.mad_scaled;
    for (const RankValue& rv : values) {
        const SeriesId id = rv.series;
        Slot* slot = nullptr;
        for (Slot& candidate : slots(series_[id]))
            if (candidate.type == RuleType::kCrossRank && candidate.rule == g.rule)
                slot = &candidate;
        if (!slot) continue;
        const bool far = p.min_ratio <= 0 ||
                         (level && std::fabs(rv.value) >= p.min_ratio * std::fabs(st.median));
        if (!far ||
            !std::binary_search(st.outlier_ranks.begin(), st.outlier_ranks.end(), rv.rank)) {
            if (std::isfinite(rv.value)) pass(*slot);
            continue;
        }
        g.fired = true;
        fire(id, *slot, step, rv.value,
             fmt::format("rank {} at {} is off the median {} of {} ranks by {} (MAD {})", rv.rank,
                         value_text(rv.value), value_text(st.median), st.finite,
                         value_text(std::fabs(rv.value - st.median)), value_text(st.mad)),
             {}, {}, st.median);
    }
}

void Analyzer::import(const ImportedAnomaly& a) {
    SeriesKey key{a.run, a.rank, a.tag.empty() ? a.raw_tag : a.tag};
    if (!selection_.selects(key)) return;
    // msProbe rewrites its file every step and every entry comes again: count each once.
    if (!log_.import(a, kNoSeries)) return;
    run_fired(run_index(a.run), msprobe_severity(a.rule), a.step, true);
}

void Analyzer::finish() {
    judge_waiting_steps();
    for (SeriesId id = 0; id < series_.size(); ++id) {
        for (Slot& slot : slots(series_[id])) {
            if (slot.type != RuleType::kSpike || (slot.state & kEnveloped)) continue;
            SpikeDetector& spike = spikes_[slot.state];
            const std::size_t held = spike.heap_bytes();
            std::optional<SpikeFinding> f = spike.finish();
            window_bytes_ += static_cast<std::uint64_t>(recharge(spike, held));
            if (f) report_spike(id, slot, *f, SpikeWhen::kDataEnded, 0);
        }
    }
    for (Envelope& e : envelopes_) finish_envelope(e);
}

void Analyzer::set_live() {
    live_ = true;
    judge_waiting_steps();  // every rank's history is in: each step with all of its ranks
    for (Envelope& e : envelopes_) judge_envelope(e);
    double limit = 0;
    for (const RuleConfig& rule : rules_.rules)
        if (rule.type == RuleType::kStall) limit = std::max(limit, rule.stall.seconds);
    // A run whose newest point is recent is running now: it is watched from its newest point.
    for (RunStatus& run : runs_) {
        const double since = run.pace.seconds_since_last(now_);
        if (std::isfinite(since) && since >= 0 && since < limit) {
            run.live = true;
            run.last_arrival = now_ - since;
        }
    }
}

void Analyzer::tick() {
    if (!live_) return;
    for (std::uint32_t i = 0; i < rules_.rules.size(); ++i) {
        const RuleConfig& rule = rules_.rules[i];
        if (rule.type != RuleType::kStall) continue;
        for (std::uint32_t r = 0; r < runs_.size(); ++r) {
            RunStatus& run = runs_[r];
            if (!run.live || run.stalled || run.last_arrival < 0) continue;
            const double silent = now_ - run.last_arrival;
            const double rate = run.pace.steps_per_second();
            double limit = rule.stall.seconds;
            if (std::isfinite(rate) && rate > 0)
                limit = std::max(limit, rule.stall.interval_factor / rate);
            if (silent <= limit) continue;
            run.stalled = true;
            run.state.active = true;
            AnomalyRecord rec;
            rec.run = run.name;
            rec.step = run.furthest_step;
            rec.rule = rule.name;
            rec.severity = rule.severity;
            rec.value = silent;
            rec.message =
                std::isfinite(rate) && rate > 0
                    ? fmt::format("no new data for {} (it wrote a step every {:.3g} s before)",
                                  duration_text(silent), 1 / rate)
                    : fmt::format("no new data for {}", duration_text(silent));
            log_.fire(std::move(rec));
            run_fired(r, rule.severity, run.furthest_step, true);
        }
    }
}

}  // namespace runtop
