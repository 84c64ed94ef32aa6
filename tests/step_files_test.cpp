// Files whose names carry a step range (msProbe writes one CSV per step range per rank): once a
// newer file of the same series is in the directory, the older one is read to its end once more
// and is then complete: polling no longer stats it, its descriptor and reader are let go, and a
// later change to it is still seen when its directory says so. Checked on the Watcher alone (stat
// counts on a simulated clock) and on the SourceSet live, against every point written.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "readers/file_kinds.h"
#include "readers/open_file.h"
#include "readers/source_set.h"
#include "readers/watcher.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::append_file;
using testing::make_dirs;
using testing::TempDir;
using testing::write_file;

std::string step_file(int step) {
    return "grad_" + std::to_string(step) + "-" + std::to_string(step) + ".csv";
}

// One row of series `name` at `step`; its value says which step and series it belongs to.
std::string row(int step, const std::string& name = "w") {
    return name + "," + std::to_string(step) + "," + std::to_string(step) + ".5\n";
}

constexpr std::string_view kHeader = "name,step,norm\n";

TEST(StepRangeNames, MsProbeNamesOnly) {
    auto r = step_range_of_name("grad_10-14.csv");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->series, "grad_#.csv");
    EXPECT_EQ(r->first, 10u);
    EXPECT_EQ(r->last, 14u);
    r = step_range_of_name("actv_5-9_part_1.csv");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->series, "actv_#_part_1.csv");
    EXPECT_EQ(r->last, 9u);
    r = step_range_of_name("module_step0-9.csv");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->series, "module_step#.csv");
    EXPECT_FALSE(step_range_of_name("metrics.csv"));
    EXPECT_FALSE(step_range_of_name("Train_Samples_loss.csv"));
    EXPECT_FALSE(step_range_of_name("events.out.tfevents.1"));
}

// --- the Watcher alone, polling on a simulated clock ---

struct PolledTree {
    TempDir dir;
    std::int64_t clock = 1'000'000'000;
    std::unique_ptr<Watcher> w;

    void start() {
        WatchOptions o;
        o.mode = WatchMode::kPoll;  // the default 500 ms interval
        o.wanted = [](std::string_view rel, std::string_view name) {
            return classify_file(rel, name).has_value();
        };
        o.step_range = step_range_of_name;
        o.now_ms = [this] { return clock; };
        w = Watcher::create({dir.path()}, o);
    }
    // One pass 500 ms later: its events, and the stat calls it made.
    std::pair<std::vector<FileEvent>, std::uint64_t> pass() {
        clock += 500;
        std::uint64_t before = w->stats().stat_calls;
        std::vector<FileEvent> events = w->take_events();
        return {std::move(events), w->stats().stat_calls - before};
    }
};

std::size_t count(const std::vector<FileEvent>& events, FileChange change) {
    std::size_t n = 0;
    for (const FileEvent& e : events) n += e.change == change;
    return n;
}

TEST(StepFilesWatcher, CompletedFilesAreNotStatedByPollPasses) {
    PolledTree t;
    constexpr int kDirs = 10, kSteps = 1000;
    for (int d = 0; d < kDirs; ++d) {
        std::string rank = t.dir / ("rank" + std::to_string(d));
        make_dirs(rank);
        for (int s = 0; s < kSteps; ++s)
            write_file(rank + "/" + step_file(s), std::string(kHeader) + row(s));
    }
    t.start();
    std::vector<FileEvent> initial = t.w->take_events();
    EXPECT_EQ(count(initial, FileChange::kCreated), std::size_t{kDirs * kSteps});
    EXPECT_EQ(count(initial, FileChange::kCompleted), std::size_t{kDirs * (kSteps - 1)});
    WatcherStats s = t.w->stats();
    EXPECT_EQ(s.files, std::uint64_t{kDirs});
    EXPECT_EQ(s.completed_files, std::uint64_t{kDirs * (kSteps - 1)});

    // A pass stats the 11 directories and the 10 files still growing, not the 9 990 others.
    auto [events, stats] = t.pass();
    EXPECT_TRUE(events.empty());
    EXPECT_EQ(stats, std::uint64_t{kDirs + 1 + kDirs});
    std::cout << "[ metric ] poll pass over " << kDirs * kSteps << " step files in " << kDirs
              << " rank directories, " << s.completed_files << " complete: " << stats
              << " stat calls (every file followed: " << kDirs + 1 + kDirs * kSteps << ")\n";
    ::testing::Test::RecordProperty("stats_per_pass_10k_step_files", static_cast<int>(stats));

    // The next step: one directory read, the new file, one last stat of the one it completes.
    std::string rank0 = t.dir / "rank0";
    write_file(rank0 + "/" + step_file(kSteps), std::string(kHeader) + row(kSteps));
    // The directory's mtime may not move within its timestamp tick: the settling read finds it.
    std::vector<FileEvent> seen;
    for (int i = 0; i < 10 && count(seen, FileChange::kCompleted) == 0; ++i) {
        auto [more, n] = t.pass();
        seen.insert(seen.end(), more.begin(), more.end());
    }
    ASSERT_EQ(count(seen, FileChange::kCreated), 1u);
    ASSERT_EQ(count(seen, FileChange::kCompleted), 1u);
    for (const FileEvent& e : seen) {
        if (e.change == FileChange::kCompleted) {
            EXPECT_EQ(e.path, rank0 + "/" + step_file(999));
        }
    }
    EXPECT_EQ(t.w->stats().files, std::uint64_t{kDirs});
}

TEST(StepFilesWatcher, CompleteFileRenamedOverIsSeenByPolling) {
    PolledTree t;
    std::string a = t.dir / step_file(0), b = t.dir / step_file(1);
    write_file(a, std::string(kHeader) + row(0));
    write_file(b, std::string(kHeader) + row(1));
    t.start();
    std::vector<FileEvent> initial = t.w->take_events();
    ASSERT_EQ(count(initial, FileChange::kCompleted), 1u);
    // A copied tree put in place by rename (rsync, cp to a temporary name then mv): a new inode.
    std::string copy = t.dir / "copy.tmp";
    write_file(copy, std::string(kHeader) + row(0) + row(0, "late"));
    ASSERT_EQ(::rename(copy.c_str(), a.c_str()), 0);
    std::vector<FileEvent> seen;
    for (int i = 0; i < 10 && count(seen, FileChange::kReplaced) == 0; ++i) {
        auto [more, n] = t.pass();
        seen.insert(seen.end(), more.begin(), more.end());
    }
    ASSERT_EQ(count(seen, FileChange::kReplaced), 1u);
    EXPECT_EQ(count(seen, FileChange::kCompleted), 1u) << "still superseded by " << b;
    EXPECT_EQ(t.w->stats().completed_files, 1u);
}

// --- the SourceSet one-shot (ls, dump, check) ---

TEST(StepFilesOneShot, CompleteFilesAreLetGoOnceReadWithTheirTotalsKept) {
    TempDir dir;
    constexpr int kRanks = 3, kSteps = 50;
    for (int r = 0; r < kRanks; ++r) {
        std::string rank = dir / ("rank" + std::to_string(r));
        make_dirs(rank);
        for (int s = 0; s < kSteps; ++s)
            write_file(rank + "/" + step_file(s), std::string(kHeader) + row(s));
    }
    // The newest file's last record is still being written: it waits, and stays.
    append_file(dir / ("rank0/" + step_file(kSteps - 1)), "w,99");
    testing::RecordingSink sink;
    SourceSet sources(sink);
    sources.add_root(RootSpec{"r", dir.path()});
    sources.rescan();
    sources.poll();
    std::map<std::int64_t, int> steps;
    for (const auto& p : sink.scalars) ++steps[p.point.step];
    ASSERT_EQ(steps.size(), std::size_t{kSteps});
    for (const auto& [step, n] : steps) EXPECT_EQ(n, kRanks) << "step " << step;
    IngestTotals t = sources.totals();
    EXPECT_EQ(t.files, std::uint64_t{kRanks * kSteps});
    EXPECT_EQ(t.records, std::uint64_t{kRanks * kSteps});
    EXPECT_EQ(t.files_with_records, std::uint64_t{kRanks * kSteps});
    EXPECT_EQ(t.pending_files, 1u);
    EXPECT_EQ(sources.pending().size(), 1u);
    EXPECT_LE(OpenFile::open_count(), std::size_t{kRanks});
    // Read again: nothing twice.
    sources.rescan();
    sources.poll();
    EXPECT_EQ(sink.scalars.size(), std::size_t{kRanks * kSteps});
}

// --- the SourceSet live, in both modes ---

class LiveSteps {
  public:
    LiveSteps(const std::string& root, WatchMode mode) : sources_(sink_) {
        sources_.add_root(RootSpec{"r", root});
        WatchOptions options;
        options.mode = mode;
        options.poll_interval_ms = 20;
        sources_.watch(std::move(options));
    }
    bool until(const std::function<bool()>& done) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (true) {
            sources_.on_watch_ready();
            for (std::string& m : sources_.take_messages()) ADD_FAILURE() << m;
            if (done()) return true;
            if (std::chrono::steady_clock::now() >= deadline) return false;
            int timeout = sources_.watch_timeout_ms();
            if (timeout < 0 || timeout > 20) timeout = 20;
            pollfd p{sources_.watch_fd(), POLLIN, 0};
            ::poll(&p, p.fd >= 0 ? 1 : 0, timeout);
        }
    }
    bool until_points(std::size_t n) {
        return until([&] { return sink_.scalars.size() >= n; });
    }
    // A few more turns: whatever would arrive twice has arrived.
    void settle() {
        for (int i = 0; i < 10; ++i) {
            sources_.on_watch_ready();
            ::poll(nullptr, 0, 25);
        }
    }
    // (series name, step) -> times delivered
    std::map<std::pair<std::string, std::int64_t>, int> delivered() const {
        std::map<std::pair<std::string, std::int64_t>, int> out;
        for (const auto& s : sink_.scalars) ++out[{s.key.tag, s.point.step}];
        return out;
    }
    WatcherStats watcher() const { return sources_.watcher()->stats(); }
    SourceSet& sources() { return sources_; }

  private:
    testing::RecordingSink sink_;
    SourceSet sources_;
};

class StepFilesLive : public ::testing::TestWithParam<WatchMode> {};

TEST_P(StepFilesLive, EveryPointOnceAndCompletedFilesLetGo) {
    TempDir dir;
    std::string rank = dir / "rank0";
    make_dirs(rank);
    LiveSteps live(dir.path(), GetParam());
    constexpr int kSteps = 40;
    std::map<std::pair<std::string, std::int64_t>, int> want;
    for (int s = 0; s < kSteps; ++s) {
        write_file(rank + "/" + step_file(s), std::string(kHeader) + row(s));
        ++want[{"grad/w/norm", s}];
        ASSERT_TRUE(live.until_points(static_cast<std::size_t>(s + 1))) << "step " << s;
    }
    ASSERT_TRUE(live.until([&] { return live.watcher().completed_files == kSteps - 1; }));
    live.settle();
    EXPECT_EQ(live.delivered(), want);
    EXPECT_EQ(live.watcher().files, 1u);
    EXPECT_LE(OpenFile::open_count(), 1u) << "descriptors of complete files kept";
    IngestTotals t = live.sources().totals();
    EXPECT_EQ(t.files, std::uint64_t{kSteps});
    EXPECT_EQ(t.records, std::uint64_t{kSteps});
    EXPECT_EQ(t.files_with_records, std::uint64_t{kSteps});
}

TEST_P(StepFilesLive, LateAppendJustBeforeTheNextFileIsRead) {
    TempDir dir;
    std::string rank = dir / "rank0";
    make_dirs(rank);
    LiveSteps live(dir.path(), GetParam());
    std::map<std::pair<std::string, std::int64_t>, int> want;
    for (int s = 0; s < 20; ++s) {
        std::string path = rank + "/" + step_file(s);
        write_file(path, std::string(kHeader) + row(s));
        ++want[{"grad/w/norm", s}];
        ASSERT_TRUE(live.until_points(want.size()));
        // The step's last rows land, and at once the next step's file appears.
        append_file(path, row(s, "late"));
        ++want[{"grad/late/norm", s}];
        write_file(rank + "/" + step_file(s + 1), std::string(kHeader));
    }
    ASSERT_TRUE(live.until_points(want.size()));
    live.settle();
    EXPECT_EQ(live.delivered(), want);
}

TEST_P(StepFilesLive, FourRanksOfAThousandStepsStayExact) {
    TempDir dir;
    constexpr int kRanks = 4, kSteps = 1000, kBefore = 500, kBatch = 100;
    std::map<std::pair<std::string, std::int64_t>, int> want;
    std::size_t points = 0;
    auto write_steps = [&](int from, int to) {
        for (int r = 0; r < kRanks; ++r)
            for (int s = from; s < to; ++s) {
                std::string rank = dir / ("rank" + std::to_string(r));
                write_file(rank + "/" + step_file(s), std::string(kHeader) + row(s));
                ++want[{"grad/w/norm", s}];
                ++points;
            }
    };
    for (int r = 0; r < kRanks; ++r) make_dirs(dir / ("rank" + std::to_string(r)));
    write_steps(0, kBefore);
    LiveSteps live(dir.path(), GetParam());
    ASSERT_TRUE(live.until_points(points));
    for (int s = kBefore; s < kSteps; s += kBatch) {
        write_steps(s, s + kBatch);
        ASSERT_TRUE(live.until_points(points)) << "up to step " << s + kBatch;
    }
    ASSERT_TRUE(live.until(
        [&] { return live.watcher().completed_files == std::uint64_t{kRanks * (kSteps - 1)}; }));
    live.settle();
    // Each rank's series is its own (the rank is in its key): every step four times by tag.
    EXPECT_EQ(live.delivered(), want);
    EXPECT_EQ(live.watcher().files, std::uint64_t{kRanks});
    EXPECT_LE(OpenFile::open_count(), std::size_t{kRanks});
    EXPECT_EQ(live.sources().totals().files, std::uint64_t{kRanks * kSteps});
}

INSTANTIATE_TEST_SUITE_P(Modes, StepFilesLive,
                         ::testing::Values(WatchMode::kInotify, WatchMode::kPoll),
                         [](const auto& info) {
                             return info.param == WatchMode::kPoll ? "Poll" : "Inotify";
                         });

}  // namespace
}  // namespace runtop
