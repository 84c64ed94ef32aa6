#include "bench/events_scale.h"

#include <fmt/format.h>

#include <iterator>
#include <string>
#include <vector>

#include "bench/gen_files.h"
#include "writers/event_writer.h"
#include "writers/file_output.h"
#include "writers/tfrecord_writer.h"

namespace runtop::bench {
namespace {

constexpr double kStart = 1.7e9;  // the first wall time, as the other generators use

// What a training script summarises per parameter, and each one's usual magnitude.
struct Metric {
    const char* name;
    double scale;
    bool decays;  // gradients fall as training settles; parameter norms do not
};
constexpr Metric kMetrics[] = {{"grad_norm", 0.5, true},
                               {"param_norm", 20.0, false},
                               {"grad_abs_max", 0.01, true},
                               {"update_ratio", 1e-3, true}};
constexpr int kMetricCount = static_cast<int>(std::size(kMetrics));

// A Llama-style decoder layer's parameters, as its state_dict names them.
constexpr const char* kLayerParams[] = {
    "input_layernorm.weight",  "self_attn.q_proj.weight", "self_attn.k_proj.weight",
    "self_attn.v_proj.weight", "self_attn.o_proj.weight", "post_attention_layernorm.weight",
    "mlp.w1.weight",           "mlp.w2.weight",           "mlp.w3.weight"};
constexpr int kParamsPerLayer = static_cast<int>(std::size(kLayerParams));

// splitmix64's finalizer: a seeded hash, so a value depends on its coordinates only.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Roughly normal (mean 0, variance 1) from the sum of four uniforms: bounded (|x| < 3.5), so
// the noise alone never looks like the injected spike, and no libm call, so every machine
// computes the same bits.
double noise(std::uint64_t key) {
    double sum = 0;
    for (int i = 0; i < 4; ++i) {
        key = mix(key);
        sum += static_cast<double>(key >> 11) * 0x1.0p-53 - 0.5;
    }
    return sum * 1.7320508075688772;  // x sqrt(3): variance 4/12 -> 1
}

std::uint64_t key_of(int rank, int tag, long long step) {
    return mix(mix(mix(17 + static_cast<std::uint64_t>(rank)) + static_cast<std::uint64_t>(tag)) +
               static_cast<std::uint64_t>(step));
}

}  // namespace

bool parse_events_scale_shape(const std::string& text, EventsScaleShape& shape) {
    long long dims[3];
    if (!parse_dims(text, dims, 3)) return false;
    if (dims[0] > 100000 || dims[1] > 10000000) return false;
    shape = {static_cast<int>(dims[0]), static_cast<int>(dims[1]), dims[2]};
    return true;
}

std::string events_scale_tag(int index) {
    const int param = index / kMetricCount;
    return fmt::format("{}/layers.{}.{}", kMetrics[index % kMetricCount].name,
                       param / kParamsPerLayer, kLayerParams[param % kParamsPerLayer]);
}

EventsScaleSpike events_scale_spike(const EventsScaleShape& shape) {
    const int middle = shape.tags / 2;
    return {shape.ranks / 3, middle - middle % kMetricCount, shape.steps * 2 / 3};
}

float events_scale_value(const EventsScaleShape& shape, int rank, int tag, long long step) {
    const Metric& metric = kMetrics[tag % kMetricCount];
    const int param = tag / kMetricCount;
    // Each rank its own level (its shard, its data), then noise step by step.
    const double level = metric.scale * (1.0 + 0.1 * static_cast<double>(param % 17)) *
                         (1.0 + 0.05 * noise(key_of(rank, tag, -1)));
    const double decay = metric.decays ? 1.0 + 2.0 / (1.0 + 0.01 * static_cast<double>(step)) : 1;
    double value = level * decay * (1.0 + 0.05 * noise(key_of(rank, tag, step)));
    const EventsScaleSpike spike = events_scale_spike(shape);
    if (rank == spike.rank && tag == spike.tag && step == spike.step) value *= 1000.0;
    return static_cast<float>(value);
}

double events_scale_wall_time(int rank, int tag, long long step) {
    return kStart + 0.35 * static_cast<double>(step) + 0.01 * rank + 1e-5 * tag;
}

Result<EventsScaleWritten> write_events_scale(const std::string& dir,
                                              const EventsScaleShape& shape) {
    std::vector<std::string> tags;
    tags.reserve(static_cast<std::size_t>(shape.tags));
    for (int t = 0; t < shape.tags; ++t) tags.push_back(events_scale_tag(t));

    EventsScaleWritten written;
    for (int rank = 0; rank < shape.ranks; ++rank) {
        const std::string rank_dir = dir + "/rank_" + std::to_string(rank);
        if (Status made = make_dirs(rank_dir); !made) return made.error();
        const std::string path = rank_dir + "/" + events::event_file_name(kStart, rank);
        {
            Result<RecordFile> file = RecordFile::open(path);
            if (!file) return file.error();
            file->add(events::file_version(kStart));
            for (long long step = 0; step < shape.steps; ++step) {
                for (int t = 0; t < shape.tags; ++t)
                    file->add(events::simple_scalar(tags[static_cast<std::size_t>(t)],
                                                    events_scale_value(shape, rank, t, step), step,
                                                    events_scale_wall_time(rank, t, step)));
                // One write per step, as a training script's writer flushes.
                Status flushed = file->flush();
                if (!flushed) return flushed.error();
            }
        }  // closed before its size is taken
        ++written.files;
        written.bytes += file_size(path);
    }
    written.series =
        static_cast<std::uint64_t>(shape.ranks) * static_cast<std::uint64_t>(shape.tags);
    written.points = written.series * static_cast<std::uint64_t>(shape.steps);
    return written;
}

std::string describe_events_scale(const std::string& dir, const EventsScaleShape& shape,
                                  const EventsScaleWritten& written) {
    const EventsScaleSpike spike = events_scale_spike(shape);
    return fmt::format(
        "runtop_benchgen: {} TensorBoard event files, {} bytes, {} series, {} points in {}; "
        "spike: rank {}, {}, step {}",
        written.files, written.bytes, written.series, written.points, dir, spike.rank,
        events_scale_tag(spike.tag), spike.step);
}

}  // namespace runtop::bench
