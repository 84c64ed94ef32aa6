// runtop_benchgen DIR MB: writes about MB megabytes of realistic scalar event files for the
// ingest benchmark (bench/run_bench.sh), with runtop's own writer.
// runtop_benchgen --msprobe-csv DIR MB: the same for msProbe monitor CSVs (below).
// runtop_benchgen --megatron-log DIR MB: a Megatron job's text output (bench/megatron_log.h).
// runtop_benchgen --diverge-at STEP DIR MB: the same event files, but from STEP on every value is
// 0.1% higher: a second run from the same seed that diverges at a known step (the compare
// benchmark: `runtop diff` and the compare view on two 1 GB runs).
// runtop_benchgen --msprobe-scale RxPxSxK DIR: msProbe full monitoring at a job's size
// (bench/msprobe_scale.h).
// runtop_benchgen --events-scale RxTxS DIR: event files with thousands of tags per rank
// (bench/events_scale.h).
// runtop_benchgen --json DIR MB: the files the JSON readers take whole, about MB megabytes each
// kind: DIR/hf/trainer_state.json (below) and DIR/msprobe/anomaly_detected/rank<R>/anomaly.json.
//
// Shape (like the 82 MB PyTorch/msProbe file of TFEVENTS.md §8.1): 8 ranks, one event file
// each in DIR/rank_<r>/, a file_version record first, then ~160 tags per step written as
// PyTorch `add_scalar` does (`simple_value`, no metadata), steps 0..N. Most tags are msProbe
// monitor tags ("model.layers.7.mlp.fc1.weight/rank3/pre_grad_norm"), a few are training
// tags ("train/loss"). Each step is one buffered write per file.
//
// msProbe CSV shape (FORMATS.md §1.2, writers/msprobe_writer.h): 8 ranks, each its own run dir
// "<date>-rank<R>-<uuid8>" in DIR, step_count_per_record 5, so files
// "<prefix>_<a>-<b>.csv" of 5 steps each and thousands of them. Prefixes actv (with a
// micro_step column, 2 micro steps; module ".input"/".output" rows), grad_unreduced,
// grad_reduced, exp_avg, exp_avg_sq, param_origin, param_updated (one row per parameter of a
// small Megatron-style model sharded 8 ways); ops min,max,mean,norm,zeros,nans then shape
// (quoted when 2-D or more: "[1536, 4096]") and dtype. Values are drawn with each
// statistic's usual magnitude (activations of order 1, gradients and moments small
// enough that round(6) leaves many "0.0", "-0.0" and "1e-06"), and about one row in 5000
// carries nan or inf as an overflowing step does. Seeded: the same bytes every time.
#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "bench/events_scale.h"
#include "bench/gen_files.h"
#include "bench/megatron_log.h"
#include "bench/msprobe_scale.h"
#include "writers/event_writer.h"
#include "writers/file_output.h"
#include "writers/msprobe_writer.h"
#include "writers/tfrecord_writer.h"

using runtop::bench::file_size;
using runtop::bench::make_dir;

namespace {

constexpr int kRanks = 8;

std::vector<std::string> tags_for_rank(int rank) {
    std::vector<std::string> tags = {"train/loss", "train/lr", "train/grad_norm",
                                     "train/tokens_per_sec"};
    const char* modules[] = {"self_attn.q_proj", "self_attn.o_proj", "mlp.fc1", "mlp.fc2"};
    const char* metrics[] = {"pre_grad_norm", "post_grad_norm", "param_norm", "actv_max"};
    for (int layer = 0; layer < 10; ++layer)
        for (const char* module : modules)
            for (const char* metric : metrics)
                tags.push_back("model.layers." + std::to_string(layer) + "." + module +
                               ".weight/rank" + std::to_string(rank) + "/" + metric);
    return tags;  // 4 + 10 * 4 * 4 = 164
}

}  // namespace

int write_events(const std::string& dir, double mb, std::int64_t diverge_at) {
    if (!make_dir(dir)) return 1;
    const std::uint64_t per_rank = static_cast<std::uint64_t>(mb * 1e6 / kRanks);
    const double start = 1.7e9;

    std::uint64_t total_bytes = 0, total_records = 0;
    int files = 0;
    for (int rank = 0; rank < kRanks; ++rank) {
        const std::string rank_dir = dir + "/rank_" + std::to_string(rank);
        if (!make_dir(rank_dir)) return 1;
        const std::string path = rank_dir + "/" + runtop::events::event_file_name(start, rank);
        auto file = runtop::RecordFile::open(path);
        if (!file) {
            std::fprintf(stderr, "runtop_benchgen: %s\n", file.error().message.c_str());
            return 1;
        }
        std::mt19937_64 rng(1234 + static_cast<std::uint64_t>(rank));
        std::normal_distribution<double> noise(0.0, 1.0);
        const std::vector<std::string> tags = tags_for_rank(rank);
        std::vector<double> level(tags.size());
        for (std::size_t i = 0; i < tags.size(); ++i)
            level[i] = 0.5 + 0.1 * static_cast<double>(i % 17);

        std::uint64_t bytes = 0, records = 0;
        std::string version = runtop::events::file_version(start);
        file->add(version);
        bytes += version.size() + 16;
        ++records;
        for (std::int64_t step = 0; bytes < per_rank; ++step) {
            const double wall = start + 0.35 * static_cast<double>(step) + 0.01 * rank;
            for (std::size_t i = 0; i < tags.size(); ++i) {
                // A slow decay with noise; the exact values do not matter for the benchmark,
                // only that they are varied like real ones.
                double v = level[i] * (1.0 + 2.0 / (1.0 + 0.01 * static_cast<double>(step))) +
                           0.02 * noise(rng);
                if (step >= diverge_at) v *= 1.001;
                std::string payload = runtop::events::simple_scalar(
                    tags[i], static_cast<float>(v), step, wall + 1e-4 * static_cast<double>(i));
                file->add(payload);
                bytes += payload.size() + 16;
                ++records;
            }
            runtop::Status flushed = file->flush();
            if (!flushed) {
                std::fprintf(stderr, "runtop_benchgen: %s\n", flushed.error().message.c_str());
                return 1;
            }
        }
        ++files;
        total_bytes += bytes;
        total_records += records;
    }
    std::printf("runtop_benchgen: %d files, %" PRIu64 " bytes, %" PRIu64 " records in %s\n", files,
                total_bytes, total_records, dir.c_str());
    return 0;
}

// --- msProbe monitor CSVs --------------------------------------------------------------------

namespace {

constexpr std::int64_t kStepsPerFile = 5;  // step_count_per_record
constexpr int kLayers = 8;
constexpr int kMicroSteps = 2;

struct Tensor {
    std::string name;
    std::string shape;
    double scale;  // typical magnitude of its entries
};

// Parameters of one tensor-parallel shard (hidden 4096, ffn 11008, tp 8): names as Megatron's
// model prints them.
std::vector<Tensor> model_params() {
    std::vector<Tensor> params;
    params.push_back({"language_model.embedding.word_embeddings.weight", "[16000, 4096]", 0.02});
    for (int l = 0; l < kLayers; ++l) {
        const std::string p = "language_model.encoder.layers." + std::to_string(l) + ".";
        params.push_back({p + "input_layernorm.weight", "[4096]", 1.0});
        params.push_back({p + "self_attention.query_key_value.weight", "[1536, 4096]", 0.02});
        params.push_back({p + "self_attention.dense.weight", "[4096, 512]", 0.02});
        params.push_back({p + "post_attention_layernorm.weight", "[4096]", 1.0});
        params.push_back({p + "mlp.dense_h_to_4h.weight", "[2752, 4096]", 0.02});
        params.push_back({p + "mlp.dense_4h_to_h.weight", "[4096, 1376]", 0.02});
    }
    params.push_back({"language_model.encoder.final_layernorm.weight", "[4096]", 1.0});
    params.push_back({"language_model.output_layer.weight", "[16000, 4096]", 0.02});
    return params;
}

// Hooked modules: each gives an ".input" and an ".output" row per micro step.
std::vector<Tensor> model_activations() {
    std::vector<Tensor> actv;
    for (int l = 0; l < kLayers; ++l) {
        const std::string p = "language_model.encoder.layers." + std::to_string(l) + ".";
        for (const char* m :
             {"input_layernorm", "self_attention", "post_attention_layernorm", "mlp"}) {
            actv.push_back({p + m + ".input", "[4096, 1, 4096]", 1.0 + 0.1 * l});
            actv.push_back({p + m + ".output", "[4096, 1, 4096]", 1.2 + 0.1 * l});
        }
    }
    return actv;
}

class CsvValues {
  public:
    explicit CsvValues(std::uint64_t seed) : rng_(seed) {}

    // min, max, mean, norm, zeros, nans of a tensor whose entries are of order `scale`, of
    // `elements` entries; now and then a step that overflowed.
    void stats(double scale, double elements, double zero_fraction, std::vector<double>& out) {
        out.resize(6);
        const double s = scale * std::exp(0.3 * normal_(rng_));
        out[0] = -s * (3.5 + std::fabs(normal_(rng_)));
        out[1] = s * (3.5 + std::fabs(normal_(rng_)));
        out[2] = s * 0.01 * normal_(rng_);
        out[3] = s * std::sqrt(elements) * (1.0 + 0.05 * normal_(rng_));
        out[4] =
            zero_fraction > 0 ? std::min(1.0, zero_fraction * (1.0 + 0.1 * normal_(rng_))) : 0.0;
        out[5] = 0.0;
        if (uniform_(rng_) < 2e-4) {  // overflow: nan statistics and a count of nans
            const double nan = std::numeric_limits<double>::quiet_NaN();
            const double inf = std::numeric_limits<double>::infinity();
            bool all_nan = uniform_(rng_) < 0.5;
            out[0] = all_nan ? nan : -inf;
            out[1] = all_nan ? nan : inf;
            out[2] = nan;
            out[3] = all_nan ? nan : inf;
            out[5] = all_nan ? std::floor(elements * uniform_(rng_)) : 0.0;
        }
    }
    double uniform() { return uniform_(rng_); }

  private:
    std::mt19937_64 rng_;
    std::normal_distribution<double> normal_{0.0, 1.0};
    std::uniform_real_distribution<double> uniform_{0.0, 1.0};
};

double elements_of(const std::string& shape) {
    double n = 1;
    for (const char* p = shape.c_str(); *p;) {
        if (*p >= '0' && *p <= '9') {
            char* end;
            n *= std::strtod(p, &end);
            p = end;
        } else {
            ++p;
        }
    }
    return n;
}

}  // namespace

int write_msprobe_csv(const std::string& dir, double mb) {
    using runtop::msprobe::Row;
    if (!make_dir(dir)) return 1;
    const std::uint64_t target = static_cast<std::uint64_t>(mb * 1e6);
    const double start = 1.7e9;
    const std::vector<std::string> ops = {"min", "max", "mean", "norm", "zeros", "nans"};
    struct Prefix {
        const char* name;
        double scale;  // of the statistic relative to the parameter's own scale
        double zeros;
    };
    // Gradients, the optimizer's moments and the parameters before and after the step.
    const Prefix param_prefixes[] = {{"grad_unreduced", 2e-4, 0.0}, {"grad_reduced", 2.5e-5, 0.0},
                                     {"exp_avg", 1e-5, 0.0},        {"exp_avg_sq", 1e-6, 0.02},
                                     {"param_origin", 1.0, 0.0},    {"param_updated", 1.0, 0.0}};
    const std::vector<Tensor> params = model_params();
    const std::vector<Tensor> actv = model_activations();

    std::vector<runtop::msprobe::MonitorCsvWriter> writers;
    std::vector<CsvValues> values;
    std::mt19937 uuid_rng(99);
    for (int rank = 0; rank < kRanks; ++rank) {
        const std::string run = dir + "/" + runtop::msprobe::run_dir_name(start, rank, uuid_rng());
        if (!make_dir(run)) return 1;
        writers.emplace_back(run, ops, kStepsPerFile);
        values.emplace_back(5678 + static_cast<std::uint64_t>(rank));
    }

    std::uint64_t bytes = 0, rows_written = 0;
    std::size_t files = 0;
    std::vector<Row> rows;
    auto check = [](const runtop::Status& s) {
        if (!s) {
            std::fprintf(stderr, "runtop_benchgen: %s\n", s.error().message.c_str());
            std::exit(1);
        }
    };
    for (std::int64_t step = 0; bytes < target; ++step) {
        const double decay = 1.0 + 2.0 / (1.0 + 0.01 * static_cast<double>(step));
        for (int rank = 0; rank < kRanks; ++rank) {
            auto& writer = writers[static_cast<std::size_t>(rank)];
            CsvValues& v = values[static_cast<std::size_t>(rank)];
            rows.clear();
            for (int micro = 0; micro < kMicroSteps; ++micro)
                for (const Tensor& t : actv) {
                    Row& r = rows.emplace_back();
                    r.name = t.name;
                    r.micro_step = micro;
                    r.shape = t.shape;
                    r.dtype = "torch.bfloat16";
                    const bool relu = t.name.find("mlp.output") != std::string::npos;
                    v.stats(t.scale, elements_of(t.shape), relu ? 0.45 : 0.0, r.values);
                }
            check(writer.write_step("actv", true, step, rows));
            for (const Prefix& prefix : param_prefixes) {
                rows.clear();
                for (const Tensor& t : params) {
                    Row& r = rows.emplace_back();
                    r.name = t.name;
                    r.shape = t.shape;
                    r.dtype = "torch.float32";
                    v.stats(t.scale * prefix.scale * decay, elements_of(t.shape), prefix.zeros,
                            r.values);
                    if (std::string_view(prefix.name) == "exp_avg_sq") {  // a second moment
                        r.values[0] = 0.0;
                        r.values[2] = std::fabs(r.values[2]);
                    }
                }
                check(writer.write_step(prefix.name, false, step, rows));
            }
            rows_written += static_cast<std::uint64_t>(kMicroSteps) * actv.size() +
                            std::size(param_prefixes) * params.size();
        }
        if ((step + 1) % kStepsPerFile == 0) {  // every rank's files of these 5 steps are done
            for (auto& writer : writers) {
                bytes += file_size(writer.path_for("actv", step));
                for (const Prefix& prefix : param_prefixes)
                    bytes += file_size(writer.path_for(prefix.name, step));
                files += 1 + std::size(param_prefixes);
            }
        }
    }
    std::printf("runtop_benchgen: %zu msProbe CSV files, %" PRIu64 " bytes, %" PRIu64
                " rows in %s\n",
                files, bytes, rows_written, dir.c_str());
    return 0;
}

namespace {

// --- the JSON readers' files -------------------------------------------------------------------
//
// trainer_state.json as Hugging Face's Trainer writes it (json.dumps(indent=2, sort_keys=True)):
// a log_history of training entries (epoch, grad_norm, learning_rate, loss, step) with an eval
// entry every 50 steps, then the run's state. anomaly.json as msProbe writes it
// (writers/msprobe_writer.h: json.dump(indent=1)), 8 ranks, AnomalyTurbulence on activation
// and gradient tags. Seeded: the same bytes every time.

void append_float(std::string& out, double v) {
    runtop::msprobe::append_python_float(out, v, -1);
}

std::string trainer_state(double mb) {
    std::mt19937_64 rng(11);
    std::normal_distribution<double> noise(0.0, 1.0);
    const std::size_t target = static_cast<std::size_t>(mb * 1e6);
    std::string out = "{\n  \"best_metric\": null,\n  \"epoch\": 3.0,\n  \"log_history\": [";
    std::int64_t step = 0;
    for (; out.size() < target; ++step) {
        const double progress = static_cast<double>(step) * 1e-5;
        out += step ? ",\n    {\n" : "\n    {\n";
        out += "      \"epoch\": ";
        append_float(out, progress);
        out += ",\n      \"grad_norm\": ";
        append_float(out, std::fabs(1.5 + 0.3 * noise(rng)));
        out += ",\n      \"learning_rate\": ";
        append_float(out, 5e-05 * (1.0 - progress / 10));
        out += ",\n      \"loss\": ";
        append_float(out, 2.5 / (1.0 + progress) + 0.05 * noise(rng));
        out += ",\n      \"step\": " + std::to_string(step + 1) + "\n    }";
        if ((step + 1) % 50 == 0) {
            out += ",\n    {\n      \"epoch\": ";
            append_float(out, progress);
            out += ",\n      \"eval_loss\": ";
            append_float(out, 2.6 / (1.0 + progress) + 0.02 * noise(rng));
            out += ",\n      \"eval_runtime\": ";
            append_float(out, 12.5 + noise(rng));
            out += ",\n      \"eval_samples_per_second\": ";
            append_float(out, 80.0 + 4 * noise(rng));
            out += ",\n      \"step\": " + std::to_string(step + 1) + "\n    }";
        }
    }
    out += "\n  ],\n  \"global_step\": " + std::to_string(step) +
           ",\n  \"max_steps\": " + std::to_string(step) +
           ",\n  \"num_train_epochs\": 3,\n  \"train_batch_size\": 8\n}";
    return out;
}

std::vector<runtop::msprobe::Anomaly> anomalies(int rank, double mb) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(rank) + 17);
    std::uniform_int_distribution<int> layer(0, 31);
    std::uniform_real_distribution<double> value(10.0, 1000.0);
    const char* kinds[] = {"actv", "actv_grad", "post_grad", "exp_avg"};
    const char* modules[] = {"self_attn.q_proj.input", "mlp.fc1.output", "mlp.fc2.input"};
    // About 420 bytes an entry.
    const std::size_t count = static_cast<std::size_t>(mb * 1e6 / kRanks / 420);
    std::vector<runtop::msprobe::Anomaly> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        runtop::msprobe::Anomaly a;
        a.rank = rank;
        a.step = static_cast<std::int64_t>(i / 4);
        a.call_id = static_cast<int>(i % 4);
        const char* kind = kinds[i % std::size(kinds)];
        a.tag_name = fmt::format("0:model.layers.{}.{}/rank{}/{}", layer(rng),
                                 modules[(i / 4) % std::size(modules)], rank, kind);
        a.rule = "AnomalyTurbulence";
        a.op = "norm";
        a.value = value(rng);
        a.history_mean = a.value / 3;
        for (int r = 0; r < kRanks; ++r) a.group_mates.push_back(r);
        out.push_back(std::move(a));
    }
    return out;
}

int write_json(const std::string& dir, double mb) {
    const std::string hf = dir + "/hf", probe = dir + "/msprobe",
                      detected = probe + "/anomaly_detected";
    for (const std::string& d : {dir, hf, probe, detected})
        if (!make_dir(d)) return 1;
    std::uint64_t bytes = 0;
    const std::string state = trainer_state(mb);
    if (!runtop::rewrite_file(hf + "/trainer_state.json", state)) return 1;
    bytes += state.size();
    for (int rank = 0; rank < kRanks; ++rank) {
        const std::string rank_dir = detected + "/rank" + std::to_string(rank);
        if (!make_dir(rank_dir)) return 1;
        const std::string text = runtop::msprobe::anomaly_json(anomalies(rank, mb));
        if (!runtop::rewrite_file(rank_dir + "/anomaly.json", text)) return 1;
        bytes += text.size();
    }
    std::printf("runtop_benchgen: trainer_state.json and %d anomaly.json, %" PRIu64
                " bytes in %s\n",
                kRanks, bytes, dir.c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "--msprobe-scale") == 0) {
        runtop::bench::ScaleShape shape;
        if (argc != 4 || !runtop::bench::parse_scale_shape(argv[2], shape)) {
            std::fprintf(
                stderr, "usage: runtop_benchgen --msprobe-scale RANKSxPARAMSxSTEPSxPER_FILE DIR\n");
            return 2;
        }
        return runtop::bench::write_msprobe_scale(argv[3], shape);
    }
    if (argc >= 2 && std::strcmp(argv[1], "--megatron-log") == 0) {
        if (argc != 4 || std::atof(argv[3]) <= 0) {
            std::fprintf(stderr, "usage: runtop_benchgen --megatron-log DIR MB\n");
            return 2;
        }
        return runtop::bench::write_megatron_log(argv[2], std::atof(argv[3]));
    }
    if (argc >= 2 && std::strcmp(argv[1], "--events-scale") == 0) {
        runtop::bench::EventsScaleShape shape;
        if (argc != 4 || !runtop::bench::parse_events_scale_shape(argv[2], shape)) {
            std::fprintf(stderr, "usage: runtop_benchgen --events-scale RANKSxTAGSxSTEPS DIR\n");
            return 2;
        }
        const auto written = runtop::bench::write_events_scale(argv[3], shape);
        if (!written) {
            std::fprintf(stderr, "runtop_benchgen: %s\n", written.error().message.c_str());
            return 1;
        }
        std::printf("%s\n", runtop::bench::describe_events_scale(argv[3], shape, *written).c_str());
        return 0;
    }
    std::int64_t diverge_at = std::numeric_limits<std::int64_t>::max();
    if (argc == 5 && std::strcmp(argv[1], "--diverge-at") == 0) {
        diverge_at = std::atoll(argv[2]);
        argv += 2;
        argc -= 2;
    }
    bool csv = argc == 4 && std::strcmp(argv[1], "--msprobe-csv") == 0;
    const bool json = argc == 4 && std::strcmp(argv[1], "--json") == 0;
    if (argc != 3 && !csv && !json) {
        std::fprintf(
            stderr, "usage: runtop_benchgen [--msprobe-csv | --json | --diverge-at STEP] DIR MB\n");
        return 2;
    }
    csv = csv || json;  // both take DIR MB after the flag
    const std::string dir = argv[csv ? 2 : 1];
    const double mb = std::atof(argv[csv ? 3 : 2]);
    if (!(mb > 0)) {
        std::fprintf(stderr, "runtop_benchgen: MB must be a positive number\n");
        return 2;
    }
    if (json) return write_json(dir, mb);
    return csv ? write_msprobe_csv(dir, mb) : write_events(dir, mb, diverge_at);
}
