#include "app/inputs.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include "app/resident_memory.h"
#include "core/format.h"
#include "readers/log_format_catalog.h"

namespace runtop {
namespace {

bool path_exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

Result<std::vector<RootSpec>> roots_from_args(const std::vector<std::string>& positional) {
    if (positional.empty()) return Error{"no PATH given (see --help)"};
    std::vector<RootSpec> roots;
    for (const std::string& arg : positional) {
        Result<RootSpec> root = parse_root_spec(arg, path_exists);
        if (!root) return root.error();
        roots.push_back(std::move(*root));
    }
    return roots;
}

Result<int> ranks_per_node_from_args(const Args& args) {
    if (!args.has("ranks-per-node")) return kDefaultRanksPerNode;
    Result<long long> n = parse_integer("ranks-per-node", args.get("ranks-per-node"), 1, 65536);
    if (!n) return n.error();
    return static_cast<int>(*n);
}

Result<WatchOptions> watch_options_from_args(const Args& args) {
    WatchOptions options;
    if (!args.has("poll")) return options;
    options.mode = WatchMode::kPoll;
    if (args.get("poll").empty()) return options;
    Result<long long> ms = parse_integer("poll", args.get("poll"), 10, 3'600'000);
    if (!ms) return ms.error();
    options.poll_interval_ms = static_cast<int>(*ms);
    return options;
}

const OptionSpec kLogFormatOption = {
    "log-format", "NAME",
    "read every text log (*.log, *.out, *.err, *.txt) as this format (runtop formats lists "
    "them); default: each file's lines choose"};

Status log_formats_from_args(const Args& args) {
    LogFormatCatalog catalog = load_log_formats(user_log_formats_dir());
    if (args.has("log-format")) {
        Status forced = force_log_format(catalog, args.get("log-format"));
        if (!forced) return forced;
    }
    set_log_formats(std::move(catalog));
    return ok_status();
}

Result<Selection> selection_from_args(const Args& args) {
    if (Status formats = log_formats_from_args(args); !formats) return formats.error();
    Result<int> per_node = ranks_per_node_from_args(args);
    if (!per_node) return per_node.error();
    Result<SeriesFilter> filter =
        SeriesFilter::make(args.get("filter"), args.get("ranks"), args.get("runs"), *per_node);
    if (!filter) return filter.error();
    Result<std::vector<RootSpec>> roots = roots_from_args(args.positional);
    if (!roots) return roots.error();
    return Selection{std::move(*filter), std::move(*roots), *per_node};
}

const OptionSpec kRanksOption = {
    "ranks", "SPEC", "only these ranks: 0-7, 0,2,5, !3, 0-15,!7, or nodes: n3, n0-1, !n2"};

const OptionSpec kRanksPerNodeOption = {
    "ranks-per-node", "N", "ranks a node holds, for nN in --ranks and `r` (default 8)"};

const OptionSpec kRunsOption = {
    "runs", "PATTERN[,PATTERN]",
    "only these runs: globs on the run's path or its end (ds_pipe_job, csv_monitor/*, "
    "*seed*), !PATTERN leaves out"};

const OptionSpec kMemoryOption = {
    "memory", "SIZE",
    "memory budget of the whole process, e.g. 512M, 2G (default 1G); past it older points "
    "are kept as min/max/mean buckets, so no extreme is lost"};

Result<std::uint64_t> process_memory_from_args(const Args& args) {
    if (!args.has("memory")) return kDefaultProcessMemory;
    Result<std::uint64_t> bytes = parse_memory_size(args.get("memory"));
    if (!bytes) return Error{"--memory: " + bytes.error().message};
    return *bytes;
}

std::string memory_budget_text(const Args& args) {
    if (args.has("memory")) return "--memory " + args.get("memory");
    return fmt::format("{} MiB by default", kDefaultProcessMemory >> 20);
}

Result<StoreLimits> store_limits_from_args(const Args& args) {
    Result<std::uint64_t> bytes = process_memory_from_args(args);
    if (!bytes) return bytes.error();
    return StoreLimits::for_process(*bytes);
}

void bound_whole_process(Store& store) {
    const StoreLimits& limits = store.limits();
    if (limits.process_bytes <= limits.memory_bytes) return;
    store.set_resident_probe(resident_bytes, limits.resident_reserve(resident_bytes()));
}

std::size_t read_once(SourceSet& sources, const std::vector<RootSpec>& roots,
                      std::uint64_t process_bytes) {
    read_quietly(sources, roots, process_bytes, default_reader_threads());
    return say_what_was_read(sources);
}

void read_quietly(SourceSet& sources, const std::vector<RootSpec>& roots,
                  std::uint64_t process_bytes, std::size_t threads) {
    for (const RootSpec& root : roots) sources.add_root(root);
    sources.rescan();
    // Files are parsed on the cores this process may use (default_reader_threads), stored on
    // this thread unless split between sinks (ThreadStores); what the pool records in flight
    // stays within a share of the process' budget.
    sources.set_reader_threads(threads, ReaderPoolLimits::for_process(process_bytes));
    sources.poll();
}

std::size_t say_what_was_read(SourceSet& sources) {
    std::size_t printed = print_messages(sources, stderr);
    for (const std::string& p : sources.pending()) {
        std::fprintf(stderr, "runtop: waiting: %s\n", visible(p).c_str());
        ++printed;
    }
    return printed;
}

std::size_t print_messages(SourceSet& sources, std::FILE* err) {
    std::vector<std::string> messages = sources.take_messages();
    // Paths in messages are untrusted: escape sequences in a file name are shown, not obeyed.
    for (const std::string& m : messages) std::fprintf(err, "runtop: %s\n", visible(m).c_str());
    return messages.size();
}

void flush_output(std::string& out, bool force) {
    if (out.empty() || (!force && out.size() < (1u << 20))) return;
    std::fwrite(out.data(), 1, out.size(), stdout);
    out.clear();
    if (force) std::fflush(stdout);
}

void write_block(std::string& out, const std::string& block) {
    if (out.empty()) {
        std::fwrite(block.data(), 1, block.size(), stdout);
        return;
    }
    out += block;
    flush_output(out, false);
}

}  // namespace runtop
