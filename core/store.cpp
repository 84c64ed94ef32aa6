#include "core/store.h"

#include <algorithm>

namespace runtop {

void Series::append(const Point& p) {
    ++received_;
    if (steps_.empty() || p.step > steps_.back()) {
        steps_.push_back(p.step);
        walls_.push_back(p.wall_time);
        values_.push_back(p.value);
        return;
    }
    if (p.step == steps_.back()) {  // the same step written again: the later write wins
        walls_.back() = p.wall_time;
        values_.back() = p.value;
        return;
    }
    std::uint64_t dropped = truncate_from(p.step);
    restarts_.push_back({p.step, p.wall_time, dropped});
    steps_.push_back(p.step);
    walls_.push_back(p.wall_time);
    values_.push_back(p.value);
}

std::uint64_t Series::truncate_from(std::int64_t step) {
    auto it = std::lower_bound(steps_.begin(), steps_.end(), step);
    std::size_t keep = static_cast<std::size_t>(it - steps_.begin());
    std::uint64_t dropped = steps_.size() - keep;
    steps_.resize(keep);
    walls_.resize(keep);
    values_.resize(keep);
    return dropped;
}

SeriesId Store::series(const SeriesKey& key, SourceKind kind) {
    auto [it, inserted] = index_.try_emplace(key, static_cast<SeriesId>(series_.size()));
    if (inserted) {
        series_.emplace_back(key, kind);
        by_run_rank_[{key.run, key.rank}].push_back(it->second);
    }
    return it->second;
}

void Store::session_start(std::string_view run, int rank, std::int64_t step, double wall_time) {
    auto group = by_run_rank_.find(std::make_pair(std::string(run), rank));
    if (group == by_run_rank_.end()) return;  // nothing before this session: a first start
    for (SeriesId id : group->second) {
        Series& s = series_[id];
        if (s.empty()) continue;
        // Every series of the group gets the marker, so views show where the session resumed.
        std::uint64_t dropped = s.truncate_from(step);
        s.mark_restart({step, wall_time, dropped});
    }
}

void Store::config_text(ConfigText text) {
    for (ConfigText& existing : configs_) {
        if (existing.run == text.run && existing.rank == text.rank && existing.tag == text.tag) {
            existing = std::move(text);
            return;
        }
    }
    configs_.push_back(std::move(text));
}

void Store::anomaly(ImportedAnomaly anomaly) {
    auto [it, inserted] = anomaly_index_.try_emplace({anomaly.run, anomaly.key}, anomalies_.size());
    if (inserted)
        anomalies_.push_back(std::move(anomaly));
    else
        anomalies_[it->second] = std::move(anomaly);
}

std::vector<SeriesId> Store::sorted_ids() const {
    std::vector<SeriesId> ids(series_.size());
    for (SeriesId i = 0; i < ids.size(); ++i) ids[i] = i;
    std::sort(ids.begin(), ids.end(),
              [this](SeriesId a, SeriesId b) { return series_[a].key() < series_[b].key(); });
    return ids;
}

std::uint64_t Store::total_points() const {
    std::uint64_t n = 0;
    for (const Series& s : series_) n += s.size();
    return n;
}

}  // namespace runtop
