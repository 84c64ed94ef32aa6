// The training-log half of the demo run, written as the tools print them: a Slurm job's output
// (`slurm-<jobid>.out`) holding Megatron-LM's iteration line for each step, printed by the last
// rank and labelled by `srun --label`, and MindSpore Transformers' per-rank
// `output/log/rank_<R>/info.log` with its training callback line and the TrainingStateMonitor's
// local_norm lines. The same simulated values as the event files: the NaN leaves Megatron's loss
// out of its line and counts a nan iteration, as Megatron does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace runtop {

// One rank's values at one step.
struct DemoRankStep {
    double loss = 0;
    double grad_norm = 0;
    double throughput = 0;  // samples/s
    std::vector<double> layer_norms;
};

class DemoLogs {
  public:
    static constexpr int kJobId = 4242;

    static Result<DemoLogs> create(const std::string& dir, int ranks, std::int64_t steps);
    // Appends step `step`'s lines (each file one write, as a logger flushes a line).
    Status write_step(std::int64_t step, double wall, double lr,
                      const std::vector<DemoRankStep>& ranks);

  private:
    std::string megatron_path_;
    std::string label_;                    // srun's for the last rank
    std::vector<std::string> info_paths_;  // per rank
    std::int64_t steps_ = 0;
    std::int64_t nan_iterations_ = 0;  // Megatron's count, since its last line
};

}  // namespace runtop
