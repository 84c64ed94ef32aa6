// The dashboard's reader thread says what it holds beside the Store (issue 17: `--memory`
// bounds the whole process): its readers' msProbe key tables and the ids it maps, counted once
// the backfill is applied.
#include "app/ingest_thread.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/store/store.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::TempDir;
using testing::write_file;

TEST(IngestThread, CountsWhatItsReadersHold) {
    TempDir dir;
    constexpr int kRows = 300;
    std::string text = "vpp_stage,name,step,norm,max\n";
    for (int step = 0; step < 5; ++step)
        for (int r = 0; r < kRows; ++r)
            text += "0,language_model.encoder.layers." + std::to_string(r) +
                    ".self_attention.dense.weight," + std::to_string(step) + ",1.5,2.5\n";
    write_file(dir / "grad_reduced_0-4.csv", text);

    Store store;
    Analyzer analyzer(default_rules());
    AnalyzingSink sink(analyzer, &store);
    IngestThread ingest({RootSpec{"mon", dir.path()}}, WatchOptions{});
    ingest.start();
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!ingest.backfilled() && std::chrono::steady_clock::now() < give_up) {
        ingest.apply(sink, std::chrono::steady_clock::now() + std::chrono::milliseconds(10));
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_TRUE(ingest.backfilled());
    ASSERT_EQ(store.series_count(), std::size_t{2 * kRows});
    // Each row: its key (about 50 bytes), its two ids and more; each series an id mapped.
    EXPECT_GE(ingest.memory_bytes(), kRows * std::uint64_t{50 + 8} + 2 * kRows * sizeof(SeriesId));
    EXPECT_LE(ingest.memory_bytes(), kRows * std::uint64_t{1024});
}

}  // namespace
}  // namespace runtop
