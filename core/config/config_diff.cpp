#include "core/config/config_diff.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/config/config_flatten.h"
#include "core/store/store.h"

namespace runtop {
namespace {

// nullopt (the run's entry) before any rank, then ranks in order.
bool entry_less(const std::string& key_a, const std::optional<int>& rank_a,
                const std::string& key_b, const std::optional<int>& rank_b) {
    if (key_a != key_b) return key_a < key_b;
    if (rank_a.has_value() != rank_b.has_value()) return !rank_a.has_value();
    return rank_a.value_or(0) < rank_b.value_or(0);
}

}  // namespace

std::string config_entry_name(std::string_view key, const std::optional<int>& rank) {
    if (!rank) return std::string(key);
    std::string name = *rank == kNoRank ? "unranked" : "rank" + std::to_string(*rank);
    name += ':';
    name += key;
    return name;
}

std::vector<ConfigEntry> run_config(const std::vector<ConfigText>& texts, std::string_view run) {
    // Texts in (rank, tag) order, so when two texts give the same key the outcome does not
    // depend on arrival order: the later tag's item wins.
    std::vector<const ConfigText*> mine;
    for (const ConfigText& t : texts)
        if (t.run == run) mine.push_back(&t);
    std::sort(mine.begin(), mine.end(), [](const ConfigText* a, const ConfigText* b) {
        return std::tie(a->rank, a->tag) < std::tie(b->rank, b->tag);
    });
    std::map<std::string, std::map<int, std::string>> values;  // key → rank → value
    for (const ConfigText* t : mine)
        for (ConfigItem& item : flatten_config_text(t->tag, t->text))
            values[std::move(item.key)][t->rank] = std::move(item.value);

    std::vector<ConfigEntry> out;
    for (auto& [key, by_rank] : values) {
        // The value most ranks give; ties go to the lowest rank's (by_rank is in rank order).
        std::map<std::string_view, std::size_t> votes;
        for (const auto& [rank, value] : by_rank) ++votes[value];
        std::string_view common;
        std::size_t best = 0;
        for (const auto& [rank, value] : by_rank) {
            if (votes[value] > best) {
                best = votes[value];
                common = value;
            }
        }
        out.push_back({key, std::nullopt, std::string(common)});
        if (votes.size() == 1) continue;
        for (const auto& [rank, value] : by_rank)
            if (value != common) out.push_back({key, rank, value});
    }
    // `values` is in key order and each key's rank entries follow its run entry in rank order.
    return out;
}

std::vector<ConfigEntry> run_config(const Store& store, std::string_view run) {
    return run_config(store.config_texts(), run);
}

std::string_view config_change_name(ConfigChangeKind kind) {
    switch (kind) {
        case ConfigChangeKind::kAdded:
            return "added";
        case ConfigChangeKind::kRemoved:
            return "removed";
        case ConfigChangeKind::kChanged:
            return "changed";
    }
    return "changed";
}

std::vector<ConfigChange> diff_configs(const std::vector<ConfigEntry>& a,
                                       const std::vector<ConfigEntry>& b) {
    std::vector<ConfigChange> out;
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const bool take_a =
            j == b.size() || (i < a.size() && entry_less(a[i].key, a[i].rank, b[j].key, b[j].rank));
        const bool take_b =
            i == a.size() || (j < b.size() && entry_less(b[j].key, b[j].rank, a[i].key, a[i].rank));
        if (take_a) {
            out.push_back({ConfigChangeKind::kRemoved, a[i].key, a[i].rank, a[i].value, {}});
            ++i;
        } else if (take_b) {
            out.push_back({ConfigChangeKind::kAdded, b[j].key, b[j].rank, {}, b[j].value});
            ++j;
        } else {
            if (a[i].value != b[j].value)
                out.push_back(
                    {ConfigChangeKind::kChanged, a[i].key, a[i].rank, a[i].value, b[j].value});
            ++i;
            ++j;
        }
    }
    return out;
}

ConfigChangeCounts count_changes(const std::vector<ConfigChange>& changes) {
    ConfigChangeCounts counts;
    for (const ConfigChange& c : changes) {
        switch (c.kind) {
            case ConfigChangeKind::kAdded:
                ++counts.added;
                break;
            case ConfigChangeKind::kRemoved:
                ++counts.removed;
                break;
            case ConfigChangeKind::kChanged:
                ++counts.changed;
                break;
        }
    }
    return counts;
}

}  // namespace runtop
