// The Oumi telemetry reader (telemetry_callback_*.json): file kinds and ranks from the name,
// nested objects flattened into texts; and every sample file checked against its raw text.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "readers/oumi_telemetry_reader.h"
#include "tests/json_test_support.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::RecordingSink;
using testing::sample_files;
using testing::TempDir;
using testing::write_file;

TEST(OumiTelemetryReader, FileKinds) {
    int rank = 0;
    EXPECT_EQ(oumi_file_kind("telemetry_callback_rank0000.json", rank), "summary");
    EXPECT_EQ(rank, 0);
    EXPECT_EQ(oumi_file_kind("telemetry_callback_all_ranks.json", rank), "summary");
    EXPECT_EQ(rank, kNoRank);
    EXPECT_EQ(oumi_file_kind("telemetry_callback_metrics_rank0003.json", rank), "metrics");
    EXPECT_EQ(rank, 3);
    EXPECT_EQ(oumi_file_kind("telemetry_callback_gpu_temperature_summary.json", rank),
              "gpu_temperature_summary");
    EXPECT_EQ(rank, kNoRank);
    EXPECT_EQ(oumi_file_kind("telemetry_callback_wandb_rank0000.json", rank), "wandb");
    EXPECT_EQ(rank, 0);
}

TEST(OumiTelemetryReader, NestedObjectsFlattenAndRankKeysSetTheRank) {
    TempDir dir;
    const std::string path = dir / "telemetry_callback_all_ranks.json";
    write_file(
        path,
        "{\n  \"rank0000\": {\"hostname\": \"vm\", \"timers\": {\"steps\": {\"count\": 10.0, "
        "\"mean\": 0.02}}, \"cuda_timers\": {}, \"gpu_memory\": [\n 1,\n 2\n ]},\n"
        "  \"rank0001\": {\"timers\": {\"steps\": {\"mean\": NaN}}}\n}");
    RecordingSink sink;
    OumiTelemetryReader reader(SourceFile{path, "oumi_run", kNoRank, SourceFormat::kOumiTelemetry},
                               sink);
    ASSERT_TRUE(reader.poll());
    std::vector<std::tuple<int, std::string, std::string>> got;
    for (const ConfigText& t : sink.texts) {
        got.emplace_back(t.rank, t.tag, t.text);
        EXPECT_EQ(t.run, "oumi_run");
    }
    EXPECT_EQ(got, (std::vector<std::tuple<int, std::string, std::string>>{
                       {0, "oumi/summary/hostname", "\"vm\""},
                       {0, "oumi/summary/timers/steps/count", "10.0"},
                       {0, "oumi/summary/timers/steps/mean", "0.02"},
                       {0, "oumi/summary/gpu_memory", "[1,2]"},
                       {1, "oumi/summary/timers/steps/mean", "NaN"}}));
    IngestTotals totals;
    reader.add_totals(totals);
    EXPECT_EQ(totals.records, 5u);
    EXPECT_EQ(totals.texts, 5u);
}

TEST(OumiTelemetryReader, RankFromTheFileName) {
    TempDir dir;
    const std::string path = dir / "telemetry_callback_metrics_rank0002.json";
    write_file(path, "{\"loss\": 0.5, \"telemetry_rank002_steps_mean\": 0.1}");
    RecordingSink sink;
    OumiTelemetryReader reader(SourceFile{path, "r", kNoRank, SourceFormat::kOumiTelemetry}, sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.texts.size(), 2u);
    EXPECT_EQ(sink.texts[0].tag, "oumi/metrics/loss");
    EXPECT_EQ(sink.texts[0].rank, 2);
    EXPECT_EQ(sink.texts[0].text, "0.5");
}

// --- samples (../shared/samples): checked against the raw text, parsed here by regex ---

TEST(JsonSamples, OumiTelemetry) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent (it ships with CI only)";
    const std::vector<std::string> files = sample_files(
        samples + "/generated/oumi", std::regex(R"(/telemetry_callback_[^/]*\.json$)"));
    ASSERT_FALSE(files.empty());
    bool checked_rank1 = false;
    for (const std::string& path : files) {
        SCOPED_TRACE(path);
        RecordingSink sink;
        OumiTelemetryReader reader(SourceFile{path, "oumi", kNoRank, SourceFormat::kOumiTelemetry},
                                   sink);
        ASSERT_TRUE(reader.poll());
        EXPECT_EQ(reader.pending(), "");
        EXPECT_TRUE(reader.take_warnings().empty());
        // Every leaf of the raw text: a key whose value does not open an object.
        const std::string text = testing::read_file(path);
        std::multiset<std::pair<std::string, std::string>> leaves;
        static const std::regex leaf_re(R"re("([^"]+)": ([^{\s][^,\n]*))re");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), leaf_re);
             it != std::sregex_iterator(); ++it)
            leaves.insert({(*it)[1], (*it)[2]});
        ASSERT_FALSE(leaves.empty());
        ASSERT_EQ(sink.texts.size(), leaves.size());
        for (const ConfigText& t : sink.texts) {
            EXPECT_EQ(t.tag.rfind("oumi/", 0), 0u) << t.tag;
            const std::string key = t.tag.substr(t.tag.rfind('/') + 1);
            auto it = leaves.find({key, t.text});
            ASSERT_NE(it, leaves.end()) << t.tag << " = " << t.text;
            leaves.erase(it);
            if (path.ends_with("all_ranks.json")) {
                EXPECT_TRUE(t.rank == 0 || t.rank == 1);
            }
            if (path.ends_with("_rank0000.json")) {
                EXPECT_EQ(t.rank, 0);
            }
            if (path.ends_with("gpu_temperature_summary.json")) {
                EXPECT_EQ(t.rank, kNoRank);
            }
            if (path.ends_with("all_ranks.json") && t.rank == 1 &&
                t.tag == "oumi/summary/timers/steps/mean") {
                EXPECT_EQ(t.text, "0.02426183980001042");
                checked_rank1 = true;
            }
        }
    }
    EXPECT_TRUE(checked_rank1);
}

}  // namespace
}  // namespace runtop
