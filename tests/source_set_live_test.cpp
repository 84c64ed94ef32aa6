// The SourceSet live, in both watcher modes, while files move under it: a file renamed within
// the roots keeps its reader (nothing read twice), one renamed out of them or deleted is read to
// its end first (nothing lost), one truncated and at once rewritten past its old size is read
// again. Each test checks every point delivered against what was written.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "readers/file_tail.h"
#include "readers/open_file.h"
#include "readers/read_scratch.h"
#include "readers/source_set.h"
#include "tests/live_sources.h"
#include "tests/test_support.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::TempDir;

// One scalar record of `tag` at `step` whose value says which write made it.
std::string record(int step, float value, const std::string& tag = "loss") {
    return frame_record(events::simple_scalar(tag, value, step, 1000.0 + step));
}

std::string records(int from, int to, float base) {
    std::string out = frame_record(events::file_version(1000.0 + from));
    for (int s = from; s < to; ++s) out += record(s, base + static_cast<float>(s));
    return out;
}

// The live set, with what these tests ask of what it delivered.
class LiveSet : public testing::LiveSources<testing::RecordingSink> {
  public:
    using LiveSources::LiveSources;
    std::size_t points() const { return sink().scalars.size(); }
    // (step, value) -> times delivered
    std::map<std::pair<std::int64_t, double>, int> delivered() const {
        std::map<std::pair<std::int64_t, double>, int> out;
        for (const auto& s : sink().scalars) ++out[{s.point.step, s.point.value}];
        return out;
    }
};

// Every (step, base + step) of [from, to) exactly once, and nothing else.
void expect_exactly(const LiveSet& live, const std::vector<std::tuple<int, int, float>>& spans) {
    std::map<std::pair<std::int64_t, double>, int> want;
    for (auto [from, to, base] : spans)
        for (int s = from; s < to; ++s)
            ++want[{s, static_cast<double>(base + static_cast<float>(s))}];
    EXPECT_EQ(live.delivered(), want);
}

class LiveChurn : public ::testing::TestWithParam<WatchMode> {};

TEST_P(LiveChurn, RenameWithinTheRootKeepsItsReader) {
    TempDir dir;
    const std::string path = dir / "events.out.tfevents.1.h.0";
    testing::write_file(path, records(0, 10, 100));
    LiveSet live(dir.path(), GetParam());
    ASSERT_TRUE(live.until([&] { return live.points() == 10; }));
    // Two more records, then at once renamed aside and a new file in its place.
    testing::append_file(path, record(10, 110) + record(11, 111));
    ASSERT_EQ(::rename(path.c_str(), (path + ".old").c_str()), 0);
    testing::write_file(path, records(12, 15, 100));
    ASSERT_TRUE(live.until([&] { return live.points() >= 15; }));
    live.settle();
    expect_exactly(live, {{0, 15, 100}});
    // Appends to the renamed file are still read, once.
    testing::append_file(path + ".old", record(20, 120));
    ASSERT_TRUE(live.until([&] { return live.points() >= 16; }));
    live.settle();
    expect_exactly(live, {{0, 15, 100}, {20, 21, 100}});
}

TEST_P(LiveChurn, RenameOutOfTheRootReadsTheTailFirst) {
    TempDir dir, away;
    const std::string path = dir / "events.out.tfevents.1.h.0";
    testing::write_file(path, records(0, 5, 100));
    LiveSet live(dir.path(), GetParam());
    ASSERT_TRUE(live.until([&] { return live.points() == 5; }));
    testing::append_file(path, record(5, 105));
    ASSERT_EQ(::rename(path.c_str(), (away / "rotated").c_str()), 0);
    testing::write_file(path, records(6, 9, 100));
    ASSERT_TRUE(live.until([&] { return live.points() >= 9; }));
    live.settle();
    expect_exactly(live, {{0, 9, 100}});
}

TEST_P(LiveChurn, DeletedFileIsReadToItsEnd) {
    TempDir dir;
    testing::make_dirs(dir / "rank1");
    const std::string path = dir / "rank1/events.out.tfevents.1.h.0";
    testing::write_file(path, records(0, 5, 100));
    LiveSet live(dir.path(), GetParam());
    ASSERT_TRUE(live.until([&] { return live.points() == 5; }));
    testing::append_file(path, record(5, 105) + record(6, 106));
    ASSERT_EQ(::unlink(path.c_str()), 0);
    ASSERT_EQ(::rmdir((dir / "rank1").c_str()), 0);
    ASSERT_TRUE(live.until([&] { return live.points() >= 7; }));
    live.settle();
    expect_exactly(live, {{0, 7, 100}});
}

TEST_P(LiveChurn, TruncatedAndAtOnceRewrittenPastItsOldSizeIsReadAgain) {
    TempDir dir;
    const std::string path = dir / "events.out.tfevents.1.h.0";
    testing::write_file(path, records(0, 3, 100));
    LiveSet live(dir.path(), GetParam());
    ASSERT_TRUE(live.until([&] { return live.points() == 3; }));
    // Same inode, longer than before: only the bytes before the offset tell.
    testing::write_file(path, records(0, 12, 200));
    ASSERT_TRUE(live.until([&] { return live.points() >= 15; }));
    live.settle();
    expect_exactly(live, {{0, 3, 100}, {0, 12, 200}});
    bool said = false;
    for (const std::string& m : live.messages()) said |= m.find("rewritten") != std::string::npos;
    EXPECT_TRUE(said);
}

TEST_P(LiveChurn, ACopyRenamedOverTheFileIsNotReadAgain) {
    TempDir dir;
    const std::string path = dir / "events.out.tfevents.1.h.0";
    const std::string first = records(0, 5, 100);
    testing::write_file(path, first);
    LiveSet live(dir.path(), GetParam());
    ASSERT_TRUE(live.until([&] { return live.points() == 5; }));
    // rsync without --inplace: a temporary copy, renamed over the file.
    testing::write_file(dir / ".tmp.copy", first + record(5, 105));
    ASSERT_EQ(::rename((dir / ".tmp.copy").c_str(), path.c_str()), 0);
    ASSERT_TRUE(live.until([&] { return live.points() >= 6; }));
    live.settle();
    expect_exactly(live, {{0, 6, 100}});
}

// ext4 gives a freed inode number out again at once: a new file in another rank's directory
// is then no rename of the deleted one, whose descriptor the budget had closed.
TEST_P(LiveChurn, ANewFileWithADeletedFilesInodeNumberIsANewFile) {
    TempDir dir;
    for (const char* r : {"rank0", "rank1", "rank2"}) testing::make_dirs(dir / r);
    const std::string a = dir / "rank0/events.out.tfevents.1.h.0";
    const std::string b = dir / "rank1/events.out.tfevents.2.h.0";
    const std::string c = dir / "rank2/events.out.tfevents.3.h.0";
    testing::write_file(a, records(0, 5, 100));
    testing::write_file(c, records(0, 2, 300));
    OpenFile::set_budget_for_tests(1);  // reading c closes a
    {
        LiveSet live(dir.path(), GetParam());
        ASSERT_TRUE(live.until([&] { return live.points() == 7; }));
        struct stat sa;
        ASSERT_EQ(::stat(a.c_str(), &sa), 0);
        ASSERT_EQ(::unlink(a.c_str()), 0);
        testing::write_file(b, records(0, 3, 200));
        struct stat sb;
        ASSERT_EQ(::stat(b.c_str(), &sb), 0);
        ASSERT_TRUE(live.until([&] { return live.points() >= 10; }));
        live.settle();
        expect_exactly(live, {{0, 5, 100}, {0, 3, 200}, {0, 2, 300}});
        for (const auto& s : live.sink().scalars)
            EXPECT_EQ(s.key.rank, static_cast<int>(s.point.value) / 100 - 1) << s.point.value;
        if (sa.st_ino != sb.st_ino) std::printf("(the inode number was not given out again)\n");
    }
    OpenFile::set_budget_for_tests(0);
}

TEST_P(LiveChurn, ThousandsOfFilesWithAFewDescriptors) {
    TempDir dir;
    OpenFile::set_budget_for_tests(16);
    constexpr int kFiles = 600;
    for (int r = 0; r < 4; ++r) testing::make_dirs(dir / ("rank" + std::to_string(r)));
    for (int i = 0; i < kFiles; ++i) {
        std::string name = "rank" + std::to_string(i % 4) + "/events.out.tfevents." +
                           std::to_string(1000 + i) + ".h.0";
        testing::write_file(dir / name, records(i, i + 1, 0));
    }
    {
        LiveSet live(dir.path(), GetParam());
        ASSERT_TRUE(live.until([&] { return live.points() == kFiles; }));
        EXPECT_LE(OpenFile::open_count(), 16u);
        // Every file grows once more: all of them read again through reopened descriptors.
        for (int i = 0; i < kFiles; ++i) {
            std::string name = "rank" + std::to_string(i % 4) + "/events.out.tfevents." +
                               std::to_string(1000 + i) + ".h.0";
            testing::append_file(dir / name, record(i + kFiles, 0));
        }
        ASSERT_TRUE(live.until([&] { return live.points() == 2 * kFiles; }));
        EXPECT_LE(OpenFile::open_count(), 16u);
        for (const std::string& m : live.messages())
            EXPECT_EQ(m.find("cannot open"), std::string::npos) << m;
    }
    OpenFile::set_budget_for_tests(0);
}

INSTANTIATE_TEST_SUITE_P(Modes, LiveChurn, ::testing::Values(WatchMode::kInotify, WatchMode::kPoll),
                         [](const auto& info) {
                             return info.param == WatchMode::kPoll ? "poll" : "inotify";
                         });

TEST(SourceSetDescriptors, RunningOutOfDescriptorsClosesIdleFilesInstead) {
    TempDir dir;
    constexpr int kFiles = 300;
    for (int i = 0; i < kFiles; ++i)
        testing::write_file(dir / ("events.out.tfevents." + std::to_string(1000 + i) + ".h"),
                            records(i, i + 1, 0));
    // A budget the process cannot give (a small ulimit -n): EMFILE gives idle ones back.
    OpenFile::set_budget_for_tests(100000);
    struct rlimit saved;
    ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
    struct rlimit low = saved;
    low.rlim_cur = 64;
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
    testing::RecordingSink sink;
    std::vector<std::string> messages;
    {
        SourceSet sources(sink);
        sources.add_root(RootSpec{"r", dir.path()});
        sources.rescan();
        sources.poll();
        messages = sources.take_messages();
    }
    ::setrlimit(RLIMIT_NOFILE, &saved);
    OpenFile::set_budget_for_tests(0);
    EXPECT_EQ(sink.scalars.size(), static_cast<std::size_t>(kFiles));
    EXPECT_TRUE(messages.empty()) << messages.front();
}

// A quit while gigabytes are read: the set stops within one read budget of a file.
TEST(SourceSetStop, AStopRequestEndsReadingWithinOneBudget) {
    TempDir dir;
    std::string bytes = frame_record(events::file_version(1000));
    const std::string pad(4000, 'p');
    int n = 0;
    while (bytes.size() < 5 * FileTail::kPollBudget)
        bytes += frame_record(events::text("notes", pad, n++, 1000));
    testing::write_file(dir / "events.out.tfevents.1.h", bytes);
    testing::write_file(dir / "events.out.tfevents.2.h", records(0, 10, 0));
    std::atomic<bool> stop{false};
    struct StoppingSink : testing::RecordingSink {
        std::atomic<bool>* stop = nullptr;
        void config_text(ConfigText text) override {
            stop->store(true);
            RecordingSink::config_text(std::move(text));
        }
    } sink;
    sink.stop = &stop;
    SourceSet sources(sink);
    sources.stop_when([&] { return stop.load(); });
    sources.add_root(RootSpec{"r", dir.path()});
    sources.rescan();
    sources.poll();
    EXPECT_GT(sink.texts.size(), 0u);
    EXPECT_LT(sink.texts.size(), static_cast<std::size_t>(n));
    EXPECT_LE(sources.totals().bytes, FileTail::kPollBudget + kReadChunk);
    EXPECT_TRUE(sink.scalars.empty());  // the second file was never started
}

TEST(SourceSetDescriptors, TheBudgetFollowsTheDescriptorLimit) {
    EXPECT_GE(OpenFile::budget(), 16u);
    EXPECT_LE(OpenFile::budget(), 256u);
}

}  // namespace
}  // namespace runtop
