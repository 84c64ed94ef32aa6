#include "writers/demo_logs.h"

#include <cmath>
#include <ctime>

#include <fmt/format.h>

#include "writers/file_output.h"

namespace runtop {
namespace {

// Python logging's asctime: local time, milliseconds after a comma.
std::string asctime(double wall) {
    const auto seconds = static_cast<std::time_t>(std::floor(wall));
    std::tm tm{};
    localtime_r(&seconds, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
    const int ms = static_cast<int>((wall - std::floor(wall)) * 1000);
    return fmt::format("{},{:03d}", text, ms);
}

// Python's %5.3f / {:.3f} of a float: nan as "nan".
std::string fixed(double v, int digits) {
    return std::isnan(v) ? "nan" : fmt::format("{:.{}f}", v, digits);
}

// Python's {:.6E}: NAN and INF in capitals.
std::string scientific(double v) {
    if (std::isnan(v)) return "NAN";
    if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
    return fmt::format("{:.6E}", v);
}

}  // namespace

Result<DemoLogs> DemoLogs::create(const std::string& dir, int ranks, std::int64_t steps) {
    DemoLogs logs;
    logs.steps_ = steps;
    logs.megatron_path_ = fmt::format("{}/slurm-{}.out", dir, kJobId);
    // srun --label pads the task id to the width of the largest.
    logs.label_ = fmt::format("{:>{}}", ranks - 1, std::to_string(ranks - 1).size());
    if (Status s = append_to_file(
            logs.megatron_path_,
            fmt::format("{0}: using world size: {1}, data-parallel size: {1}\n{0}: > building GPT "
                        "model ...\n",
                        logs.label_, ranks));
        !s)
        return s.error();
    for (int r = 0; r < ranks; ++r) {
        const std::string rank_dir = fmt::format("{}/output/log/rank_{}", dir, r);
        if (Status s = make_dirs(rank_dir); !s) return s.error();
        logs.info_paths_.push_back(rank_dir + "/info.log");
        if (Status s = append_to_file(logs.info_paths_.back(),
                                      "[INFO] Start training: rank " + std::to_string(r) + "\n");
            !s)
            return s.error();
    }
    return logs;
}

Status DemoLogs::write_step(std::int64_t step, double wall, double lr,
                            const std::vector<DemoRankStep>& ranks) {
    const std::string when = asctime(wall);
    // Megatron (its last rank prints): the data-parallel mean loss; a NaN anywhere makes it NaN,
    // and the line then leaves the loss (and the grad norm) out and counts a nan iteration.
    double loss = 0, grad = 0, throughput = 0;
    for (const DemoRankStep& r : ranks) {
        loss += r.loss / static_cast<double>(ranks.size());
        grad += r.grad_norm / static_cast<double>(ranks.size());
        throughput += r.throughput;
    }
    const std::int64_t iteration = step + 1;
    const std::int64_t batch = 512;
    std::string line = fmt::format(
        "{}:  [{}] iteration {:8d}/{:8d} | consumed samples: {:12d} | elapsed time per iteration "
        "(ms): {:.1f} | throughput per GPU (TFLOP/s/GPU): {:.1f} | learning rate: {} | global "
        "batch size: {:5d} |",
        label_, when.substr(0, 19), iteration, steps_, iteration * batch,
        1000.0 * static_cast<double>(batch) / throughput, throughput / 10.0, scientific(lr), batch);
    if (std::isnan(loss)) {
        ++nan_iterations_;
    } else {
        line += fmt::format(" lm loss: {} |", scientific(loss));
    }
    line += " loss scale: 1.0 |";
    if (!std::isnan(grad)) line += fmt::format(" grad norm: {:.3f} |", grad);
    line +=
        fmt::format(" number of skipped iterations: {:3d} | number of nan iterations: {:3d} |\n", 0,
                    nan_iterations_);
    nan_iterations_ = 0;
    if (Status s = append_to_file(megatron_path_, line); !s) return s;

    // MindFormers: each rank its own loss, the step within the single epoch.
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const DemoRankStep& v = ranks[r];
        std::string text = fmt::format(
            "[INFO] {} [mindformers/core/callback/callback.py:71] print_output_info: {{ Epoch:[  "
            "1/  1], step:[{:5d}/{:5d}], loss: {}, per_step_time: {}ms, lr: {}, overflow cond: "
            "False, loss_scale: 1.0, global_norm: [{}], train_throughput_per_npu: {:.3f}T\n",
            when, step + 1, steps_, fixed(v.loss, 6), static_cast<int>(64000.0 / v.throughput),
            fmt::format("{}", lr), fixed(v.grad_norm, 7), v.throughput / 8.0);
        for (std::size_t l = 0; l < v.layer_norms.size(); ++l)
            text += fmt::format(
                "[INFO] {} [mindformers/core/callback/callback.py:98] _to_log: Epoch:[  1/  1], "
                "step:[{:5d}/{:5d}] local_norm/model.layers.{}.attention.wq.weight: {:.4f}\n",
                when, step + 1, steps_, l, v.layer_norms[l]);
        if (Status s = append_to_file(info_paths_[r], text); !s) return s;
    }
    return ok_status();
}

}  // namespace runtop
