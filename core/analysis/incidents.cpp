#include "core/analysis/incidents.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

#include "core/analysis/anomaly_order.h"
#include "core/analysis/msprobe_rules.h"
#include "core/format.h"

namespace runtop {
namespace {

bool contains_any(std::string_view text, std::initializer_list<std::string_view> words) {
    for (std::string_view w : words)
        if (text.find(w) != std::string_view::npos) return true;
    return false;
}

FlowStage stage_of_kind(std::string_view kind) {
    if (kind == "actv") return FlowStage::kForward;
    if (kind == "actv_grad") return FlowStage::kActivationGrad;
    if (kind == "acc_grad" || kind == "pre_grad") return FlowStage::kLocalGrad;
    if (kind == "post_grad") return FlowStage::kReducedGrad;
    if (kind == "exp_avg" || kind == "exp_avg_sq" || kind == "mg_direction")
        return FlowStage::kOptimizer;
    if (kind == "param_origin" || kind == "param_updated") return FlowStage::kParameter;
    return FlowStage::kOther;
}

// The tag's words, for series that are not msProbe's. Schedules and clocks first: "loss_scale"
// is not a loss, "weight_decay" not a weight.
FlowStage stage_of_tag(std::string_view tag) {
    std::string t(tag);
    for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (contains_any(t, {"loss_scale", "loss scale", "lossscale", "learning_rate", "learning rate",
                         "weight_decay", "momentum", "warmup", "epoch", "throughput", "time",
                         "memory", "samples", "tokens", "iteration"}) ||
        t == "lr" || t.ends_with("/lr") || t.ends_with("_lr") || t.ends_with(" lr"))
        return FlowStage::kOther;
    if (contains_any(t, {"exp_avg", "adam", "optim", "moment", "mg_direction"}))
        return FlowStage::kOptimizer;
    if (contains_any(t, {"actv_grad", "activation_grad", "act_grad", "input_grad", "output_grad"}))
        return FlowStage::kActivationGrad;
    if (contains_any(t, {"local_norm", "unreduced", "local_grad", "pre_grad"}))
        return FlowStage::kLocalGrad;
    if (contains_any(t, {"grad", "global_norm", "gnorm"})) return FlowStage::kReducedGrad;
    if (contains_any(t, {"loss", "ppl", "perplexity", "nll", "actv", "activation", "logit", "acc",
                         "reward"}))
        return FlowStage::kForward;
    if (contains_any(t, {"param", "weight"})) return FlowStage::kParameter;
    return FlowStage::kOther;
}

bool msprobe_rule(std::string_view rule) {
    return rule == msprobe_rule_name(MsProbeRuleKind::kTurbulence) ||
           rule == msprobe_rule_name(MsProbeRuleKind::kNan);
}

bool nonfinite_like(const AnomalyRecord& r) {
    return r.rule == "nonfinite" || r.rule == msprobe_rule_name(MsProbeRuleKind::kNan) ||
           !std::isfinite(r.value);
}

// The series a record is on, as conditions and "shared" see it: msProbe's statistic (its own
// records name no op) or the tag.
std::string_view series_name(const AnomalyRecord& r) {
    return r.msprobe_statistic.empty() ? std::string_view(r.tag)
                                       : std::string_view(r.msprobe_statistic);
}
using SeriesOf = std::tuple<std::string_view, int, std::string_view>;
SeriesOf series_of(const AnomalyRecord& r) {
    return {r.run, r.rank, series_name(r)};
}

// Equal as an all-reduce leaves them: to the last digits a file keeps, NaN equal to NaN.
bool same_value(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    if (a == b) return true;
    return std::fabs(a - b) <= 1e-6 * std::max(std::fabs(a), std::fabs(b));
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    const double upper = v[mid];
    if (v.size() % 2 == 1) return upper;
    return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2;
}

class Finder {
  public:
    Finder(const AnomalyLog& log, const IncidentOptions& options)
        : records_(log.records()), ordered_(log.ordered()), options_(options) {}

    IncidentReport run() {
        out_.incident_of.assign(ordered_.size(), kNoIncident);
        find_conditions();
        group();
        for (Incident& inc : building_) order_members(inc);
        std::vector<Incident> incidents = std::move(building_);
        std::stable_sort(incidents.begin(), incidents.end(),
                         [](const Incident& a, const Incident& b) { return a.step < b.step; });
        out_.incidents = std::move(incidents);
        for (std::size_t i = 0; i < out_.incidents.size(); ++i)
            for (std::size_t k : out_.incidents[i].members) out_.incident_of[k] = i;
        judge();
        for (std::size_t i = 0; i < out_.incidents.size(); ++i)
            if (out_.incidents[i].major) {
                out_.first_major = i;
                break;
            }
        return std::move(out_);
    }

  private:
    const AnomalyRecord& record(std::size_t k) const { return records_[ordered_[k].index]; }

    // A member's deviation: the worse of the entry's record and runtop's merged into it.
    double member_deviation(std::size_t k) const {
        double d = deviation(record(k));
        if (ordered_[k].runtop_index != kNoRecord)
            d = std::max(d, deviation(records_[ordered_[k].runtop_index]));
        return d;
    }

    void find_conditions() {
        std::vector<std::size_t> condition_of_record(records_.size(), kNoIncident);
        std::map<SeriesOf, std::size_t> condition_of_series;
        for (std::size_t i = 0; i < records_.size(); ++i) {
            const AnomalyRecord& r = records_[i];
            if (r.source != AnomalySource::kRuntop || !r.from_first_point || r.ended ||
                r.tag.empty())
                continue;
            // One condition per series (for msProbe, per statistic: its ops go wrong together).
            auto [it, fresh] =
                condition_of_series.try_emplace(series_of(r), out_.conditions.size());
            if (fresh) {
                out_.conditions.push_back(Condition{.record = i,
                                                    .since_step = r.step,
                                                    .series = std::string(series_name(r)),
                                                    .records = {},
                                                    .entries = {}});
            }
            Condition& c = out_.conditions[it->second];
            c.records.push_back(i);
            c.since_step = std::min(c.since_step, r.step);
            condition_of_record[i] = it->second;
        }
        in_condition_.assign(ordered_.size(), false);
        if (out_.conditions.empty()) return;
        for (std::size_t k = 0; k < ordered_.size(); ++k) {
            const LogEntry& e = ordered_[k];
            std::size_t c = condition_of_record[e.index];
            if (c == kNoIncident && e.runtop_index != kNoRecord)
                c = condition_of_record[e.runtop_index];
            if (c == kNoIncident) {
                // Another record on a condition's series, of the same kind: msProbe saying
                // again, every step, what the condition says.
                const AnomalyRecord& r = records_[e.index];
                auto it = condition_of_series.find(series_of(r));
                if (it != condition_of_series.end()) {
                    const AnomalyRecord& first = records_[out_.conditions[it->second].record];
                    if (r.step >= first.step &&
                        (r.rule == first.rule || (nonfinite_like(r) && nonfinite_like(first))))
                        c = it->second;
                }
            }
            if (c == kNoIncident) continue;
            out_.conditions[c].entries.push_back(k);
            in_condition_[k] = true;
        }
    }

    void group() {
        std::unordered_map<std::string_view, std::size_t> newest;  // run -> its newest incident
        std::map<SeriesOf, std::size_t> incident_of_series;        // the latest it joined
        for (std::size_t k = 0; k < ordered_.size(); ++k) {
            if (in_condition_[k]) continue;
            const AnomalyRecord& r = record(k);
            const SeriesOf series = series_of(r);
            std::size_t joined = kNoIncident;
            // The same series NaN or Inf again within the window: the event going on (msProbe
            // reports a NaN again at every step; runtop's own episodes are one record anyway).
            // A finite deviation again is judged anew: msProbe's turbulence fires on the same
            // series step after step in the first steps of a run.
            auto it =
                nonfinite_like(r) ? incident_of_series.find(series) : incident_of_series.end();
            if (it != incident_of_series.end()) {
                const Incident& inc = building_[it->second];
                if (r.step <= inc.last_step + options_.window) joined = it->second;
            }
            // Another series at the step the run's newest incident began.
            if (joined == kNoIncident) {
                auto it = newest.find(r.run);
                if (it != newest.end() && building_[it->second].step == r.step) joined = it->second;
            }
            if (joined == kNoIncident) {
                joined = building_.size();
                Incident b;
                b.run = r.run;
                b.step = r.step;
                b.last_step = r.step;
                building_.push_back(std::move(b));
                newest[r.run] = joined;
            }
            Incident& inc = building_[joined];
            inc.members.push_back(k);
            inc.last_step = std::max(inc.last_step, r.step);
            if (nonfinite_like(r)) incident_of_series[series] = joined;
        }
    }

    void order_members(Incident& inc) {
        // A tag that fired on two ranks or more here, at one step, with one value, is shared:
        // an all-reduced metric, a consequence.
        struct Seen {
            std::vector<int> ranks;
            double value = 0;
            bool same = true;
        };
        std::map<std::pair<std::string_view, std::int64_t>, Seen> seen;
        for (std::size_t k : inc.members) {
            const AnomalyRecord& r = record(k);
            auto [it, fresh] = seen.try_emplace({series_name(r), r.step});
            Seen& s = it->second;
            if (std::find(s.ranks.begin(), s.ranks.end(), r.rank) != s.ranks.end()) continue;
            if (fresh)
                s.value = r.value;
            else
                s.same = s.same && same_value(s.value, r.value);
            s.ranks.push_back(r.rank);
        }
        auto shared = [&](const AnomalyRecord& r) {
            const Seen& s = seen[{series_name(r), r.step}];
            return s.ranks.size() >= 2 && s.same;
        };
        struct Key {
            std::int64_t step;
            bool shared;
            FlowStage stage;
            bool msprobe;
            MsProbeAnomalyOrderKey order;
            double deviation;
            std::size_t k;
        };
        std::vector<Key> keys;
        keys.reserve(inc.members.size());
        for (std::size_t k : inc.members) {
            const AnomalyRecord& r = record(k);
            const LogEntry& e = ordered_[k];
            const bool msprobe = !r.msprobe_kind.empty();
            keys.push_back(Key{.step = r.step,
                               .shared = shared(r),
                               .stage = flow_stage(r),
                               .msprobe = msprobe,
                               .order = msprobe ? msprobe_order_key({.step = r.step,
                                                                     .micro_step = r.micro_step,
                                                                     .kind = r.msprobe_kind,
                                                                     .vpp_stage = r.vpp_stage,
                                                                     .pp_stage = e.pp_stage,
                                                                     .call_id = e.call_id})
                                                : MsProbeAnomalyOrderKey{},
                               .deviation = member_deviation(k),
                               .k = k});
        }
        std::stable_sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
            if (a.step != b.step) return a.step < b.step;
            if (a.shared != b.shared) return !a.shared;
            if (a.stage != b.stage) return a.stage < b.stage;
            if (a.msprobe && b.msprobe && a.order != b.order) return a.order < b.order;
            if (a.deviation != b.deviation) return a.deviation > b.deviation;
            return a.k < b.k;
        });
        for (std::size_t i = 0; i < keys.size(); ++i) inc.members[i] = keys[i].k;
        inc.step = record(inc.members.front()).step;
        std::vector<double> deviations;
        deviations.reserve(keys.size());
        for (const Key& key : keys) deviations.push_back(key.deviation);
        inc.strength = median(std::move(deviations));
        inc.severity = Severity::kWarn;
        for (std::size_t k : inc.members)
            inc.severity = std::max(inc.severity, ordered_[k].severity);
    }

    // Whether runtop's own rules found the member (or one merged into it).
    bool runtop_found(std::size_t k) const {
        const AnomalyRecord& r = record(k);
        if (r.source == AnomalySource::kRuntop && !msprobe_rule(r.rule)) return true;
        const std::size_t merged = ordered_[k].runtop_index;
        return merged != kNoRecord && !msprobe_rule(records_[merged].rule);
    }

    void judge() {
        // Incidents of msProbe's warnings only, by run: judged against one another.
        std::map<std::string_view, std::vector<std::size_t>> warnings_only;
        for (std::size_t i = 0; i < out_.incidents.size(); ++i) {
            Incident& inc = out_.incidents[i];
            if (inc.severity == Severity::kAlert ||
                std::any_of(inc.members.begin(), inc.members.end(),
                            [&](std::size_t k) { return runtop_found(k); })) {
                inc.major = true;
                continue;
            }
            warnings_only[inc.run].push_back(i);
        }
        for (const auto& [run, list] : warnings_only) {
            for (std::size_t i : list) {
                Incident& inc = out_.incidents[i];
                std::vector<double> strengths, breadths;
                for (std::size_t j : list) {
                    if (j == i) continue;
                    strengths.push_back(out_.incidents[j].strength);
                    breadths.push_back(static_cast<double>(out_.incidents[j].members.size()));
                }
                if (strengths.size() < options_.min_peers) {
                    inc.major = inc.strength >= options_.lone_strength;
                    continue;
                }
                inc.major = inc.strength >= options_.stand_out * median(strengths) &&
                            static_cast<double>(inc.members.size()) >=
                                options_.stand_out * median(breadths);
            }
        }
    }

    const std::vector<AnomalyRecord>& records_;
    const std::vector<LogEntry>& ordered_;
    IncidentOptions options_;
    IncidentReport out_;
    std::vector<bool> in_condition_;
    std::vector<Incident> building_;  // in the order they began
};

}  // namespace

std::string_view flow_stage_name(FlowStage stage) {
    switch (stage) {
        case FlowStage::kForward:
            return "forward";
        case FlowStage::kActivationGrad:
            return "activation gradient";
        case FlowStage::kLocalGrad:
            return "gradient before reduction";
        case FlowStage::kReducedGrad:
            return "reduced gradient";
        case FlowStage::kOptimizer:
            return "optimizer state";
        case FlowStage::kParameter:
            return "parameter";
        case FlowStage::kOther:
            break;
    }
    return "other";
}

FlowStage flow_stage(const AnomalyRecord& r) {
    if (!r.msprobe_kind.empty()) return stage_of_kind(r.msprobe_kind);
    if (r.tag.empty()) return FlowStage::kOther;
    return stage_of_tag(r.tag);
}

double deviation(const AnomalyRecord& r) {
    if (nonfinite_like(r)) return kDeviationCap;
    if (!std::isfinite(r.reference)) return 1;
    if (r.reference == 0) return r.value == 0 ? 1 : kDeviationCap;
    double ratio = std::fabs(r.value) / std::fabs(r.reference);
    if (ratio == 0) return kDeviationCap;
    if (ratio < 1) ratio = 1 / ratio;
    return std::min(ratio, kDeviationCap);
}

IncidentReport find_incidents(const AnomalyLog& log, const IncidentOptions& options) {
    return Finder(log, options).run();
}

std::string incident_root_text(const AnomalyLog& log, const Incident& incident) {
    const LogEntry& e = log.ordered()[incident.root()];
    const AnomalyRecord& r = log.records()[e.index];
    std::string where = r.rank == kNoRank ? std::string() : fmt::format("rank {} ", r.rank);
    where += r.tag.empty() ? std::string("(run)") : r.tag;
    // The ratio only where it says something: a NaN or Inf is off by its kind.
    const double d = deviation(r);
    std::string off = format_value(r.value);
    if (d > 1 && d < kDeviationCap)
        off += fmt::format(", {:.3g}x off {}", d, format_value(r.reference));
    return fmt::format("{} {} at step {}: {}", where, r.rule, r.step, off);
}

}  // namespace runtop
