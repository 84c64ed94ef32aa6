#include "app/check_follow.h"

#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <utility>

#include "app/commands.h"
#include "app/signals.h"
#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/filtering_sink.h"
#include "core/format.h"

extern char** environ;

namespace runtop {
namespace {

// Even with nothing due, wake up now and then: a stop request, or a stall, is seen.
constexpr int kMaxWaitMs = 1000;

double wall_seconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Incidents already reported, by run and step range: an incident that grows (a member arrives
// from a slower rank) is not new, nor is one that a late record moved to an earlier step.
class Announced {
  public:
    bool seen(const Incident& inc) const {
        for (const auto& [run, step] : steps_)
            if (run == inc.run && step >= inc.step && step <= inc.last_step) return true;
        return false;
    }
    void add(const Incident& inc) { steps_.emplace(inc.run, inc.step); }

  private:
    std::set<std::pair<std::string, std::int64_t>> steps_;
};

}  // namespace

std::string run_incident_command(const std::string& command, const AnomalyLog& log,
                                 const Incident& incident) {
    const AnomalyRecord& r = log.records()[log.ordered()[incident.root()].index];
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const std::string_view var(*e);
        if (!var.starts_with("RUNTOP_")) env.emplace_back(var);  // ours replace the caller's
    }
    env.push_back(fmt::format("RUNTOP_STEP={}", incident.step));
    env.push_back("RUNTOP_RUN=" + incident.run);
    env.push_back("RUNTOP_RANK=" + (r.rank == kNoRank ? std::string() : std::to_string(r.rank)));
    env.push_back("RUNTOP_TAG=" + r.tag);
    env.push_back("RUNTOP_RULE=" + r.rule);
    env.push_back(fmt::format("RUNTOP_SEVERITY={}", severity_name(incident.severity)));
    env.push_back("RUNTOP_MESSAGE=" + incident_line(log, incident));
    std::vector<char*> envp;
    for (std::string& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::string sh = "/bin/sh", dash_c = "-c", cmd = command;
    char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
    std::fflush(stdout);
    std::fflush(stderr);
    pid_t pid = 0;
    const int err = ::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv, envp.data());
    if (err != 0) return fmt::format("could not start /bin/sh: {}", std::strerror(err));
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return fmt::format("could not wait for it: {}", std::strerror(errno));
    if (WIFEXITED(status))
        return WEXITSTATUS(status) == 0 ? std::string()
                                        : fmt::format("exited with {}", WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return fmt::format("killed by signal {}", WTERMSIG(status));
    return "ended abnormally";
}

int guard(const Selection& selection, RuleSet rules, const GuardOptions& options) {
    install_stop_signals();
    Analyzer analyzer(std::move(rules));
    AnalyzingSink sink(analyzer);
    FilteringSink selected(selection.filter, sink);
    SourceSet sources(selected);
    sources.stop_when(stop_requested);
    for (const RootSpec& root : selection.roots) sources.add_root(root);
    sources.watch(options.watch);

    Announced announced;
    std::size_t judged_records = 0;
    bool live = false, first = true;
    int exit_code = kExitOk;
    while (!stop_requested()) {
        analyzer.set_now(wall_seconds());
        sources.on_watch_ready();
        print_messages(sources, stderr);
        if (std::exchange(first, false)) {
            std::string line;
            for (const std::string& w : sources.watch_summary())
                line += (line.empty() ? "" : "; ") + w;
            std::fprintf(stderr, "runtop: watching: %s\n", visible(line).c_str());
        }
        int timeout = sources.watch_timeout_ms();
        if (!live && timeout != 0) {
            // What was on disk is in: cross-rank steps are judged with every rank, and a run
            // that goes silent from now on is a stall.
            live = true;
            analyzer.set_live();
        }
        if (live) analyzer.tick();
        const AnomalyLog& log = analyzer.log();
        if (log.size() != judged_records) {
            judged_records = log.size();
            const IncidentReport report = find_incidents(log);
            for (const Incident& inc : report.incidents) {
                if (!incident_fails(inc, options.fail_on) || announced.seen(inc)) continue;
                announced.add(inc);
                std::printf("%s\n", incident_line(log, inc).c_str());
                std::fflush(stdout);
                if (!options.exec.empty()) {
                    const std::string failed = run_incident_command(options.exec, log, inc);
                    if (!failed.empty())
                        std::fprintf(stderr, "runtop check: --exec command %s%s\n", failed.c_str(),
                                     options.keep_going ? "; still watching" : "");
                }
                exit_code = kExitFound;
            }
            if (exit_code == kExitFound && !options.keep_going) break;
        }
        if (stop_requested()) break;
        if (timeout < 0 || timeout > kMaxWaitMs) timeout = kMaxWaitMs;
        pollfd p{sources.watch_fd(), POLLIN, 0};
        ::poll(&p, p.fd >= 0 ? 1 : 0, timeout);  // EINTR on a stop signal is fine
    }
    std::fflush(stdout);
    finish_stop();
    return exit_code;
}

}  // namespace runtop
