#include "core/analysis/anomaly_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/analysis/anomaly_order.h"
#include "core/analysis/msprobe_tag.h"

namespace runtop {

std::string_view anomaly_source_name(AnomalySource source) {
    return source == AnomalySource::kMsProbe ? "msprobe" : "runtop";
}

Severity msprobe_severity(std::string_view rule) {
    return rule == "AnomalyTurbulence" ? Severity::kWarn : Severity::kAlert;
}

std::string anomaly_steps_text(const AnomalyRecord& r) {
    if (r.count <= 1 || r.last_step == r.step) return std::to_string(r.step);
    return fmt::format("{}-{}", r.step, r.last_step);
}

std::string anomaly_message_text(const AnomalyLog& log, const LogEntry& e) {
    const AnomalyRecord& r = log.records()[e.index];
    std::string m = r.message;
    if (r.count > 1) m += fmt::format(" ({} points through step {})", r.count, r.last_step);
    if (e.runtop_index != kNoRecord)
        m += fmt::format(" [runtop found it too: {}]", log.records()[e.runtop_index].rule);
    else if (e.also_runtop)
        m += " [runtop found it too]";
    return m;
}

void fill_msprobe_fields(AnomalyRecord& r) {
    const MsProbeSeriesTag tag = parse_msprobe_series_tag(r.tag);
    if (!tag.ok) return;
    r.msprobe_kind = std::string(msprobe_prefix_kind(tag.prefix));
    r.msprobe_statistic = std::string(tag.statistic);
    r.msprobe_tag_name = msprobe_tag_name(tag, r.rank);
    r.vpp_stage = tag.vpp;
    r.micro_step = tag.has_micro ? tag.micro : 0;
}

std::size_t AnomalyLog::fire(AnomalyRecord record, std::size_t open) {
    dirty_ = true;
    if (open != kNone && open < records_.size()) {
        AnomalyRecord& r = records_[open];
        r.last_step = record.step;
        ++r.count;
        return open;
    }
    record.last_step = record.step;
    record.count = 1;
    record.sequence = next_sequence_++;
    records_.push_back(std::move(record));
    return records_.size() - 1;
}

bool AnomalyLog::import(const ImportedAnomaly& a, SeriesId series) {
    dirty_ = true;
    AnomalyRecord r;
    r.run = a.run;
    r.rank = a.rank;
    r.tag = a.tag;
    r.series = series;
    r.step = r.last_step = a.step;
    r.micro_step = a.micro_step;
    r.rule = a.rule.empty() ? "msprobe" : a.rule;
    r.severity = msprobe_severity(a.rule);
    r.value = a.value;
    r.reference = a.history_mean;
    r.message = a.message;
    r.source = AnomalySource::kMsProbe;
    const AnomalyTagName parts = parse_anomaly_tag_name(a.raw_tag);
    if (parts.ok) {
        r.msprobe_kind = std::string(parts.kind);
        r.msprobe_statistic = std::string(anomaly_kind_prefix(parts.kind)) + '/';
        if (parts.has_vpp && parts.vpp != 0) r.msprobe_statistic += std::to_string(parts.vpp) + ':';
        r.msprobe_statistic += parts.name;
        if (parts.has_micro) r.msprobe_statistic += ':' + std::to_string(parts.micro);
    }
    r.msprobe_tag_name = a.raw_tag;
    r.vpp_stage = a.vpp_stage;
    r.pp_stage = a.pp_stage;
    r.call_id = a.call_id;
    auto [it, inserted] = imported_index_.try_emplace({a.run, a.key}, records_.size());
    if (inserted) {
        r.sequence = next_sequence_++;
        records_.push_back(std::move(r));
    } else {
        r.sequence = records_[it->second].sequence;
        records_[it->second] = std::move(r);
    }
    return inserted;
}

const std::vector<LogEntry>& AnomalyLog::ordered() const {
    if (!dirty_) return ordered_;
    dirty_ = false;
    ordered_.clear();
    merged_ = 0;
    // What imported records teach: msProbe's place for every (run, rank, statistic, step), the
    // pipeline stage of each rank and the call id of each tag_name.
    using Place = std::tuple<std::string_view, int, std::string_view, std::int64_t>;
    std::map<Place, std::size_t> imported_at;
    std::map<std::pair<std::string_view, int>, std::int64_t> pp_of_rank;
    std::map<std::tuple<std::string_view, int, std::string_view>, std::int64_t> call_of_tag;
    for (std::size_t i = 0; i < records_.size(); ++i) {
        const AnomalyRecord& r = records_[i];
        if (r.source != AnomalySource::kMsProbe) continue;
        if (!r.msprobe_statistic.empty())
            imported_at.emplace(Place{r.run, r.rank, r.msprobe_statistic, r.step}, i);
        pp_of_rank.emplace(std::pair<std::string_view, int>{r.run, r.rank}, r.pp_stage);
        if (r.call_id >= 0)
            call_of_tag.emplace(
                std::tuple<std::string_view, int, std::string_view>{r.run, r.rank,
                                                                    r.msprobe_tag_name},
                r.call_id);
    }
    // For each imported record, the worst runtop record merged into it (the first of equals).
    std::vector<std::size_t> also(records_.size(), kNoRecord);
    for (std::size_t i = 0; i < records_.size(); ++i) {
        const AnomalyRecord& r = records_[i];
        if (r.source == AnomalySource::kRuntop && !r.msprobe_statistic.empty()) {
            auto hit = imported_at.find(Place{r.run, r.rank, r.msprobe_statistic, r.step});
            if (hit != imported_at.end()) {
                std::size_t& worst = also[hit->second];
                if (worst == kNoRecord || records_[worst].severity < r.severity) worst = i;
                ++merged_;
                continue;
            }
        }
        LogEntry e;
        e.index = i;
        e.severity = r.severity;
        e.pp_stage = r.pp_stage;
        e.call_id = r.call_id;
        if (r.source == AnomalySource::kRuntop && !r.msprobe_kind.empty()) {
            auto pp = pp_of_rank.find({r.run, r.rank});
            if (pp != pp_of_rank.end()) e.pp_stage = pp->second;
            auto call = call_of_tag.find({r.run, r.rank, r.msprobe_tag_name});
            if (call != call_of_tag.end()) e.call_id = call->second;
        }
        ordered_.push_back(e);
    }
    for (LogEntry& e : ordered_) {
        e.runtop_index = also[e.index];
        e.also_runtop = e.runtop_index != kNoRecord;
        if (e.also_runtop) e.severity = std::max(e.severity, records_[e.runtop_index].severity);
    }

    struct Keyed {
        MsProbeAnomalyOrderKey key;
        const LogEntry* entry;
    };
    std::vector<Keyed> keyed;
    keyed.reserve(ordered_.size());
    for (const LogEntry& e : ordered_) {
        const AnomalyRecord& r = records_[e.index];
        // msProbe's entries always say micro_step 0 and its analyser sorts by that; the call id
        // orders micro-steps instead. Without a call id the real micro-step is what is left.
        const std::int64_t micro = !r.msprobe_kind.empty() && e.call_id >= 0 ? 0 : r.micro_step;
        keyed.push_back(
            {msprobe_order_key({r.step, micro, r.msprobe_kind, r.vpp_stage, e.pp_stage, e.call_id}),
             &e});
    }
    std::sort(keyed.begin(), keyed.end(), [this](const Keyed& a, const Keyed& b) {
        if (a.key != b.key) return a.key < b.key;
        const AnomalyRecord& x = records_[a.entry->index];
        const AnomalyRecord& y = records_[b.entry->index];
        return std::tie(x.rank, x.run, x.tag, x.sequence) <
               std::tie(y.rank, y.run, y.tag, y.sequence);
    });
    std::vector<LogEntry> sorted;
    sorted.reserve(keyed.size());
    for (const Keyed& k : keyed) sorted.push_back(*k.entry);
    ordered_ = std::move(sorted);
    return ordered_;
}

std::size_t AnomalyLog::merged_count() const {
    ordered();
    return merged_;
}

}  // namespace runtop
