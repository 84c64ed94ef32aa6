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
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::append_file;
using testing::RecordingSink;
using testing::TempDir;
using testing::write_file;

// "rank tag@step" -> value, every delivery counted.
struct Delivered {
    std::map<std::string, double> value;
    std::map<std::string, int> count;
};

Delivered delivered(const RecordingSink& sink) {
    Delivered d;
    for (const auto& s : sink.scalars) {
        const std::string id =
            std::to_string(s.key.rank) + " " + s.key.tag + "@" + std::to_string(s.point.step);
        d.value[id] = s.point.value;
        ++d.count[id];
    }
    return d;
}

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
    for (std::string_view name : {"info.log", "slurm-123456.out", "train.err", "stdout.txt"})
        EXPECT_EQ(classify_file("", name), SourceFormat::kTextLog) << name;
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
    Delivered d = delivered(sink);
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
    d = delivered(sink);
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
        delivered(sink).value,
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
    const Delivered d = delivered(sink);
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
    text += "iter 5: loss 1.0\n";  // past the sample: never read
    write_file(path, text);
    RecordingSink sink;
    LogFileReader reader = reader_of(path, sink);
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(reader.ignored());
    EXPECT_FALSE(reader.holds_data());  // counted as no data file
    EXPECT_TRUE(reader.pending().empty());
    EXPECT_TRUE(sink.scalars.empty());
    append_file(path, "iter 6: loss 1.0\n");
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(sink.scalars.empty());

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
    EXPECT_EQ(delivered(sink).value,
              (std::map<std::string, double>{{"-1 loss@1", 3.0}, {"-1 loss@2", 2.0}}));
    const std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find(path), std::string::npos);
}

}  // namespace
}  // namespace runtop
