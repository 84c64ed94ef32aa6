// The identity of a series: (run, rank, tag). See DESIGN.md §2 "Identity of a point".
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace runtop {

inline constexpr int kNoRank = -1;

// What kind of file a series came from; shown by `runtop ls`.
enum class SourceKind : std::uint8_t {
    kTfEvents,        // TensorBoard event file (PyTorch, tensorboardX, TF, Keras, DeepSpeed, ...)
    kMindSpore,       // MindSpore SummaryRecord file: TFRecord framing, its own Event schema
    kMsProbeCsv,      // msProbe monitor CSV, `<prefix>_<a>-<b>.csv` in `<ts>-rank<R>-<uuid>/`
    kMsProbeV2Csv,    // msProbe monitor_v2 CSV, `rank_<R>/<slug>_step<a>-<b>.csv`
    kDeepSpeedCsv,    // DeepSpeed csv_monitor, one `step,<name>` file per event
    kLightningCsv,    // Lightning CSVLogger `metrics.csv` (or any CSV with a `step` column)
    kHfTrainerState,  // Hugging Face Trainer `trainer_state.json` log_history
};
std::string_view source_kind_name(SourceKind kind);

// What a series' step counts. DeepSpeed's monitor writes samples consumed as its x value,
// and MindFormers writes "<tag> vs samples" series; views label the axis accordingly.
enum class StepAxis : std::uint8_t { kSteps, kSamples };
StepAxis step_axis(SourceKind kind, std::string_view tag);
std::string_view step_axis_name(StepAxis axis);

struct SeriesKey {
    std::string run;
    int rank = kNoRank;
    std::string tag;

    bool operator==(const SeriesKey&) const = default;
    // Runs, then ranks numerically (no rank first), then tags.
    bool operator<(const SeriesKey& other) const;
};

struct SeriesKeyHash {
    std::size_t operator()(const SeriesKey& key) const noexcept;
};

using SeriesId = std::uint32_t;

struct Point {
    std::int64_t step = 0;
    double wall_time = 0;
    double value = 0;
};

}  // namespace runtop
