// What every reader of a file rewritten whole shares (readers/whole_file_reader.h), through the
// msProbe anomaly reader: half-written files retried without a warning, unchanged failures
// reported once, rewrites re-read, removed files; duplicate keys (hparams.yaml, Oumi).
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "readers/hparams_reader.h"
#include "readers/msprobe_anomaly_reader.h"
#include "readers/oumi_telemetry_reader.h"
#include "tests/json_test_support.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::anomaly_entry;
using testing::anomaly_file;
using testing::anomaly_json;
using testing::FakeClock;
using testing::RecordingSink;
using testing::TempDir;
using testing::write_file;

TEST(WholeFileReader, HalfWrittenFileIsRetriedWithoutWarning) {
    TempDir dir;
    const std::string path = dir / "anomaly.json";
    const std::string full =
        anomaly_json({anomaly_entry("0:fc1.input:0/rank1/actv", 7, 0, "norm"),
                      anomaly_entry("0:fc2.weight/rank1/post_grad", 7, 3, "min")});
    RecordingSink sink;
    FakeClock clock;
    MsProbeAnomalyReader reader(anomaly_file(path), sink);
    reader.set_clock(clock.fn());
    for (std::size_t cut : {std::size_t{0}, std::size_t{1}, full.size() / 2, full.size() - 1}) {
        write_file(path, full.substr(0, cut));
        ASSERT_TRUE(reader.poll()) << cut;
        EXPECT_TRUE(sink.anomalies.empty()) << cut;
        EXPECT_FALSE(reader.pending().empty()) << cut;
        clock.ms += 500;
    }
    EXPECT_TRUE(reader.take_warnings().empty());
    write_file(path, full);
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(sink.anomalies.size(), 2u);
    EXPECT_EQ(reader.pending(), "");
    EXPECT_TRUE(reader.take_warnings().empty());
}

TEST(WholeFileReader, UnchangedBadContentIsReportedOnceAfterTwoSeconds) {
    TempDir dir;
    const std::string path = dir / "anomaly.json";
    write_file(path, "{\"a\": 1 \"b\"}");
    RecordingSink sink;
    FakeClock clock;
    MsProbeAnomalyReader reader(anomaly_file(path), sink);
    reader.set_clock(clock.fn());
    ASSERT_TRUE(reader.poll());
    EXPECT_NE(reader.pending().find("not valid JSON at byte 8"), std::string::npos)
        << reader.pending();
    clock.ms = 1999;
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(reader.take_warnings().empty());
    clock.ms = 2000;
    ASSERT_TRUE(reader.poll());
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].rfind(path + ": not valid JSON at byte 8 (line 1): ", 0), 0u)
        << warnings[0];
    for (int i = 0; i < 5; ++i) {
        clock.ms += 5000;
        ASSERT_TRUE(reader.poll());
    }
    EXPECT_TRUE(reader.take_warnings().empty());
    EXPECT_FALSE(reader.pending().empty());
    // Fixed: read, and nothing pending any more.
    write_file(path, anomaly_json({anomaly_entry("0:x/rank1/actv", 1, 0, "norm")}));
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(sink.anomalies.size(), 1u);
    EXPECT_EQ(reader.pending(), "");
    EXPECT_TRUE(reader.take_warnings().empty());
}

TEST(WholeFileReader, ContentThatKeepsChangingIsNeverReported) {
    TempDir dir;
    const std::string path = dir / "anomaly.json";
    RecordingSink sink;
    FakeClock clock;
    MsProbeAnomalyReader reader(anomaly_file(path), sink);
    reader.set_clock(clock.fn());
    std::string text = "{\"a\": 1 x";
    for (int i = 0; i < 10; ++i) {
        text += ' ';  // a new size each time: a new content
        write_file(path, text);
        ASSERT_TRUE(reader.poll());
        clock.ms += 1500;
    }
    EXPECT_TRUE(reader.take_warnings().empty());
}

TEST(WholeFileReader, EmptyFileWaitsThenIsReportedOnce) {
    TempDir dir;
    const std::string path = dir / "anomaly.json";
    write_file(path, "");
    RecordingSink sink;
    FakeClock clock;
    MsProbeAnomalyReader reader(anomaly_file(path), sink);
    reader.set_clock(clock.fn());
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(reader.pending(), "file is empty");
    clock.ms = 3000;
    ASSERT_TRUE(reader.poll());
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("JSON ends early at byte 0"), std::string::npos) << warnings[0];
}

TEST(WholeFileReader, UnchangedFileIsNotReadAgainAndRewritesAre) {
    TempDir dir;
    const std::string path = dir / "anomaly.json";
    write_file(path, anomaly_json({anomaly_entry("0:a/rank1/actv", 1, 0, "norm")}));
    RecordingSink sink;
    MsProbeAnomalyReader reader(anomaly_file(path), sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(sink.anomalies.size(), 1u);
    EXPECT_EQ(reader.parses(), 1u);
    // Rewritten whole with one more entry: every entry is sent again (the sink keeps one per
    // key), the new one included.
    write_file(path, anomaly_json({anomaly_entry("0:a/rank1/actv", 1, 0, "norm"),
                                   anomaly_entry("0:b/rank1/actv", 2, 0, "mean")}));
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.anomalies.size(), 3u);
    EXPECT_EQ(sink.anomalies[1].key, "0:a/rank1/actv_step_1_call_0");
    EXPECT_EQ(sink.anomalies[2].key, "0:b/rank1/actv_step_2_call_0");
    // msProbe wipes the file at a restart: nothing new.
    write_file(path, "{}\n");
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(sink.anomalies.size(), 3u);
    EXPECT_EQ(reader.pending(), "");
    IngestTotals totals;
    reader.add_totals(totals);
    EXPECT_EQ(totals.bytes, 3u);
    EXPECT_EQ(totals.anomalies, 0u);
}

TEST(WholeFileReader, RemovedFileKeepsWhatWasReadAndComesBack) {
    TempDir dir;
    const std::string path = dir / "anomaly.json";
    const std::string text = anomaly_json({anomaly_entry("0:a/rank1/actv", 1, 0, "norm")});
    write_file(path, text);
    RecordingSink sink;
    MsProbeAnomalyReader reader(anomaly_file(path), sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(::unlink(path.c_str()), 0);
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(reader.pending(), "file was removed");
    EXPECT_EQ(sink.anomalies.size(), 1u);
    // A new file (its inode number may be reused, and its mtime equal at a coarse clock: a
    // different size makes it certainly new content).
    write_file(path, text + "\n");
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(reader.pending(), "");
    EXPECT_EQ(sink.anomalies.size(), 2u);
}

TEST(WholeFileReader, MissingOrUnreadableFileIsAnError) {
    TempDir dir;
    RecordingSink sink;
    MsProbeAnomalyReader missing(anomaly_file(dir / "anomaly.json"), sink);
    Status status = missing.poll();
    ASSERT_FALSE(status);
    EXPECT_NE(status.error().message.find(dir / "anomaly.json"), std::string::npos);
    MsProbeAnomalyReader directory(anomaly_file(dir.path()), sink);
    EXPECT_FALSE(directory.poll());
}

// Duplicate keys: the last one counts (as in Python), and parsing the same text again sends
// nothing (found while writing fuzz_json's "no unchanged text twice" property).
TEST(WholeFileReader, DuplicateKeysSendTheLastTextOnce) {
    RecordingSink sink;
    HparamsReader yaml(SourceFile{"/x/hparams.yaml", "r", kNoRank, SourceFormat::kLightningHparams},
                       sink);
    ASSERT_TRUE(yaml.parse_content("a: 1\nb: 2\na: 3\n", false).done());
    ASSERT_TRUE(yaml.parse_content("a: 1\nb: 2\na: 3\n", false).done());
    ASSERT_EQ(sink.texts.size(), 2u);
    EXPECT_EQ(sink.texts[0].tag, "hparams/b");
    EXPECT_EQ(sink.texts[1].tag, "hparams/a");
    EXPECT_EQ(sink.texts[1].text, "3");
    sink.texts.clear();
    OumiTelemetryReader oumi(SourceFile{"/x/telemetry_callback_rank0000.json", "r", kNoRank,
                                        SourceFormat::kOumiTelemetry},
                             sink);
    ASSERT_TRUE(oumi.parse_content("{\"a\": {\"x\": 1}, \"a\": {\"x\": 2}}", false).done());
    ASSERT_TRUE(oumi.parse_content("{\"a\": {\"x\": 1}, \"a\": {\"x\": 2}}", false).done());
    ASSERT_EQ(sink.texts.size(), 1u);
    EXPECT_EQ(sink.texts[0].tag, "oumi/summary/a/x");
    EXPECT_EQ(sink.texts[0].text, "2");
}

}  // namespace
}  // namespace runtop
