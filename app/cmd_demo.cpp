// `runtop demo`: a simulated multi-rank training run written live, for trying runtop out.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "app/commands.h"
#include "app/signals.h"
#include "writers/demo_run.h"

namespace runtop {

const std::vector<OptionSpec> kDemoOptions = {
    {"dir", "DIR", "write the run here (default: a fresh directory under $TMPDIR or /tmp)"},
    {"ranks", "N", "number of simulated ranks (default 4)"},
    {"steps", "N", "training steps to write (default 2000)"},
    {"rate", "STEPS_PER_S",
     "steps written per second; 0 writes as fast as possible, dated from $SOURCE_DATE_EPOCH when "
     "it is set, so the files are the same every time (default 20)"},
    {"no-ui", "", "only write the run; do not open the dashboard"},
    {"help", "", "show this help"},
};

namespace {

int write_all(DemoRun& run, const DemoOptions& options);
int write_under_dashboard(DemoRun& run, const DemoOptions& options);

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
    // Written at once, the run can be dated from SOURCE_DATE_EPOCH (the reproducible-builds
    // convention): scripts/docs-media.sh makes the README's screenshots byte for byte the same.
    // A live demo keeps the clock: its points must look fresh to the dashboard.
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch && *rate == 0) {
        Result<long long> at = parse_integer("SOURCE_DATE_EPOCH", epoch, 0, 1LL << 40);
        if (!at) {
            std::fprintf(stderr, "runtop demo: %s\n", at.error().message.c_str());
            return kExitError;
        }
        options.start_time = static_cast<double>(*at);
    }

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
                 options.rate > 0 ? fmt::format("{:g} steps/s", options.rate).c_str()
                                  : "as fast as possible",
                 t.spike_rank, static_cast<long long>(t.spike_step), t.nan_rank,
                 static_cast<long long>(t.nan_step), t.straggler_rank);
    std::fflush(stderr);
    if (!args.has("no-ui")) return write_under_dashboard(*run, options);
    return write_all(*run, options);
}

namespace {

int write_all(DemoRun& run, const DemoOptions& options) {
    install_stop_signals();
    auto start = std::chrono::steady_clock::now();
    while (!stop_requested()) {
        Result<bool> wrote = run.write_step();
        if (!wrote) {
            std::fprintf(stderr, "runtop demo: %s\n", wrote.error().message.c_str());
            return kExitError;
        }
        if (!*wrote) break;
        if (options.rate > 0) {
            auto due = start + std::chrono::duration<double>(static_cast<double>(run.next_step()) /
                                                             options.rate);
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                due - std::chrono::steady_clock::now());
            if (left.count() > 0) sleep_unless_stopped(static_cast<int>(left.count()));
        }
    }
    std::printf("%s\n", options.dir.c_str());
    std::fflush(stdout);
    finish_stop();
    return kExitOk;
}

// The writer in a child process, the dashboard in this one: the dashboard sees the run the way
// it sees a real job, through the filesystem, and quitting it stops the writer.
int write_under_dashboard(DemoRun& run, const DemoOptions& options) {
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child < 0) {
        std::fprintf(stderr, "runtop demo: cannot start the writer: %s\n", std::strerror(errno));
        return kExitError;
    }
    if (child == 0) {
        // The writer must never draw over the dashboard.
        const int null = ::open("/dev/null", O_WRONLY);
        if (null >= 0) {
            ::dup2(null, STDOUT_FILENO);
            ::dup2(null, STDERR_FILENO);
        }
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // a dashboard that dies takes the writer along
        std::exit(write_all(run, options));
    }
    Args dashboard;
    dashboard.positional.push_back(options.dir);
    const int code = cmd_dashboard(dashboard);
    ::kill(child, SIGTERM);
    int status = 0;
    ::waitpid(child, &status, 0);
    std::fprintf(stderr, "runtop demo: the run is in %s (look again: runtop %s)\n",
                 options.dir.c_str(), options.dir.c_str());
    return code;
}

}  // namespace
}  // namespace runtop
