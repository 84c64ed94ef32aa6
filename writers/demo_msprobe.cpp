#include "writers/demo_msprobe.h"

#include <cmath>

#include "writers/file_output.h"

namespace runtop {
namespace {

constexpr int kLayers = 4;
constexpr double kTurbulence = 0.5;  // AnomalyTurbulence threshold, msProbe's example config

}  // namespace

std::vector<std::string> DemoMsProbe::params() {
    std::vector<std::string> p;
    for (int l = 0; l < kLayers; ++l) {
        p.push_back("layers." + std::to_string(l) + ".weight");
        p.push_back("layers." + std::to_string(l) + ".bias");
    }
    return p;
}

Result<DemoMsProbe> DemoMsProbe::create(const std::string& dir, int ranks, double start_time,
                                        std::uint64_t seed) {
    DemoMsProbe demo;
    std::mt19937_64 ids(seed);
    const std::size_t n = params().size();
    for (int r = 0; r < ranks; ++r) {
        std::string run_dir =
            dir + "/monitor_output/" +
            msprobe::run_dir_name(start_time, r, static_cast<std::uint32_t>(ids()));
        if (Status s = make_dirs(run_dir); !s) return s.error();
        std::string anomaly_dir = dir + "/monitor_output/anomaly_detected/rank" + std::to_string(r);
        if (Status s = make_dirs(anomaly_dir); !s) return s.error();
        Rank rank{msprobe::MonitorCsvWriter(run_dir, {"norm", "min", "max", "mean", "nans"},
                                            kStepsPerFile),
                  std::mt19937_64(seed * 7919 + static_cast<std::uint64_t>(r)),
                  std::vector<double>(n, 0.0),
                  std::vector<bool>(n, false),
                  {},
                  anomaly_dir + "/anomaly.json"};
        // msProbe's writer starts every process with an empty anomaly file.
        if (Status s = rewrite_file(rank.anomaly_path, "{}"); !s) return s.error();
        demo.ranks_.push_back(std::move(rank));
    }
    return demo;
}

double DemoMsProbe::noise(Rank& r, double sigma) {
    return std::normal_distribution<double>(0.0, sigma)(r.rng);
}

Status DemoMsProbe::write_step(int rank_index, std::int64_t step, double grad_scale,
                               double progress) {
    Rank& rank = ranks_[static_cast<std::size_t>(rank_index)];
    const std::vector<std::string> names = params();
    std::vector<msprobe::Row> grads, moments, squares, weights;
    bool new_anomaly = false;
    for (std::size_t p = 0; p < names.size(); ++p) {
        const bool weight = p % 2 == 0;
        const int layer = static_cast<int>(p / 2);
        const std::string shape = weight ? "[1024, 1024]" : "[1024]";
        const double elements = weight ? 1024.0 * 1024.0 : 1024.0;
        double norm =
            grad_scale * (0.35 + 0.1 * layer) * (weight ? 1.0 : 0.08) * std::exp(noise(rank, 0.02));
        double spread = norm / std::sqrt(elements);
        double nans = std::isnan(grad_scale) ? elements : 0;
        grads.push_back({0,
                         names[p],
                         -1,
                         {norm, -4 * spread + noise(rank, spread * 0.1),
                          4 * spread + noise(rank, spread * 0.1), spread * noise(rank, 0.02), nans},
                         shape});
        // msProbe's AnomalyNan / AnomalyTurbulence on the norm, with its EMA history.
        double a = std::fabs(norm);
        double& ema = rank.ema[p];
        if (!rank.seen[p]) {
            ema = a;
            rank.seen[p] = true;
        }
        const double history = ema;
        const char* rule = std::isnan(norm)                  ? "AnomalyNan"
                           : a > history * (1 + kTurbulence) ? "AnomalyTurbulence"
                                                             : nullptr;
        // The NaN is transient (an fp16 overflow step that is skipped): keep the history.
        if (!std::isnan(norm)) ema = 0.99 * ema + 0.01 * a;
        if (rule) {
            msprobe::Anomaly an;
            an.rank = rank_index;
            an.step = step;
            an.call_id = static_cast<int>(p);
            an.tag_name = "0:" + names[p] + "/rank" + std::to_string(rank_index) + "/post_grad";
            an.rule = rule;
            an.op = "norm";
            an.value = norm;
            an.history_mean = history;
            an.group_mates = {rank_index};
            rank.anomalies.push_back(std::move(an));
            new_anomaly = true;
        }
        if (step >= 1) {  // Adam's state is empty before the first step
            double m = 0.1 * (std::isnan(norm) ? 0.0 : norm) + noise(rank, 1e-4);
            moments.push_back({0, names[p], -1, {m, -m / 40, m / 40, m * 1e-3, 0}, shape});
            double v = m * m * (1 + noise(rank, 0.01));
            squares.push_back({0, names[p], -1, {v, 0, v / 20, v * 1e-3, 0}, shape});
        }
        double w = (18.0 + 3 * layer) * (weight ? 1.0 : 0.05) * (1 + 0.12 * std::sqrt(progress)) +
                   noise(rank, 0.01);
        double ws = w / std::sqrt(elements);
        weights.push_back({0, names[p], -1, {w, -3 * ws, 3 * ws, ws * 0.01, 0}, shape});
    }
    // msProbe's write order: grads, moments, params, then the anomaly file.
    if (Status s = rank.csv.write_step("grad_reduced", false, step, grads); !s) return s;
    if (!moments.empty()) {
        if (Status s = rank.csv.write_step("exp_avg", false, step, moments); !s) return s;
        if (Status s = rank.csv.write_step("exp_avg_sq", false, step, squares); !s) return s;
    }
    if (Status s = rank.csv.write_step("param_updated", false, step, weights); !s) return s;
    if (new_anomaly) return rewrite_file(rank.anomaly_path, msprobe::anomaly_json(rank.anomalies));
    return ok_status();
}

}  // namespace runtop
