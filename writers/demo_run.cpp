#include "writers/demo_run.h"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>

#include "writers/event_writer.h"
#include "writers/file_output.h"

namespace runtop {
namespace {

constexpr double kPeakLr = 3e-4;
constexpr int kLayers = 4;
constexpr int kEvalEvery = 50;

double now_seconds() {
    using namespace std::chrono;
    return duration<double>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

DemoTrouble DemoRun::trouble_for(const DemoOptions& o) {
    int last = o.ranks - 1;
    return DemoTrouble{
        .spike_rank = o.ranks > 1 ? 1 : 0,
        .spike_step = o.steps * 35 / 100,
        .nan_rank = o.ranks > 2 ? 2 : last,
        .nan_step = o.steps * 70 / 100,
        .straggler_rank = last,
    };
}

std::vector<std::string> DemoRun::tags() {
    std::vector<std::string> t = {"train/loss", "train/lr", "train/grad_norm", "train/throughput"};
    for (int l = 0; l < kLayers; ++l) t.push_back("weights/layer_" + std::to_string(l) + "_norm");
    t.insert(t.end(), {"gpu/util", "gpu/memory_gb", "gpu/temperature_c", "eval/loss"});
    return t;
}

Result<DemoRun> DemoRun::create(const DemoOptions& options) {
    if (options.ranks < 1 || options.ranks > 4096) return Error{"--ranks must be 1..4096"};
    if (options.steps < 1) return Error{"--steps must be at least 1"};
    DemoRun run;
    run.options_ = options;
    run.trouble_ = trouble_for(options);
    run.start_time_ = options.start_time.value_or(now_seconds());
    for (int r = 0; r < options.ranks; ++r) {
        std::string dir = options.dir + "/tensorboard/rank_" + std::to_string(r);
        if (Status s = make_dirs(dir); !s) return s.error();
        Result<RecordFile> file =
            RecordFile::open(dir + "/" + events::event_file_name(run.start_time_, r));
        if (!file) return file.error();
        Rank rank{std::move(*file), std::mt19937_64(options.seed * 1000003 + r)};
        rank.file.add(events::file_version(run.start_time_));
        rank.file.add(events::text(
            "config",
            "{\"model\": \"demo-gpt-125m\", \"optimizer\": \"adamw\", \"lr\": 0.0003, "
            "\"warmup_steps\": " +
                std::to_string(options.steps / 20) +
                ", \"global_batch\": 512, \"world_size\": " + std::to_string(options.ranks) + "}",
            0, run.start_time_));
        if (Status s = rank.file.flush(); !s) return s.error();
        run.ranks_.push_back(std::move(rank));
    }
    if (options.msprobe) {
        Result<DemoMsProbe> msprobe =
            DemoMsProbe::create(options.dir, options.ranks, run.start_time_, options.seed);
        if (!msprobe) return msprobe.error();
        run.msprobe_ = std::move(*msprobe);
    }
    if (options.logs) {
        Result<DemoLogs> logs = DemoLogs::create(options.dir, options.ranks, options.steps);
        if (!logs) return logs.error();
        run.logs_ = std::move(*logs);
    }
    return run;
}

double DemoRun::noise(Rank& r, double sigma) {
    return std::normal_distribution<double>(0.0, sigma)(r.rng);
}

Result<bool> DemoRun::write_step() {
    if (step_ >= options_.steps) return false;
    const std::int64_t s = step_;
    const double total = static_cast<double>(options_.steps);
    const double t = static_cast<double>(s);
    // Simulated wall time: the configured pace, so values and times are reproducible.
    const double wall = start_time_ + t / (options_.rate > 0 ? options_.rate : 2.0);
    const double warmup = std::max(1.0, total / 20);
    const double lr = t < warmup
                          ? kPeakLr * (t + 1) / warmup
                          : 3e-5 + 0.5 * (kPeakLr - 3e-5) *
                                       (1 + std::cos(M_PI * (t - warmup) / (total - warmup)));
    std::vector<DemoRankStep> logged(static_cast<std::size_t>(options_.ranks));
    for (int r = 0; r < options_.ranks; ++r) {
        Rank& rank = ranks_[static_cast<std::size_t>(r)];
        DemoRankStep& log = logged[static_cast<std::size_t>(r)];
        double loss = 0.55 + 2.6 * std::exp(-t / (0.22 * total)) + noise(rank, 0.025) +
                      0.01 * std::sin(t / 17.0 + r);
        double grad = (0.9 + 3.0 * std::exp(-t / (0.08 * total))) * std::exp(noise(rank, 0.08));
        if (r == trouble_.spike_rank && s == trouble_.spike_step) {
            loss *= 6.5;
            grad *= 24;
        }
        if (r == trouble_.nan_rank && s == trouble_.nan_step) {
            loss = std::nan("");
            grad = std::nan("");
        }
        const bool straggler = r == trouble_.straggler_rank && options_.ranks > 1;
        double throughput = (straggler ? 1030.0 : 1260.0) * (1 + noise(rank, 0.015));
        auto& f = rank.file;
        f.add(events::simple_scalar("train/loss", static_cast<float>(loss), s, wall));
        f.add(events::simple_scalar("train/lr", static_cast<float>(lr), s, wall));
        f.add(events::simple_scalar("train/grad_norm", static_cast<float>(grad), s, wall));
        f.add(events::simple_scalar("train/throughput", static_cast<float>(throughput), s, wall));
        for (int l = 0; l < kLayers; ++l) {
            double norm = (18.0 + 3 * l) * (1 + 0.12 * std::sqrt(t / total)) + noise(rank, 0.01);
            f.add(events::simple_scalar("weights/layer_" + std::to_string(l) + "_norm",
                                        static_cast<float>(norm), s, wall));
            log.layer_norms.push_back(norm / 20.0);  // a weight matrix's share of it
        }
        log.loss = loss;
        log.grad_norm = grad;
        log.throughput = throughput;
        double util = (straggler ? 81.0 : 96.0) + noise(rank, 1.2);
        f.add(
            events::simple_scalar("gpu/util", static_cast<float>(std::min(util, 100.0)), s, wall));
        f.add(events::simple_scalar("gpu/memory_gb", static_cast<float>(61.2 + noise(rank, 0.05)),
                                    s, wall));
        f.add(events::simple_scalar(
            "gpu/temperature_c",
            static_cast<float>(58 + 14 * (1 - std::exp(-t / 150)) + noise(rank, 0.6)), s, wall));
        if (s % kEvalEvery == kEvalEvery - 1)
            f.add(events::simple_scalar(
                "eval/loss", static_cast<float>(loss + 0.08 + noise(rank, 0.01)), s, wall));
        if (Status st = f.flush(); !st) return st.error();
        if (msprobe_) {
            if (Status st = msprobe_->write_step(r, s, grad, t / total); !st) return st.error();
        }
    }
    if (logs_) {
        if (Status st = logs_->write_step(s, wall, lr, logged); !st) return st.error();
    }
    ++step_;
    return true;
}

}  // namespace runtop
