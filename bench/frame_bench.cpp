// Frame time: drawing the dashboard's views into a 250x80 canvas over 100 tags x 8 ranks x
// 10,000 points (800 series, 8 M points), and over 50 tags x 256 ranks x 500 steps (12,800
// series): what a frame costs the event loop before the terminal layer writes the cells that
// changed. The overview holds every one of the 100 cards on one page.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <string>

#include "core/analyzer.h"
#include "core/analyzing_sink.h"
#include "core/store.h"
#include "views/screen.h"

namespace runtop {
namespace {

struct Fixture {
    Store store;
    Analyzer analyzer{default_rules()};
    AnalyzingSink sink{analyzer, &store};
    std::unique_ptr<ui::ViewModel> model;

    Fixture(int tags, int ranks, int steps) {
        for (int t = 0; t < tags; ++t) {
            const std::string tag = (t < 10 ? "train/metric_" : "layers/stat_") + std::to_string(t);
            for (int rank = 0; rank < ranks; ++rank) {
                const SeriesId id = sink.series({"job", rank, tag}, SourceKind::kTfEvents);
                for (int s = 0; s < steps; ++s)
                    sink.append(id,
                                {s, 1.7e9 + s,
                                 1.0 + std::exp(-s / 3000.0) + 0.01 * std::sin(s * 0.7 + rank)});
            }
        }
        analyzer.finish();
        model = std::make_unique<ui::ViewModel>(store, analyzer);
        model->update();
    }
};

// 100 tags x 8 ranks x 10^4 steps; or, `wide`, 50 tags x 256 ranks x 500 steps (a large job).
Fixture& fixture(bool wide) {
    if (wide) {
        static Fixture f(50, 256, 500);
        return f;
    }
    static Fixture f(100, 8, 10'000);
    return f;
}

// `cached`: the overview keeps the cards it queried while their series do not change (a key
// that moves the selection); otherwise every frame queries every card, as when data arrives.
void frame(benchmark::State& state, const char* keys, bool wide = false, bool cached = false) {
    Fixture& f = fixture(wide);
    ui::UiState ui;
    for (const ui::InputEvent& e : ui::parse_key_script(keys))
        ui::handle(ui, e, *f.model, f.analyzer, 250, 80);
    ui::Canvas canvas(250, 80);
    for (auto _ : state) {
        if (!cached) ui.overview.cache.reset();
        ui::draw_screen(canvas, *f.model, ui);
        benchmark::DoNotOptimize(canvas.at(0, 0));
    }
    state.SetLabel(std::string(ui::view_name(ui.view)) + " 250x80, " +
                   std::to_string(f.model->groups().size()) + " cards x " +
                   std::to_string(f.model->selected().size() / f.model->groups().size()) +
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
    frame(s, "1", true);
}
void BM_FrameOverview256RanksCached(benchmark::State& s) {
    frame(s, "1", true, true);
}
void BM_FrameRanks256Ranks(benchmark::State& s) {
    frame(s, "2", true);
}
void BM_FrameDetail256Ranks(benchmark::State& s) {
    frame(s, "1 Enter", true);
}
BENCHMARK(BM_FrameOverview)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameOverview256Ranks)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameOverview256RanksCached)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameRanks256Ranks)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameDetail256Ranks)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameRanks)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameHeatmap)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrameDetail)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace runtop
