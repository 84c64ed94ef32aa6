// runtop_benchgen --megatron-log DIR MB: a Megatron-LM job's output of MB megabytes
// (DIR/slurm-1.out) as the log reader meets it (issue 20's bar): one line in 50 is Megatron's
// iteration line, the rest what a job prints around it (timers, NCCL and dataloader chatter,
// Python logging with timestamps, warnings). Seeded: the same bytes every time.
#pragma once

#include <string>

namespace runtop::bench {

// Writes the file and prints one line: bytes, lines, iteration lines.
int write_megatron_log(const std::string& dir, double mb);

}  // namespace runtop::bench
