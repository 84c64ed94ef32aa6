// runtop_compare_probe [POINTS [TAGS [RANKS [DIVERGE]]]]: two runs of POINTS points each
// (default 28 M: what a 1 GB TensorBoard event file holds) over TAGS tags (default 20) x RANKS
// ranks (default 8), consecutive steps, float32 values and steady walls as event files have.
// Run "new" equals run "base" except that its first tag is 0.1% higher from step DIVERGE on
// (default: 60% of the steps), and its clock starts 1000 s later and runs 10% slower.
//
// Prints the time of compare_runs in each mode (step / wall alignment, per rank / mean), of a
// RunComparer's first update(), of an update() with nothing new, and of one after 1% more
// points arrived in every series, checking each result against compare_runs. Exits 1 when a
// result is not what it should be.
#include <time.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/compare/run_compare.h"
#include "core/compare/run_comparer.h"
#include "core/store/store.h"

namespace {

using namespace runtop;

double clock_seconds(clockid_t clock) {
    timespec ts;
    ::clock_gettime(clock, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double now() {
    return clock_seconds(CLOCK_MONOTONIC);
}

// CPU time of the process (every thread): on a loaded machine, what the work itself took.
double cpu() {
    return clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

struct Runs {
    std::vector<SeriesId> base, next;  // per (tag, rank)
    std::uint64_t tags, ranks, diverge;
};

float value_of(std::uint64_t tag, std::uint64_t rank, std::int64_t step) {
    const double s = static_cast<double>(step);
    return static_cast<float>(0.6 + 2.5 / (1.0 + s * 1e-5) + 0.01 * static_cast<double>(tag) +
                              0.001 * std::sin(s * 0.37 + static_cast<double>(rank)));
}

// Steps [from, to) of every series of both runs, step by step as live runs write them.
void append(Store& store, const Runs& runs, std::int64_t from, std::int64_t to) {
    for (std::int64_t step = from; step < to; ++step) {
        const double s = static_cast<double>(step);
        for (std::uint64_t t = 0; t < runs.tags; ++t)
            for (std::uint64_t r = 0; r < runs.ranks; ++r) {
                const std::size_t k = t * runs.ranks + r;
                const float v = value_of(t, r, step);
                store.append(runs.base[k], {step, 1.7e9 + s * 0.5, v});
                const bool off = t == 0 && static_cast<std::uint64_t>(step) >= runs.diverge;
                store.append(runs.next[k], {step, 1.7e9 + 1000 + s * 0.55,
                                            off ? static_cast<float>(v * 1.001) : v});
            }
    }
}

bool same(const RunComparison& x, const RunComparison& y) {
    if (x.pairs.size() != y.pairs.size() || x.only_a != y.only_a || x.only_b != y.only_b)
        return false;
    for (std::size_t i = 0; i < x.pairs.size(); ++i) {
        const SeriesComparison &p = x.pairs[i], &q = y.pairs[i];
        if (p.tag != q.tag || p.rank != q.rank || p.common_steps != q.common_steps ||
            p.first_divergence != q.first_divergence || p.last_common_step != q.last_common_step ||
            !(p.max_relative_difference == q.max_relative_difference) ||
            !(p.delta == q.delta || (std::isnan(p.delta) && std::isnan(q.delta))))
            return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    const std::uint64_t points = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 28'000'000;
    Runs runs;
    runs.tags = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20;
    runs.ranks = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 8;
    if (runs.tags == 0 || runs.ranks == 0 || points < runs.tags * runs.ranks) {
        std::fprintf(stderr, "usage: runtop_compare_probe [POINTS [TAGS [RANKS [DIVERGE]]]]\n");
        return 2;
    }
    const auto steps = static_cast<std::int64_t>(points / (runs.tags * runs.ranks));
    runs.diverge =
        argc > 4 ? std::strtoull(argv[4], nullptr, 10) : static_cast<std::uint64_t>(steps) * 6 / 10;

    Store store;
    const SourceId source = source_id({"tfevents"});
    for (std::uint64_t t = 0; t < runs.tags; ++t)
        for (std::uint64_t r = 0; r < runs.ranks; ++r) {
            const std::string tag = t == 0 ? "train/loss" : "layers/stat_" + std::to_string(t);
            runs.base.push_back(store.series({"base", static_cast<int>(r), tag}, source));
            runs.next.push_back(store.series({"new", static_cast<int>(r), tag}, source));
        }
    double t0 = now();
    append(store, runs, 0, steps);
    std::printf("store: 2 runs x %" PRIu64 " tags x %" PRIu64 " ranks x %" PRId64
                " steps = %" PRIu64 " points, %.0f MiB, built in %.2f s\n",
                runs.tags, runs.ranks, steps, store.total_points(),
                static_cast<double>(store.memory_bytes()) / (1 << 20), now() - t0);

    bool ok = true;
    const CompareOptions modes[] = {
        {1e-6, CompareAlign::kStep, CompareRanks::kPerRank},
        {1e-6, CompareAlign::kStep, CompareRanks::kMean},
        {1e-6, CompareAlign::kRelativeWall, CompareRanks::kPerRank},
        {1e-6, CompareAlign::kRelativeWall, CompareRanks::kMean},
    };
    for (const CompareOptions& o : modes) {
        t0 = now();
        const double c0 = cpu();
        const RunComparison c = compare_runs(store, "base", "new", o);
        const double took = now() - t0, cpu_took = cpu() - c0;
        std::optional<std::int64_t> first;
        for (const SeriesComparison& p : c.pairs)
            if (p.first_divergence && (!first || *p.first_divergence < *first))
                first = p.first_divergence;
        std::printf(
            "compare_runs align=%s ranks=%s: %.0f ms (cpu %.0f ms), %zu pairs, %zu "
            "diverging, first at step %" PRId64 "\n",
            std::string(compare_align_name(o.align)).c_str(),
            std::string(compare_ranks_name(o.ranks)).c_str(), took * 1e3, cpu_took * 1e3,
            c.pairs.size(), c.diverging(), first.value_or(-1));
        if (o.align == CompareAlign::kStep) {
            const std::size_t expected = o.ranks == CompareRanks::kMean ? 1 : runs.ranks;
            if (c.diverging() != expected || first != static_cast<std::int64_t>(runs.diverge)) {
                std::printf("  WRONG: expected %zu diverging from step %" PRIu64 "\n", expected,
                            runs.diverge);
                ok = false;
            }
        }
    }

    RunComparer comparer(store);
    comparer.configure("base", "new", {}, nullptr);
    t0 = now();
    double c0 = cpu();
    comparer.update();
    std::printf("RunComparer: first update %.0f ms (cpu %.0f ms)", (now() - t0) * 1e3,
                (cpu() - c0) * 1e3);
    t0 = now();
    const bool changed = comparer.update();
    std::printf(", update with nothing new %.3f ms (changed: %s)", (now() - t0) * 1e3,
                changed ? "yes" : "no");
    const std::int64_t more = std::max<std::int64_t>(1, steps / 100);
    append(store, runs, steps, steps + more);
    t0 = now();
    c0 = cpu();
    comparer.update();
    std::printf(", update after %" PRId64 " more steps (1%%) %.1f ms (cpu %.1f ms)\n", more,
                (now() - t0) * 1e3, (cpu() - c0) * 1e3);
    if (!same(comparer.result(), compare_runs(store, "base", "new", {}))) {
        std::printf("  WRONG: the comparer's result differs from compare_runs\n");
        ok = false;
    }
    return ok ? 0 : 1;
}
