// Hugging Face's Trainer prints its log dicts without a step; the step is the dict's ordinal
// times `logging_steps` (or `eval_steps`), which the Trainer writes into trainer_state.json.
// This finds that value for a log: in a trainer_state.json in the log's directory or its
// parent, or in their newest `checkpoint-<N>/` (the output directory of the job).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace runtop {

// The positive integer `key` holds at the top of the nearest trainer_state.json; 0 when there
// is none, or it holds no such value.
std::int64_t trainer_state_integer(const std::string& log_path, std::string_view key);

}  // namespace runtop
