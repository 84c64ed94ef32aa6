#include "readers/file_kinds.h"

#include <array>

#include "readers/msprobe_csv_reader.h"

namespace runtop {
namespace {

std::string_view drop_base_name(std::string_view dir) {
    std::size_t slash = dir.rfind('/');
    return slash == std::string_view::npos ? std::string_view() : dir.substr(0, slash);
}

bool is_checkpoint_dir(std::string_view c) {
    return c.starts_with("checkpoint-") && all_digits(c.substr(11));
}

constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

}  // namespace

bool is_event_file_name(std::string_view name) {
    if (name.find("tfevents") != std::string_view::npos) return !name.ends_with(".profile-empty");
    return name.find(".out.events.summary.") != std::string_view::npos;
}

std::optional<SourceFormat> classify_file(std::string_view rel_dir, std::string_view name) {
    if (is_event_file_name(name)) return SourceFormat::kEventFile;
    if (name.ends_with(".csv")) {
        if (name == "stack_info.csv") return std::nullopt;  // stack traces, not metrics
        if (name.starts_with("Train_Samples_") || name.starts_with("Train_Eigenvalues_"))
            return SourceFormat::kDeepSpeedCsv;
        if (name == "deepspeed_config.csv") return SourceFormat::kDeepSpeedConfig;
        if (name == "metrics.csv") return SourceFormat::kLightningCsv;
        if (!msprobe_csv_prefix(name, true).empty()) return SourceFormat::kMsProbeV2Csv;
        if (!msprobe_csv_prefix(name, false).empty()) return SourceFormat::kMsProbeCsv;
        return SourceFormat::kPlainCsv;
    }
    if (name == "anomaly.json") return SourceFormat::kMsProbeAnomaly;
    if (name == "anomaly_analyse.json") return SourceFormat::kMsProbeAnomalyAnalyse;
    if (name == "trainer_state.json") return SourceFormat::kHfTrainerState;
    if (name == "hparams.yaml") return SourceFormat::kLightningHparams;
    if (name.starts_with("telemetry_callback_") && name.ends_with(".json"))
        return SourceFormat::kOumiTelemetry;
    // Training logs (slurm-<job>.out, rank_N/info.log, a tee'd train.txt): their lines decide.
    for (std::string_view end : {".log", ".out", ".err", ".txt"})
        if (name.ends_with(end)) return SourceFormat::kTextLog;
    // Oumi's MetricsLoggerCallback: the Trainer's log dicts, one JSON line each (not any
    // .jsonl: a dataset is no log).
    if (name.starts_with("metrics_rank") && name.ends_with(".jsonl")) return SourceFormat::kTextLog;
    (void)rel_dir;
    return std::nullopt;
}

SourceFormat file_format_of_named_file(std::string_view name) {
    if (auto format = classify_file("", name)) return *format;
    if (name.ends_with("trainer_state.json")) return SourceFormat::kHfTrainerState;
    if (name.ends_with("hparams.yaml")) return SourceFormat::kLightningHparams;
    if (name.ends_with("anomaly_analyse.json")) return SourceFormat::kMsProbeAnomalyAnalyse;
    if (name.ends_with("anomaly.json")) return SourceFormat::kMsProbeAnomaly;
    return SourceFormat::kEventFile;
}

std::optional<StepRange> step_range_of_name(std::string_view basename) {
    return msprobe_step_range(basename);
}

SourceFile source_file(const RootSpec& root, std::string path, std::string_view rel_dir,
                       SourceFormat format) {
    std::string_view dir = rel_dir;
    if (format == SourceFormat::kHfTrainerState && is_checkpoint_dir(base_name(dir)))
        dir = drop_base_name(dir);
    DirIdentity id = identity_of_dir(dir);
    if ((format == SourceFormat::kMsProbeAnomaly ||
         format == SourceFormat::kMsProbeAnomalyAnalyse) &&
        base_name(id.run_rel) == "anomaly_detected")
        id.run_rel = std::string(drop_base_name(id.run_rel));
    return SourceFile{std::move(path), run_name(root.name, id.run_rel), id.rank, format};
}

std::string read_order_key(const SourceFile& file) {
    // A name that extends another's is an older copy of it (`events...0.old`, `...0.bak`, a
    // rotated file next to the one that replaced it): the sentinel after every name sorts it
    // first, so the newer file's steps are not taken for a restart by the older one's.
    if (file.format == SourceFormat::kEventFile) return file.path + '\xff';
    std::string key;
    std::string_view p = file.path;
    for (std::size_t i = 0; i < p.size();) {
        // "Nov21_14-35-29-rank0-...": the month as its number, so months sort in time order.
        if ((i == 0 || p[i - 1] == '/') && i + 3 <= p.size()) {
            bool month = false;
            for (std::size_t m = 0; m < kMonths.size(); ++m) {
                if (p.substr(i, 3) == kMonths[m] && i + 3 < p.size() && p[i + 3] >= '0' &&
                    p[i + 3] <= '9') {
                    key += static_cast<char>('A' + m);
                    i += 3;
                    month = true;
                    break;
                }
            }
            if (month) continue;
        }
        if (p[i] >= '0' && p[i] <= '9') {
            std::size_t j = i;
            while (j < p.size() && p[j] >= '0' && p[j] <= '9') ++j;
            std::string_view digits = p.substr(i, j - i);
            while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
            // A length prefix makes longer numbers sort after shorter ones.
            key += static_cast<char>('0' + std::min<std::size_t>(digits.size(), 40));
            key += digits;
            i = j;
            continue;
        }
        key += p[i++];
    }
    return key;
}

}  // namespace runtop
