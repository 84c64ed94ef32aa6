// The msProbe half of the demo run: for the same simulated ranks, a monitor_output with one
// "<ts>-rank<R>-<uuid>" dir per rank, grad_reduced / exp_avg / exp_avg_sq / param_updated
// CSVs per step range, and anomaly_detected/rank<R>/anomaly.json rewritten whenever msProbe's
// rules would fire (the loss spike trips AnomalyTurbulence, the NaN trips AnomalyNan).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/result.h"
#include "writers/msprobe_writer.h"

namespace runtop {

struct DemoTrouble;

class DemoMsProbe {
  public:
    static constexpr std::int64_t kStepsPerFile = 10;

    static Result<DemoMsProbe> create(const std::string& dir, int ranks, double start_time,
                                      std::uint64_t seed);
    // Writes one optimizer step for one rank; `grad_scale` is the rank's gradient size this
    // step (NaN on the NaN step, large on the spike), `progress` in [0, 1].
    Status write_step(int rank, std::int64_t step, double grad_scale, double progress);
    // The parameters every rank reports.
    static std::vector<std::string> params();

  private:
    struct Rank {
        msprobe::MonitorCsvWriter csv;
        std::mt19937_64 rng;
        std::vector<double> ema;  // msProbe's history: EMA (beta 0.99) of |norm| per param
        std::vector<bool> seen;
        std::vector<msprobe::Anomaly> anomalies;
        std::string anomaly_path;
    };
    double noise(Rank& r, double sigma);

    std::vector<Rank> ranks_;
};

}  // namespace runtop
