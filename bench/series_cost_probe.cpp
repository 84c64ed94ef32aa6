// runtop_series_cost_probe: what one series costs beside its points (issue 17: <= 256 bytes a
// series with the default rules), per component. Builds SERIES msProbe-like series (RANKS ranks,
// tags `grad/layers.N.w/OP`) with POINTS points each through the real Store, Analyzer and
// ViewModel, and prints the heap each one takes (mallinfo2) next to what it counts itself:
//   COMPONENT SERIES HEAP_BYTES HEAP_PER_SERIES COUNTED_BYTES COUNTED_PER_SERIES
// Usage: runtop_series_cost_probe [SERIES] [POINTS] [RANKS]   (defaults 200000 50 1000)
// The Store's point arena is mmap'ed slabs, not heap: its row counts what memory_bytes() says.
#include <malloc.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/store/store.h"
#include "views/model.h"

namespace {

using namespace runtop;

std::uint64_t heap_in_use() {
    const struct mallinfo2 m = ::mallinfo2();
    return m.uordblks + m.hblkhd;
}

void row(const char* what, std::size_t series, std::uint64_t heap, std::uint64_t counted) {
    std::printf("%-9s %zu %" PRIu64 " %.1f %" PRIu64 " %.1f\n", what, series, heap,
                static_cast<double>(heap) / static_cast<double>(series), counted,
                static_cast<double>(counted) / static_cast<double>(series));
}

// Healthy values: positive noise, and 0 NaN elements on the `nans` op (every fifth series), so
// the anomaly log stays empty and the rows are what the series cost.
Point point_of(std::size_t step, std::size_t series) {
    const double value =
        series % 5 == 4 ? 0.0 : 1.0 + 0.01 * static_cast<double>((series + step * 7) % 13);
    return {static_cast<std::int64_t>(step), 1000.0 + static_cast<double>(step), value};
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t series = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000;
    const std::size_t points = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 50;
    const std::size_t ranks = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1000;
    const std::size_t per_rank = (series + ranks - 1) / ranks;
    static const char* const kOps[] = {"min", "max", "mean", "norm", "nans"};

    Store store(StoreLimits::for_process(std::uint64_t{64} << 30));  // nothing folds
    const std::uint64_t h0 = heap_in_use();
    Analyzer analyzer(default_rules());
    const std::uint64_t h1 = heap_in_use();
    std::vector<SeriesId> ids;
    ids.reserve(series);
    SeriesSource source;
    source.msprobe_ops = true;
    const SourceId src = source_id(source);
    {
        // The Store alone first (series, then points), so its heap is told apart from the
        // Analyzer's.
        for (std::size_t i = 0; i < series; ++i) {
            SeriesKey key{"run", static_cast<int>(i / per_rank),
                          "grad/layers." + std::to_string(i % per_rank / 5) + ".w/" + kOps[i % 5]};
            ids.push_back(store.series(key, src));
        }
    }
    for (std::size_t p = 0; p < points; ++p)
        for (std::size_t i = 0; i < series; ++i) store.append(ids[i], point_of(p, i));
    const std::uint64_t h2 = heap_in_use();
    for (std::size_t i = 0; i < series; ++i) {
        const Series& s = store.at(ids[i]);
        SeriesKey key{std::string(s.key().run), s.key().rank, std::string(s.key().tag)};
        analyzer.add_series(ids[i], key, source);
    }
    for (std::size_t p = 0; p < points; ++p)
        for (std::size_t i = 0; i < series; ++i) analyzer.add_point(ids[i], point_of(p, i));
    const std::uint64_t h3 = heap_in_use();
    ui::ViewModel model(store, analyzer);
    model.update();
    const std::uint64_t h4 = heap_in_use();
    row("store", series, h2 - h1, store.memory_bytes());
    row("analyzer", series, h3 - h2 + (h1 - h0), analyzer.memory_bytes());
    row("viewmodel", series, h4 - h3, model.memory_bytes());
    return 0;
}
