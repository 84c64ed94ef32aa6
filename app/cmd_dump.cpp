// `runtop dump`: every point as CSV or JSON lines; with --follow, new points as they arrive.
#include <poll.h>

#include <cstdio>
#include <utility>

#include "app/commands.h"
#include "app/dump_text.h"
#include "app/inputs.h"
#include "app/read_summary.h"
#include "app/signals.h"
#include "app/thread_stores.h"
#include "core/filtering_sink.h"
#include "core/format.h"
#include "core/store/store.h"
#include "readers/reader_pool.h"

namespace runtop {

const std::vector<OptionSpec> kDumpOptions = {
    {"format", "csv|jsonl", "output format (default csv)"},
    {"follow", "", "keep printing new points as they arrive, in arrival order (like tail -f)"},
    {"poll", "MS",
     "with --follow: poll with stat() every MS ms (default 500) instead of inotify; "
     "network filesystems are polled anyway",
     true},
    {"filter", "RE", "only tags matching the regex (RE2, case-insensitive)"},
    kRanksOption,
    kRanksPerNodeOption,
    kRunsOption,
    kLogFormatOption,
    {"help", "", "show this help"},
};

namespace {

// Even with nothing due, wake up now and then: a stop request between two checks is seen.
constexpr int kMaxWaitMs = 1000;

// Lines written as points come (--follow).
class RowWriter {
  public:
    explicit RowWriter(DumpFormat format) : format_(format), out_(dump_header(format)) {}
    void row(const SeriesKeyRef& key, const Point& p) {
        append_dump_line(out_, format_, key, p);
        flush_output(out_, false);
    }
    void flush() { flush_output(out_, true); }

  private:
    DumpFormat format_;
    std::string out_;
};

// Prints points the moment readers hand them over (--follow): arrival order, no restarts.
// Behind a FilteringSink: it sees only the selected series.
class FollowSink final : public PointSink {
  public:
    explicit FollowSink(RowWriter& writer) : writer_(writer) {}
    SeriesId series(const SeriesKey& key, SourceId) override {
        keys_.push_back(key);
        return static_cast<SeriesId>(keys_.size() - 1);
    }
    void append(SeriesId id, const Point& p) override { writer_.row(keys_[id], p); }
    void session_start(std::string_view, int, std::int64_t, double) override {}
    void config_text(ConfigText) override {}
    void anomaly(ImportedAnomaly) override {}

  private:
    RowWriter& writer_;
    std::vector<SeriesKey> keys_;
};

int follow(const std::vector<RootSpec>& roots, const SeriesFilter& filter, RowWriter& writer,
           WatchOptions options) {
    install_stop_signals();
    FollowSink sink(writer);
    FilteringSink selected(filter, sink);
    SourceSet sources(selected);
    sources.stop_when(stop_requested);  // Ctrl-C during a backfill of gigabytes ends it at once
    for (const RootSpec& root : roots) sources.add_root(root);
    sources.watch(std::move(options));
    bool first = true;
    while (!stop_requested()) {
        sources.on_watch_ready();
        writer.flush();
        print_messages(sources, stderr);
        if (std::exchange(first, false)) {  // how much of the kernel's inotify budget it takes
            std::string line;
            for (const std::string& w : sources.watch_summary())
                line += (line.empty() ? "" : "; ") + w;
            std::fprintf(stderr, "runtop: watching: %s\n", visible(line).c_str());
        }
        if (stop_requested()) break;  // asked while printing: no need to wait out the poll
        int timeout = sources.watch_timeout_ms();
        if (timeout < 0 || timeout > kMaxWaitMs) timeout = kMaxWaitMs;
        pollfd p{sources.watch_fd(), POLLIN, 0};
        ::poll(&p, p.fd >= 0 ? 1 : 0, timeout);  // EINTR on a stop signal is fine
    }
    writer.flush();
    finish_stop();
    return kExitOk;
}

}  // namespace

int cmd_dump(const Args& args) {
    std::string format = args.get("format", "csv");
    if (format != "csv" && format != "jsonl") {
        std::fprintf(stderr, "runtop dump: --format must be csv or jsonl, not '%s'\n",
                     format.c_str());
        return kExitError;
    }
    Result<Selection> selection = selection_from_args(args);
    if (!selection) {
        std::fprintf(stderr, "runtop dump: %s\n", selection.error().message.c_str());
        return kExitError;
    }
    const SeriesFilter& filter = selection->filter;
    const DumpFormat dump_format = format == "jsonl" ? DumpFormat::kJsonl : DumpFormat::kCsv;
    if (args.has("poll") && !args.has("follow")) {
        std::fprintf(stderr, "runtop dump: --poll only applies with --follow\n");
        return kExitError;
    }
    if (args.has("follow")) {
        Result<WatchOptions> options = watch_options_from_args(args);
        if (!options) {
            std::fprintf(stderr, "runtop dump: %s\n", options.error().message.c_str());
            return kExitError;
        }
        RowWriter writer(dump_format);
        return follow(selection->roots, filter, writer, std::move(*options));
    }

    // Every selected point, whatever its size; each reader thread stores its files' series.
    ThreadStores stores(filter, StoreLimits::unbounded());
    const std::size_t warnings = stores.read(selection->roots, kDefaultProcessMemory);
    const SourceSet& sources = stores.sources();
    // Lines are made on the cores the readers used.
    dump_points(stores.sorted(), dump_format, default_reader_threads());
    // On stderr, so stdout stays pure data; the words ls and check use (app/read_summary.h):
    // the rows printed are the points kept.
    const IngestTotals t = sources.totals();
    const PointCounts counts = store_point_counts(stores.stores());
    std::fprintf(stderr, "runtop: %s, %s; %s\n", read_text(counts.series, counts.read, t).c_str(),
                 kept_text(counts).c_str(), problems_text(t, warnings).c_str());
    if (sources.readable_roots() == 0 || say_incomplete("dump", t)) return kExitError;
    return kExitOk;
}

}  // namespace runtop
