// Every CSV sample (../shared/samples/generated and other-public) read through the real
// discovery and readers into a Store, then every numeric cell checked against the raw text,
// split naively and parsed with strtod: an oracle that shares no code with the readers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>

#include "core/store/store.h"
#include "readers/discovery.h"
#include "readers/msprobe_csv_reader.h"
#include "readers/source_set.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> naive_split(std::string line) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // Quoted cells (msProbe's shape) only ever come last: check the columns before them.
    if (std::size_t quote = line.find('"'); quote != std::string::npos) line.resize(quote);
    std::vector<std::string> cells;
    std::size_t start = 0;
    while (true) {
        std::size_t comma = line.find(',', start);
        cells.push_back(line.substr(start, comma == std::string::npos ? comma : comma - start));
        if (comma == std::string::npos) return cells;
        start = comma + 1;
    }
}

using testing::same;

struct Checker {
    const Store& store;
    std::map<SeriesKey, SeriesId> ids;
    std::uint64_t checked = 0;

    explicit Checker(const Store& s) : store(s) {
        for (SeriesId id = 0; id < s.series_count(); ++id) ids[s.at(id).key().owned()] = id;
    }
    void expect(const SeriesKey& key, std::int64_t step, const std::string& cell,
                const std::string& where) {
        char* end = nullptr;
        double want = std::strtod(cell.c_str(), &end);
        ASSERT_TRUE(end && *end == '\0') << where << ": " << cell;
        auto it = ids.find(key);
        ASSERT_NE(it, ids.end()) << where << ": no series " << key.run << " " << key.rank << " "
                                 << key.tag;
        const Series& s = store.at(it->second);
        for (std::size_t i = 0; i < s.retained(); ++i) {
            if (s.point(i).step != step) continue;
            EXPECT_TRUE(same(s.point(i).value, want)) << where << " " << key.tag << "@" << step;
            ++checked;
            return;
        }
        ADD_FAILURE() << where << ": " << key.tag << " has no step " << step;
    }
};

void ingest(Store& store, const RootSpec& root, std::vector<std::string>* messages = nullptr) {
    SourceSet sources(store);
    sources.add_root(root);
    sources.rescan();
    sources.poll();
    std::vector<std::string> m = sources.take_messages();
    if (messages)
        *messages = m;
    else
        EXPECT_TRUE(m.empty()) << (m.empty() ? "" : m.front());
}

TEST(CsvSamples, MsProbeMonitorOutputsValueByValue) {
    std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent (it ships with CI only)";
    std::uint64_t total = 0;
    for (const char* job : {"trainermon_2rank_csv", "trainermon_single_process_defaults"}) {
        RootSpec root{"mon", samples + "/generated/msprobe/" + job + "/monitor_output"};
        Store store(StoreLimits::unbounded());  // every point is checked
        ingest(store, root);
        Checker check(store);
        std::uint64_t files = 0;
        for (const SourceFile& f : discover(root).files) {
            if (f.format != SourceFormat::kMsProbeCsv) continue;
            ++files;
            EXPECT_EQ(f.run, "mon");  // every <ts>-rank<R>-<uuid> dir is one run
            EXPECT_NE(f.rank, kNoRank);
            std::string prefix = msprobe_csv_prefix(fs::path(f.path).filename().string(), false);
            std::vector<std::string> lines = testing::split_lines(testing::read_file(f.path));
            std::vector<std::string> header = naive_split(lines.at(0));
            bool micro = header.size() > 3 && header[3] == "micro_step";
            for (std::size_t l = 1; l < lines.size(); ++l) {
                std::vector<std::string> cells = naive_split(lines[l]);
                std::string name = cells[0] == "0" ? cells[1] : cells[0] + ":" + cells[1];
                if (micro) name += ":" + cells[3];
                std::int64_t step = std::stoll(cells[2]);
                for (std::size_t c = micro ? 4 : 3; c < cells.size() && c < header.size(); ++c) {
                    if (header[c] == "shape" || header[c] == "dtype") continue;
                    check.expect({"mon", f.rank, prefix + "/" + name + "/" + header[c]}, step,
                                 cells[c], f.path + ":" + std::to_string(l + 1));
                }
            }
        }
        EXPECT_GT(files, 0u);
        EXPECT_EQ(check.checked, store.total_points()) << job;  // every point accounted for
        total += check.checked;
    }
    EXPECT_GT(total, 5000u);
}

TEST(CsvSamples, DeepSpeedCsvMonitorValueByValue) {
    std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent (it ships with CI only)";
    RootSpec root{"ds", samples + "/generated/deepspeed/csv_monitor"};
    Store store(StoreLimits::unbounded());  // every point is checked
    ingest(store, root);
    Checker check(store);
    for (const SourceFile& f : discover(root).files) {
        ASSERT_EQ(f.format, SourceFormat::kDeepSpeedCsv) << f.path;
        std::string stem = fs::path(f.path).stem().string();  // Train_Samples_<name>
        std::string tag = "Train/Samples/" + stem.substr(14);
        std::vector<std::string> lines = testing::split_lines(testing::read_file(f.path));
        for (std::size_t l = 0; l < lines.size(); ++l) {
            std::vector<std::string> cells = naive_split(lines[l]);
            if (cells[0] == "step") continue;  // the header, again after each restart
            check.expect({f.run, kNoRank, tag}, std::stoll(cells[0]), cells[1],
                         f.path + ":" + std::to_string(l + 1));
        }
    }
    EXPECT_EQ(check.checked, store.total_points());
    EXPECT_GT(check.checked, 100u);
}

void check_metrics_csv(const std::string& path, const RootSpec& root, const std::string& run) {
    Store store(StoreLimits::unbounded());  // every point is checked
    ingest(store, root);
    Checker check(store);
    std::vector<std::string> lines = testing::split_lines(testing::read_file(path));
    std::vector<std::string> header = naive_split(lines.at(0));
    std::size_t step_col = 0;
    while (header.at(step_col) != "step") ++step_col;
    std::uint64_t cells_checked = 0;
    for (std::size_t l = 1; l < lines.size(); ++l) {
        std::vector<std::string> cells = naive_split(lines[l]);
        ASSERT_EQ(cells.size(), header.size());
        std::int64_t step = std::stoll(cells[step_col]);
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (c == step_col || cells[c].empty()) continue;
            // Rows may share a step (train and val rows); the store keeps the last value,
            // so check a cell only where no later row overwrites it.
            bool overwritten = false;
            for (std::size_t m = l + 1; m < lines.size() && !overwritten; ++m) {
                std::vector<std::string> later = naive_split(lines[m]);
                overwritten = later[step_col] == cells[step_col] && !later[c].empty();
            }
            if (overwritten) continue;
            check.expect({run, kNoRank, header[c]}, step, cells[c],
                         path + ":" + std::to_string(l + 1));
            ++cells_checked;
        }
    }
    EXPECT_GT(cells_checked, 0u);
    EXPECT_EQ(check.checked, store.total_points()) << path;
}

TEST(CsvSamples, LightningMetricsValueByValue) {
    std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent (it ships with CI only)";
    for (const char* version : {"version_0", "version_1"}) {
        std::string dir = samples + "/generated/lightning/lightning_logs/" + version;
        check_metrics_csv(dir + "/metrics.csv", RootSpec{"lt", dir}, "lt");
    }
    // Public files, flattened names: named on the command line, read by their header.
    for (const auto& entry : fs::directory_iterator(samples + "/other-public/lightning")) {
        std::string path = entry.path().string();
        if (!path.ends_with("metrics.csv")) continue;
        check_metrics_csv(path, RootSpec{"pub", path}, "pub");
    }
}

}  // namespace
}  // namespace runtop
