// The reader pool (readers/reader_pool.h) changes nothing but speed: a tree of many files of
// several formats, corrupt ones among them, gives the same sink calls in the same order, the same
// Store, messages and totals on one thread as on four, with the default limits and with tiny
// chunks (so files ahead of the replayed one queue up and wait), and files read by a pool thread
// read on alike when they grow afterwards.
#include "readers/reader_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "bench/msprobe_scale.h"
#include "core/filtering_sink.h"
#include "core/series_filter.h"
#include "core/store/store.h"
#include "readers/source_set.h"
#include "tests/mixed_tree.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::TempDir;

using testing::scalar_records;

void write_tree(const std::string& root) {
    testing::write_mixed_tree(root, true);
}

std::string describe(const IngestTotals& t) {
    std::string out;
    for (std::uint64_t n :
         {t.files, t.bytes, t.records, t.scalars, t.texts, t.distributions, t.non_scalar_values,
          t.bad_data_crc, t.resyncs, t.bytes_skipped, t.undecodable, t.bad_rows, t.anomalies,
          t.pending_files, t.unreadable_files, t.unreadable_dirs, t.files_with_records})
        out += std::to_string(n) + " ";
    return out;
}

// Everything a read hands a sink, and what the set says of it.
struct Read {
    std::vector<std::string> first_seen;  // each key and its source, at its first series()
    std::vector<std::string> calls;       // points, starts, texts and anomalies, in order
    std::vector<std::string> messages;
    std::vector<std::string> pending;
    std::string totals;
    ReaderPool::Stats pool;  // what the pools did
};

std::string key_text(const SeriesKey& key) {
    return key.run + "|" + std::to_string(key.rank) + "|" + key.tag;
}

std::string point_text(const Point& p) {
    return std::to_string(p.step) + "@" + std::to_string(p.wall_time) + "=" +
           std::to_string(p.value);
}

void take(const std::string& root, SourceSet& sources, const testing::RecordingSink& sink,
          Read& out) {
    std::set<std::string> seen;
    out.first_seen.clear();
    for (std::size_t i = 0; i < sink.keys.size(); ++i)
        if (seen.insert(key_text(sink.keys[i])).second)
            out.first_seen.push_back(key_text(sink.keys[i]) + " " +
                                     std::string(sink.source(i).format));
    out.calls.clear();
    for (const auto& s : sink.scalars) out.calls.push_back(key_text(s.key) + point_text(s.point));
    for (std::int64_t s : sink.starts) out.calls.push_back("start " + std::to_string(s));
    for (const ConfigText& t : sink.texts)
        out.calls.push_back("text " + t.run + " " + t.tag + " " + t.text);
    for (const ImportedAnomaly& a : sink.anomalies) out.calls.push_back("anomaly " + a.key);
    // Paths without the root, which two trees do not share.
    auto relative = [&root](std::string line) {
        for (std::size_t at; (at = line.find(root)) != std::string::npos;)
            line.replace(at, root.size(), "ROOT");
        return line;
    };
    for (std::string& m : sources.take_messages()) out.messages.push_back(relative(m));
    out.pending.clear();
    for (std::string& p : sources.pending()) out.pending.push_back(relative(p));
    out.totals = describe(sources.totals());
}

// Reads the tree, then (`grow`) appends to files a pool thread read and reads again.
Read read(const std::string& root, std::size_t threads, ReaderPool::Limits limits = {},
          bool grow = false) {
    testing::RecordingSink sink;
    SourceSet sources(sink);
    sources.add_root(RootSpec{"logs", root});
    sources.rescan();
    sources.set_reader_threads(threads, limits);
    sources.poll();
    Read out;
    out.pool = sources.pool_stats();
    take(root, sources, sink, out);
    if (!grow) return out;
    // Grown, then cut back to their size: the tree is left as it was found.
    std::vector<std::pair<std::string, std::uintmax_t>> grown;
    grown.emplace_back(root + "/exp/events.out.tfevents.1700000100.host.2.0", 0);
    for (const auto& e : std::filesystem::recursive_directory_iterator(root + "/events"))
        if (e.is_regular_file()) grown.emplace_back(e.path().string(), 0);
    for (auto& [path, size] : grown) {
        size = std::filesystem::file_size(path);
        testing::append_file(
            path, scalar_records("loss", 8, 12, 3.0f) + scalar_records("new", 0, 3, 1.0f));
    }
    sources.poll();
    take(root, sources, sink, out);
    for (const auto& [path, size] : grown) std::filesystem::resize_file(path, size);
    return out;
}

void expect_same(const Read& one, const Read& pooled) {
    ASSERT_NO_FATAL_FAILURE(
        testing::expect_same_lines(one.first_seen, pooled.first_seen, "series"));
    ASSERT_NO_FATAL_FAILURE(testing::expect_same_lines(one.calls, pooled.calls, "call"));
    EXPECT_EQ(one.messages, pooled.messages);
    EXPECT_EQ(one.pending, pooled.pending);
    EXPECT_EQ(one.totals, pooled.totals);
}

TEST(ReaderPool, ManyFilesOfSeveralFormatsReadAsOnOneThread) {
    TempDir dir;
    write_tree(dir / "tree");
    const Read one = read(dir / "tree", 1);
    // The tree is what it should be: many series, the corrupt files said, the restart seen.
    EXPECT_GT(one.first_seen.size(), 250u);
    EXPECT_GE(one.messages.size(), 2u);
    EXPECT_NE(std::find(one.calls.begin(), one.calls.end(), "start 6"), one.calls.end());
    expect_same(one, read(dir / "tree", 4));
    expect_same(one, read(dir / "tree", 2));
    // Chunks of 64 entries, one queued ahead: files wait for the one being replayed.
    expect_same(one, read(dir / "tree", 4, {64, 1}));
    // One msProbe key table kept per thread: the rows of a rank are asked for again.
    expect_same(one, read(dir / "tree", 2, {64, 2, 8, 1}));
}

// The pool's memory is its chunks: however far files are ahead of the one replayed, and however
// big the one replayed, no more of them exist at once than the limit (at least the threads' count
// plus one, so the file being replayed always gets one). (On a busy machine the calling thread
// may read every file itself: then there are none.)
TEST(ReaderPool, ChunksInFlightStayWithinTheLimit) {
    TempDir dir;
    write_tree(dir / "tree");
    const Read one = read(dir / "tree", 1);
    EXPECT_EQ(one.pool.peak_chunks, 0u);
    for (const auto& [threads, chunks, bound] :
         {std::tuple{2u, 3u, 3u}, {4u, 5u, 5u}, {4u, 1u, 5u}, {2u, 8u, 8u}}) {
        const Read pooled = read(dir / "tree", threads, {64, 2, chunks});
        expect_same(one, pooled);
        EXPECT_LE(pooled.pool.peak_chunks, bound) << threads << " threads, " << chunks << " chunks";
    }
}

// Pool threads run ahead of the replay (on 2 CPUs one file ahead made two threads slower than
// one), within files_ahead, and the read is the one-thread read whatever the window.
TEST(ReaderPool, PoolThreadsTakeFilesWithinTheirWindow) {
    TempDir dir;
    write_tree(dir / "tree");
    const Read one = read(dir / "tree", 1);
    EXPECT_EQ(one.pool.peak_lead, 0u);
    for (const auto& [threads, window] : {std::pair{2u, 1u}, {2u, 3u}, {4u, 6u}, {3u, 32u}}) {
        ReaderPoolLimits limits;
        limits.files_ahead = window;
        const Read pooled = read(dir / "tree", threads, limits);
        expect_same(one, pooled);
        // Never fewer than one file a pool thread.
        EXPECT_LT(pooled.pool.peak_lead, std::max<std::size_t>(window, threads))
            << threads << " threads, " << window << " files ahead";
    }
}

// msProbe's one CSV a step: files of a few points. Pool threads stop taking them once the first
// ones said they are that small (handed over one by one they cost the calling thread more than
// reading them), and the read is the one-thread read either way.
TEST(ReaderPool, FilesTooSmallToHandOverAreLeftToTheCallingThread) {
    TempDir dir;
    ::testing::internal::CaptureStdout();
    ASSERT_EQ(bench::write_msprobe_scale(dir / "steps", {8, 4, 40, 1}), 0);  // 320 files
    ::testing::internal::GetCapturedStdout();
    const Read one = read(dir / "steps", 1);
    EXPECT_EQ(one.totals.substr(0, 4), "320 ");  // every file read
    ReaderPoolLimits limits;
    limits.probe_files = 16;
    const Read small = read(dir / "steps", 2, limits);
    EXPECT_LE(small.pool.pooled_files, 16u + 2u);  // the probe, and the files then in hand
    expect_same(one, small);
    limits.min_points_a_file = 0;  // any file pays
    expect_same(one, read(dir / "steps", 2, limits));
}

TEST(ReaderPool, LimitsAreAShareOfTheProcessBudget) {
    const ReaderPoolLimits small = ReaderPoolLimits::for_process(std::uint64_t{16} << 20);
    EXPECT_EQ(small.chunk_entries, 2048u);  // 64 KB chunks: eight of them in half a megabyte
    EXPECT_EQ(small.chunks, 8u);
    const ReaderPoolLimits mid = ReaderPoolLimits::for_process(std::uint64_t{256} << 20);
    EXPECT_EQ(mid.chunk_entries, 32768u);  // 1 MB chunks, 8 MB in all
    EXPECT_EQ(mid.chunks, 8u);
    const ReaderPoolLimits big = ReaderPoolLimits::for_process(std::uint64_t{1} << 30);
    EXPECT_EQ(big.chunk_entries, 32768u);
    EXPECT_EQ(big.chunks, 32u);
    EXPECT_EQ(ReaderPoolLimits::for_process(1u << 20).chunk_entries, 1024u);
}

TEST(ReaderPool, FilesAPoolThreadReadGrowAndReadOnAlike) {
    TempDir dir;
    write_tree(dir / "tree");
    const Read one = read(dir / "tree", 1, {}, true);
    expect_same(one, read(dir / "tree", 4, {128, 2}, true));
    expect_same(one, read(dir / "tree", 2, {128, 2, 8, 1}, true));
}

// The Store itself, through a filter that counts what it skips (as `snapshot` reads).
std::vector<std::string> stored(const std::string& root, std::size_t threads,
                                std::size_t* skipped) {
    Store store;
    Result<SeriesFilter> filter = SeriesFilter::make("norm|loss|throughput", "");
    EXPECT_TRUE(filter);
    FilteringSink sink(*filter, store);
    sink.count_skipped();
    SourceSet sources(sink);
    sources.add_root(RootSpec{"logs", root});
    sources.rescan();
    sources.set_reader_threads(threads, {256, 2});
    sources.poll();
    std::vector<std::string> out;
    for (SeriesId id : store.sorted_ids()) {
        const Series& s = store.at(id);
        std::string line = key_text(s.key().owned()) + " " + std::string(s.source().format) + " " +
                           std::to_string(s.count()) + ":";
        for (std::size_t i = 0; i < s.retained(); ++i) line += " " + point_text(s.point(i));
        for (const RestartMarker& r : s.restarts())
            line += " restart " + std::to_string(r.step) + "/" + std::to_string(r.dropped);
        out.push_back(std::move(line));
    }
    out.push_back("points " + std::to_string(store.total_points()) + " texts " +
                  std::to_string(store.config_texts().size()));
    *skipped = sink.skipped_series();
    return out;
}

TEST(ReaderPool, FilteredStoreIsTheSame) {
    TempDir dir;
    write_tree(dir / "tree");
    std::size_t skipped_one = 0, skipped_pooled = 0;
    const std::vector<std::string> one = stored(dir / "tree", 1, &skipped_one);
    EXPECT_GT(one.size(), 100u);
    EXPECT_GT(skipped_one, 100u);
    EXPECT_EQ(one, stored(dir / "tree", 4, &skipped_pooled));
    EXPECT_EQ(skipped_one, skipped_pooled);
}

}  // namespace
}  // namespace runtop
