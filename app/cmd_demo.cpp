// `runtop demo`: a simulated multi-rank training run written live, for trying runtop out.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "app/commands.h"
#include "app/signals.h"
#include "writers/demo_run.h"

namespace runtop {

const std::vector<OptionSpec> kDemoOptions = {
    {"dir", "DIR", "write the run here (default: a fresh directory under $TMPDIR or /tmp)"},
    {"ranks", "N", "number of simulated ranks (default 4)"},
    {"steps", "N", "training steps to write (default 2000)"},
    {"rate", "STEPS_PER_S", "steps written per second; 0 writes as fast as possible (default 20)"},
    {"no-ui", "", "only write the run; do not open the dashboard"},
    {"help", "", "show this help"},
};

namespace {

Result<std::string> fresh_dir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/runtop-demo-XXXXXX";
    if (!::mkdtemp(templ.data())) return Error{templ + ": cannot create directory"};
    return templ;
}

}  // namespace

int cmd_demo(const Args& args) {
    DemoOptions options;
    Result<long long> ranks = parse_integer("ranks", args.get("ranks", "4"), 1, 4096);
    Result<long long> steps = parse_integer("steps", args.get("steps", "2000"), 1, 100'000'000);
    Result<double> rate = parse_number("rate", args.get("rate", "20"), 0, 1e6);
    Result<std::string> dir = args.has("dir") ? Result<std::string>(args.get("dir")) : fresh_dir();
    for (const Error* e : {ranks ? nullptr : &ranks.error(), steps ? nullptr : &steps.error(),
                           rate ? nullptr : &rate.error(), dir ? nullptr : &dir.error()}) {
        if (!e) continue;
        std::fprintf(stderr, "runtop demo: %s\n", e->message.c_str());
        return kExitError;
    }
    if (!args.positional.empty()) {
        std::fprintf(stderr, "runtop demo: unexpected argument '%s' (use --dir DIR)\n",
                     args.positional.front().c_str());
        return kExitError;
    }
    options.dir = *dir;
    options.ranks = static_cast<int>(*ranks);
    options.steps = *steps;
    options.rate = *rate;

    Result<DemoRun> run = DemoRun::create(options);
    if (!run) {
        std::fprintf(stderr, "runtop demo: %s\n", run.error().message.c_str());
        return kExitError;
    }
    const DemoTrouble& t = run->trouble();
    std::fprintf(stderr,
                 "runtop demo: writing %d ranks x %lld steps to %s (%s); loss spike on rank %d "
                 "at step %lld, NaN on rank %d at step %lld, rank %d straggles\n",
                 options.ranks, static_cast<long long>(options.steps), options.dir.c_str(),
                 options.rate > 0 ? (std::to_string(options.rate) + " steps/s").c_str()
                                  : "as fast as possible",
                 t.spike_rank, static_cast<long long>(t.spike_step), t.nan_rank,
                 static_cast<long long>(t.nan_step), t.straggler_rank);
    if (!args.has("no-ui"))
        std::fprintf(stderr,
                     "runtop demo: the dashboard is not part of this build yet; watch the run "
                     "with: runtop dump --follow %s\n",
                     options.dir.c_str());
    std::fflush(stderr);

    install_stop_signals();
    auto start = std::chrono::steady_clock::now();
    while (!stop_requested()) {
        Result<bool> wrote = run->write_step();
        if (!wrote) {
            std::fprintf(stderr, "runtop demo: %s\n", wrote.error().message.c_str());
            return kExitError;
        }
        if (!*wrote) break;
        if (options.rate > 0) {
            auto due = start + std::chrono::duration<double>(
                                   static_cast<double>(run->next_step()) / options.rate);
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                due - std::chrono::steady_clock::now());
            if (left.count() > 0) sleep_unless_stopped(static_cast<int>(left.count()));
        }
    }
    std::printf("%s\n", options.dir.c_str());
    return kExitOk;
}

}  // namespace runtop
