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
    // Megatron-LM and MindSpeed-LLM, training_log(): " [time] iteration N/ M | key: value |
    // ...", fields coming and going (a NaN loss is left out), matched by key.
    R"json({"name": "megatron",
        "description": "Megatron-LM and MindSpeed-LLM: the line of each logged iteration (lm loss, grad norm, learning rate, loss scale, elapsed time, throughput, skipped and nan iterations)",
        "require": [" iteration ", "|"],
        "line": "(?:\\[(?P<time>{TIME})\\] )?iteration\\s+(?P<step>\\d+)/\\s*\\d+\\s*\\|",
        "metrics": [{"fields": "|", "assign": ":"}]})json",
    // nanoGPT's train.py: "iter %d: loss %.4f, time %.2fms, mfu %.2f%%".
    R"json({"name": "nanogpt",
        "description": "nanoGPT-style loops: iter N: loss X, time Yms, mfu Z%",
        "require": ["iter ", ": loss "],
        "line": "^iter (?P<step>\\d+): ",
        "metrics": [{"pairs": "(?:: |, )(?P<name>[A-Za-z_]+) (?P<value>{NUM})"}]})json",
    // nanoGPT's evaluation: "step %d: train loss %.4f, val loss %.4f".
    R"json({"name": "nanogpt-eval",
        "description": "nanoGPT-style evaluation: step N: train loss X, val loss Y",
        "require": ["step ", " loss "],
        "line": "^step (?P<step>\\d+): ",
        "metrics": [{"pairs": "(?:: |, )(?P<name>[A-Za-z_]+(?: [A-Za-z_]+)?) (?P<value>{NUM})"}]})json",
};

std::vector<LogFormat> parse_builtin() {
    std::vector<LogFormat> out;
    for (std::string_view json : kBuiltIn) {
        Result<LogFormat> f = LogFormat::parse(json, "built-in log format");
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
