// The log formats runtop knows, written as a user would write one (log_format.h), from the
// tools' source (the shared reference LOGS.md names the files and commits).
#include <cassert>
#include <string_view>
#include <vector>

#include "readers/log_format.h"

namespace runtop {
namespace {

constexpr std::string_view kBuiltIn[] = {
    // MindSpore Transformers, MFLossMonitor.print_output_info: "{ Epoch:[%3d/%3d],
    // step:[%5d/%5d], loss: %5.3f, per_step_time: %dms, lr: %s, overflow cond: %s,
    // loss_scale: %s, global_norm: %s[, train_throughput_per_npu: %.3fT]". The step counts
    // within the epoch; non-sink mode prints loss:[current/mean]; numpy prints [3.0042057]. A
    // value must end its field: a garbled "[1 508834]" is no value rather than a wrong one.
    R"json({"name": "mindformers",
        "description": "MindSpore Transformers' training callback line (loss, lr, global_norm, loss_scale, per_step_time, throughput)",
        "require": ["{ Epoch:[", "step:["],
        "line": "Epoch:\\[\\s*(?P<epoch>\\d+)/\\s*\\d+\\], step:\\[\\s*(?P<step>\\d+)/\\s*(?P<epoch_steps>\\d+)\\],",
        "time": "(?P<time>{TIME})",
        "metrics": [{"pairs": " (?P<name>[A-Za-z_][A-Za-z_ ]*?):\\s*\\[?\\s*(?P<value>{NUM})(?:/\\s*{NUM}\\]|\\]|ms|T)?(?:,|\\s*$)"}],
        "ignore": ["Epoch", "step"]})json",
    // MindSpore Transformers, TrainingStateMonitor with 'log' in a *_format key: one value a
    // line, "Epoch:[%3d/%3d], step:[%5d/%5d] %s: %.4f" (local_norm/<param>, local_loss,
    // device_local_norm, adam_m_norm/<param>, ...).
    R"json({"name": "mindformers-monitor",
        "description": "MindSpore Transformers' TrainingStateMonitor lines (local_norm/<param>, local_loss, device_local_norm, optimizer and weight norms)",
        "require": ["Epoch:[", "step:["],
        "line": "Epoch:\\[\\s*(?P<epoch>\\d+)/\\s*\\d+\\], step:\\[\\s*(?P<step>\\d+)/\\s*(?P<epoch_steps>\\d+)\\] (?P<name>[^\\s:]+(?::[^\\s:]+)*): (?P<value>{NUM})\\s*$",
        "time": "(?P<time>{TIME})"})json",
    // NeMo 2's ProgressPrinter: "Training epoch E, iteration n/total | k: v | ...", the step
    // in its global_step field (n counts within the epoch).
    // Before megatron: its line holds " iteration n/N |" too.
    R"json({"name": "nemo",
        "description": "NeMo 2 ProgressPrinter: Training epoch E, iteration n/N | lr: .. | global_step: S | reduced_train_loss: ..",
        "require": ["Training epoch ", "| global_step: "],
        "line": "Training epoch \\d+, iteration \\d+/\\d+ \\|.*\\| global_step: (?P<step>\\d+)(?: \\||$)",
        "metrics": [{"fields": "|", "assign": ":"}],
        "ignore": ["global_step"]})json",
    // Megatron-LM and MindSpeed-LLM, training_log(): " [time] iteration N/ M | key: value |
    // ...", fields coming and going (a NaN loss is left out), matched by key.
    R"json({"name": "megatron",
        "description": "Megatron-LM and MindSpeed-LLM: the line of each logged iteration (lm loss, grad norm, learning rate, loss scale, elapsed time, throughput, skipped and nan iterations)",
        "require": [" iteration ", "|"],
        "line": "(?:\\[(?P<time>{TIME})\\] )?iteration\\s+(?P<step>\\d+)/\\s*\\d+\\s*\\|",
        "metrics": [{"fields": "|", "assign": ":"}]})json",
    // DeepSpeed's engine, _report_progress through log_dist: "[Rank 0] step=N, skipped=K,
    // lr=[<group 0>, ...], mom=[...]". No loss: DeepSpeed prints none here.
    R"json({"name": "deepspeed",
        "description": "DeepSpeed engine progress: [Rank R] step=N, skipped=K, lr=[..] (the first parameter group's lr)",
        "require": ["step=", ", skipped="],
        "line": "(?:\\[Rank (?P<rank>\\d+)\\] )?step=(?P<step>\\d+), skipped=",
        "time": "^\\[(?P<time>{TIME})\\]",
        "metrics": [{"name": "skipped", "value": ", skipped=(?P<value>\\d+)"},
                    {"name": "lr", "value": ", lr=\\[(?P<value>{NUM})"}]})json",
    // DeepSpeed's ThroughputTimer (utils/timer.py): "epoch=E/micro_step=M/global_step=G,
    // RunningAvgSamplesPerSec=.., CurrSamplesPerSec=.., MemAllocated=..GB, MaxMemAllocated=..GB".
    R"json({"name": "deepspeed-throughput",
        "description": "DeepSpeed throughput timer: epoch=E/micro_step=M/global_step=G, RunningAvgSamplesPerSec=.., CurrSamplesPerSec=.., MemAllocated=..GB",
        "require": ["/global_step=", "SamplesPerSec="],
        "line": "/global_step=(?P<step>\\d+), ",
        "time": "^\\[(?P<time>{TIME})\\]",
        "metrics": [{"pairs": ", (?P<name>[A-Za-z]+)=(?P<value>{NUM})"}]})json",
    // DeepSpeed's pipeline engine, train_batch: "steps: N loss: X [<name>: X ...] iter time
    // (s): T samples/sec: S".
    R"json({"name": "deepspeed-pipe",
        "description": "DeepSpeed pipeline engine: steps: N loss: X .. iter time (s): T samples/sec: S",
        "require": ["iter time (s): ", "steps: "],
        "line": "^steps: (?P<step>\\d+) ",
        "metrics": [{"pairs": "(?:^| )(?P<name>[A-Za-z][A-Za-z0-9_ /()]*?): (?P<value>{NUM})\\b"}],
        "ignore": ["steps"]})json",
    // torchtitan colours each key ("\x1b[32mloss:"): no literal may span two fields.
    // torchtitan's MetricsProcessor, validation: "validate step: N  loss: X  memory: ..".
    R"json({"name": "torchtitan-validate",
        "description": "torchtitan validation: validate step: N  loss: X  memory: ..GiB(..%)  tps: N",
        "require": ["[titan] ", "validate step:", "loss:"],
        "line": "validate step:\\s*(?P<step>\\d+)\\s",
        "time": "\\[titan\\] (?P<time>{TIME})",
        "metrics": [{"pairs": "(?P<name>[a-z_]+):\\s*(?P<value>[-+]?[\\d,]*\\.?\\d+(?:[eE][-+]?\\d+)?|(?i:nan|-?inf))"}],
        "ignore": ["step"],
        "prefix": "validate/"})json",
    // torchtitan's MetricsProcessor: "step: N  loss: X  grad_norm: G  memory: M GiB(P%)  tps:
    // 7,282  tflops: T  mfu: U%" (older: no grad_norm).
    R"json({"name": "torchtitan",
        "description": "torchtitan: step: N  loss: X  grad_norm: G  memory: ..GiB(..%)  tps: N  tflops: T  mfu: U%",
        "require": ["[titan] ", "step:", "loss:"],
        "line": "(?:^|\\s)step:\\s*(?P<step>\\d+)\\s",
        "time": "\\[titan\\] (?P<time>{TIME})",
        "metrics": [{"pairs": "(?P<name>[a-z_]+):\\s*(?P<value>[-+]?[\\d,]*\\.?\\d+(?:[eE][-+]?\\d+)?|(?i:nan|-?inf))"}],
        "ignore": ["step"]})json",
    // Hugging Face Trainer dicts that carry their step: Oumi's MetricsLoggerCallback adds
    // 'step' to the logs the ProgressCallback prints.
    R"json({"name": "hf-trainer-step",
        "description": "Hugging Face Trainer log dicts with a 'step' key (Oumi adds it)",
        "require": ["{'", "'step': "],
        "line": "^\\{'.*'step': '?(?P<step>\\d+)'?[,}]",
        "metrics": [{"pairs": "'(?P<name>[^']+)': '?(?P<value>{NUM})'?(?:, |\\}$)"}],
        "ignore": ["step"]})json",
    // Hugging Face Trainer's ProgressCallback / PrinterCallback: str(logs), no step. The x axis
    // is the dict's ordinal times logging_steps from trainer_state.json, else the ordinal.
    R"json({"name": "hf-trainer",
        "description": "Hugging Face Trainer training dicts {'loss': .., 'grad_norm': .., 'learning_rate': .., 'epoch': ..}; step = ordinal x logging_steps",
        "require": ["{'loss': "],
        "line": "^\\{'loss': ",
        "step": "ordinal",
        "stride": "logging_steps",
        "metrics": [{"pairs": "'(?P<name>[^']+)': '?(?P<value>{NUM})'?(?:, |\\}$)"}]})json",
    R"json({"name": "hf-trainer-eval",
        "description": "Hugging Face Trainer evaluation dicts {'eval_loss': .., 'epoch': ..}; step = ordinal x eval_steps",
        "require": ["{'eval_"],
        "line": "^\\{'eval_",
        "step": "ordinal",
        "stride": "eval_steps",
        "metrics": [{"pairs": "'(?P<name>[^']+)': '?(?P<value>{NUM})'?(?:, |\\}$)"}],
        "ignore": ["epoch"]})json",
    // Oumi's MetricsLoggerCallback (metrics_rank0000.jsonl): the same dicts as json.dumps
    // writes them (NaN, Infinity), no step either.
    R"json({"name": "hf-jsonl",
        "description": "Hugging Face Trainer log dicts as JSON lines (Oumi's metrics_rank<R>.jsonl); step = ordinal x logging_steps",
        "require": ["{\"loss\": "],
        "line": "^\\{\"loss\": ",
        "step": "ordinal",
        "stride": "logging_steps",
        "metrics": [{"pairs": "\"(?P<name>[^\"]+)\": (?P<value>{NUM}(?:inity)?)(?:, |\\}$)"}]})json",
    R"json({"name": "hf-jsonl-eval",
        "description": "Hugging Face Trainer evaluation dicts as JSON lines; step = ordinal x eval_steps",
        "require": ["{\"eval_"],
        "line": "^\\{\"eval_",
        "step": "ordinal",
        "stride": "eval_steps",
        "metrics": [{"pairs": "\"(?P<name>[^\"]+)\": (?P<value>{NUM}(?:inity)?)(?:, |\\}$)"}],
        "ignore": ["epoch"]})json",
    // msProbe's monitor, data_writers.add_scalar: each alarm on the console as "<time> (<pid>)
    // [rank R] [INFO] > Rule <rule> reports anomaly signal in ('<tag>', '<op>') at step N,
    // current value V, history mean M."
    R"json({"name": "msprobe-alarm",
        "description": "msProbe monitor alarms on the console, imported as anomalies like its anomaly.json",
        "require": [" reports anomaly signal in "],
        "line": "Rule \\S+ reports anomaly signal in .* at step (?P<step>\\d+)",
        "anomalies": "msprobe"})json",
    // nanoGPT's train.py: "iter %d: loss %.4f, time %.2fms, mfu %.2f%%".
    R"json({"name": "nanogpt",
        "description": "nanoGPT-style loops: iter N: loss X, time Yms, mfu Z%",
        "require": ["iter ", ": loss "],
        "line": "^iter (?P<step>\\d+): ",
        "metrics": [{"pairs": "(?:: |, )(?P<name>[A-Za-z_]+) (?P<value>{NUM})"}]})json",
    // nanoGPT's evaluation: "step %d: train loss %.4f, val loss %.4f".
    R"json({"name": "nanogpt-eval",
        "description": "nanoGPT-style evaluation: step N: train loss X, val loss Y",
        "require": ["step ", ": train loss "],
        "line": "^step (?P<step>\\d+): ",
        "metrics": [{"pairs": "(?:: |, )(?P<name>[A-Za-z_]+(?: [A-Za-z_]+)?) (?P<value>{NUM})"}]})json",
};

std::vector<LogFormat> parse_builtin() {
    std::vector<LogFormat> out;
    for (std::string_view json : kBuiltIn) {
        Result<LogFormat> f = LogFormat::parse(json, kBuiltinLogFormatOrigin);
        assert(f.ok());  // tests/log_format_test.cpp parses each one
        if (f) out.push_back(std::move(*f));
    }
    return out;
}

}  // namespace

const std::vector<LogFormat>& builtin_log_formats() {
    static const std::vector<LogFormat> formats = parse_builtin();
    return formats;
}

}  // namespace runtop
