#include "bench/megatron_log.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include <fmt/format.h>

#include "writers/file_output.h"

namespace runtop::bench {
namespace {

constexpr int kLinesPerIteration = 50;

// One of the lines a job prints between its iteration lines, with numbers that change.
std::string other_line(std::mt19937_64& rng, long long iteration) {
    std::uniform_int_distribution<int> pick(0, 7);
    std::uniform_real_distribution<double> ms(0.5, 20000.0);
    const int rank = static_cast<int>(rng() % 64);
    switch (pick(rng)) {
        case 0:
            return fmt::format(
                "    forward-backward ...............................: ({:.2f}, "
                "{:.2f})",
                ms(rng), ms(rng));
        case 1:
            return fmt::format(
                "  batch generator: {:.2f} | forward-backward: {:.1f} | optimizer: "
                "{:.1f} | params-all-gather: {:.1f}",
                ms(rng) / 1000, ms(rng), ms(rng) / 100, ms(rng) / 100);
        case 2:
            return fmt::format(
                "gpu-node-{:03d}:{}:{} [{}] NCCL INFO Channel {:02d}/32 : {} {} {} "
                "via P2P/IPC/read",
                rank / 8, 1000 + rank, 2000 + rank, rank % 8, rank % 32, rank, (rank + 1) % 64,
                (rank + 2) % 64);
        case 3:
            return fmt::format(
                "[2025-08-01 07:{:02d}:{:02d},{:03d}] [INFO] [data_samplers.py:{}] "
                "worker {} fetched shard {:05d} of 01024 ({:.1f} MB) from /lustre/data",
                iteration % 60, rng() % 60, rng() % 1000, 40 + rng() % 80, rng() % 8, rng() % 1024,
                ms(rng) / 1000);
        case 4:
            return fmt::format(
                "WARNING:torch.distributed: some parameters did not receive grad "
                "for rank {} (layer norm)",
                rank);
        case 5:
            return "(min, max) time across ranks (ms):";
        case 6:
            return fmt::format(
                "[Rank {}] (after {} iterations) memory (MB) | allocated: {:.1f} | "
                "max allocated: {:.1f} | reserved: {:.1f} | max reserved: {:.1f}",
                rank, iteration, ms(rng), ms(rng), ms(rng), ms(rng));
        default:
            return fmt::format(
                "[INFO] rank {}: all-reduce bucket {} of 48 finished in {:.1f} ms, "
                "waiting on stream {}",
                rank, rng() % 48, ms(rng) / 1000, rng() % 4);
    }
}

std::string iteration_line(std::mt19937_64& rng, long long iteration) {
    std::normal_distribution<double> noise(0.0, 0.01);
    const double loss = 1.5 + 9.0 * std::exp(-static_cast<double>(iteration) / 2000.0) + noise(rng);
    const double lr = 3e-4 * std::min(1.0, static_cast<double>(iteration) / 500.0);
    return fmt::format(
        " [2025-08-01 {:02d}:{:02d}:{:02d}] iteration {:8d}/{:8d} | consumed samples: {:12d} | "
        "elapsed time per iteration (ms): {:.1f} | throughput per GPU (TFLOP/s/GPU): {:.1f} | "
        "learning rate: {:.6E} | global batch size: {:5d} | lm loss: {:.6E} | loss scale: 1.0 | "
        "grad norm: {:.3f} | number of skipped iterations: {:3d} | number of nan iterations: "
        "{:3d} |",
        (iteration / 3600) % 24, (iteration / 60) % 60, iteration % 60, iteration, 500000,
        iteration * 128, 19000.0 + 100 * noise(rng), 80.0 + noise(rng), lr, 128, loss,
        1.0 + std::fabs(noise(rng)) * 10, 0, 0);
}

}  // namespace

int write_megatron_log(const std::string& dir, double mb) {
    if (Status s = make_dirs(dir); !s) {
        std::fprintf(stderr, "runtop_benchgen: %s\n", s.error().message.c_str());
        return 1;
    }
    const std::string path = dir + "/slurm-1.out";
    std::FILE* out = std::fopen(path.c_str(), "wb");
    if (!out) {
        std::fprintf(stderr, "runtop_benchgen: cannot write %s\n", path.c_str());
        return 1;
    }
    std::mt19937_64 rng(20);
    const auto target = static_cast<std::uint64_t>(mb * 1e6);
    std::uint64_t bytes = 0, lines = 0;
    long long iteration = 0;
    std::string line;
    while (bytes < target) {
        line = lines % kLinesPerIteration == kLinesPerIteration - 1
                   ? iteration_line(rng, ++iteration)
                   : other_line(rng, iteration);
        line += '\n';
        std::fwrite(line.data(), 1, line.size(), out);
        bytes += line.size();
        ++lines;
    }
    std::fclose(out);
    std::printf("%s: %llu bytes, %llu lines, %lld iteration lines\n", path.c_str(),
                static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(lines),
                iteration);
    return 0;
}

}  // namespace runtop::bench
