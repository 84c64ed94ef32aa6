// Store micro benchmarks (part of runtop_microbench): append throughput for one long series
// and for 1000 series, and bytes per point (memory_bytes() / count()) for the shapes of data
// the readers deliver: event files (consecutive steps, float32 values, walls a second apart),
// CSVs (double values, every wall the file's mtime) and irregular steps.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/store/store.h"

namespace {

using namespace runtop;

enum Shape { kEventFile, kCsv, kRandomSteps };

// Deterministic points of series `s`; `i` counts the series' points.
Point make_point(int shape, std::int64_t s, std::int64_t i) {
    switch (shape) {
        case kEventFile:
            return {
                i, 1.7e9 + static_cast<double>(i) + static_cast<double>((i * 7919 + s) % 50) * 1e-3,
                static_cast<float>(1.0 / (1.0 + static_cast<double>(i) * 1e-4) +
                                   0.01 * static_cast<double>((i * 31 + s) % 17))};
        case kCsv:
            return {i, 1712345678.0,
                    1.0 / (1.0 + static_cast<double>(i) * 1e-4) *
                        (1.0 + 0.001 * static_cast<double>((i * 31 + s) % 17))};
        default:
            return {
                i * 500 + (i * 7919 + s) % 499,
                1.7e9 + static_cast<double>(i) * 0.9 + static_cast<double>((i * 31) % 97) * 0.01,
                1.0 / static_cast<double>(1 + i + s)};
    }
}

const char* shape_name(int shape) {
    return shape == kEventFile ? "event file" : shape == kCsv ? "csv" : "random steps";
}

// Pre-generated so that the benchmark times appends, not point generation.
std::vector<Point> points_for(int shape, std::int64_t series, std::int64_t per_series) {
    std::vector<Point> out;
    out.reserve(static_cast<std::size_t>(series * per_series));
    for (std::int64_t i = 0; i < per_series; ++i)
        for (std::int64_t s = 0; s < series; ++s) out.push_back(make_point(shape, s, i));
    return out;
}

void append_bench(benchmark::State& state, std::int64_t series) {
    const int shape = static_cast<int>(state.range(0));
    const std::int64_t total = 10'000'000;
    const std::vector<Point> points = points_for(shape, series, total / series);
    double bytes_per_point = 0;
    const SourceId source = source_id({"tfevents"});
    for (auto _ : state) {
        // `runtop ls`'s 1 GiB budget, without the per-series one: B/point is then what a
        // full-resolution point costs.
        StoreLimits limits;
        limits.series_points = UINT64_MAX;
        auto owned = std::make_unique<Store>(limits);
        Store& store = *owned;
        std::vector<SeriesId> ids;
        for (std::int64_t s = 0; s < series; ++s)
            ids.push_back(store.series({"run", static_cast<int>(s), "tag"}, source));
        std::size_t k = 0;
        for (std::int64_t i = 0; i < total / series; ++i)
            for (std::int64_t s = 0; s < series; ++s)
                store.append(ids[static_cast<std::size_t>(s)], points[k++]);
        bytes_per_point =
            static_cast<double>(store.memory_bytes()) / static_cast<double>(store.total_points());
        benchmark::DoNotOptimize(store.total_points());
        state.PauseTiming();  // freeing is not appending
        owned.reset();
        state.ResumeTiming();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * total);
    state.counters["B/point"] = bytes_per_point;
    state.SetLabel(shape_name(shape));
}

void BM_StoreAppendOneSeries(benchmark::State& state) {
    append_bench(state, 1);
}
BENCHMARK(BM_StoreAppendOneSeries)
    ->Arg(kEventFile)
    ->Arg(kCsv)
    ->Arg(kRandomSteps)
    ->Unit(benchmark::kMillisecond);

void BM_StoreAppend1000Series(benchmark::State& state) {
    append_bench(state, 1000);
}
BENCHMARK(BM_StoreAppend1000Series)
    ->Arg(kEventFile)
    ->Arg(kCsv)
    ->Arg(kRandomSteps)
    ->Unit(benchmark::kMillisecond);

// A view's query: 200 columns over a series of 10^7 points.
void BM_StoreQuery200Columns(benchmark::State& state) {
    Store store;
    SeriesId id = store.series({"run", 0, "tag"}, source_id({"tfevents"}));
    for (std::int64_t i = 0; i < 10'000'000; ++i) store.append(id, make_point(kEventFile, 0, i));
    std::vector<ColumnSummary> columns(200);
    for (auto _ : state) {
        store.at(id).query(0, 10'000'000, columns);
        benchmark::DoNotOptimize(columns.data());
    }
    state.SetLabel("bounded: 2^20 points at full resolution, the rest in buckets");
}
BENCHMARK(BM_StoreQuery200Columns)->Unit(benchmark::kMicrosecond);

}  // namespace
