// Frame time: drawing the dashboard's views into a 250x80 canvas over 100 tags x 8 ranks x
// 10,000 points (800 series, 8 M points), over 50 tags x 256 ranks x 500 steps (12,800
// series), and over 10,000 tags x 256 ranks x 8 steps (2.56 M series: the tag tree and the
// module heatmap at a job's size): what a frame costs the event loop before the terminal layer
// writes the cells that changed. The overview holds every one of the 100 cards on one page. The
// multi-run overview (one line per run) over the same 8 M points: 2 runs x 4 ranks, and 8 runs x
// 1 rank; the compare view and its chart over the 2 runs. The module x step heatmap over 100
// layers x 4 modules x 64 ranks x 200 steps (25,600 series): from scratch (the families worked
// out, every member's marks, the page queried) and a key's frame (the page kept).
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <string>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/store/store.h"
#include "views/screen.h"

namespace runtop {
namespace {

struct Fixture {
    Store store;
    Analyzer analyzer{default_rules()};
    AnalyzingSink sink{analyzer, &store};
    std::unique_ptr<ui::ViewModel> model;

    Fixture(int tags, int ranks, int steps, int runs = 1, bool modules = false) {
        const SourceId source = source_id({"tfevents"});
        static constexpr const char* kModules[] = {"attn.qkv", "attn.out", "mlp.fc1", "mlp.fc2"};
        for (int t = 0; t < tags; ++t) {
            const std::string tag =
                modules ? "grad_unreduced/layers." + std::to_string(t / 4) + "." + kModules[t % 4] +
                              ".weight/norm"
                        : (t < 10 ? "train/metric_" : "layers/stat_") + std::to_string(t);
            for (int run = 0; run < runs; ++run) {
                const std::string name = runs == 1 ? "job" : "run_" + std::to_string(run);
                for (int rank = 0; rank < ranks; ++rank) {
                    const SeriesId id = sink.series({name, rank, tag}, source);
                    for (int s = 0; s < steps; ++s)
                        sink.append(id, {s, 1.7e9 + s,
                                         1.0 + (1 + 0.1 * run) * std::exp(-s / 3000.0) +
                                             0.01 * std::sin(s * 0.7 + rank)});
                }
            }
        }
        analyzer.finish();
        model = std::make_unique<ui::ViewModel>(store, analyzer);
        model->update();
    }
};

enum class Data { kRanks, kWide, kTwoRuns, kEightRuns, kHuge, kModules };

// 10,000 msProbe-shaped tags x 256 ranks x 8 steps (2.56 M series): 4 tasks x 50 layers x 10
// parameters x 5 ops, the size the tag tree and the module heatmap are for.
struct HugeFixture : Fixture {
    HugeFixture() : Fixture(0, 0, 0) {
        const SourceId source = source_id({"msprobe-csv"});
        const char* tasks[] = {"actv", "grad_reduced", "grad_unreduced", "param"};
        const char* ops[] = {"max", "mean", "min", "nans", "norm"};
        for (const char* task : tasks)
            for (int layer = 0; layer < 50; ++layer)
                for (int p = 0; p < 10; ++p)
                    for (const char* op : ops) {
                        const std::string tag = std::string(task) + "/model.layers." +
                                                std::to_string(layer) + ".p" + std::to_string(p) +
                                                ".weight/" + op;
                        for (int rank = 0; rank < 256; ++rank) {
                            const SeriesId id = sink.series({"job", rank, tag}, source);
                            for (int s = 0; s < 8; ++s)
                                sink.append(id, {s, 1.7e9 + s, 1.0 + 0.01 * ((s * 7 + rank) % 13)});
                        }
                    }
        analyzer.finish();
        model->update();
    }
};

// 100 tags x 8 ranks x 10^4 steps; or, kWide, 50 tags x 256 ranks x 500 steps (a large job);
// or the same points as the first in 2 runs of 4 ranks, or in 8 runs of one rank.
Fixture& fixture(Data data) {
    switch (data) {
        case Data::kWide: {
            static Fixture f(50, 256, 500);
            return f;
        }
        case Data::kTwoRuns: {
            static Fixture f(100, 4, 10'000, 2);
            return f;
        }
        case Data::kEightRuns: {
            static Fixture f(100, 1, 10'000, 8);
            return f;
        }
        case Data::kHuge: {
            static HugeFixture f;
            return f;
        }
        case Data::kModules: {
            static Fixture f(400, 64, 200, 1, true);
            return f;
        }
        case Data::kRanks:
            break;
    }
    static Fixture f(100, 8, 10'000);
    return f;
}

// `cached`: the overview keeps the cards it queried while their series do not change (a key
// that moves the selection), the compare view its comparison; otherwise every frame queries
// every card and compares the runs from scratch (the compare view's first frame).
// `fresh`: a point arrives before each frame (rank 0 of the first tag, the next step), so what
// a view keeps while nothing changes (the binned rows' queries) is made again: a data frame.
void frame(benchmark::State& state, const char* keys, Data data = Data::kRanks, bool cached = false,
           bool fresh = false) {
    Fixture& f = fixture(data);
    ui::UiState ui;
    for (const ui::InputEvent& e : ui::parse_key_script(keys))
        ui::handle(ui, e, *f.model, f.analyzer, 250, 80);
    ui::Canvas canvas(250, 80);
    const SeriesId first = f.model->groups().front().series.front();
    std::int64_t step = f.store.at(first).last_step();
    // A key's frame, as the dashboard draws it after a key with nothing new read.
    f.model->ingest.key_frame = cached && !fresh;
    for (auto _ : state) {
        if (fresh) {
            ++step;
            f.sink.append(first, {step, 1.7e9 + static_cast<double>(step), 1.0});
        }
        if (!cached) {
            ui.overview.cache.reset();
            ui.compare.cache = ui::CompareMemo();  // the comparison made from scratch
            ui.modules.cache.reset();
        }
        ui::draw_screen(canvas, *f.model, ui);
        benchmark::DoNotOptimize(canvas.at(0, 0));
    }
    f.model->ingest.key_frame = false;
    state.SetLabel(
        std::string(ui::view_name(ui.view)) + " 250x80, " +
        std::to_string(f.model->groups().size()) + " cards x " +
        (f.model->runs() > 1 ? std::to_string(f.model->runs()) + " runs x " : "") +
        std::to_string(f.model->selected().size() / f.model->groups().size() / f.model->runs()) +
        " ranks");
}

void BM_FrameOverview(benchmark::State& s) {
    frame(s, "1");
}
void BM_FrameRanks(benchmark::State& s) {
    frame(s, "2");
}
void BM_FrameHeatmap(benchmark::State& s) {
    frame(s, "3");
}
void BM_FrameDetail(benchmark::State& s) {
    frame(s, "1 Enter");
}
void BM_FrameOverview256Ranks(benchmark::State& s) {
    frame(s, "1", Data::kWide);
}
void BM_FrameOverview256RanksCached(benchmark::State& s) {
    frame(s, "1", Data::kWide, true);
}
void BM_FrameRanks256Ranks(benchmark::State& s) {
    frame(s, "2", Data::kWide);
}
// 256 ranks on 80 rows: binned, every rank judged. A key's frame (nothing new: the queries are
// kept) and a data frame (a point arrived: every rank queried and judged again).
void BM_FrameHeatmap256RanksKey(benchmark::State& s) {
    frame(s, "3", Data::kWide, true);
}
void BM_FrameHeatmap256RanksData(benchmark::State& s) {
    frame(s, "3", Data::kWide, true, true);
}
void BM_FrameRankSparklines256RanksKey(benchmark::State& s) {
    frame(s, "2 v", Data::kWide, true);
}
void BM_FrameRankSparklines256RanksData(benchmark::State& s) {
    frame(s, "2 v", Data::kWide, true, true);
}
// 10,000 tags x 256 ranks: the overview folds them into groups (the tasks), `t` adds the tree
// beside them, Enter opens a task's layers. Key frames (nothing new) and data frames.
void BM_FrameOverview10kTagsKey(benchmark::State& s) {
    frame(s, "1", Data::kHuge, true);
}
void BM_FrameOverview10kTagsData(benchmark::State& s) {
    frame(s, "1", Data::kHuge, true, true);
}
void BM_FrameTagTree10kTagsKey(benchmark::State& s) {
    frame(s, "1 t Right Enter", Data::kHuge, true);
}
void BM_FrameTagTree10kTagsData(benchmark::State& s) {
    frame(s, "1 t Right Enter", Data::kHuge, true, true);
}
void BM_FrameModules10kTagsKey(benchmark::State& s) {
    frame(s, "6", Data::kHuge, true);
}
void BM_FrameModules10kTagsData(benchmark::State& s) {
    frame(s, "6", Data::kHuge, true, true);
}
void BM_FrameDetail256Ranks(benchmark::State& s) {
    frame(s, "1 Enter", Data::kWide);
}
void BM_FrameOverview2Runs(benchmark::State& s) {
    frame(s, "1", Data::kTwoRuns);
}
void BM_FrameOverview2RunsCached(benchmark::State& s) {
    frame(s, "1", Data::kTwoRuns, true);
}
void BM_FrameOverview8Runs(benchmark::State& s) {
    frame(s, "1", Data::kEightRuns);
}
void BM_FrameOverview8RunsCached(benchmark::State& s) {
    frame(s, "1", Data::kEightRuns, true);
}
void BM_FrameCompare2Runs(benchmark::State& s) {
    frame(s, "5", Data::kTwoRuns);
}
void BM_FrameCompare2RunsCached(benchmark::State& s) {
    frame(s, "5", Data::kTwoRuns, true);
}
void BM_FrameModules(benchmark::State& s) {
    frame(s, "6", Data::kModules);
}
void BM_FrameModulesCached(benchmark::State& s) {
    frame(s, "6", Data::kModules, true);
}
void BM_FrameCompareDetail2Runs(benchmark::State& s) {
    frame(s, "5 Enter", Data::kTwoRuns, true);
}

BENCHMARK(BM_FrameOverview)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameOverview256Ranks)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameOverview256RanksCached)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameOverview2Runs)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameOverview2RunsCached)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameOverview8Runs)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameOverview8RunsCached)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameRanks256Ranks)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameDetail256Ranks)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameOverview10kTagsKey)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameOverview10kTagsData)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameTagTree10kTagsKey)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameTagTree10kTagsData)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameModules10kTagsKey)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameModules10kTagsData)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameHeatmap256RanksKey)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameHeatmap256RanksData)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameRankSparklines256RanksKey)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameRankSparklines256RanksData)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameRanks)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameHeatmap)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameDetail)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameCompare2Runs)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameCompare2RunsCached)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameCompareDetail2Runs)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameModules)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameModulesCached)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace runtop
