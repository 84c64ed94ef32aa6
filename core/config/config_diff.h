// The configuration a run carries, flattened to key → value, and the difference between two
// runs' configurations (issue 6: the compare view's configuration panel and `runtop diff`).
//
// What a run carries is every ConfigText the Store keeps for it (the latest per rank and tag):
// TensorBoard text summaries (`config/text_summary`, MindSpore's `<key>/text_summary`, HF's
// `args/text_summary`...), the hparams plugin's session start (PyTorch add_hparams, Lightning's
// TensorBoardLogger: `_hparams_/<name>`, one text per hyperparameter), Lightning's hparams.yaml
// (`hparams/<dotted key>`, one text per leaf, from readers/hparams_reader.cpp), DeepSpeed's
// deepspeed_config.csv (`<key>`, one text per row), HF's trainer_state.json scalars
// (`trainer_state/<key>`) and Oumi's telemetry
// (`oumi/...`). Each text becomes items by core/config/config_flatten.h.
//
// Ranks: a key every rank that carries it gives the same value is one entry (rank nullopt).
// When ranks disagree, the entry without a rank holds the value most of them give (a tie: the
// value of the lowest rank among the tied ones, texts without a rank first), and each rank
// giving another value adds its own entry, named `rank3:key` (`unranked:key` for texts that
// carry no rank). A rank that lacks the key is not a disagreement: DeepSpeed and Lightning
// write their files on rank 0 only.
//
// msProbe's monitor configuration is not among them: msProbe's output directories hold no copy
// of it (the JSON file is the user's, passed to TrainerMon by path, and only echoed to the
// console log), so there is nothing a run's files say about it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/point_sink.h"

namespace runtop {

class Store;

struct ConfigEntry {
    std::string key;
    std::optional<int> rank;  // nullopt: the run's value; else this rank's differing value
    std::string value;
    bool operator==(const ConfigEntry&) const = default;
};

// "key", "rank3:key", "unranked:key".
std::string config_entry_name(std::string_view key, const std::optional<int>& rank);

// The flat configuration of `run`, sorted by key, then the run's entry before per-rank ones,
// then by rank.
std::vector<ConfigEntry> run_config(const std::vector<ConfigText>& texts, std::string_view run);
std::vector<ConfigEntry> run_config(const Store& store, std::string_view run);

enum class ConfigChangeKind { kAdded, kRemoved, kChanged };
std::string_view config_change_name(ConfigChangeKind kind);  // "added", "removed", "changed"

struct ConfigChange {
    ConfigChangeKind kind = ConfigChangeKind::kChanged;
    std::string key;
    std::optional<int> rank;
    std::string value_a;  // empty when added
    std::string value_b;  // empty when removed
    bool operator==(const ConfigChange&) const = default;
};

// What changes from configuration `a` to `b` (both as run_config returns them), in the same
// order: keys only `b` has are added, keys only `a` has removed, keys with another value
// changed.
std::vector<ConfigChange> diff_configs(const std::vector<ConfigEntry>& a,
                                       const std::vector<ConfigEntry>& b);

struct ConfigChangeCounts {
    std::size_t added = 0, removed = 0, changed = 0;
    std::size_t total() const { return added + removed + changed; }
};
ConfigChangeCounts count_changes(const std::vector<ConfigChange>& changes);

}  // namespace runtop
