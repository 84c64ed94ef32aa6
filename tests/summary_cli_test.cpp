// What ls, dump and check say they read (app/read_summary.h): on the same roots the three summary
// lines agree on the series and points read; ls and dump say how many were kept and how many a
// restart or a repeated step superseded (read = kept + superseded); and a file waiting on an
// incomplete last record is a "waiting:" line and a warning in every one of them.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "tests/test_support.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::run_runtop;
using testing::split_lines;
using testing::TempDir;

const std::vector<std::string> kTags = {"train/loss", "train/lr"};

std::string step_records(int step, double wall) {
    std::string bytes;
    for (const std::string& tag : kTags)
        bytes += frame_record(events::simple_scalar(tag, 1.0f + 0.01f * step, step, wall));
    return bytes;
}

// A run of two ranks, each restarted a different way (per tag):
//   rank 0: a first process writes steps 0-59, step 30 twice (the second replaces the first);
//           a second process's file resumes from step 40 to 99 (drops 40-59 of the first).
//           Read 60 + 1 + 60 = 121, kept 100.
//   rank 1: one file with steps 0-79, a SessionLog START at step 50, then steps 50-99
//           (purges 50-79). Read 80 + 50 = 130, kept 100.
struct RestartedRun {
    static constexpr std::uint64_t kTagsCount = 2;
    static constexpr std::uint64_t kRead = kTagsCount * (121 + 130);
    static constexpr std::uint64_t kKept = kTagsCount * (100 + 100);
    static constexpr std::uint64_t kFiles = 3;

    explicit RestartedRun(const std::string& root) {
        std::string first = frame_record(events::file_version(1.7e9));
        for (int s = 0; s < 60; ++s) {
            first += step_records(s, 1.7e9 + s);
            if (s == 30) first += step_records(s, 1.7e9 + s + 0.5);
        }
        std::string second = frame_record(events::file_version(1.8e9));
        for (int s = 40; s < 100; ++s) second += step_records(s, 1.8e9 + s);
        testing::make_dirs(root + "/rank_0");
        testing::write_file(root + "/rank_0/events.out.tfevents.1700000000.h.1.0", first);
        testing::write_file(root + "/rank_0/events.out.tfevents.1800000000.h.2.0", second);

        std::string resumed = frame_record(events::file_version(1.7e9));
        for (int s = 0; s < 80; ++s) resumed += step_records(s, 1.7e9 + s);
        resumed += frame_record(events::session_start(50, 1.9e9));
        for (int s = 50; s < 100; ++s) resumed += step_records(s, 1.9e9 + s);
        testing::make_dirs(root + "/rank_1");
        testing::write_file(root + "/rank_1/events.out.tfevents.1700000000.h.1.0", resumed);
    }
};

struct Summary {
    std::uint64_t series = 0, read = 0, files = 0;
    bool has_kept = false;
    std::uint64_t kept = 0, superseded = 0;
};

// The numbers of a command's summary line (its last line on stderr).
Summary parse_summary(const std::string& err) {
    Summary s;
    const std::vector<std::string> lines = split_lines(err);
    if (lines.empty()) return s;
    const std::string& last = lines.back();
    std::smatch m;
    static const std::regex read(R"((\d+) series, (\d+) points read from (\d+) files?)");
    if (std::regex_search(last, m, read)) {
        s.series = std::stoull(m[1]);
        s.read = std::stoull(m[2]);
        s.files = std::stoull(m[3]);
    }
    static const std::regex kept(R"((\d+) kept, (\d+) superseded by restarts and repeated steps)");
    if (std::regex_search(last, m, kept)) {
        s.has_kept = true;
        s.kept = std::stoull(m[1]);
        s.superseded = std::stoull(m[2]);
    }
    return s;
}

// The sum of ls's points column (csv).
std::uint64_t ls_points(const std::string& csv) {
    std::uint64_t n = 0;
    const std::vector<std::string> rows = split_lines(csv);
    for (std::size_t i = 1; i < rows.size(); ++i) {
        std::vector<std::string> cells;
        std::size_t begin = 0;
        for (std::size_t end; (end = rows[i].find(',', begin)) != std::string::npos;
             begin = end + 1)
            cells.push_back(rows[i].substr(begin, end - begin));
        n += std::stoull(cells.at(3));
    }
    return n;
}

TEST(Summary, LsDumpAndCheckAgreeOnARestartedRun) {
    TempDir dir;
    const RestartedRun run(dir / "run");
    struct Case {
        std::vector<std::string> selection;
        std::uint64_t series, read, kept;
    };
    // --filter selects one tag of two: half of everything, in all three commands alike.
    for (const Case& c :
         {Case{{}, 2 * RestartedRun::kTagsCount, RestartedRun::kRead, RestartedRun::kKept},
          Case{{"--filter", "loss"}, 2, RestartedRun::kRead / 2, RestartedRun::kKept / 2}}) {
        auto args = [&](std::vector<std::string> head) {
            head.insert(head.end(), c.selection.begin(), c.selection.end());
            head.push_back(dir / "run");
            return head;
        };
        auto ls = run_runtop(args({"ls", "--format", "csv"}));
        auto dump = run_runtop(args({"dump"}));
        auto check = run_runtop(args({"check"}));
        ASSERT_EQ(ls.exit_code, 0) << ls.err;
        ASSERT_EQ(dump.exit_code, 0) << dump.err;
        ASSERT_EQ(check.exit_code, 0) << check.out << check.err;
        const Summary l = parse_summary(ls.err), d = parse_summary(dump.err),
                      k = parse_summary(check.err);
        for (const Summary* s : {&l, &d, &k}) {
            EXPECT_EQ(s->series, c.series);
            EXPECT_EQ(s->read, c.read);
            EXPECT_EQ(s->files, RestartedRun::kFiles);
        }
        // ls and dump say what they kept, and why it is less than what was read.
        for (const Summary* s : {&l, &d}) {
            EXPECT_TRUE(s->has_kept);
            EXPECT_EQ(s->kept, c.kept);
            EXPECT_EQ(s->kept + s->superseded, s->read);
        }
        EXPECT_FALSE(k.has_kept);  // check keeps no Store
        EXPECT_EQ(ls_points(ls.out), c.kept);
        EXPECT_EQ(split_lines(dump.out).size(), 1 + c.kept);  // header + a row per kept point
        // stdout stays pure data: the summary is on stderr only.
        EXPECT_EQ(dump.out.find("runtop:"), std::string::npos);
    }
}

// A CSV whose last line is still being written: every command reports the file in a waiting:
// line and counts it as a warning; it does not fail check (normal for a live job).
TEST(Summary, AWaitingFileIsReportedByEveryCommand) {
    TempDir dir;
    const std::string file = dir / "job/Train_Samples_loss.csv";
    testing::make_dirs(dir / "job");
    testing::write_file(file, "step,loss\r\n32,2.5\r\n64,2.25\r\n96,2.");
    for (const char* command : {"ls", "dump", "check"}) {
        auto r = run_runtop({command, dir / "job"});
        EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
        EXPECT_NE(r.err.find("runtop: waiting: " + file + ": incomplete last line"),
                  std::string::npos)
            << command << "\n"
            << r.err;
        EXPECT_NE(r.err.find("; 0 unreadable, 1 waiting, 1 warning\n"), std::string::npos)
            << command << "\n"
            << r.err;
        EXPECT_EQ(parse_summary(r.err).read, 2u) << command;
    }
}

// ls and dump are no gates, but a listing or an export that misses a file must not pass for a
// whole one: everything readable is printed, then one line, and exit 2 (as tar does).
TEST(Summary, LsAndDumpSayTheirOutputIsIncompleteWhenAFileCannotBeRead) {
    TempDir dir;
    ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);  // for nobody
    testing::make_dirs(dir / "run/rank_0");
    testing::make_dirs(dir / "run/rank_1");
    testing::write_file(dir / "run/rank_0/events.out.tfevents.1", step_records(0, 1000));
    testing::write_file(dir / "run/rank_1/events.out.tfevents.1", step_records(0, 1000));
    const std::string locked = dir / "run/rank_1/events.out.tfevents.1";
    ASSERT_EQ(::chmod(locked.c_str(), 0), 0);
    for (const char* command : {"ls", "dump"}) {
        auto r = testing::run_runtop_without_root({command, dir / "run"});
        EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.err;
        EXPECT_NE(r.out.find("train/loss"), std::string::npos) << r.out;  // rank 0 is printed
        EXPECT_NE(r.err.find(locked + ": cannot open: Permission denied"), std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find(std::string("runtop ") + command +
                             ": 1 data file could not be read: the output is incomplete"),
                  std::string::npos)
            << r.err;
    }
    ASSERT_EQ(::chmod(locked.c_str(), 0644), 0);
    for (const char* command : {"ls", "dump"})
        EXPECT_EQ(testing::run_runtop_without_root({command, dir / "run"}).exit_code, 0) << command;
}

}  // namespace
}  // namespace runtop
