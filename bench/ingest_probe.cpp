// runtop_ingest_probe DIR MODE: where `runtop ls DIR` spends its time, for run_bench.sh.
// Reads DIR once as `ls` does (a SourceSet: discovery, one reader per file) in a fresh
// process (so the heap starts empty, as in ls), and prints "WALL CPU TEARDOWN BYTES POINTS"
// (seconds of wall and CPU time reading, seconds freeing):
//   MODE readers: into a sink that only numbers series (one hash lookup per new series) and
//                 counts points: the readers' own cost (read, split, parse, row keys, calls);
//   MODE store:   into the Store, as ls does, without printing the table: adds the Store's
//                 series creation and point appends (its memory growth, page faults).
// TEARDOWN: freeing the SourceSet and the sink afterwards (ls pays it at exit).
#include <time.h>

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>

#include "core/point_sink.h"
#include "core/store/store.h"
#include "readers/source_set.h"

namespace {

using namespace runtop;

class NumberingSink final : public PointSink {
  public:
    SeriesId series(const SeriesKey& key, SourceId) override {
        return ids_.try_emplace(key, static_cast<SeriesId>(ids_.size())).first->second;
    }
    void append(SeriesId id, const Point& p) override {
        ++points;
        checksum += id + static_cast<std::uint64_t>(p.step);
    }
    void session_start(std::string_view, int, std::int64_t, double) override {}
    void config_text(ConfigText) override {}
    void anomaly(ImportedAnomaly) override {}
    std::uint64_t points = 0;
    std::uint64_t checksum = 0;

  private:
    std::unordered_map<SeriesKey, SeriesId, SeriesKeyHash> ids_;
};

double now(clockid_t clock = CLOCK_MONOTONIC) {
    timespec ts;
    ::clock_gettime(clock, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

template <class Sink>
int measure(const std::string& dir) {
    auto sink = std::make_unique<Sink>();
    auto sources = std::make_unique<SourceSet>(*sink);
    double t0 = now(), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    sources->add_root(RootSpec{"bench", dir});
    sources->rescan();
    sources->poll();
    double t1 = now(), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
    IngestTotals totals = sources->totals();
    std::size_t messages = sources->take_messages().size();
    sources.reset();
    sink.reset();
    double t2 = now();
    std::printf("%.6f %.6f %.6f %" PRIu64 " %" PRIu64 "\n", t1 - t0, c1 - c0, t2 - t1, totals.bytes,
                totals.scalars);
    return messages == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc == 3 ? argv[2] : "";
    if (mode != "readers" && mode != "store") {
        std::fprintf(stderr, "usage: runtop_ingest_probe DIR readers|store\n");
        return 2;
    }
    return mode == "readers" ? measure<NumberingSink>(argv[1]) : measure<Store>(argv[1]);
}
