// A simulated multi-rank training run, written step by step as real writers would: one event
// file per rank under <dir>/tensorboard/rank_<r>/, about a dozen tags with realistic noisy
// curves, and injected trouble (a loss spike on one rank, a NaN later on another, a straggler);
// and, for the same ranks, msProbe's monitor output under <dir>/monitor_output/, and training
// logs (<dir>/slurm-4242.out, Megatron's; <dir>/output/log/rank_<r>/info.log, MindFormers').
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/result.h"
#include "writers/demo_logs.h"
#include "writers/demo_msprobe.h"
#include "writers/tfrecord_writer.h"

namespace runtop {

struct DemoOptions {
    std::string dir;
    int ranks = 4;
    std::int64_t steps = 2000;
    double rate = 20;  // steps per second; 0 writes as fast as possible
    std::uint64_t seed = 7;
    bool msprobe = true;  // also write msProbe monitor CSVs and anomaly files
    bool logs = true;     // also write a Megatron job output and MindFormers rank logs
    // The run's start (Unix seconds) for reproducible files; unset: now.
    std::optional<double> start_time;
};

// Where the demo injects trouble, so tests and the dashboard can point at it.
struct DemoTrouble {
    int spike_rank;
    std::int64_t spike_step;
    int nan_rank;
    std::int64_t nan_step;
    int straggler_rank;
};

class DemoRun {
  public:
    static Result<DemoRun> create(const DemoOptions& options);

    // Writes the next step for every rank and flushes; false once all steps are written.
    Result<bool> write_step();
    std::int64_t next_step() const { return step_; }
    const DemoOptions& options() const { return options_; }
    const DemoTrouble& trouble() const { return trouble_; }
    static DemoTrouble trouble_for(const DemoOptions& options);
    // The tags every rank writes (eval/loss only every 50 steps).
    static std::vector<std::string> tags();

  private:
    struct Rank {
        RecordFile file;
        std::mt19937_64 rng;
    };
    double noise(Rank& r, double sigma);

    DemoOptions options_;
    DemoTrouble trouble_{};
    std::vector<Rank> ranks_;
    std::optional<DemoMsProbe> msprobe_;
    std::optional<DemoLogs> logs_;
    std::int64_t step_ = 0;
    double start_time_ = 0;
};

}  // namespace runtop
