// Files whose names carry a step range (msProbe writes one CSV per step range per rank): once a
// newer file of the same series is in the directory, the older one is read to its end once more
// and is then complete: polling no longer stats it, its descriptor and reader are let go, and a
// later change to it is still seen when its directory says so. A late append is then read on
// from where the reader let go (never from the start: that would send its series back a step
// and cut the newer file's points); a rewrite is read again as a followed file's is. Checked on
// the Watcher alone (stat counts on a simulated clock) and on the SourceSet live, against every
// point written and against what a Store keeps of them.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/store/store.h"
#include "readers/file_kinds.h"
#include "readers/open_file.h"
#include "readers/source_set.h"
#include "readers/watcher.h"
#include "tests/live_sources.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::append_file;
using testing::make_dirs;
using testing::read_file;
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
    // Found, not read yet: no reader is made before its file is read (a reader costs more than
    // a kilobyte, times a million step files).
    EXPECT_EQ(sources.readers(), 0u);
    EXPECT_EQ(sources.totals().files, std::uint64_t{kRanks * kSteps});
    EXPECT_EQ(sources.totals().bytes, 0u);
    sources.poll();
    EXPECT_EQ(sources.readers(), std::size_t{kRanks});  // the newest file of each rank
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

// Every sink call, both recorded in order and kept by a Store (where a step going back is a
// restart that cuts the series' later points).
class TeeSink : public PointSink {
  public:
    SeriesId series(const SeriesKey& key, SourceId source) override {
        SeriesId id = recording.series(key, source);
        to_store_.resize(std::max<std::size_t>(to_store_.size(), id + 1));
        to_store_[id] = store.series(key, source);
        return id;
    }
    void append(SeriesId id, const Point& point) override {
        recording.append(id, point);
        store.append(to_store_.at(id), point);
    }
    void session_start(std::string_view run, int rank, std::int64_t step, double wall) override {
        recording.session_start(run, rank, step, wall);
        store.session_start(run, rank, step, wall);
    }
    void config_text(ConfigText text) override {
        recording.config_text(text);
        store.config_text(std::move(text));
    }
    void anomaly(ImportedAnomaly a) override {
        recording.anomaly(a);
        store.anomaly(std::move(a));
    }

    testing::RecordingSink recording;
    Store store;

  private:
    std::vector<SeriesId> to_store_;
};

// (series name, step) -> value, as a Store holds them.
using StepValues = std::map<std::pair<std::string, std::int64_t>, double>;

// The live set over a TeeSink; a message fails the test unless expect_messages() was said.
class LiveSteps : public testing::LiveSources<TeeSink> {
  public:
    LiveSteps(const std::string& root, WatchMode mode) : LiveSources(root, mode) {
        fail_on_messages();
    }
    bool until_points(std::size_t n) {
        return until([&] { return sink().recording.scalars.size() >= n; });
    }
    // (series name, step) -> times delivered
    std::map<std::pair<std::string, std::int64_t>, int> delivered() const {
        std::map<std::pair<std::string, std::int64_t>, int> out;
        for (const auto& s : sink().recording.scalars) ++out[{s.key.tag, s.point.step}];
        return out;
    }
    const std::vector<testing::RecordingSink::Scalar>& scalars() const {
        return sink().recording.scalars;
    }
    // Every point the Store holds.
    StepValues stored() const {
        StepValues out;
        const Store& store = sink().store;
        for (SeriesId id = 0; id < store.series_count(); ++id) {
            const Series& s = store.at(id);
            for (std::size_t i = 0; i < s.count(); ++i)
                out[{std::string(s.key().tag), s.point(i).step}] = s.point(i).value;
        }
        return out;
    }
    std::uint64_t restarts() const {
        std::uint64_t n = 0;
        for (SeriesId id = 0; id < sink().store.series_count(); ++id)
            n += sink().store.at(id).restart_count();
        return n;
    }
};

std::uint64_t file_size(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
}

// Gives `path` the bytes `bytes`: in place, or as a copy renamed over it (what polling sees of a
// complete file, whose entry then leads to another inode).
void put(const std::string& path, const std::string& bytes, bool in_place) {
    if (in_place) {
        write_file(path, bytes);
        return;
    }
    std::string copy = path.substr(0, path.rfind('/')) + "/copy.tmp";
    write_file(copy, bytes);
    ASSERT_EQ(::rename(copy.c_str(), path.c_str()), 0);
}

void append_late(const std::string& path, const std::string& bytes, bool in_place) {
    if (in_place)
        append_file(path, bytes);
    else
        put(path, read_file(path) + bytes, false);
}

TEST(StepFilesOneShot, ARescanReadsALateAppendToALetGoFileOnceFromWhereItStopped) {
    TempDir dir;
    for (int s = 0; s < 3; ++s)
        write_file(dir / step_file(s), std::string(kHeader) + row(s) + row(s, "a"));
    TeeSink sink;
    SourceSet sources(sink);
    sources.add_root(RootSpec{"r", dir.path()});
    sources.rescan();
    sources.poll();
    ASSERT_EQ(sources.released_files(), 2u);
    ASSERT_EQ(sink.recording.scalars.size(), 6u);
    append_late(dir / step_file(0), row(0, "late"), true);
    sources.rescan();
    sources.poll();
    EXPECT_TRUE(sources.take_messages().empty());
    ASSERT_EQ(sink.recording.scalars.size(), 7u);
    EXPECT_EQ(sink.recording.scalars.back().key.tag, "grad/late/norm");
    EXPECT_EQ(sink.recording.scalars.back().point.step, 0);
    for (SeriesId id = 0; id < sink.store.series_count(); ++id)
        EXPECT_EQ(sink.store.at(id).restart_count(), 0u) << sink.store.at(id).key().tag;
    EXPECT_EQ(sink.store.total_points(), 7u);
    EXPECT_EQ(sources.released_files(), 2u);
    IngestTotals t = sources.totals();
    EXPECT_EQ(t.files, 3u);
    EXPECT_EQ(t.records, 7u);
    EXPECT_EQ(t.files_with_records, 3u);
    EXPECT_EQ(t.bytes, file_size(dir / step_file(0)) + file_size(dir / step_file(1)) +
                           file_size(dir / step_file(2)));
    // Nothing new: nothing again.
    sources.rescan();
    sources.poll();
    EXPECT_EQ(sink.recording.scalars.size(), 7u);
}

// The same with new step files beside the late append, read on a reader pool: the reader that
// goes on from where the let-go one stopped is made (on a pool thread or not) to go on there.
TEST(StepFilesOneShot, ALateAppendIsReadOnceBesideNewFilesReadOnAPool) {
    for (std::size_t threads : {1u, 2u, 3u}) {
        SCOPED_TRACE(threads);
        TempDir dir;
        for (int s = 0; s < 3; ++s)
            write_file(dir / step_file(s), std::string(kHeader) + row(s) + row(s, "a"));
        TeeSink sink;
        SourceSet sources(sink);
        sources.set_reader_threads(threads);
        sources.add_root(RootSpec{"r", dir.path()});
        sources.rescan();
        sources.poll();
        ASSERT_EQ(sink.recording.scalars.size(), 6u);
        append_late(dir / step_file(0), row(0, "late"), true);
        for (int s = 3; s < 6; ++s)
            write_file(dir / step_file(s), std::string(kHeader) + row(s) + row(s, "a"));
        sources.rescan();
        sources.poll();
        EXPECT_TRUE(sources.take_messages().empty());
        EXPECT_EQ(sink.recording.scalars.size(), 13u);
        EXPECT_EQ(sink.store.total_points(), 13u);
        std::size_t late = 0;
        for (const auto& p : sink.recording.scalars) late += p.key.tag == "grad/late/norm";
        EXPECT_EQ(late, 1u);
        EXPECT_EQ(sources.totals().records, 13u);
    }
}

// msProbe writes the header again when collection is switched on again, maybe with other ops:
// a late row is read with the header in effect where the reader stopped, not the first one.
TEST(StepFilesOneShot, ALateAppendIsReadWithTheHeaderInEffectWhereTheReaderStopped) {
    TempDir dir;
    const std::string first = dir / step_file(0);
    write_file(first, std::string(kHeader) + row(0) + "name,step,max,norm\nw,0,7,0.25\n");
    write_file(dir / step_file(1), std::string(kHeader) + row(1));
    TeeSink sink;
    SourceSet sources(sink);
    sources.add_root(RootSpec{"r", dir.path()});
    sources.rescan();
    sources.poll();
    ASSERT_EQ(sources.released_files(), 1u);
    const std::size_t before = sink.recording.scalars.size();
    append_late(first, "late,0,9,0.75\n", true);
    sources.rescan();
    sources.poll();
    EXPECT_TRUE(sources.take_messages().empty());
    std::map<std::string, double> late;
    for (std::size_t i = before; i < sink.recording.scalars.size(); ++i)
        late[sink.recording.scalars[i].key.tag] = sink.recording.scalars[i].point.value;
    const std::map<std::string, double> want{{"grad/late/max", 9}, {"grad/late/norm", 0.75}};
    EXPECT_EQ(late, want);
}

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

// After the newer file was read and the older one let go, the older one gets its step's last
// rows: read once, from where its reader stopped. Read from the start, its first rows would send
// their series back a step: a restart that cuts the newer file's points. (Polling does not stat
// a complete file: it sees a copy renamed over it, which holds what was read and goes on alike.)
TEST_P(StepFilesLive, LateAppendToAReleasedFileIsReadOnceFromWhereItsReaderStopped) {
    TempDir dir;
    std::string rank = dir / "rank0";
    make_dirs(rank);
    LiveSteps live(dir.path(), GetParam());
    const std::string first = rank + "/" + step_file(0), second = rank + "/" + step_file(1);
    write_file(first, std::string(kHeader) + row(0) + row(0, "a"));
    ASSERT_TRUE(live.until_points(2));
    write_file(second, std::string(kHeader) + row(1) + row(1, "a"));
    ASSERT_TRUE(live.until_points(4));
    ASSERT_TRUE(live.until([&] { return live.sources().released_files() == 1; }));
    append_late(first, row(0, "late") + row(0, "later"), GetParam() == WatchMode::kInotify);
    ASSERT_TRUE(live.until_points(6));
    live.settle();
    const std::map<std::pair<std::string, std::int64_t>, int> want{
        {{"grad/a/norm", 0}, 1},     {{"grad/a/norm", 1}, 1}, {{"grad/late/norm", 0}, 1},
        {{"grad/later/norm", 0}, 1}, {{"grad/w/norm", 0}, 1}, {{"grad/w/norm", 1}, 1}};
    EXPECT_EQ(live.delivered(), want);
    const StepValues kept{{{"grad/a/norm", 0}, 0.5},    {{"grad/a/norm", 1}, 1.5},
                          {{"grad/late/norm", 0}, 0.5}, {{"grad/later/norm", 0}, 0.5},
                          {{"grad/w/norm", 0}, 0.5},    {{"grad/w/norm", 1}, 1.5}};
    EXPECT_EQ(live.stored(), kept);
    EXPECT_EQ(live.restarts(), 0u);
    EXPECT_EQ(live.sources().released_files(), 1u);
    EXPECT_LE(OpenFile::open_count(), 1u);
    IngestTotals t = live.sources().totals();
    EXPECT_EQ(t.files, 2u);
    EXPECT_EQ(t.records, 6u);
    EXPECT_EQ(t.files_with_records, 2u);
    EXPECT_EQ(t.bytes, file_size(first) + file_size(second));
}

// The watcher names a released file again (its mtime moved; under polling, a copy of it renamed
// over it) with nothing past what was read: no point, no message, the same totals.
TEST_P(StepFilesLive, LateEventForAReleasedFileWithNoNewBytesChangesNothing) {
    TempDir dir;
    std::string rank = dir / "rank0";
    make_dirs(rank);
    LiveSteps live(dir.path(), GetParam());
    const std::string first = rank + "/" + step_file(0);
    write_file(first, std::string(kHeader) + row(0) + row(0, "a"));
    ASSERT_TRUE(live.until_points(2));
    write_file(rank + "/" + step_file(1), std::string(kHeader) + row(1));
    ASSERT_TRUE(live.until_points(3));
    ASSERT_TRUE(live.until([&] { return live.sources().released_files() == 1; }));
    const IngestTotals before = live.sources().totals();
    const bool inotify = GetParam() == WatchMode::kInotify;
    // Inotify stats only what it names; polling reads the directory whose entry changed.
    const std::uint64_t stats = live.watcher().stat_calls, scans = live.watcher().dir_scans;
    if (inotify)
        ASSERT_EQ(::utimensat(AT_FDCWD, first.c_str(), nullptr, 0), 0);
    else
        append_late(first, "", false);
    ASSERT_TRUE(live.until([&] {
        return inotify ? live.watcher().stat_calls > stats : live.watcher().dir_scans > scans;
    }));
    live.settle();
    EXPECT_EQ(live.scalars().size(), 3u);
    EXPECT_EQ(live.restarts(), 0u);
    EXPECT_EQ(live.sources().released_files(), 1u);
    const IngestTotals after = live.sources().totals();
    EXPECT_EQ(after.files, before.files);
    EXPECT_EQ(after.bytes, before.bytes);
    EXPECT_EQ(after.records, before.records);
    EXPECT_EQ(after.files_with_records, before.files_with_records);
}

// A released file rewritten (shorter, then longer with other first bytes; under polling, copies
// renamed over it) is read again from its start, as a followed file rewritten the same way is:
// rank1's step file has no newer sibling, so its reader is still there. The same message (but
// the path) and the same points.
TEST_P(StepFilesLive, RewrittenReleasedFileIsReadAgainAsAFollowedOneIs) {
    TempDir dir;
    const std::string rank0 = dir / "rank0", rank1 = dir / "rank1";
    make_dirs(rank0);
    make_dirs(rank1);
    LiveSteps live(dir.path(), GetParam());
    const std::string released = rank0 + "/" + step_file(0), followed = rank1 + "/" + step_file(0);
    const std::string original = std::string(kHeader) + row(0) + row(0, "a");
    write_file(released, original);
    write_file(followed, original);
    write_file(rank0 + "/" + step_file(1), std::string(kHeader) + row(1));
    ASSERT_TRUE(live.until_points(5));
    ASSERT_TRUE(live.until([&] { return live.sources().released_files() == 1; }));
    live.expect_messages();
    const bool in_place = GetParam() == WatchMode::kInotify;
    const std::vector<std::string> rewrites{
        std::string(kHeader) + row(0, "b"),
        "name,step,norm,mean\nc,0,0.5,1\nd,0,0.5,2\ne,0,0.5,3\n"};
    for (const std::string& bytes : rewrites) {
        const std::size_t from = live.scalars().size(), said = live.messages().size();
        put(released, bytes, in_place);
        put(followed, bytes, in_place);
        ASSERT_TRUE(live.until([&] { return live.messages().size() >= said + 2; }));
        live.settle();
        // Each file's message, its path taken out.
        std::map<int, std::string> message;
        for (std::size_t i = said; i < live.messages().size(); ++i) {
            std::string m = live.messages()[i];
            const bool of_released = m.starts_with(released);
            ASSERT_TRUE(of_released || m.starts_with(followed)) << m;
            message[of_released ? 0 : 1] = m.substr(released.size());
        }
        ASSERT_EQ(live.messages().size(), said + 2);
        EXPECT_EQ(message[0], message[1]);
        EXPECT_NE(message[0].find("reading it again from the start"), std::string::npos);
        // Each file's points since, its rank taken out.
        std::map<int, std::vector<std::tuple<std::string, std::int64_t, double>>> points;
        for (std::size_t i = from; i < live.scalars().size(); ++i) {
            const auto& p = live.scalars()[i];
            points[p.key.rank].emplace_back(p.key.tag, p.point.step, p.point.value);
        }
        EXPECT_FALSE(points[0].empty());
        EXPECT_EQ(points[0], points[1]);
        EXPECT_EQ(live.sources().released_files(), 1u);
    }
}

INSTANTIATE_TEST_SUITE_P(Modes, StepFilesLive,
                         ::testing::Values(WatchMode::kInotify, WatchMode::kPoll),
                         [](const auto& info) {
                             return info.param == WatchMode::kPoll ? "Poll" : "Inotify";
                         });

}  // namespace
}  // namespace runtop
