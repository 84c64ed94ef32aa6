// runtop_analyze_probe: the core's own cost on already-decoded points (issue 4): Store insertion
// under a memory budget, the Analyzer with the default rules (per point: NaN/Inf, the robust
// spike detector, run pace), nothing from files. Prints one line per mode:
//   MODE POINTS SECONDS POINTS_PER_S STORE_BYTES RETAINED BYTES_PER_RETAINED MAXRSS_MB ANOMALIES
// Usage: runtop_analyze_probe [POINTS] [SERIES] [MEMORY] [MODE...]
//   defaults 1e8 points over 1000 series, memory 256MiB; modes: store, analyze (store + rules).
// Data: every series gets one point per step, like a training job's step cycle; values are a
// decaying loss-like level times lognormal noise (float32, as event files carry), walls 0.5 s
// apart. The noise comes from a table filled once, so generating a point costs little.
#include <sys/resource.h>
#include <time.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/store/store.h"
#include "core/store/store_limits.h"

namespace {

using namespace runtop;

double now() {
    timespec ts;
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double max_rss_mb() {
    rusage u;
    ::getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// Multiplicative noise, lognormal sigma 0.05, as float32 values carry it.
std::vector<double> noise_table(std::size_t n) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0.0, 0.05);
    std::vector<double> t(n);
    for (std::size_t i = 0; i < n; ++i) t[i] = std::exp(noise(rng));
    return t;
}

template <class Sink>
double feed(Sink& sink, const std::vector<SeriesId>& ids, std::uint64_t points,
            const std::vector<double>& table) {
    const std::size_t mask = table.size() - 1;
    const std::size_t series = ids.size();
    const double t0 = now();
    std::uint64_t done = 0;
    std::size_t at = 0;
    for (std::int64_t step = 0; done < points; ++step) {
        const double wall = 1.7e9 + 0.5 * static_cast<double>(step);
        // A loss falling from 3.1 to 0.6 over the first ~30k steps, then flat.
        const double level = 0.6 + 2.5 * std::exp(-static_cast<double>(step) / 8000.0);
        for (std::size_t s = 0; s < series && done < points; ++s, ++done) {
            sink.append(ids[s], Point{step, wall, static_cast<float>(level * table[at])});
            at = (at + 1) & mask;
        }
    }
    return now() - t0;
}

void run(const std::string& mode, std::uint64_t points, std::size_t series, std::uint64_t memory,
         const std::vector<double>& table) {
    StoreLimits limits;
    limits.memory_bytes = memory;
    auto store = std::make_unique<Store>(limits);
    auto analyzer = std::make_unique<Analyzer>(default_rules());
    AnalyzingSink analyzing(*analyzer, store.get());
    std::vector<SeriesId> ids;
    const SourceId source = source_id({"tfevents"});
    for (std::size_t s = 0; s < series; ++s) {
        const SeriesKey key{"bench", static_cast<int>(s % 8), "train/loss_" + std::to_string(s)};
        ids.push_back(mode == "store" ? store->series(key, source) : analyzing.series(key, source));
    }
    const double seconds =
        mode == "store" ? feed(*store, ids, points, table) : feed(analyzing, ids, points, table);
    std::uint64_t retained = 0;
    for (SeriesId id : ids) retained += store->at(id).retained();
    std::printf(
        "%-8s %" PRIu64 " %.3f %.1fM %" PRIu64 " %" PRIu64 " %.2f %.0f %zu\n", mode.c_str(), points,
        seconds, static_cast<double>(points) / seconds / 1e6, store->memory_bytes(), retained,
        retained ? static_cast<double>(store->memory_bytes()) / static_cast<double>(retained) : 0.0,
        max_rss_mb(), analyzer->log().size());
}

}  // namespace

int main(int argc, char** argv) {
    const std::uint64_t points = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000000ULL;
    const std::size_t series = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000;
    std::uint64_t memory = std::uint64_t{256} << 20;
    if (argc > 3) {
        Result<std::uint64_t> m = parse_memory_size(argv[3]);
        if (!m) {
            std::fprintf(stderr, "runtop_analyze_probe: %s\n", m.error().message.c_str());
            return 2;
        }
        memory = *m;
    }
    std::vector<std::string> modes;
    for (int i = 4; i < argc; ++i) modes.emplace_back(argv[i]);
    if (modes.empty()) modes = {"analyze"};
    const std::vector<double> table = noise_table(std::size_t{1} << 20);
    std::printf(
        "mode     points seconds points/s store_bytes retained bytes/retained maxrss_mb "
        "anomalies\n");
    for (const std::string& mode : modes) run(mode, points, series, memory, table);
    return 0;
}
