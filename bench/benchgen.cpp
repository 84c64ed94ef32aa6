// runtop_benchgen DIR MB: writes about MB megabytes of realistic scalar event files for the
// ingest benchmark (bench/run_bench.sh), with runtop's own writer.
//
// Shape (like the 82 MB PyTorch/msProbe file of TFEVENTS.md §8.1): 8 ranks, one event file
// each in DIR/rank_<r>/, a file_version record first, then ~160 tags per step written as
// PyTorch `add_scalar` does (`simple_value`, no metadata), steps 0..N. Most tags are msProbe
// monitor tags ("model.layers.7.mlp.fc1.weight/rank3/pre_grad_norm"), a few are training
// tags ("train/loss"). Each step is one buffered write per file.
#include <sys/stat.h>

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

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

bool make_dir(const std::string& path) {
    if (::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST) return true;
    std::fprintf(stderr, "runtop_benchgen: %s: %s\n", path.c_str(), std::strerror(errno));
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: runtop_benchgen DIR MB\n");
        return 2;
    }
    const std::string dir = argv[1];
    const double mb = std::atof(argv[2]);
    if (!(mb > 0)) {
        std::fprintf(stderr, "runtop_benchgen: MB must be a positive number\n");
        return 2;
    }
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
        for (std::size_t i = 0; i < tags.size(); ++i) level[i] = 0.5 + 0.1 * static_cast<double>(i % 17);

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
