// Training logs as a source: a MindFormers output directory and a Megatron log written here as
// the tools print them, tailed as a job writes them (partial lines, redraws, colours, launcher
// prefixes, a restart), and text files that are no logs left alone.
#include "readers/log_file_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "core/series_source.h"
#include "readers/file_kinds.h"
#include "readers/log_format_catalog.h"
#include "tests/delivered.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::append_file;
using testing::Delivered;
using testing::delivered;
using testing::make_dirs;
using testing::RecordingSink;
using testing::TempDir;
using testing::write_file;

LogFileReader reader_of(const std::string& path, RecordingSink& sink, int rank = kNoRank) {
    return LogFileReader(SourceFile{path, "run", rank, SourceFormat::kTextLog}, sink,
                         builtin_log_formats());
}

const char* const kMindFormersStep1 =
    "[INFO] 2026-11-21 06:39:34,619 [mindformers/core/callback/callback.py:71] <module>: { "
    "Epoch:[  1/  1], step:[    1/    6], loss: 8.261850, per_step_time: 1237ms, lr: "
    "1.6666666666666667e-05, overflow cond: False, loss_scale: 1.0, global_norm: [3.0042057], "
    "train_throughput_per_npu: 150.259T\n"
    "[INFO] 2026-11-21 06:39:34,620 [mindformers/core/callback/callback.py:72] <module>:    "
    "16.7% |████████                                          | 0.80811 samples/s/p  0:00:06 }\n"
    "[INFO] 2026-11-21 06:39:34,621 [mindformers/core/callback/callback.py:98] out: Epoch:[  "
    "1/  1], step:[    1/    6] local_norm/model.layers.0.attention.wq.weight: "
    "0.505112747213686\n";

TEST(LogFileReader, FileNamesThatMayBeLogs) {
    for (std::string_view name :
         {"info.log", "slurm-123456.out", "train.err", "stdout.txt", "metrics_rank0000.jsonl"})
        EXPECT_EQ(classify_file("", name), SourceFormat::kTextLog) << name;
    EXPECT_NE(classify_file("", "train.jsonl"), SourceFormat::kTextLog);  // a dataset, maybe
    EXPECT_NE(classify_file("", "events.out.tfevents.1.host"), SourceFormat::kTextLog);
    EXPECT_EQ(classify_file("", "model.ckpt"), std::nullopt);
}

TEST(LogFileReader, AMindFormersRankLogGivesEveryValueExactly) {
    TempDir dir;
    const std::string path = dir / "info.log";
    write_file(path, kMindFormersStep1);
    RecordingSink sink;
    LogFileReader reader = reader_of(path, sink, 1);  // output/log/rank_1/info.log
    ASSERT_TRUE(reader.poll());
    Delivered d = delivered(sink, true);
    EXPECT_EQ(d.value, (std::map<std::string, double>{
                           {"1 loss@1", 8.261850},
                           {"1 per_step_time@1", 1237},
                           {"1 lr@1", 1.6666666666666667e-05},
                           {"1 loss_scale@1", 1.0},
                           {"1 global_norm@1", 3.0042057},
                           {"1 train_throughput_per_npu@1", 150.259},
                           {"1 local_norm/model.layers.0.attention.wq.weight@1", 0.505112747213686},
                       }));
    ASSERT_EQ(sink.keys.size(), 7u);
    EXPECT_EQ(series_source(sink.sources[0]).format, "mindformers");
    EXPECT_EQ(series_source(sink.sources.back()).format, "mindformers-monitor");
    EXPECT_EQ(reader.metric_lines(), 2u);

    // The next step, then a NaN loss, as the job writes them.
    append_file(path,
                "[INFO] 2026-11-21 06:39:35,800 [mindformers/core/callback/callback.py:71] "
                "<module>: { Epoch:[  1/  1], step:[    2/    6], loss: 8.101000, "
                "per_step_time: 1180ms, lr: 3.3333333333333335e-05, overflow cond: False, "
                "loss_scale: 1.0, global_norm: [2.875]\n"
                "[INFO] 2026-11-21 06:39:37,000 [mindformers/core/callback/callback.py:71] "
                "<module>: { Epoch:[  1/  1], step:[    3/    6], loss:   nan, per_step_time: "
                "1190ms, lr: 5e-05, overflow cond: True, loss_scale: 1.0, global_norm: [nan]\n");
    ASSERT_TRUE(reader.poll());
    d = delivered(sink, true);
    EXPECT_EQ(d.value.at("1 loss@2"), 8.101);
    EXPECT_TRUE(std::isnan(d.value.at("1 loss@3")));
    EXPECT_TRUE(std::isnan(d.value.at("1 global_norm@3")));
    for (const auto& [id, count] : d.count) EXPECT_EQ(count, 1) << id << " read twice";
}

TEST(LogFileReader, ALineBeingWrittenIsReadOnceWhole) {
    TempDir dir;
    const std::string path = dir / "train.log";
    const std::string line = "iter 7: loss 2.5000, time 120.00ms, mfu 30.00%\n";
    write_file(path, "iter 6: loss 2.6\n" + line.substr(0, 17));
    RecordingSink sink;
    LogFileReader reader = reader_of(path, sink);
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(sink.scalars.size(), 1u);
    EXPECT_NE(reader.pending().find("incomplete last line"), std::string::npos);
    append_file(path, line.substr(17));
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(
        delivered(sink, true).value,
        (std::map<std::string, double>{
            {"-1 loss@6", 2.6}, {"-1 loss@7", 2.5}, {"-1 time@7", 120.0}, {"-1 mfu@7", 30.0}}));
    EXPECT_TRUE(reader.pending().empty());
}

TEST(LogFileReader, PrefixesRedrawsColoursAndCrlfOfAMegatronLog) {
    TempDir dir;
    const std::string path = dir / "slurm-4242.out";
    write_file(path,
               "0: [default3]: [2026-09-11 12:06:52.987995] iteration        3/ 7629408 | "
               "consumed samples:           96 | elapsed time per iteration (ms): 24379.9 | "
               "learning rate: 1.406250E-04 | global batch size:    32 | lm loss: 1.107468E+01 "
               "| loss scale: 1.0 | grad norm: 5.123 | number of skipped iterations:   0 | "
               "number of nan iterations:   0 |\r\n"
               "[default2]:\x1b[32m [2026-09-11 12:06:53.001] iteration        3/ 7629408 | "
               "lm loss: 1.2E+01 |\x1b[0m\n"
               "loading data  10%\rloading data 100%\n"
               "Traceback (most recent call last):\n");
    RecordingSink sink;
    LogFileReader reader = reader_of(path, sink);
    ASSERT_TRUE(reader.poll());
    const Delivered d = delivered(sink, true);
    EXPECT_EQ(d.value.at("3 lm loss@3"), 1.107468E+01);
    EXPECT_EQ(d.value.at("3 grad norm@3"), 5.123);
    EXPECT_EQ(d.value.at("3 learning rate@3"), 1.406250E-04);
    EXPECT_EQ(d.value.at("3 elapsed time per iteration (ms)@3"), 24379.9);
    EXPECT_EQ(d.value.at("3 number of nan iterations@3"), 0);
    EXPECT_EQ(d.value.at("2 lm loss@3"), 12.0);
    EXPECT_EQ(d.value.size(), 10u);
    EXPECT_TRUE(reader.take_warnings().empty());
}

TEST(LogFileReader, AnIterationGoingBackIsARestart) {
    TempDir dir;
    const std::string path = dir / "train.log";
    std::string text;
    for (int i : {1, 2, 3, 4, 5, 3, 4})
        text += "iter " + std::to_string(i) + ": loss " + std::to_string(10 - i) + ".0\n";
    write_file(path, text);
    RecordingSink sink;
    LogFileReader reader = reader_of(path, sink);
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(sink.starts, (std::vector<std::int64_t>{3}));
    EXPECT_EQ(sink.scalars.size(), 7u);
}

TEST(LogFileReader, TextThatIsNoLogIsLeftAloneAfterItsSample) {
    TempDir dir;
    const std::string path = dir / "dataset.txt";
    std::string text;
    while (text.size() < LogFileReader::kSampleBytes) text += "the quick brown fox jumps\n";
    const std::size_t sample = text.size();
    text += "iter 5: loss 1.0\n";  // past the sample: not read while the file stays as it is
    for (int i = 0; i < 100000; ++i) text += "more text that is no log at all\n";
    write_file(path, text);
    RecordingSink sink;
    LogFileReader reader = reader_of(path, sink);
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(reader.ignored());
    EXPECT_FALSE(reader.more());
    EXPECT_FALSE(reader.holds_data());  // counted as no data file
    EXPECT_TRUE(reader.pending().empty());
    EXPECT_TRUE(sink.scalars.empty());
    IngestTotals totals;
    reader.add_totals(totals);
    EXPECT_EQ(totals.bytes, sample);  // one sample read, not the 3 MB
    ASSERT_TRUE(reader.poll());
    reader.add_totals(totals);
    EXPECT_EQ(totals.bytes, 2 * sample);  // unchanged: not read again

    // Written to since: maybe a job's log after a long preamble; read on from the sample's end,
    // every line once.
    append_file(path, "iter 6: loss 2.0\n");
    ASSERT_TRUE(reader.poll());
    while (reader.more()) ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(reader.holds_data());
    ASSERT_EQ(sink.scalars.size(), 2u);
    EXPECT_EQ(sink.scalars[0].point.step, 5);
    EXPECT_EQ(sink.scalars[1].point.step, 6);
    EXPECT_EQ(sink.scalars[1].point.value, 2.0);

    // A young log with no metric yet is not judged on less than its sample.
    const std::string young = dir / "young.log";
    write_file(young, "building model...\n");
    RecordingSink young_sink;
    LogFileReader young_reader = reader_of(young, young_sink);
    ASSERT_TRUE(young_reader.poll());
    EXPECT_FALSE(young_reader.ignored());
    EXPECT_FALSE(young_reader.holds_data());
    append_file(young, "iter 0: loss 11.0\n");
    ASSERT_TRUE(young_reader.poll());
    EXPECT_EQ(young_sink.scalars.size(), 1u);
    EXPECT_TRUE(young_reader.holds_data());
}

TEST(LogFileReader, AnOverlongLineIsSkippedWithAWarning) {
    TempDir dir;
    const std::string path = dir / "train.log";
    write_file(path, "iter 1: loss 3.0\n" + std::string(LogFileReader::kMaxLineBytes + 10, 'x') +
                         "\niter 2: loss 2.0\n");
    RecordingSink sink;
    LogFileReader reader = reader_of(path, sink);
    while (true) {
        ASSERT_TRUE(reader.poll());
        if (!reader.more()) break;
    }
    EXPECT_EQ(reader.long_lines(), 1u);
    EXPECT_EQ(delivered(sink, true).value,
              (std::map<std::string, double>{{"-1 loss@1", 3.0}, {"-1 loss@2", 2.0}}));
    const std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find(path), std::string::npos);
}

}  // namespace
}  // namespace runtop

namespace runtop {
namespace {

// Hugging Face Trainer prints no step: the dicts' ordinal times logging_steps (eval_steps) from
// the trainer_state.json of the job's output directory gives it.
TEST(LogFileReader, HuggingFaceDictsTakeTheirStepsFromTrainerState) {
    TempDir dir;
    const std::string out = dir / "out";
    make_dirs(out + "/checkpoint-20");
    make_dirs(out + "/checkpoint-10");
    write_file(out + "/checkpoint-20/trainer_state.json",
               R"({"global_step": 20, "logging_steps": 5, "eval_steps": 10, "log_history": []})");
    write_file(out + "/checkpoint-10/trainer_state.json",
               R"({"global_step": 10, "logging_steps": 999, "log_history": []})");
    const std::string log = out + "/train.log";
    write_file(log,
               "0: {'loss': 2.5, 'grad_norm': 1.5, 'learning_rate': 5e-05, 'epoch': 0.01}\n"
               "0: {'loss': 2.25, 'grad_norm': 1.25, 'learning_rate': 4e-05, 'epoch': 0.02}\n"
               "0: {'eval_loss': 2.0, 'eval_runtime': 1.5, 'epoch': 0.02}\n"
               "0: {'loss': 2.0, 'grad_norm': 1.0, 'learning_rate': 3e-05, 'epoch': 0.03}\n");
    RecordingSink sink;
    LogFileReader reader = reader_of(log, sink);
    ASSERT_TRUE(reader.poll());
    const Delivered d = delivered(sink, true);
    EXPECT_EQ(d.value.at("0 loss@5"), 2.5);
    EXPECT_EQ(d.value.at("0 loss@10"), 2.25);
    EXPECT_EQ(d.value.at("0 loss@15"), 2.0);
    EXPECT_EQ(d.value.at("0 eval_loss@10"), 2.0);
    EXPECT_EQ(d.value.at("0 epoch@15"), 0.03);
    EXPECT_TRUE(sink.starts.empty());  // evaluations count apart: no restart

    // Oumi's metrics_rank0000.jsonl in the same output directory: the same steps.
    const std::string jsonl = out + "/metrics_rank0000.jsonl";
    write_file(jsonl,
               "{\"loss\": 2.5, \"grad_norm\": 1.5, \"learning_rate\": 5e-05, \"epoch\": 0.01}\n"
               "{\"loss\": NaN, \"grad_norm\": NaN, \"learning_rate\": 4e-05, \"epoch\": 0.02}\n");
    ASSERT_EQ(classify_file("", "metrics_rank0000.jsonl"), SourceFormat::kTextLog);
    RecordingSink oumi_sink;
    LogFileReader oumi = reader_of(jsonl, oumi_sink);
    ASSERT_TRUE(oumi.poll());
    const Delivered o = delivered(oumi_sink, true);
    EXPECT_EQ(o.value.at("-1 loss@5"), 2.5);
    EXPECT_TRUE(std::isnan(o.value.at("-1 loss@10")));
    EXPECT_EQ(o.value.at("-1 learning_rate@10"), 4e-05);

    // Without a trainer_state.json: the ordinal.
    make_dirs(dir / "bare");
    const std::string bare = dir / "bare/train.log";
    write_file(bare, "{'loss': 2.5, 'epoch': 0.01}\n{'loss': 2.0, 'epoch': 0.02}\n");
    RecordingSink bare_sink;
    LogFileReader bare_reader = reader_of(bare, bare_sink);
    ASSERT_TRUE(bare_reader.poll());
    EXPECT_EQ(delivered(bare_sink, true).value.at("-1 loss@2"), 2.0);
}

// A rank the tool prints (DeepSpeed's "[Rank 3]") wins over a launcher's local rank.
TEST(LogFileReader, TheRankALineNamesWins) {
    TempDir dir;
    const std::string path = dir / "slurm-1.out";
    write_file(path,
               "[default1]:[2024-03-08 16:33:18,180] [INFO] [logging.py:96:log_dist] [Rank 9] "
               "step=10, skipped=0, lr=[0.001], mom=[(0.9, 0.999)]\n"
               "[default1]:steps: 10 loss: 5.5508 iter time (s): 0.936 samples/sec: 136.706\n");
    RecordingSink sink;
    LogFileReader reader = reader_of(path, sink);
    ASSERT_TRUE(reader.poll());
    const Delivered d = delivered(sink, true);
    EXPECT_EQ(d.value.at("9 lr@10"), 0.001);
    EXPECT_EQ(d.value.at("1 loss@10"), 5.5508);
}

// msProbe's console alarms are imported anomalies, as its anomaly.json entries are.
TEST(LogFileReader, MsProbeConsoleAlarmsAreAnomalies) {
    TempDir dir;
    const std::string path = dir / "console.log";
    write_file(path,
               "2026-11-21 06:35:29 (21777) [rank 0] [INFO] \x1b[93m> Rule AnomalyNan reports "
               "anomaly signal in ('0:fc1.input:0/rank1/actv_grad', 'norm') at step 7, current "
               "value nan, history mean 0.5.\x1b[0m\n"
               "2026-11-21 06:35:29 (21777) [rank 0] [INFO] building model\n");
    RecordingSink sink;
    LogFileReader reader = reader_of(path, sink);
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(sink.scalars.empty());
    ASSERT_EQ(sink.anomalies.size(), 1u);
    const ImportedAnomaly& a = sink.anomalies[0];
    EXPECT_EQ(a.rank, 1);  // the rank the tag names, not the one that printed
    EXPECT_EQ(a.step, 7);
    EXPECT_EQ(a.rule, "AnomalyNan");
    EXPECT_EQ(a.op, "norm");
    EXPECT_EQ(a.raw_tag, "0:fc1.input:0/rank1/actv_grad");
    EXPECT_EQ(a.micro_step, 0);
    EXPECT_TRUE(std::isnan(a.value));
    EXPECT_EQ(a.history_mean, 0.5);
    EXPECT_EQ(a.key, "0:fc1.input:0/rank1/actv_grad_step_7_op_norm");
    EXPECT_FALSE(a.tag.empty());
    EXPECT_EQ(a.message.back(), '.');
    EXPECT_EQ(a.run, "run");
    IngestTotals totals;
    reader.add_totals(totals);
    EXPECT_EQ(totals.anomalies, 1u);

    // Beside msProbe's default output directory: its run; a rank whose anomaly.json is there
    // has the alarm in it already (exactly): the console's copy is left out.
    make_dirs(dir / "monitor_output/anomaly_detected/rank1");
    write_file(dir / "monitor_output/anomaly_detected/rank1/anomaly.json", "{}");
    append_file(path,
                "2026-11-21 06:35:30 (21777) [rank 0] [INFO] > Rule AnomalyNan reports anomaly "
                "signal in ('0:fc1.input:0/rank0/actv_grad', 'norm') at step 8, current value "
                "nan, history mean 0.5.\n");
    RecordingSink next_sink;
    LogFileReader next = reader_of(path, next_sink);
    ASSERT_TRUE(next.poll());
    ASSERT_EQ(next_sink.anomalies.size(), 1u);
    EXPECT_EQ(next_sink.anomalies[0].rank, 0);
    EXPECT_EQ(next_sink.anomalies[0].run, "run/monitor_output");
}

// --log-format: the file is read whole with the one format, even past a sample of other text.
TEST(LogFileReader, AForcedFormatReadsPastTheSample) {
    TempDir dir;
    const std::string path = dir / "notes.txt";
    std::string text;
    while (text.size() < 2 * LogFileReader::kSampleBytes) text += "a long preamble\n";
    text += "iter 5: loss 1.5, time 10.00ms, mfu 20.00%\n";
    write_file(path, text);
    LogFormatCatalog catalog = load_log_formats("");
    ASSERT_TRUE(force_log_format(catalog, "nanogpt"));
    RecordingSink sink;
    LogFileReader reader(SourceFile{path, "run", kNoRank, SourceFormat::kTextLog}, sink,
                         catalog.formats, catalog.forced);
    ASSERT_TRUE(reader.poll());
    EXPECT_FALSE(reader.ignored());
    EXPECT_EQ(delivered(sink, true).value.at("-1 loss@5"), 1.5);
}

// A colour sequence inside a format's literal ("\x1b[32mloss:" after "  ", torchtitan's way):
// the line is still a candidate, cleaned, and read.
TEST(LogFileReader, AColourInsideALiteralHidesNoLine) {
    TempDir dir;
    const std::string path = dir / "train.log";
    write_file(path,
               "\x1b[34m[titan] 2026-05-18 16:04:46,338 - root - INFO - \x1b[31mstep: 14  "
               "\x1b[32mlo\x1b[0mss:  3.24405  \x1b[33mgrad_norm:  0.8319\x1b[39m\n"
               "iter 3\x1b[0m: loss 1.5, time 10.00ms, mfu 20.00%\n");
    RecordingSink sink;
    LogFileReader reader = reader_of(path, sink);
    ASSERT_TRUE(reader.poll());
    const Delivered d = delivered(sink, true);
    EXPECT_EQ(d.value.at("-1 loss@14"), 3.24405);
    EXPECT_EQ(d.value.at("-1 grad_norm@14"), 0.8319);
    EXPECT_EQ(d.value.at("-1 loss@3"), 1.5);
}

}  // namespace
}  // namespace runtop
