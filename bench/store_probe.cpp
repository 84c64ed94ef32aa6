// runtop_store_probe [POINTS [SERIES [MEMORY [SHAPE]]]]: appends POINTS points (default 10^8)
// round-robin over SERIES series (default 100) into a Store with a --memory budget of MEMORY
// (default 256M), checking memory_bytes() against the budget after every append, and prints
// the peak memory_bytes(), the process' peak and current RSS (from /proc/self/status), and
// ns per point. SHAPE: event (consecutive steps, float32 values, steady walls; default) or
// csv (double values, equal walls).
#include <malloc.h>
#include <time.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/store/store.h"
#include "core/store/store_limits.h"

namespace {

using namespace runtop;

// VmHWM / VmRSS in kB.
long status_kb(const char* field) {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long kb = -1;
    const std::size_t n = std::strlen(field);
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, field, n) == 0) kb = std::strtol(line + n + 1, nullptr, 10);
    std::fclose(f);
    return kb;
}

double now() {
    timespec ts;
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
    const std::uint64_t points = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100'000'000;
    const std::uint64_t series = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 100;
    Result<std::uint64_t> memory = parse_memory_size(argc > 3 ? argv[3] : "256M");
    const std::string shape = argc > 4 ? argv[4] : "event";
    if (!memory || series == 0 || (shape != "event" && shape != "csv")) {
        std::fprintf(stderr, "usage: runtop_store_probe [POINTS [SERIES [MEMORY [event|csv]]]]\n");
        return 2;
    }
    StoreLimits limits;
    limits.memory_bytes = *memory;
    Store store(limits);
    std::vector<SeriesId> ids;
    const SourceId source = source_id({"tfevents"});
    for (std::uint64_t s = 0; s < series; ++s)
        ids.push_back(store.series({"run", static_cast<int>(s), "train/loss"}, source));
    std::uint64_t peak = 0, over = 0;
    const double t0 = now();
    for (std::uint64_t i = 0; i < points / series; ++i) {
        for (std::uint64_t s = 0; s < series; ++s) {
            const auto step = static_cast<std::int64_t>(i);
            Point p;
            p.step = step;
            if (shape == "event") {
                p.wall_time = 1.7e9 + static_cast<double>(i) +
                              static_cast<double>((i * 7919 + s) % 50) * 1e-3;
                p.value = static_cast<float>(1.0 / (1.0 + static_cast<double>(i) * 1e-6) +
                                             0.01 * static_cast<double>((i * 31 + s) % 17));
            } else {
                p.wall_time = 1712345678.0;
                p.value = 1.0 / (1.0 + static_cast<double>(i) * 1e-6) *
                          (1.0 + 0.001 * static_cast<double>((i * 31 + s) % 17));
            }
            if (i % 1'000'003 == 77) p.value = 1e9;  // spikes the buckets must keep
            store.append(ids[s], p);
            const std::uint64_t bytes = store.memory_bytes();
            if (bytes > peak) peak = bytes;
            if (bytes > limits.memory_bytes) ++over;
        }
    }
    const double seconds = now() - t0;
    std::uint64_t retained = 0, buckets = 0;
    bool spikes = true;
    for (SeriesId id : ids) {
        const Series& s = store.at(id);
        retained += s.retained();
        buckets += s.buckets().size();
        ColumnSummary all[1];
        s.query(s.first_step(), s.last_step() + 1, all);
        spikes &= points / series <= 77 || all[0].max == 1e9;
    }
    std::printf("points %" PRIu64 " in %" PRIu64 " series (%s), budget %" PRIu64 " bytes\n",
                store.total_points(), series, shape.c_str(), limits.memory_bytes);
    std::printf("memory_bytes now %" PRIu64 ", peak %" PRIu64
                " (%.1f%% of budget), over budget "
                "after %" PRIu64 " appends\n",
                store.memory_bytes(), peak,
                100.0 * static_cast<double>(peak) / static_cast<double>(limits.memory_bytes), over);
    std::printf("full resolution %" PRIu64 " points, %" PRIu64 " buckets; every spike kept: %s\n",
                retained, buckets, spikes ? "yes" : "NO");
    std::printf("RSS peak %.1f MiB, now %.1f MiB; %.2f ns/point\n", status_kb("VmHWM:") / 1024.0,
                status_kb("VmRSS:") / 1024.0,
                seconds * 1e9 / static_cast<double>(store.total_points()));
    struct mallinfo2 mi = mallinfo2();
    std::printf("malloc: heap %.1f MiB (in use %.1f, free %.1f), mmapped %.1f MiB\n",
                mi.arena / 1048576.0, mi.uordblks / 1048576.0, mi.fordblks / 1048576.0,
                mi.hblkhd / 1048576.0);
    return over == 0 && spikes ? 0 : 1;
}
