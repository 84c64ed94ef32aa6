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
    for (std::string_view name :
         {"mindformers", "mindformers-monitor", "megatron", "nanogpt", "nanogpt-eval"})
        EXPECT_NE(builtin(name), nullptr) << name;
    EXPECT_EQ(builtin_log_formats().size(), 5u);
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
