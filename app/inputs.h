// What every reading command shares: roots from the positional arguments, one full read,
// and warnings printed to stderr as one line each.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "app/args.h"
#include "core/identity.h"
#include "core/result.h"
#include "core/series_filter.h"
#include "core/store/store.h"
#include "core/store/store_limits.h"
#include "readers/source_set.h"

namespace runtop {

Result<std::vector<RootSpec>> roots_from_args(const std::vector<std::string>& positional);

// What every reading command selects: --filter, --ranks, --runs and the roots.
struct Selection {
    SeriesFilter filter;
    std::vector<RootSpec> roots;
    int ranks_per_node = kDefaultRanksPerNode;  // --ranks-per-node: what `nN` means
};
Result<Selection> selection_from_args(const Args& args);

// How --follow watches (dump, check): inotify, or --poll[=MS] (stat() every MS ms, default 500).
Result<WatchOptions> watch_options_from_args(const Args& args);
// --runs PATTERN[,PATTERN], shared by the commands that take --filter and --ranks.
extern const OptionSpec kRunsOption;
// --ranks SPEC and --ranks-per-node N (what a node `nN` in the spec holds), shared likewise.
extern const OptionSpec kRanksOption;
extern const OptionSpec kRanksPerNodeOption;
Result<int> ranks_per_node_from_args(const Args& args);

// --log-format NAME: every text file is read with that log format (`runtop formats` lists
// them), none left alone after its sample.
extern const OptionSpec kLogFormatOption;
// The log formats this process reads with: the user's ($XDG_CONFIG_HOME/runtop/formats/*.json)
// and the built-in ones, or the one --log-format names (an error when there is none of that
// name). Called once, before anything is read; the readers report a format file's errors.
Status log_formats_from_args(const Args& args);

// --memory SIZE, shared by the commands that keep a bounded Store.
extern const OptionSpec kMemoryOption;
Result<StoreLimits> store_limits_from_args(const Args& args);
// For a command with one Store (the dashboard, snapshot, diff): its budget checks measure the
// process' resident memory, and what it holds beyond what is counted and the share
// StoreLimits::for_process leaves for that (malloc's and the slabs' slack, the readers'
// buffers) folds points too, so --memory bounds the process, not only what it counts. What
// it holds when this is called (the binary, its libraries) is inside the budget, or beside a
// budget too small for it (StoreLimits::resident_reserve). Nothing for a Store whose limits
// are not a process' share.
void bound_whole_process(Store& store);
// --memory's bytes: the whole process' budget, by default 1 GiB.
inline constexpr std::uint64_t kDefaultProcessMemory = std::uint64_t{1} << 30;
Result<std::uint64_t> process_memory_from_args(const Args& args);
// The budget as the user set it, for messages: "--memory 256M", or "1024 MiB by default".
std::string memory_budget_text(const Args& args);

// Reads every file under the roots once into the source set's sink, printing its warnings and
// a "waiting:" line for each file whose last record is incomplete (a live writer, or a torn
// tail). Returns how many lines it printed: every one-shot command counts both as warnings.
// Files are parsed on several threads within a share of `process_bytes` (--memory).
std::size_t read_once(SourceSet& sources, const std::vector<RootSpec>& roots,
                      std::uint64_t process_bytes = kDefaultProcessMemory);
// read_once() in two: the read, and what it printed after it.
void read_quietly(SourceSet& sources, const std::vector<RootSpec>& roots,
                  std::uint64_t process_bytes, std::size_t threads);
std::size_t say_what_was_read(SourceSet& sources);

// Prints the source set's warnings and errors, "runtop: " first, to `err`.
std::size_t print_messages(SourceSet& sources, std::FILE* err);

// Writes the buffer to stdout when it is large (or always with `force`).
void flush_output(std::string& out, bool force);
// Adds a block of text to what `out` buffers: written as is (not copied) when `out` is empty.
void write_block(std::string& out, const std::string& block);

}  // namespace runtop
