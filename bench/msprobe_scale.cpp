#include "bench/msprobe_scale.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench/gen_files.h"
#include "writers/msprobe_writer.h"

namespace runtop::bench {
namespace {

// Parameter names as Megatron prints them, 8 per layer, as many layers as it takes.
std::vector<std::string> param_names(int count) {
    static const char* kPerLayer[] = {"input_layernorm.weight",
                                      "self_attention.query_key_value.weight",
                                      "self_attention.query_key_value.bias",
                                      "self_attention.dense.weight",
                                      "post_attention_layernorm.weight",
                                      "mlp.dense_h_to_4h.weight",
                                      "mlp.dense_h_to_4h.bias",
                                      "mlp.dense_4h_to_h.weight"};
    std::vector<std::string> names;
    for (int i = 0; static_cast<int>(names.size()) < count; ++i)
        names.push_back("language_model.encoder.layers." + std::to_string(i / 8) + "." +
                        kPerLayer[i % 8]);
    return names;
}

}  // namespace

bool parse_scale_shape(const std::string& text, ScaleShape& shape) {
    long long dims[4];
    if (!parse_dims(text, dims, 4)) return false;
    if (dims[0] > 100000 || dims[1] > 1000000) return false;
    shape = {static_cast<int>(dims[0]), static_cast<int>(dims[1]), dims[2], dims[3]};
    return true;
}

int write_msprobe_scale(const std::string& dir, const ScaleShape& shape) {
    using msprobe::Row;
    if (!make_dir(dir)) return 1;
    const double start = 1.7e9;
    const std::vector<std::string> ops = {"min", "max", "mean", "norm", "nans"};
    const std::vector<std::string> names = param_names(shape.params);
    const int spike_rank = !shape.spike            ? -1
                           : shape.spike_rank >= 0 ? shape.spike_rank
                                                   : shape.ranks / 3;
    const int spike_param = shape.params / 2;
    const long long spike_step = shape.spike_step >= 0 ? shape.spike_step : shape.steps * 2 / 3;

    std::uint64_t bytes = 0;
    std::size_t files = 0;
    std::mt19937 uuid_rng(17);
    std::vector<Row> rows(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        rows[i].name = names[i];
        rows[i].shape = i % 8 == 0 || i % 8 == 4 ? "[4096]" : "[1536, 4096]";
        rows[i].values.resize(ops.size());
    }
    // Rank by rank: each rank's files are written whole, so the tree is the same however long
    // a rank takes, and the generator holds one rank's writer at a time.
    for (int rank = 0; rank < shape.ranks; ++rank) {
        const std::string run = dir + "/" + msprobe::run_dir_name(start, rank, uuid_rng());
        if (!make_dir(run)) return 1;
        msprobe::MonitorCsvWriter writer(run, ops, shape.per_file);
        std::mt19937_64 rng(4242 + static_cast<std::uint64_t>(rank));
        std::normal_distribution<double> normal(0.0, 1.0);
        for (long long step = 0; step < shape.steps; ++step) {
            const double decay = 1.0 + 2.0 / (1.0 + 0.01 * static_cast<double>(step));
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const double s = 2e-4 * decay * std::exp(0.3 * normal(rng));
                std::vector<double>& v = rows[i].values;
                v[0] = -s * (3.5 + std::fabs(normal(rng)));
                v[1] = s * (3.5 + std::fabs(normal(rng)));
                v[2] = s * 0.01 * normal(rng);
                v[3] = s * 2500.0 * (1.0 + 0.05 * normal(rng));
                v[4] = 0.0;
                if (rank == spike_rank && static_cast<int>(i) == spike_param && step == spike_step)
                    v[3] *= 1000.0;
            }
            const runtop::Status written = writer.write_step("grad_unreduced", false, step, rows);
            if (!written) {
                std::fprintf(stderr, "runtop_benchgen: %s\n", written.error().message.c_str());
                return 1;
            }
            if ((step + 1) % shape.per_file == 0 || step + 1 == shape.steps) {
                bytes += file_size(writer.path_for("grad_unreduced", step));
                ++files;
            }
        }
    }
    const std::uint64_t series = static_cast<std::uint64_t>(shape.ranks) *
                                 static_cast<std::uint64_t>(shape.params) * ops.size();
    std::printf("runtop_benchgen: %zu msProbe CSV files, %" PRIu64 " bytes, %" PRIu64
                " series, %" PRIu64
                " points in %s; spike: rank %d, grad_unreduced/%s/norm, "
                "step %lld%s\n",
                files, bytes, series, series * static_cast<std::uint64_t>(shape.steps), dir.c_str(),
                spike_rank, names[static_cast<std::size_t>(spike_param)].c_str(), spike_step,
                shape.spike ? "" : " (not injected)");
    return 0;
}

}  // namespace runtop::bench
