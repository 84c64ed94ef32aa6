// The readers of files rewritten whole, on fixtures written here: half-written files retried
// without a warning, unchanged failures reported once, rewrites re-read, msProbe anomalies
// (current and legacy messages, tag and rank mapping), Hugging Face histories delivered once
// across checkpoints in either order, Oumi summaries, Lightning hparams.yaml.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "readers/hf_trainer_state_reader.h"
#include "readers/hparams_reader.h"
#include "readers/json_readers.h"
#include "readers/json_value.h"
#include "readers/msprobe_anomaly_reader.h"
#include "readers/oumi_telemetry_reader.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::RecordingSink;
using testing::TempDir;
using testing::write_file;

// A clock the test moves by hand.
struct FakeClock {
    std::int64_t ms = 0;
    WholeFileReader::Clock fn() {
        return [this] { return ms; };
    }
};

SourceFile anomaly_file(const std::string& path, int rank = 0) {
    return SourceFile{path, "job", rank, SourceFormat::kMsProbeAnomaly};
}

std::string anomaly_entry(const std::string& tag_name, int step, int call, const std::string& op,
                          const std::string& value = "476.07618007421394",
                          const std::string& mean = "4.355570156327922") {
    std::string message = "Rule AnomalyTurbulence reports anomaly signal in ('" + tag_name +
                          "', '" + op + "') at step " + std::to_string(step) + ", current value " +
                          value + ", history mean " + mean + ".";
    return "\"" + tag_name + "_step_" + std::to_string(step) + "_call_" + std::to_string(call) +
           "\": {\n  \"rank\": 1,\n  \"step\": " + std::to_string(step) +
           ",\n  \"micro_step\": 0,\n  \"pp_stage\": 1,\n  \"vpp_stage\": 0,\n  \"call_id\": " +
           std::to_string(call) + ",\n  \"tag_name\": \"" + tag_name + "\",\n  \"message\": \"" +
           message + "\",\n  \"group_mates\": [\n   0,\n   1\n  ]\n }";
}

std::string anomaly_json(const std::vector<std::string>& entries) {
    std::string out = "{";
    for (std::size_t i = 0; i < entries.size(); ++i) out += (i ? ",\n " : "\n ") + entries[i];
    return out + "\n}";
}

// --- the whole-file behaviour (through the anomaly reader) ---

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

// --- msProbe anomalies ---

TEST(MsProbeAnomalyReader, EntryFieldsAndMessage) {
    TempDir dir;
    const std::string path = dir / "anomaly.json";
    write_file(path, anomaly_json({anomaly_entry("0:fc1.input:1/rank1/actv", 7, 12, "norm")}));
    RecordingSink sink;
    MsProbeAnomalyReader reader(anomaly_file(path, 5), sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.anomalies.size(), 1u);
    const ImportedAnomaly& a = sink.anomalies[0];
    EXPECT_EQ(a.run, "job");
    EXPECT_EQ(a.rank, 1);  // the entry's, not the file's
    EXPECT_EQ(a.key, "0:fc1.input:1/rank1/actv_step_7_call_12");
    EXPECT_EQ(a.raw_tag, "0:fc1.input:1/rank1/actv");
    EXPECT_EQ(a.tag, "actv/fc1.input:1/norm");
    EXPECT_EQ(a.op, "norm");
    EXPECT_EQ(a.rule, "AnomalyTurbulence");
    EXPECT_EQ(a.step, 7);
    EXPECT_EQ(a.micro_step, 1);  // from the tag: the entry's micro_step is always 0
    EXPECT_EQ(a.pp_stage, 1);
    EXPECT_EQ(a.vpp_stage, 0);
    EXPECT_EQ(a.call_id, 12);
    EXPECT_EQ(a.value, 476.07618007421394);
    EXPECT_EQ(a.history_mean, 4.355570156327922);
    EXPECT_EQ(a.group_mates, (std::vector<int>{0, 1}));
    EXPECT_EQ(a.source_path, path);
    EXPECT_NE(a.message.find("reports anomaly signal"), std::string::npos);
    IngestTotals totals;
    reader.add_totals(totals);
    EXPECT_EQ(totals.records, 1u);
    EXPECT_EQ(totals.anomalies, 1u);
}

TEST(MsProbeAnomalyReader, NonFiniteValuesInMessages) {
    AnomalyMessage m;
    ASSERT_TRUE(parse_anomaly_message(
        "Rule AnomalyNan reports anomaly signal in ('0:fc1.bias/rank1/param_origin', 'min') at "
        "step 11, current value nan, history mean 0.2545.",
        m));
    EXPECT_EQ(m.rule, "AnomalyNan");
    EXPECT_EQ(m.op, "min");
    EXPECT_TRUE(std::isnan(m.value));
    EXPECT_EQ(m.history_mean, 0.2545);
    ASSERT_TRUE(parse_anomaly_message(
        "Rule AnomalyTurbulence reports anomaly signal in ('0:x/rank0/actv', 'norm') at step 10, "
        "current value inf, history mean -inf.",
        m));
    EXPECT_EQ(m.value, INFINITY);
    EXPECT_EQ(m.history_mean, -INFINITY);
    ASSERT_TRUE(parse_anomaly_message(
        "Rule AnomalyNan reports anomaly signal in ('0:x/rank0/actv', 'nans') at step 0, current "
        "value nan, history mean nan.",
        m));
    EXPECT_TRUE(std::isnan(m.history_mean));
    // The values are optional in the current form too.
    ASSERT_TRUE(parse_anomaly_message(
        "Rule AnomalyNan reports anomaly signal in ('0:x/rank0/actv', 'max') at step 3.", m));
    EXPECT_EQ(m.op, "max");
    EXPECT_TRUE(std::isnan(m.value));
    EXPECT_FALSE(parse_anomaly_message("something else entirely", m));
}

TEST(MsProbeAnomalyReader, LegacyMessageGivesTheRuleOnly) {
    TempDir dir;
    const std::string path = dir / "anomaly.json";
    write_file(
        path,
        "{\"0:fc1.weight/rank0/post_grad_step_4_call_2\": {\"rank\": 0, \"step\": 4, "
        "\"micro_step\": 0, \"pp_stage\": 0, \"vpp_stage\": 0, \"call_id\": 2, \"tag_name\": "
        "\"0:fc1.weight/rank0/post_grad\", \"message\": \"Rule AnomalyTurbulence reports "
        "anomaly signal in 0:fc1.weight/rank0/post_grad at step 4.\", \"group_mates\": [0]}}");
    RecordingSink sink;
    MsProbeAnomalyReader reader(anomaly_file(path), sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.anomalies.size(), 1u);
    const ImportedAnomaly& a = sink.anomalies[0];
    EXPECT_EQ(a.rule, "AnomalyTurbulence");
    EXPECT_EQ(a.op, "");
    EXPECT_EQ(a.tag, "");  // the op is unknown, so is the series
    EXPECT_EQ(a.raw_tag, "0:fc1.weight/rank0/post_grad");
    EXPECT_EQ(a.step, 4);
    EXPECT_TRUE(std::isnan(a.value));
    EXPECT_TRUE(std::isnan(a.history_mean));
    EXPECT_EQ(a.group_mates, (std::vector<int>{0}));
}

TEST(MsProbeAnomalyReader, TagMapping) {
    struct Case {
        const char* tag_name;
        const char* op;
        const char* tag;
    };
    for (const Case& c : {
             Case{"0:fc1.input:0/rank0/actv", "norm", "actv/fc1.input:0/norm"},
             Case{"0:fc2.weight/rank1/post_grad", "min", "grad_reduced/fc2.weight/min"},
             Case{"0:fc2.weight/rank1/pre_grad", "max", "grad_unreduced/fc2.weight/max"},
             Case{"0:fc2.weight/rank1/acc_grad", "max", "grad_unreduced/fc2.weight/max"},
             Case{"1:fc2.weight/rank1/exp_avg_sq", "mean", "exp_avg_sq/1:fc2.weight/mean"},
             Case{"2:.input:1/rank3/actv_grad", "nans", "actv_grad/2:.input:1/nans"},
             Case{"0:l.weight/rank0/exp_avg", "norm", "exp_avg/l.weight/norm"},
             Case{"0:l.weight/rank0/param_origin", "norm", "param_origin/l.weight/norm"},
             Case{"0:l.weight/rank0/param_updated", "norm", "param_updated/l.weight/norm"},
             Case{"0:l.weight/rank0/mg_direction", "norm", "other/l.weight/norm"},
             Case{"0:l.weight/rank0/something_new", "norm", "something_new/l.weight/norm"},
             Case{"0:l.weight/rank0/actv", "", ""},
             Case{"no_kind", "norm", ""},
         }) {
        EXPECT_EQ(anomaly_series_tag(c.tag_name, c.op), c.tag) << c.tag_name;
    }
    AnomalyTagName parts = parse_anomaly_tag_name("3:decoder.layers.0.mlp:2/rank12/actv");
    EXPECT_TRUE(parts.ok);
    EXPECT_EQ(parts.vpp, 3);
    EXPECT_EQ(parts.name, "decoder.layers.0.mlp");
    EXPECT_EQ(parts.micro, 2);
    EXPECT_EQ(parts.rank, 12);
    EXPECT_EQ(parts.kind, "actv");
}

TEST(MsProbeAnomalyReader, RankFallsBackToTheFileAndBadEntriesAreSkippedWithOneWarning) {
    TempDir dir;
    const std::string path = dir / "anomaly_analyse.json";
    write_file(path,
               "{\"x_step_1_call_0\": {\"step\": 1, \"tag_name\": \"0:x/rank2/actv\", "
               "\"message\": \"\"}, \"bad\": [1], \"worse\": 3}");
    RecordingSink sink;
    MsProbeAnomalyReader reader(SourceFile{path, "job", 2, SourceFormat::kMsProbeAnomalyAnalyse},
                                sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.anomalies.size(), 1u);
    EXPECT_EQ(sink.anomalies[0].rank, 2);
    EXPECT_EQ(sink.anomalies[0].call_id, -1);
    EXPECT_EQ(sink.anomalies[0].rule, "");
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("2 entries skipped (entry \"bad\" is an array"), std::string::npos)
        << warnings[0];
    // The file is rewritten every step: the same bad entries are not described again.
    write_file(path, "{\"bad\": [1, 2]}");
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(reader.take_warnings().empty());
}

TEST(MsProbeAnomalyReader, TopLevelThatIsNotAnObjectIsInvalid) {
    TempDir dir;
    const std::string path = dir / "anomaly.json";
    write_file(path, "[1, 2]");
    RecordingSink sink;
    FakeClock clock;
    MsProbeAnomalyReader reader(anomaly_file(path), sink);
    reader.set_clock(clock.fn());
    ASSERT_TRUE(reader.poll());
    EXPECT_NE(reader.pending().find("the top level is an array"), std::string::npos);
    clock.ms = 2500;
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(reader.take_warnings().size(), 1u);
}

// --- Hugging Face trainer_state.json ---

std::string hf_entry(int step, const std::string& loss, double epoch) {
    return "    {\n      \"epoch\": " + std::to_string(epoch) + ",\n      \"grad_norm\": 1.5,\n" +
           "      \"loss\": " + loss + ",\n      \"step\": " + std::to_string(step) + "\n    }";
}

std::string hf_state(int global_step, const std::vector<std::string>& entries) {
    std::string out = "{\n  \"best_metric\": null,\n  \"epoch\": 1.0,\n  \"global_step\": " +
                      std::to_string(global_step) + ",\n  \"log_history\": [\n";
    for (std::size_t i = 0; i < entries.size(); ++i) out += (i ? ",\n" : "") + entries[i];
    return out +
           "\n  ],\n  \"max_steps\": 30,\n  \"stateful_callbacks\": {\"a\": {\"b\": 1}},\n"
           "  \"trial_name\": \"t\\u00e9\"\n}\n";
}

struct Delivered {
    std::string tag;
    std::int64_t step;
    double value;
};

std::vector<Delivered> delivered(const RecordingSink& sink) {
    std::vector<Delivered> out;
    for (const auto& s : sink.scalars) out.push_back({s.key.tag, s.point.step, s.point.value});
    return out;
}

SourceFile hf_file(const std::string& path, const std::string& run = "hf") {
    return SourceFile{path, run, kNoRank, SourceFormat::kHfTrainerState};
}

TEST(HfTrainerStateReader, HistoryBecomesPointsAndScalarsBecomeTexts) {
    TempDir dir;
    const std::string path = dir / "trainer_state.json";
    write_file(path, hf_state(20, {hf_entry(10, "NaN", 0.5), hf_entry(20, "Infinity", 1.0),
                                   "    {\"eval_loss\": -Infinity, \"note\": \"text\", "
                                   "\"flag\": true, \"list\": [1], \"step\": 20}"}));
    RecordingSink sink;
    HfLedgers ledgers;
    HfTrainerStateReader reader(hf_file(path), sink, ledgers);
    ASSERT_TRUE(reader.poll());
    std::vector<Delivered> got = delivered(sink);
    ASSERT_EQ(got.size(), 7u);
    EXPECT_EQ(got[0].tag, "epoch");
    EXPECT_EQ(got[0].step, 10);
    EXPECT_EQ(got[0].value, 0.5);
    EXPECT_EQ(got[1].tag, "grad_norm");
    EXPECT_EQ(got[2].tag, "loss");
    EXPECT_TRUE(std::isnan(got[2].value));
    EXPECT_EQ(got[5].tag, "loss");
    EXPECT_EQ(got[5].value, INFINITY);
    EXPECT_EQ(got[6].tag, "eval_loss");
    EXPECT_EQ(got[6].value, -INFINITY);
    for (const SourceKind kind : sink.kinds) EXPECT_EQ(kind, SourceKind::kHfTrainerState);
    for (const auto& s : sink.scalars) {
        EXPECT_EQ(s.key.run, "hf");
        EXPECT_EQ(s.key.rank, kNoRank);
    }
    // Wall time: the file's mtime (the file has no timestamps).
    struct stat st;
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_DOUBLE_EQ(sink.scalars[0].point.wall_time,
                     static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec * 1e-9);

    std::vector<std::pair<std::string, std::string>> texts;
    for (const ConfigText& t : sink.texts) {
        texts.emplace_back(t.tag, t.text);
        EXPECT_EQ(t.step, 20);
    }
    EXPECT_EQ(texts, (std::vector<std::pair<std::string, std::string>>{
                         {"trainer_state/best_metric", "null"},
                         {"trainer_state/epoch", "1.0"},
                         {"trainer_state/global_step", "20"},
                         {"trainer_state/max_steps", "30"},
                         {"trainer_state/trial_name", "\"t\\u00e9\""}}));
    IngestTotals totals;
    reader.add_totals(totals);
    EXPECT_EQ(totals.records, 3u);
    EXPECT_EQ(totals.scalars, 7u);
    EXPECT_EQ(totals.texts, 5u);
}

TEST(HfTrainerStateReader, RewriteDeliversOnlyNewEntries) {
    TempDir dir;
    const std::string path = dir / "trainer_state.json";
    write_file(path, hf_state(10, {hf_entry(10, "2.0", 0.1)}));
    RecordingSink sink;
    HfLedgers ledgers;
    HfTrainerStateReader reader(hf_file(path), sink, ledgers);
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(sink.scalars.size(), 3u);
    const std::size_t texts = sink.texts.size();
    write_file(path, hf_state(20, {hf_entry(10, "2.0", 0.1), hf_entry(20, "1.0", 0.2)}));
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.scalars.size(), 6u);
    for (std::size_t i = 3; i < 6; ++i) EXPECT_EQ(sink.scalars[i].point.step, 20);
    // Only the texts that changed are sent again.
    ASSERT_EQ(sink.texts.size(), texts + 1);
    EXPECT_EQ(sink.texts.back().tag, "trainer_state/global_step");
    EXPECT_EQ(sink.texts.back().text, "20");
}

TEST(HfTrainerStateReader, RewrittenHistoryIsDeliveredFromTheFirstDifference) {
    TempDir dir;
    const std::string path = dir / "trainer_state.json";
    write_file(path, hf_state(30, {hf_entry(10, "2.0", 0.1), hf_entry(20, "1.0", 0.2),
                                   hf_entry(30, "0.5", 0.3)}));
    RecordingSink sink;
    HfLedgers ledgers;
    HfTrainerStateReader reader(hf_file(path), sink, ledgers);
    ASSERT_TRUE(reader.poll());
    sink.scalars.clear();
    // A new training from scratch in the same output dir: the history differs at entry 1.
    write_file(path, hf_state(20, {hf_entry(10, "2.0", 0.1), hf_entry(20, "1.7", 0.2)}));
    ASSERT_TRUE(reader.poll());
    std::vector<Delivered> got = delivered(sink);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[2].tag, "loss");
    EXPECT_EQ(got[2].step, 20);
    EXPECT_EQ(got[2].value, 1.7);
    EXPECT_EQ(ledgers.of("hf").entries.size(), 2u);
}

TEST(HfTrainerStateReader, CheckpointsDeliverEachPointOnceInEitherOrder) {
    TempDir dir;
    testing::make_dirs(dir / "checkpoint-500");
    testing::make_dirs(dir / "checkpoint-1000");
    const std::vector<std::string> history = {hf_entry(250, "2.0", 0.5), hf_entry(500, "1.5", 1.0),
                                              hf_entry(750, "1.2", 1.5),
                                              hf_entry(1000, "1.0", 2.0)};
    const std::string early = dir / "checkpoint-500/trainer_state.json";
    const std::string late = dir / "checkpoint-1000/trainer_state.json";
    write_file(early, hf_state(500, {history[0], history[1]}));
    // The later copy with another indentation: entries compare without layout.
    std::string late_text = hf_state(1000, history);
    write_file(late, compact_json(late_text));

    for (bool early_first : {true, false}) {
        SCOPED_TRACE(early_first ? "checkpoint-500 first" : "checkpoint-1000 first");
        RecordingSink sink;
        HfLedgers ledgers;
        HfTrainerStateReader a(hf_file(early_first ? early : late), sink, ledgers);
        HfTrainerStateReader b(hf_file(early_first ? late : early), sink, ledgers);
        ASSERT_TRUE(a.poll());
        ASSERT_TRUE(b.poll());
        std::vector<Delivered> got = delivered(sink);
        ASSERT_EQ(got.size(), 12u);  // 4 entries x (epoch, grad_norm, loss), each once
        std::vector<std::int64_t> steps;
        for (std::size_t i = 0; i < got.size(); i += 3) steps.push_back(got[i].step);
        EXPECT_EQ(steps, (std::vector<std::int64_t>{250, 500, 750, 1000}));
        // The older copy never overwrites the newer state.
        std::string global_step;
        for (const ConfigText& t : sink.texts)
            if (t.tag == "trainer_state/global_step") global_step = t.text;
        EXPECT_EQ(global_step, "1000");
        // A reread of an unchanged file sends nothing.
        ASSERT_TRUE(a.poll());
        ASSERT_TRUE(b.poll());
        EXPECT_EQ(sink.scalars.size(), 12u);
    }
}

TEST(HfTrainerStateReader, LedgersArePerRun) {
    TempDir dir;
    const std::string path = dir / "trainer_state.json";
    write_file(path, hf_state(10, {hf_entry(10, "2.0", 0.1)}));
    RecordingSink sink;
    JsonReaderShared shared;
    std::unique_ptr<SourceReader> a = make_json_reader(hf_file(path, "a"), sink, shared);
    std::unique_ptr<SourceReader> b = make_json_reader(hf_file(path, "b"), sink, shared);
    ASSERT_TRUE(a->poll());
    ASSERT_TRUE(b->poll());
    EXPECT_EQ(sink.scalars.size(), 6u);
}

TEST(HfTrainerStateReader, EntryWithoutStepIsSkippedAndWrongShapeIsInvalid) {
    TempDir dir;
    const std::string path = dir / "trainer_state.json";
    write_file(path, "{\"log_history\": [{\"loss\": 1}, {\"loss\": 2, \"step\": 3}, 7]}");
    RecordingSink sink;
    HfLedgers ledgers;
    HfTrainerStateReader reader(hf_file(path), sink, ledgers);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.scalars.size(), 1u);
    EXPECT_EQ(sink.scalars[0].point.step, 3);
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("2 log_history entries skipped"), std::string::npos) << warnings[0];

    EXPECT_EQ(reader.parse_content("{\"log_history\": {}}", true).kind,
              ParseOutcome::Kind::kInvalid);
    EXPECT_EQ(reader.parse_content("[]", true).kind, ParseOutcome::Kind::kInvalid);
    EXPECT_EQ(reader.parse_content("{\"log_history\": [", false).kind,
              ParseOutcome::Kind::kIncomplete);
    EXPECT_EQ(sink.scalars.size(), 1u);
}

// --- Oumi telemetry ---

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

// --- Lightning hparams.yaml ---

std::vector<std::pair<std::string, std::string>> yaml_entries(const std::string& text) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& e : parse_hparams_yaml(text).entries) out.emplace_back(e.key, e.value);
    return out;
}

using Pairs = std::vector<std::pair<std::string, std::string>>;

TEST(HparamsYaml, ScalarsNestingAndLists) {
    const std::string text =
        "# written by Lightning\n"
        "lr: 0.001\n"
        "batch_size: 32  # per device\n"
        "name: 'it''s'\n"
        "path: \"a\\tb \\u00e9\"\n"
        "optimizer:\n"
        "  name: adam\n"
        "  betas:\n"
        "  - 0.9\n"
        "  - 0.999\n"
        "  sched:\n"
        "    warmup: 100\n"
        "layers:\n"
        "- 64\n"
        "- '32'\n"
        "empty_list: []\n"
        "empty_dict: {}\n"
        "none: null\n"
        "after: 1\n";
    EXPECT_EQ(yaml_entries(text), (Pairs{{"lr", "0.001"},
                                         {"batch_size", "32"},
                                         {"name", "it's"},
                                         {"path", "a\tb \xC3\xA9"},
                                         {"optimizer.name", "adam"},
                                         {"optimizer.betas", "[0.9, 0.999]"},
                                         {"optimizer.sched.warmup", "100"},
                                         {"layers", "[64, 32]"},
                                         {"empty_list", "[]"},
                                         {"empty_dict", "{}"},
                                         {"none", "null"},
                                         {"after", "1"}}));
    EXPECT_TRUE(parse_hparams_yaml(text).problems.empty());
}

TEST(HparamsYaml, EmptyDocumentsAndMarkers) {
    EXPECT_TRUE(yaml_entries("{}\n").empty());
    EXPECT_TRUE(yaml_entries("").empty());
    EXPECT_TRUE(yaml_entries("# nothing\n\n").empty());
    EXPECT_EQ(yaml_entries("---\na: 1\n...\n"), (Pairs{{"a", "1"}}));
    EXPECT_TRUE(parse_hparams_yaml("{}\n").problems.empty());
}

TEST(HparamsYaml, MultiLineScalarsAndTags) {
    const std::string text =
        "desc: a long plain value\n"
        "  that PyYAML wrapped\n"
        "quoted: 'first part\n"
        "  second part'\n"
        "escaped: 'it''s\n"
        "  a \"b\" c'\n"
        "double: \"x \\\"y\\\"\n"
        "   z\"\n"
        "script: |\n"
        "  line one\n"
        "    indented\n"
        "\n"
        "folded: >-\n"
        "  one\n"
        "  two\n"
        "shape: !!python/tuple\n"
        "- 3\n"
        "- 224\n"
        "tagged: !!float 1e-3\n"
        "key with spaces: yes\n"
        "\"quoted key\": v\n"
        "url: http://x:80/y\n";
    EXPECT_EQ(yaml_entries(text), (Pairs{{"desc", "a long plain value that PyYAML wrapped"},
                                         {"quoted", "first part second part"},
                                         {"escaped", "it's a \"b\" c"},
                                         {"double", "x \"y\" z"},
                                         {"script", "line one\n  indented"},
                                         {"folded", "one two"},
                                         {"shape", "[3, 224]"},
                                         {"tagged", "1e-3"},
                                         {"key with spaces", "yes"},
                                         {"quoted key", "v"},
                                         {"url", "http://x:80/y"}}));
}

TEST(HparamsYaml, UnreadableLinesAreSkippedAndTheRestKept) {
    const std::string text =
        "a: 1\n"
        "layers:\n"
        "- size: 64\n"
        "  act: relu\n"
        "- size: 32\n"
        "just text\n"
        "c: 3\n"
        "\tb: 2\n"
        "d: 4\n";
    HparamsYaml yaml = parse_hparams_yaml(text);
    std::vector<std::pair<std::string, std::string>> got;
    for (const auto& e : yaml.entries) got.emplace_back(e.key, e.value);
    EXPECT_EQ(got, (Pairs{{"a", "1"}, {"c", "3"}, {"d", "4"}}));
    std::vector<std::size_t> lines;
    for (const auto& p : yaml.problems) lines.push_back(p.line);
    EXPECT_EQ(lines, (std::vector<std::size_t>{3, 5, 6, 8}));
    ASSERT_EQ(yaml.problems.size(), 4u);
    EXPECT_EQ(yaml.problems[0].reason, "a list of mappings");
    EXPECT_EQ(yaml.problems[2].reason, "not a `key: value` line");
    EXPECT_EQ(yaml.problems[3].reason, "a tab in the indentation");
}

TEST(HparamsReader, TextsWarningsAndAnUnfinishedLastLine) {
    TempDir dir;
    const std::string path = dir / "hparams.yaml";
    write_file(path, "lr: 0.00");
    RecordingSink sink;
    FakeClock clock;
    HparamsReader reader(SourceFile{path, "version_0", kNoRank, SourceFormat::kLightningHparams},
                         sink);
    reader.set_clock(clock.fn());
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(sink.texts.empty());
    EXPECT_EQ(reader.pending(), "the last line is not finished");
    write_file(path, "lr: 0.001\nmodel:\n  depth: 4\nbad line\n");
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.texts.size(), 2u);
    EXPECT_EQ(sink.texts[0].tag, "hparams/lr");
    EXPECT_EQ(sink.texts[0].text, "0.001");
    EXPECT_EQ(sink.texts[0].run, "version_0");
    EXPECT_EQ(sink.texts[1].tag, "hparams/model.depth");
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0], path + ": line 4: not a `key: value` line; skipped, the rest was read");
    // Written without a final newline and left so: after 2 s it is what the writer meant.
    write_file(path, "lr: 0.002");
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(sink.texts.size(), 2u);
    clock.ms = 2000;
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.texts.size(), 3u);
    EXPECT_EQ(sink.texts[2].text, "0.002");
    EXPECT_EQ(reader.pending(), "");
    EXPECT_TRUE(reader.take_warnings().empty());
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

// --- the entry point ---

TEST(JsonReaders, MakeReaderByFormat) {
    RecordingSink sink;
    std::unique_ptr<JsonReaderShared> shared = make_json_reader_shared();
    for (SourceFormat f : {SourceFormat::kMsProbeAnomaly, SourceFormat::kMsProbeAnomalyAnalyse,
                           SourceFormat::kHfTrainerState, SourceFormat::kOumiTelemetry,
                           SourceFormat::kLightningHparams}) {
        std::unique_ptr<SourceReader> r =
            make_json_reader(SourceFile{"/x", "r", 0, f}, sink, *shared);
        ASSERT_NE(r, nullptr);
        EXPECT_EQ(r->file().format, f);
    }
    for (SourceFormat f : {SourceFormat::kEventFile, SourceFormat::kMsProbeCsv,
                           SourceFormat::kLightningCsv, SourceFormat::kPlainCsv})
        EXPECT_EQ(make_json_reader(SourceFile{"/x", "r", 0, f}, sink, *shared), nullptr);
    EXPECT_NE(
        dynamic_cast<HfTrainerStateReader*>(
            make_json_reader(SourceFile{"/x", "r", 0, SourceFormat::kHfTrainerState}, sink, *shared)
                .get()),
        nullptr);
}

// --- samples (../shared/samples): checked against the raw text, parsed here by regex ---

namespace fs = std::filesystem;

std::vector<std::string> sample_files(const std::string& dir, const std::regex& name) {
    std::vector<std::string> out;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return out;
    for (const auto& e : fs::recursive_directory_iterator(dir, ec))
        if (e.is_regular_file() && std::regex_search(e.path().string(), name))
            out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::uint64_t bits(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
}

// Python's repr of a float, or JSON's literals, as a double.
double number_of(const std::string& text) {
    if (text == "NaN") return NAN;
    if (text == "Infinity") return INFINITY;
    if (text == "-Infinity") return -INFINITY;
    return std::strtod(text.c_str(), nullptr);
}

bool same_value(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

// msProbe's tag_name to runtop's tag, by regex: an independent take on the mapping.
std::string expected_anomaly_tag(const std::string& tag_name, const std::string& op) {
    static const std::regex re(R"(^(\d+):(.*?)(?::(\d+))?/rank\d+/(\w+)$)");
    std::smatch m;
    if (op.empty() || !std::regex_match(tag_name, m, re)) return "";
    std::string kind = m[4];
    std::string prefix = kind == "post_grad"                        ? "grad_reduced"
                         : kind == "pre_grad" || kind == "acc_grad" ? "grad_unreduced"
                         : kind == "mg_direction"                   ? "other"
                                                                    : kind;
    std::string vpp = m[1] == "0" ? "" : std::string(m[1]) + ":";
    std::string micro = m[3].matched ? ":" + std::string(m[3]) : "";
    return prefix + "/" + vpp + std::string(m[2]) + micro + "/" + op;
}

TEST(JsonSamples, MsProbeAnomalyFiles) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent (it ships with CI only)";
    const std::vector<std::string> files =
        sample_files(samples + "/generated/msprobe",
                     std::regex(R"(/monitor_output/anomaly_detected/.*\.json$)"));
    ASSERT_FALSE(files.empty());
    std::size_t total = 0, with_values = 0;
    for (const std::string& path : files) {
        SCOPED_TRACE(path);
        const bool analyse = path.ends_with("anomaly_analyse.json");
        std::smatch dir_rank;
        const bool per_rank =
            std::regex_search(path, dir_rank, std::regex(R"(/rank(\d+)/anomaly\.json$)"));
        RecordingSink sink;
        MsProbeAnomalyReader reader(
            SourceFile{
                path, "monitor_output", per_rank ? std::stoi(dir_rank[1]) : kNoRank,
                analyse ? SourceFormat::kMsProbeAnomalyAnalyse : SourceFormat::kMsProbeAnomaly},
            sink);
        ASSERT_TRUE(reader.poll());
        EXPECT_EQ(reader.pending(), "");
        EXPECT_TRUE(reader.take_warnings().empty());

        // The raw entries: json.dump(indent=1) puts each key at one space of indentation.
        const std::string text = testing::read_file(path);
        static const std::regex entry_re(
            R"re(\n "([^"]+)_step_(\d+)_call_(-?\d+)": \{\n  "rank": (\d+),(?:[^{}]|\[[^\]]*\])*?"tag_name": "([^"]*)",\n  "message": "([^"]*)")re");
        std::vector<std::smatch> raw;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), entry_re);
             it != std::sregex_iterator(); ++it)
            raw.push_back(*it);
        ASSERT_FALSE(raw.empty());
        ASSERT_EQ(sink.anomalies.size(), raw.size());
        for (std::size_t i = 0; i < raw.size(); ++i) {
            const ImportedAnomaly& a = sink.anomalies[i];
            const std::smatch& m = raw[i];
            SCOPED_TRACE(a.key);
            EXPECT_EQ(a.key, std::string(m[1]) + "_step_" + std::string(m[2]) + "_call_" +
                                 std::string(m[3]));
            EXPECT_EQ(a.raw_tag, std::string(m[1]));
            EXPECT_EQ(a.raw_tag, std::string(m[5]));
            EXPECT_EQ(a.step, std::stoll(m[2]));
            EXPECT_EQ(a.call_id, std::stoll(m[3]));
            EXPECT_EQ(a.rank, std::stoi(m[4]));
            if (per_rank) {
                EXPECT_EQ(a.rank, std::stoi(dir_rank[1]));
            }
            EXPECT_EQ(a.message, std::string(m[6]));
            EXPECT_EQ(a.source_path, path);
            EXPECT_EQ(a.run, "monitor_output");
            std::smatch msg;
            const std::string message = m[6];
            ASSERT_TRUE(std::regex_search(
                message, msg,
                std::regex(
                    R"(Rule (\S+) reports anomaly signal in \('([^']*)', '([^']*)'\) at step (\d+)(?:, current value (\S+), history mean (\S+))?\.)")));
            EXPECT_EQ(a.rule, std::string(msg[1]));
            EXPECT_EQ(a.op, std::string(msg[3]));
            EXPECT_EQ(std::to_string(a.step), std::string(msg[4]));
            if (msg[5].matched) {
                ++with_values;
                EXPECT_TRUE(same_value(a.value, std::strtod(std::string(msg[5]).c_str(), nullptr)))
                    << msg[5];
                EXPECT_TRUE(
                    same_value(a.history_mean, std::strtod(std::string(msg[6]).c_str(), nullptr)))
                    << msg[6];
            }
            EXPECT_EQ(a.tag, expected_anomaly_tag(a.raw_tag, a.op));
            EXPECT_FALSE(a.tag.empty());
            std::smatch micro;
            if (std::regex_search(a.raw_tag, micro, std::regex(R"(:(\d+)/rank\d+/)"))) {
                EXPECT_EQ(a.micro_step, std::stoll(micro[1]));
            }
            EXPECT_FALSE(a.group_mates.empty());
        }
        IngestTotals totals;
        reader.add_totals(totals);
        EXPECT_EQ(totals.anomalies, raw.size());
        EXPECT_EQ(totals.bytes, text.size());
        total += raw.size();
    }
    EXPECT_GT(total, 100u);
    EXPECT_GT(with_values, 100u);
}

TEST(JsonSamples, HfTrainerState) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent (it ships with CI only)";
    const std::vector<std::string> files = sample_files(samples + "/other-public/hf_transformers",
                                                        std::regex(R"(trainer_state\.json$)"));
    ASSERT_FALSE(files.empty());
    for (const std::string& path : files) {
        SCOPED_TRACE(path);
        const std::string text = testing::read_file(path);
        // The raw history: entries are flat objects inside "log_history": [ ... ].
        const std::size_t begin = text.find("\"log_history\": [");
        ASSERT_NE(begin, std::string::npos);
        const std::size_t end = text.find("\n  ]", begin);
        ASSERT_NE(end, std::string::npos);
        const std::string history = text.substr(begin, end - begin);
        std::vector<Delivered> expected;
        static const std::regex entry_re(R"(\{([^{}]*)\})");
        static const std::regex pair_re(R"re("(\w+)": ([-0-9.eE+]+|NaN|-?Infinity))re");
        static const std::regex step_re(R"re("step": (\d+))re");
        for (auto e = std::sregex_iterator(history.begin(), history.end(), entry_re);
             e != std::sregex_iterator(); ++e) {
            const std::string body = (*e)[1];
            std::smatch step;
            ASSERT_TRUE(std::regex_search(body, step, step_re)) << body;
            for (auto p = std::sregex_iterator(body.begin(), body.end(), pair_re);
                 p != std::sregex_iterator(); ++p)
                if ((*p)[1] != "step")
                    expected.push_back({(*p)[1], std::stoll(step[1]), number_of((*p)[2])});
        }
        ASSERT_GT(expected.size(), 300u);

        RecordingSink sink;
        HfLedgers ledgers;
        HfTrainerStateReader reader(hf_file(path), sink, ledgers);
        ASSERT_TRUE(reader.poll());
        EXPECT_EQ(reader.pending(), "");
        EXPECT_TRUE(reader.take_warnings().empty());
        std::vector<Delivered> got = delivered(sink);
        ASSERT_EQ(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            EXPECT_EQ(got[i].tag, expected[i].tag) << i;
            EXPECT_EQ(got[i].step, expected[i].step) << i;
            EXPECT_EQ(bits(got[i].value), bits(expected[i].value))
                << i << " " << got[i].value << " " << expected[i].value;
        }
        std::smatch global_step;
        ASSERT_TRUE(
            std::regex_search(text, global_step, std::regex(R"re(\n  "global_step": (\d+),)re")));
        bool found = false;
        for (const ConfigText& t : sink.texts)
            if (t.tag == "trainer_state/global_step") found = t.text == std::string(global_step[1]);
        EXPECT_TRUE(found);

        // Another copy of the same run's history (a checkpoint) adds nothing.
        HfTrainerStateReader copy(hf_file(path), sink, ledgers);
        ASSERT_TRUE(copy.poll());
        EXPECT_EQ(sink.scalars.size(), expected.size());
    }
}

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

TEST(JsonSamples, LightningHparams) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent (it ships with CI only)";
    const std::vector<std::string> files =
        sample_files(samples + "/other-public/lightning", std::regex(R"(hparams\.yaml$)"));
    ASSERT_FALSE(files.empty());
    for (const std::string& path : files) {
        SCOPED_TRACE(path);
        RecordingSink sink;
        HparamsReader reader(
            SourceFile{path, "lightning", kNoRank, SourceFormat::kLightningHparams}, sink);
        ASSERT_TRUE(reader.poll());
        EXPECT_EQ(reader.pending(), "");
        EXPECT_TRUE(reader.take_warnings().empty());
        // One text per "key: value" line of the raw file (these hold "{}": none).
        const std::string text = testing::read_file(path);
        std::size_t keys = 0;
        static const std::regex key_re(R"((^|\n)[ ]*[\w.]+:( |\r?\n))");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), key_re);
             it != std::sregex_iterator(); ++it)
            ++keys;
        EXPECT_EQ(sink.texts.size(), keys);
        EXPECT_EQ(reader.parses(), 1u);
    }
}

}  // namespace
}  // namespace runtop
