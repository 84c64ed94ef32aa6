// Log formats as data: the built-in ones on lines as the tools print them (the tools' source,
// their docs and public logs, LOGS.md), and a user's format file with its errors.
#include "readers/log_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <ctime>
#include <map>
#include <string>

namespace runtop {
namespace {

const LogFormat* builtin(std::string_view name) {
    for (const LogFormat& f : builtin_log_formats())
        if (f.name() == name) return &f;
    return nullptr;
}

struct Parsed {
    std::string format;  // the first built-in that took the line, "" for none
    std::int64_t step = 0;
    int rank = -1;
    double wall_time = 0;
    std::map<std::string, double> metrics;
};

// What the built-in formats make of a line, trying them in order as the reader does.
Parsed parse(std::string_view line, std::uint64_t ordinal = 0) {
    Parsed out;
    LogRecord record;
    for (const LogFormat& f : builtin_log_formats()) {
        if (!f.may_match(line) || !f.match(line, ordinal, record)) continue;
        out.format = f.name();
        out.step = record.step;
        out.rank = record.rank;
        out.wall_time = record.wall_time;
        for (const auto& [name, value] : record.metrics) {
            EXPECT_FALSE(out.metrics.contains(std::string(name))) << name << " twice in " << line;
            out.metrics[std::string(name)] = value;
        }
        break;
    }
    return out;
}

double local_time(int year, int month, int day, int hour, int minute, int second) {
    std::tm tm{};
    tm.tm_year = year - 1900, tm.tm_mon = month - 1, tm.tm_mday = day;
    tm.tm_hour = hour, tm.tm_min = minute, tm.tm_sec = second, tm.tm_isdst = -1;
    return static_cast<double>(std::mktime(&tm));
}

TEST(LogFormat, EveryBuiltInParses) {
    const std::vector<std::string_view> names = {
        "mindformers", "mindformers-monitor",  "nemo",           "megatron",
        "deepspeed",   "deepspeed-throughput", "deepspeed-pipe", "torchtitan-validate",
        "torchtitan",  "hf-trainer-step",      "hf-trainer",     "hf-trainer-eval",
        "hf-jsonl",    "hf-jsonl-eval",        "msprobe-alarm",  "nanogpt",
        "nanogpt-eval"};
    for (std::string_view name : names) EXPECT_NE(builtin(name), nullptr) << name;
    EXPECT_EQ(builtin_log_formats().size(), names.size());
    for (const LogFormat& f : builtin_log_formats()) EXPECT_FALSE(f.description().empty());
}

// ---- MindSpore Transformers ----

TEST(LogFormat, MindFormersCallbackLine) {
    // The issue's line, as MFLossMonitor prints it into output/log/rank_N/info.log.
    const Parsed p = parse(
        "[INFO] 2026-11-21 06:39:34,619 [mindformers/core/callback/callback.py:71] <module>: { "
        "Epoch:[  1/  1], step:[    1/    6], loss: 8.261850, per_step_time: 1237ms, lr: "
        "1.6666666666666667e-05, overflow cond: False, loss_scale: 1.0, global_norm: "
        "[3.0042057], train_throughput_per_npu: 150.259T");
    EXPECT_EQ(p.format, "mindformers");
    EXPECT_EQ(p.step, 1);
    EXPECT_DOUBLE_EQ(p.wall_time, local_time(2026, 11, 21, 6, 39, 34) + 0.619);
    EXPECT_EQ(p.metrics, (std::map<std::string, double>{{"loss", 8.261850},
                                                        {"per_step_time", 1237},
                                                        {"lr", 1.6666666666666667e-05},
                                                        {"loss_scale", 1.0},
                                                        {"global_norm", 3.0042057},
                                                        {"train_throughput_per_npu", 150.259}}));
}

TEST(LogFormat, MindFormersStepsCountOnAcrossEpochs) {
    // From the mindformers docs (stdout format); its global_norm "[1 508834]" is garbled there:
    // no value rather than a wrong one.
    const Parsed p = parse(
        "2025-04-07 15:34:29,173 - [mindformers/core/callback/callback.py:529] - INFO - { "
        "Epoch:[  2/  2], step:[    2/   19], loss: 10.633, per_step_time: 1752ms, lr: 1e-05, "
        "overflow cond: False, loss_scale: 1.0, global_norm: [1 508834], "
        "train_throughput_per_npu: 170.738T");
    EXPECT_EQ(p.format, "mindformers");
    EXPECT_EQ(p.step, 19 + 2);
    EXPECT_FALSE(p.metrics.contains("global_norm"));
    EXPECT_DOUBLE_EQ(p.metrics.at("loss"), 10.633);
    EXPECT_DOUBLE_EQ(p.metrics.at("lr"), 1e-05);
}

TEST(LogFormat, MindFormersNanAndNonSinkLoss) {
    const Parsed nan = parse(
        "{ Epoch:[  1/  1], step:[    5/    6], loss:   nan, per_step_time: 1200ms, "
        "overflow cond: True, loss_scale: unavailable, global_norm: [nan]");
    EXPECT_EQ(nan.format, "mindformers");
    ASSERT_TRUE(nan.metrics.contains("loss"));
    EXPECT_TRUE(std::isnan(nan.metrics.at("loss")));
    EXPECT_TRUE(std::isnan(nan.metrics.at("global_norm")));
    EXPECT_FALSE(nan.metrics.contains("loss_scale"));  // "unavailable"
    EXPECT_TRUE(std::isnan(nan.wall_time));            // no time in the line
    // Non-sink mode: loss:[current/running mean].
    const Parsed mean = parse(
        "{ Epoch:[  1/  1], step:[    3/    6], loss:[8.100/8.200], "
        "per_step_time: 1100ms, lr: 2e-05");
    EXPECT_DOUBLE_EQ(mean.metrics.at("loss"), 8.100);
    EXPECT_DOUBLE_EQ(mean.metrics.at("lr"), 2e-05);
}

TEST(LogFormat, MindFormersMonitorLines) {
    const Parsed p = parse(
        "[INFO] 2026-11-21 06:39:34,621 [mindformers/core/callback/callback.py:98] out: "
        "Epoch:[  1/  1], step:[    1/    6] local_norm/model.layers.0.attention.wq.weight: "
        "0.505112747213686");
    EXPECT_EQ(p.format, "mindformers-monitor");
    EXPECT_EQ(p.step, 1);
    EXPECT_EQ(p.metrics,
              (std::map<std::string, double>{
                  {"local_norm/model.layers.0.attention.wq.weight", 0.505112747213686}}));
    EXPECT_EQ(
        parse("Epoch:[  1/  3], step:[    4/    6] local_loss: 7.1234").metrics.at("local_loss"),
        7.1234);
    EXPECT_EQ(parse("Epoch:[  2/  3], step:[    4/    6] device_local_norm: 1.5").step, 10);
}

// ---- Megatron-LM ----

TEST(LogFormat, MegatronIterationLine) {
    // A real Megatron-LM log line (the issue's).
    const Parsed p = parse(
        " [2025-08-01 07:19:37] iteration        1/    5000 | consumed samples:          128 | "
        "elapsed time per iteration (ms): 19138.8 | throughput per GPU (TFLOP/s/GPU): 80.2 | "
        "learning rate: 6.976744E-08 | global batch size:   128 | lm loss: 1.043863E+01 | loss "
        "scale: 1.0 | grad norm: 26.203 | number of skipped iterations:   0 | number of nan "
        "iterations:   0 |");
    EXPECT_EQ(p.format, "megatron");
    EXPECT_EQ(p.step, 1);
    EXPECT_DOUBLE_EQ(p.wall_time, local_time(2025, 8, 1, 7, 19, 37));
    EXPECT_EQ(p.metrics,
              (std::map<std::string, double>{{"consumed samples", 128},
                                             {"elapsed time per iteration (ms)", 19138.8},
                                             {"throughput per GPU (TFLOP/s/GPU)", 80.2},
                                             {"learning rate", 6.976744E-08},
                                             {"global batch size", 128},
                                             {"lm loss", 1.043863E+01},
                                             {"loss scale", 1.0},
                                             {"grad norm", 26.203},
                                             {"number of skipped iterations", 0},
                                             {"number of nan iterations", 0}}));
}

TEST(LogFormat, MegatronLinesAsTheyComeAndGo) {
    // Microseconds in the stamp (current Megatron-LM); every iteration skipped: no loss, no
    // grad norm (LOGS.md §1, from a public log).
    const Parsed skipped = parse(
        " [2024-09-03 15:54:54.123456] iteration       10/  500000 | consumed samples:        "
        "10240 | elapsed time per iteration (ms): 13035.3 | learning rate: 0.000000E+00 | global "
        "batch size:  1024 | loss scale: 8388608.0 | number of skipped iterations:  10 | number "
        "of nan iterations:   0 |");
    EXPECT_EQ(skipped.step, 10);
    EXPECT_DOUBLE_EQ(skipped.wall_time, local_time(2024, 9, 3, 15, 54, 54) + 0.123456);
    EXPECT_FALSE(skipped.metrics.contains("lm loss"));
    EXPECT_EQ(skipped.metrics.at("number of skipped iterations"), 10);
    EXPECT_EQ(skipped.metrics.at("loss scale"), 8388608.0);
    // An infinite loss prints as INF ({:.6E}), a NaN grad norm as nan; no time stamp at all
    // in the oldest releases.
    const Parsed inf = parse(
        " iteration      200/    1000 | lm loss: INF | loss scale: 1.0 | grad norm: nan | "
        "number of nan iterations:   1 |");
    EXPECT_EQ(inf.step, 200);
    EXPECT_TRUE(std::isnan(inf.wall_time));
    EXPECT_EQ(inf.metrics.at("lm loss"), std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(inf.metrics.at("grad norm")));
    EXPECT_EQ(inf.metrics.at("number of nan iterations"), 1);
    // Primus' memory field holds two numbers: no value. The memory report is no iteration.
    EXPECT_FALSE(parse(" iteration 5/ 9 | hip mem usage/free/total/usage_ratio: 13100.0/13240.9 "
                       "| lm loss: 2.0 |")
                     .metrics.contains("hip mem usage/free/total/usage_ratio"));
    EXPECT_EQ(parse("[Rank 0] (after 10 iterations) memory (MB) | allocated: 1024.5 | max "
                    "allocated: 2048.0 |")
                  .format,
              "");
}

// ---- nanoGPT ----

TEST(LogFormat, NanoGptLines) {
    const Parsed train = parse("iter 100: loss 2.3456, time 123.45ms, mfu 12.34%");
    EXPECT_EQ(train.format, "nanogpt");
    EXPECT_EQ(train.step, 100);
    EXPECT_EQ(train.metrics,
              (std::map<std::string, double>{{"loss", 2.3456}, {"time", 123.45}, {"mfu", 12.34}}));
    EXPECT_EQ(parse("iter 0: loss 10.9910, time 3581.55ms, mfu -100.00%").metrics.at("mfu"),
              -100.0);
    const Parsed eval = parse("step 2000: train loss 1.2345, val loss 1.4567");
    EXPECT_EQ(eval.format, "nanogpt-eval");
    EXPECT_EQ(eval.step, 2000);
    EXPECT_EQ(eval.metrics,
              (std::map<std::string, double>{{"train loss", 1.2345}, {"val loss", 1.4567}}));
}

// NeMo 2's ProgressPrinter (LOGS.md §1, real lines): the step is global_step, not the
// iteration within the epoch, and the line is not Megatron's although it looks alike.
TEST(LogFormat, NemoProgressLines) {
    Parsed p = parse(
        "Training epoch 0, iteration 0/4 | lr: 1.499e-07 | consumed_samples: 512 | "
        "global_batch_size: 512 | global_step: 0 | reduced_train_loss: 11.03 | "
        "train_step_timing in s: 61.94");
    EXPECT_EQ(p.format, "nemo");
    EXPECT_EQ(p.step, 0);
    EXPECT_EQ(p.metrics.at("reduced_train_loss"), 11.03);
    EXPECT_EQ(p.metrics.at("lr"), 1.499e-07);
    EXPECT_EQ(p.metrics.at("train_step_timing in s"), 61.94);
    EXPECT_FALSE(p.metrics.contains("global_step"));
    p = parse(
        "Training epoch 1, iteration 29/99 | lr: 5.8e-06 | global_batch_size: 32 | "
        "global_step: 129 | reduced_train_loss: nan");
    EXPECT_EQ(p.format, "nemo");
    EXPECT_EQ(p.step, 129);
    EXPECT_TRUE(std::isnan(p.metrics.at("reduced_train_loss")));
}

// DeepSpeed (LOGS.md §4, real lines): the engine's progress line names its rank; the
// pipeline engine's has its losses and throughput.
TEST(LogFormat, DeepSpeedLines) {
    Parsed p = parse(
        "[2024-04-21 02:45:24,651] [INFO] [logging.py:96:log_dist] [Rank 0] step=2, skipped=0, "
        "lr=[1.0066311829174689e-07, 1.0066311829174689e-07], mom=[(0.9, 0.999), (0.9, 0.999)]");
    EXPECT_EQ(p.format, "deepspeed");
    EXPECT_EQ(p.step, 2);
    EXPECT_EQ(p.rank, 0);
    EXPECT_EQ(p.metrics.at("lr"), 1.0066311829174689e-07);
    EXPECT_EQ(p.metrics.at("skipped"), 0);
    EXPECT_EQ(p.metrics.size(), 2u);
    EXPECT_EQ(p.wall_time, local_time(2024, 4, 21, 2, 45, 24) + 0.651);
    p = parse(
        "[2024-03-08 16:33:18,180] [INFO] [logging.py:96:log_dist] [Rank 3] step=10, "
        "skipped=4, lr=[0.001], mom=[[0.9, 0.999]]");
    EXPECT_EQ(p.rank, 3);
    EXPECT_EQ(p.metrics.at("skipped"), 4);
    EXPECT_EQ(p.metrics.at("lr"), 0.001);

    p = parse(
        "[2024-04-21 02:45:25,001] [INFO] [timer.py:260:stop] epoch=0/micro_step=20/"
        "global_step=10, RunningAvgSamplesPerSec=30.512345, CurrSamplesPerSec=31.2, "
        "MemAllocated=4.25GB, MaxMemAllocated=9.5GB");
    EXPECT_EQ(p.format, "deepspeed-throughput");
    EXPECT_EQ(p.step, 10);
    EXPECT_EQ(p.metrics, (std::map<std::string, double>{{"RunningAvgSamplesPerSec", 30.512345},
                                                        {"CurrSamplesPerSec", 31.2},
                                                        {"MemAllocated", 4.25},
                                                        {"MaxMemAllocated", 9.5}}));

    p = parse(
        "steps: 200 loss: 5.5508 lm loss: 5.5103 moe loss: 0.0405 iter time (s): 0.936 "
        "samples/sec: 136.706");
    EXPECT_EQ(p.format, "deepspeed-pipe");
    EXPECT_EQ(p.step, 200);
    EXPECT_EQ(p.metrics, (std::map<std::string, double>{{"loss", 5.5508},
                                                        {"lm loss", 5.5103},
                                                        {"moe loss", 0.0405},
                                                        {"iter time (s)", 0.936},
                                                        {"samples/sec", 136.706}}));
    EXPECT_TRUE(std::isnan(
        parse("steps: 3 loss: nan iter time (s): 1.000 samples/sec: 2.000").metrics.at("loss")));
}

// torchtitan (LOGS.md §6, a real line once its colours are stripped): fields two spaces apart,
// thousands grouped with ',', units after the number, N/A for no value.
TEST(LogFormat, TorchtitanLines) {
    Parsed p = parse(
        "[titan] 2026-05-18 16:04:46,338 - root - INFO - step: 14  loss:  3.24405  grad_norm:  "
        "0.8319  memory:  9.46GiB(64.99%)  tps: 7,282  tflops: 0.52  mfu: 0.17%");
    EXPECT_EQ(p.format, "torchtitan");
    EXPECT_EQ(p.step, 14);
    EXPECT_EQ(p.metrics, (std::map<std::string, double>{{"loss", 3.24405},
                                                        {"grad_norm", 0.8319},
                                                        {"memory", 9.46},
                                                        {"tps", 7282},
                                                        {"tflops", 0.52},
                                                        {"mfu", 0.17}}));
    EXPECT_EQ(p.wall_time, local_time(2026, 5, 18, 16, 4, 46) + 0.338);
    p = parse(
        "[titan] 2026-05-18 16:04:46,338 - root - INFO - step:  1  loss:      nan  grad_norm:  "
        "0.8319  memory:  9.46GiB(64.99%)  tps: 1,234,567  tflops: 1,024.50  mfu: N/A");
    EXPECT_TRUE(std::isnan(p.metrics.at("loss")));
    EXPECT_EQ(p.metrics.at("tps"), 1234567);
    EXPECT_EQ(p.metrics.at("tflops"), 1024.5);
    EXPECT_FALSE(p.metrics.contains("mfu"));
    p = parse(
        "[titan] 2026-05-18 16:05:00,000 - root - INFO - validate step: 20  loss:  3.1000  "
        "memory:  9.46GiB(64.99%)  tps: 7,282");
    EXPECT_EQ(p.format, "torchtitan-validate");
    EXPECT_EQ(p.step, 20);
    EXPECT_EQ(p.metrics.at("loss"), 3.1);
    EXPECT_EQ(builtin("torchtitan-validate")->prefix(), "validate/");
}

// Hugging Face Trainer dicts (LOGS.md §3, real lines): no step, so the ordinal; newer versions
// quote the values; a dict that carries 'step' (Oumi) gives it.
TEST(LogFormat, HuggingFaceTrainerDicts) {
    Parsed p = parse(
        "{'loss': 2.8485, 'grad_norm': 3.385751724243164, 'learning_rate': "
        "4.8591549295774653e-05, 'epoch': 0.03}",
        6);
    EXPECT_EQ(p.format, "hf-trainer");
    EXPECT_EQ(p.step, 7);
    EXPECT_EQ(p.metrics, (std::map<std::string, double>{{"loss", 2.8485},
                                                        {"grad_norm", 3.385751724243164},
                                                        {"learning_rate", 4.8591549295774653e-05},
                                                        {"epoch", 0.03}}));
    EXPECT_EQ(builtin("hf-trainer")->stride_key(), "logging_steps");
    p = parse(
        "{'loss': '1.764', 'grad_norm': '2.609', 'learning_rate': '6.667e-05', "
        "'mean_token_accuracy': '0.7419', 'epoch': '3'}");
    EXPECT_EQ(p.metrics.at("loss"), 1.764);
    EXPECT_EQ(p.metrics.at("mean_token_accuracy"), 0.7419);
    EXPECT_EQ(p.metrics.at("epoch"), 3);
    p = parse("{'loss': nan, 'grad_norm': nan, 'learning_rate': 1e-05, 'epoch': 0.5}");
    EXPECT_TRUE(std::isnan(p.metrics.at("loss")));
    p = parse(
        "{'eval_loss': 2.1, 'eval_runtime': 3.5, 'eval_samples_per_second': 10.2, "
        "'epoch': 1.0}",
        1);
    EXPECT_EQ(p.format, "hf-trainer-eval");
    EXPECT_EQ(p.step, 2);
    EXPECT_EQ(p.metrics.at("eval_loss"), 2.1);
    EXPECT_FALSE(p.metrics.contains("epoch"));
    p = parse("{'loss': 2.5, 'learning_rate': 1e-05, 'epoch': 0.1, 'step': 40}", 0);
    EXPECT_EQ(p.format, "hf-trainer-step");
    EXPECT_EQ(p.step, 40);
    EXPECT_EQ(p.metrics, (std::map<std::string, double>{
                             {"loss", 2.5}, {"learning_rate", 1e-05}, {"epoch", 0.1}}));
    // Oumi's metrics_rank0000.jsonl: the same dicts through json.dumps.
    p = parse(R"json({"loss": 2.5, "grad_norm": NaN, "learning_rate": 5e-05, "epoch": 0.01})json",
              2);
    EXPECT_EQ(p.format, "hf-jsonl");
    EXPECT_EQ(p.step, 3);
    EXPECT_EQ(p.metrics.at("loss"), 2.5);
    EXPECT_TRUE(std::isnan(p.metrics.at("grad_norm")));
    EXPECT_EQ(p.metrics.at("learning_rate"), 5e-05);
    EXPECT_EQ(p.metrics.at("epoch"), 0.01);
    p = parse(R"json({"loss": Infinity, "grad_norm": -Infinity, "epoch": 1.0})json");
    EXPECT_EQ(p.metrics.at("loss"), std::numeric_limits<double>::infinity());
    EXPECT_EQ(p.metrics.at("grad_norm"), -std::numeric_limits<double>::infinity());
    p = parse(R"json({"eval_loss": 2.0, "eval_runtime": 1.5, "epoch": 1.0})json");
    EXPECT_EQ(p.format, "hf-jsonl-eval");
    EXPECT_EQ(p.metrics,
              (std::map<std::string, double>{{"eval_loss", 2.0}, {"eval_runtime", 1.5}}));
    // The end-of-training summary is no training step.
    EXPECT_EQ(parse("{'train_runtime': 116.1914, 'train_samples_per_second': 6.885, "
                    "'train_loss': 2.819730052947998, 'epoch': 0.15}")
                  .format,
              "");
}

// msProbe's console alarm (LOGS.md §9): a line of the msprobe-alarm format is an anomaly, not
// metrics.
TEST(LogFormat, MsProbeAlarmLines) {
    LogRecord record;
    const LogFormat* f = builtin("msprobe-alarm");
    ASSERT_NE(f, nullptr);
    EXPECT_TRUE(f->msprobe_anomalies());
    const std::string line =
        "2026-01-31 10:00:00 (12345) [rank 3] [INFO] > Rule AnomalyNan reports anomaly signal "
        "in ('0:layers.1.mlp.weight/rank3/post_grad', 'norm') at step 120, current value nan, "
        "history mean 0.0123.";
    ASSERT_TRUE(f->may_match(line));
    ASSERT_TRUE(f->match(line, 0, record));
    EXPECT_EQ(record.step, 120);
    EXPECT_TRUE(record.metrics.empty());
    EXPECT_EQ(parse(line).format, "msprobe-alarm");
}

TEST(LogFormat, ThousandsAreGroupedByThreeOrNotAtAll) {
    const std::string json = R"json({"name": "t", "line": "^n (?P<step>\\d+) ",
        "metrics": [{"pairs": "(?P<name>[a-z]+)=(?P<value>[-\\d.,]+)"}]})json";
    Result<LogFormat> f = LogFormat::parse(json, "t.json");
    ASSERT_TRUE(f) << f.error().message;
    LogRecord r;
    ASSERT_TRUE(f->match("n 1 a=1,234 b=-12,345,678.25 c=1,2 d=1234,567 e=,123 f=12,34", 0, r));
    std::map<std::string, double> got;
    for (const auto& [name, value] : r.metrics) got[std::string(name)] = value;
    EXPECT_EQ(got, (std::map<std::string, double>{{"a", 1234}, {"b", -12345678.25}}));
}

TEST(LogFormat, OtherLinesAreNone) {
    for (std::string_view line :
         {"", "Loading checkpoint from /ckpt/iter_0001000", "[INFO] building dataset",
          "Traceback (most recent call last):", "iteration failed: out of memory",
          "(min, max) time across ranks (ms):", "    forward-backward ...: (1.0, 2.0)"})
        EXPECT_EQ(parse(line).format, "") << line;
}

// ---- a user's format ----

TEST(LogFormat, AUserFormatWithFixedMetricsAndOrdinalSteps) {
    Result<LogFormat> f = LogFormat::parse(R"json({
        // a tool that prints no step: every matched line is the next one
        "name": "mytool",
        "require": ["EVAL"],
        "step": "ordinal",
        "metrics": [{"name": "accuracy", "value": "acc=(?P<value>{NUM})"},
                    {"name": "f1", "value": "f1=(?P<value>{NUM})"}]
})json",
                                           "mytool.json");
    ASSERT_TRUE(f.ok()) << f.error().message;
    LogRecord r;
    EXPECT_FALSE(f->may_match("TRAIN acc=0.5"));
    ASSERT_TRUE(f->may_match("EVAL acc=0.75 f1=0.5"));
    ASSERT_TRUE(f->match("EVAL acc=0.75 f1=0.5", 4, r));
    EXPECT_EQ(r.step, 5);
    ASSERT_EQ(r.metrics.size(), 2u);
    EXPECT_EQ(r.metrics[0], (std::pair<std::string_view, double>{"accuracy", 0.75}));
    EXPECT_EQ(r.metrics[1], (std::pair<std::string_view, double>{"f1", 0.5}));
    EXPECT_FALSE(f->match("EVAL nothing here", 5, r)) << "a line with no metric";
}

TEST(LogFormat, ErrorsNameTheFileAndLine) {
    struct Case {
        std::string_view json;
        std::string_view error;
    };
    const Case cases[] = {
        {"{\"name\": \"x\",\n \"line\": \"(?P<step>\\\\d+\",\n \"metrics\": []}",
         "f.json:2: 'line' is not a valid RE2 pattern"},
        {"{\"name\": \"x\",\n\n \"colour\": 1}", "f.json:3: unknown key 'colour'"},
        {"{\"name\": \"x\", \"line\": \"step (?P<step>\\\\d+)\",\n \"metrics\": [{\"pairs\": "
         "\"(\\\\w+)=({NUM})\"}]}",
         "f.json:2: 'pairs' needs groups (?P<name>...) and (?P<value>...)"},
        {"{\"name\": \"x\", \"metrics\": [{\"name\": \"a\", \"value\": \"a=({NUM})\"}]}",
         "f.json:1: no step"},
        {"{\"name\": \"x\", \"line\": \"step (?P<step>\\\\d+)\"}", "f.json:1: no metric"},
        {"{\"name\": \"x\",\n \"require\": \"loss\"}", "f.json:2: 'require' is not a list"},
        {"{\"name\": \"x\", \"line\": ", "f.json: not valid JSON"},
        {"{\"name\": \"x\", \"line\": \"s (?P<step>\\\\d+)\",\n \"stride\": \"logging_steps\", "
         "\"metrics\": [{\"fields\": \",\", \"assign\": \"=\"}]}",
         "f.json:2: 'stride' needs \"step\": \"ordinal\""},
        {"{\"name\": \"x\", \"line\": \"s (?P<step>\\\\d+)\",\n \"anomalies\": \"yes\"}",
         "f.json:2: 'anomalies' is not \"msprobe\""},
    };
    for (const Case& c : cases) {
        Result<LogFormat> f = LogFormat::parse(c.json, "f.json");
        ASSERT_FALSE(f.ok()) << c.json;
        EXPECT_EQ(f.error().message.rfind(c.error, 0), 0u) << f.error().message;
    }
}

TEST(LogFormat, TimesAreLocalDatesAndTimes) {
    double t = 0;
    ASSERT_TRUE(parse_log_time("2026-11-21 06:39:34,619", t));
    EXPECT_DOUBLE_EQ(t, local_time(2026, 11, 21, 6, 39, 34) + 0.619);
    ASSERT_TRUE(parse_log_time("2026-11-21T06:39:34.5", t));
    EXPECT_DOUBLE_EQ(t, local_time(2026, 11, 21, 6, 39, 34) + 0.5);
    EXPECT_FALSE(parse_log_time("2026-11-21 06:39", t));
    EXPECT_FALSE(parse_log_time("21/11/2026 06:39:34", t));
}

}  // namespace
}  // namespace runtop
