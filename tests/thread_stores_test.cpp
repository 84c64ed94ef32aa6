// ls and dump read into a Store per reader thread (app/thread_stores.h, ReaderPool::run_split):
// the series, every point, restart, text, message and total are those of a read into one Store,
// on 2, 3 and 4 threads, with a budget that folds and without. (No reader names another run or
// rank than its file's, which would send the read back to one Store: that such a call is
// noticed is tested on made-up readers, tests/reader_pool_split_test.cpp.)
#include "app/thread_stores.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/mixed_tree.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::TempDir;

void write_tree(const std::string& root) {
    testing::write_mixed_tree(root, false);
}

std::string point_text(const Point& p) {
    return std::to_string(p.step) + "@" + std::to_string(p.wall_time) + "=" +
           std::to_string(p.value);
}

// Everything the Stores hold, in the order ls and dump print it, and what the read said.
struct Held {
    std::vector<std::string> series;
    std::string counts;
    std::string stderr_text;
    std::size_t stores = 0;
    std::size_t split_reads = 0;
};

Held read(const std::string& root, std::size_t threads, StoreLimits limits = {},
          const std::string& filter_text = "") {
    Result<SeriesFilter> filter = SeriesFilter::make(filter_text, "");
    EXPECT_TRUE(filter);
    ThreadStores stores(*filter, limits);
    ::testing::internal::CaptureStderr();
    const std::size_t said = stores.read({RootSpec{"logs", root}}, 1u << 30, threads);
    Held held;
    held.stderr_text = ::testing::internal::GetCapturedStderr();
    for (std::size_t at; (at = held.stderr_text.find(root)) != std::string::npos;)
        held.stderr_text.replace(at, root.size(), "ROOT");
    for (const Series* s : stores.sorted()) {
        const SeriesKey key = s->key().owned();
        std::string line = key.run + "|" + std::to_string(key.rank) + "|" + key.tag + " " +
                           std::string(s->source().format) + " " + std::to_string(s->count()) +
                           "/" + std::to_string(s->received()) + ":";
        for (std::size_t i = 0; i < s->retained(); ++i) line += " " + point_text(s->point(i));
        if (!s->empty()) line += " last " + point_text(s->back());
        for (const RestartMarker& r : s->restarts())
            line += " restart " + std::to_string(r.step) + "/" + std::to_string(r.dropped);
        held.series.push_back(std::move(line));
    }
    const PointCounts c = store_point_counts(stores.stores());
    const IngestTotals& t = stores.sources().totals();
    held.counts = read_text(c.series, c.read, t) + "; " + kept_text(c) + "; " +
                  std::to_string(stores.config_texts()) + " texts, " +
                  std::to_string(stores.imported_anomalies()) + " anomalies; " +
                  problems_text(t, said);
    held.stores = stores.store_count();
    held.split_reads = stores.sources().pool_stats().split_reads;
    return held;
}

void expect_same(const Held& one, const Held& split) {
    ASSERT_NO_FATAL_FAILURE(testing::expect_same_lines(one.series, split.series, "series"));
    EXPECT_EQ(one.counts, split.counts);
    EXPECT_EQ(one.stderr_text, split.stderr_text);
}

TEST(ThreadStores, AStoreAThreadHoldsWhatOneStoreHolds) {
    TempDir dir;
    write_tree(dir / "tree");
    const Held one = read(dir / "tree", 1);
    // The tree is what it should be: many series, the corrupt files said, the restart kept.
    EXPECT_GT(one.series.size(), 300u);
    EXPECT_NE(one.stderr_text.find("corrupt data"), std::string::npos) << one.stderr_text;
    EXPECT_NE(one.stderr_text.find("5 fields where"), std::string::npos) << one.stderr_text;
    EXPECT_NE(one.counts.find("1 texts"), std::string::npos) << one.counts;
    EXPECT_EQ(one.stores, 1u);
    EXPECT_EQ(one.split_reads, 0u);
    for (std::size_t threads : {2u, 3u, 4u}) {
        const Held split = read(dir / "tree", threads);
        EXPECT_EQ(split.stores, threads);
        EXPECT_EQ(split.split_reads, 1u) << threads << " threads";
        expect_same(one, split);
    }
    // A filter at ingest in front of every Store.
    expect_same(read(dir / "tree", 1, {}, "norm|loss"), read(dir / "tree", 2, {}, "norm|loss"));
}

// A budget that folds: the Stores share it, and what ls prints of a series (its count, last
// point, restarts) does not depend on how it was shared.
TEST(ThreadStores, ABudgetSharedBetweenStoresKeepsCountsAndLastPoints) {
    TempDir dir;
    write_tree(dir / "tree");
    StoreLimits small;
    small.memory_bytes = std::uint64_t{1} << 20;
    auto summary = [](Held held) {
        for (std::string& line : held.series)
            line = line.substr(0, line.find(':')) + line.substr(line.rfind(" last "));
        return held;
    };
    const Held one = summary(read(dir / "tree", 1, small));
    const Held split = summary(read(dir / "tree", 2, small));
    EXPECT_EQ(split.stores, 2u);
    expect_same(one, split);
}

// A file whose reader shares state with others' (here a Hugging Face trainer state) keeps the
// read on one sink: it is read as before, by the recording pool.
TEST(ThreadStores, FilesThatShareStateAreNotSplit) {
    TempDir dir;
    testing::write_mixed_tree(dir / "tree", true);
    const Held one = read(dir / "tree", 1);
    const Held two = read(dir / "tree", 2);
    EXPECT_EQ(two.split_reads, 0u);
    expect_same(one, two);
}

}  // namespace
}  // namespace runtop
