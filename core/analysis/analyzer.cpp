#include "core/analysis/analyzer.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cmath>

#include "core/format.h"
#include "core/identity.h"
#include "core/rank_spec.h"

namespace runtop {
namespace {

// Live: pending cross-rank steps per group before the oldest is judged with the ranks it has.
constexpr std::size_t kMaxPendingSteps = 16;
// While the backfill reads what was on disk, files arrive one after another, a rank's whole
// history before the next rank's, so no step can be judged until every rank is read: steps wait
// for set_live() or finish(). This bounds what waits (values over every group, 16 bytes each
// plus the map's nodes: about 60 MB); past it the oldest step of the growing group is judged
// with the ranks it has.
constexpr std::size_t kMaxBackfillPendingValues = std::size_t{1} << 21;

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
    return id < series_.size() ? series_[id].alert : kNone;
}

void Analyzer::acknowledge_series(SeriesId id) {
    if (id >= series_.size()) return;
    AlertState& state = series_[id].alert;
    count_state(state, -1);
    state.acknowledged = true;
    count_state(state, +1);
}

void Analyzer::acknowledge_all() {
    for (std::size_t id = 0; id < series_.size(); ++id) series_[id].alert.acknowledged = true;
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
    for (std::uint32_t i = 0; i < rules_.rules.size(); ++i) {
        const RuleConfig& rule = rules_.rules[i];
        if (rule.type == RuleType::kStall || !(matches[i] & kTagSelected) ||
            !compiled_[i]->ranks.selects(key.rank))
            continue;
        Slot slot;
        slot.rule = static_cast<std::uint16_t>(i);
        slot.type = rule.type;
        switch (rule.type) {
            case RuleType::kSpike:
                slot.state = static_cast<std::uint32_t>(spikes_.size());
                spikes_.emplace_back(rule.spike, (matches[i] & kLossLike) != 0);
                break;
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
                auto& ranks = groups_[slot.state].series_of_rank;
                const std::size_t before = ranks.size();
                ranks[key.rank] = id;
                node_bytes_ += (ranks.size() - before) * tree_node_bytes<Group::RankMap>();
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
           tag_matches_.bucket_count() * sizeof(void*) + groups_.capacity() * sizeof(Group);
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
        n += g.series_of_rank.size() * tree_node_bytes<Group::RankMap>();
        for (const auto& [step, values] : g.pending)
            n += tree_node_bytes<Group::PendingMap>() + values.capacity() * sizeof(RankValue);
    }
    spikes_.for_each([&n](const SpikeDetector& d) { n += d.heap_bytes(); });
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
                    std::string_view rule_name, std::optional<Severity> severity) {
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
        r.message = std::move(message);
        if (series_[id].msprobe_series) fill_msprobe_fields(r);
        const std::size_t record = log_.fire(std::move(r));
        // A log past 4 G records no longer extends episodes: each firing is a record.
        slot.open = record < kNoEpisode ? static_cast<std::uint32_t>(record) : kNoEpisode;
    } else {
        log_.fire(AnomalyRecord{.step = step}, slot.open);
    }
    count_state(series_[id].alert, -1);
    note(series_[id].alert, sev, step, new_episode);
    count_state(series_[id].alert, +1);
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
                fire(id, slot, p.step, v, std::move(msg));
                fired = true;
                break;
            }
            case RuleType::kSpike: {
                SpikeDetector& spike = spikes_[slot.state];
                const std::size_t held = spike.heap_bytes();
                std::optional<SpikeFinding> f = spike.push(p.step, v, scratch_);
                charge(static_cast<std::int64_t>(spike.heap_bytes()) -
                       static_cast<std::int64_t>(held));
                if (!f) {
                    if (std::isfinite(v)) pass(slot);
                    break;
                }
                std::string msg =
                    fmt::format("{} is {:.3g}x the level {} of the values before (z {}){}",
                                value_text(f->value), f->ratio, value_text(f->median),
                                std::isinf(f->z) ? std::string("inf") : fmt::format("{:.1f}", f->z),
                                f->step == p.step ? "" : ", then fell back");
                if (f->step == p.step) {  // spikes on consecutive points are one episode
                    fire(id, slot, f->step, f->value, std::move(msg));
                    fired = true;
                    break;
                }
                // Confirmed a point or more after it: a record of its own, at its own step.
                slot.open = kNoEpisode;
                fire(id, slot, f->step, f->value, std::move(msg));
                pass(slot);
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
                fire(id, slot, p.step, v, std::move(msg));
                fired = true;
                break;
            }
            case RuleType::kCrossRank: {
                if (repeated) break;  // a rewritten step: its rank is already waiting
                Group& g = groups_[slot.state];
                const std::size_t steps = g.pending.size();
                std::vector<RankValue>& at = g.pending[p.step];
                const std::size_t held = at.capacity();
                at.push_back({s.rank, v});
                charge(static_cast<std::int64_t>((g.pending.size() - steps) *
                                                     tree_node_bytes<Group::PendingMap>() +
                                                 (at.capacity() - held) * sizeof(RankValue)));
                ++pending_values_;
                if (!live_) {
                    while (pending_values_ > kMaxBackfillPendingValues) judge_oldest(g);
                    break;
                }
                if (at.size() >= g.series_of_rank.size()) {
                    pending_values_ -= at.size();
                    judge_group(g, p.step, at);
                    charge(-static_cast<std::int64_t>(tree_node_bytes<Group::PendingMap>() +
                                                      at.capacity() * sizeof(RankValue)));
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
                fire(id, slot, p.step, v, std::move(msg), name, msprobe_severity(name));
                slot.open = kNoEpisode;
                fired = true;
                break;
            }
            case RuleType::kStall:
                break;
        }
    }
    AlertState& state = series_[id].alert;
    if (state.active != fired) {
        state.active = fired;
        run.active_series += fired ? 1 : -1;
        run.state.active = run.active_series > 0 || run.stalled;
    }
}

void Analyzer::judge_oldest(Group& g) {
    auto oldest = g.pending.begin();
    pending_values_ -= oldest->second.size();
    judge_group(g, oldest->first, oldest->second);
    charge(-static_cast<std::int64_t>(tree_node_bytes<Group::PendingMap>() +
                                      oldest->second.capacity() * sizeof(RankValue)));
    g.pending.erase(oldest);
}

void Analyzer::judge_waiting_steps() {
    for (Group& g : groups_)
        while (!g.pending.empty()) judge_oldest(g);
}

void Analyzer::judge_group(Group& g, std::int64_t step, std::vector<RankValue>& values) {
    const RuleConfig& rule = rules_.rules[g.rule];
    const CrossRankParams& p = rule.cross_rank;
    compute_cross_rank(values, CrossRankOptions{p.k, p.rel_floor, p.abs_floor}, cross_scratch_,
                       cross_stats_);
    if (cross_stats_.finite < p.min_ranks) return;
    const CrossRankStats& st = cross_stats_;
    for (const RankValue& rv : values) {
        auto it = g.series_of_rank.find(rv.rank);
        if (it == g.series_of_rank.end()) continue;
        const SeriesId id = it->second;
        Slot* slot = nullptr;
        for (Slot& candidate : slots(series_[id]))
            if (candidate.type == RuleType::kCrossRank && candidate.rule == g.rule)
                slot = &candidate;
        if (!slot) continue;
        if (!std::binary_search(st.outlier_ranks.begin(), st.outlier_ranks.end(), rv.rank)) {
            if (std::isfinite(rv.value)) pass(*slot);
            continue;
        }
        fire(id, *slot, step, rv.value,
             fmt::format("rank {} at {} is off the median {} of {} ranks by {} (MAD {})", rv.rank,
                         value_text(rv.value), value_text(st.median), st.finite,
                         value_text(std::fabs(rv.value - st.median)), value_text(st.mad)));
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
            if (slot.type != RuleType::kSpike) continue;
            SpikeDetector& spike = spikes_[slot.state];
            const std::size_t held = spike.heap_bytes();
            std::optional<SpikeFinding> f = spike.finish();
            charge(static_cast<std::int64_t>(spike.heap_bytes()) - static_cast<std::int64_t>(held));
            if (!f) continue;
            slot.open = kNoEpisode;
            fire(id, slot, f->step, f->value,
                 fmt::format("{} is {:.3g}x the level {} of the values before (z {}); the data "
                             "ends before it could fall back",
                             value_text(f->value), f->ratio, value_text(f->median),
                             std::isinf(f->z) ? std::string("inf") : fmt::format("{:.1f}", f->z)));
            pass(slot);
        }
    }
}

void Analyzer::set_live() {
    live_ = true;
    judge_waiting_steps();  // every rank's history is in: each step with all of its ranks
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
