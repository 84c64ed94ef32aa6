// Fault injection against the real binary: a FaultWriter (fault_writer.h) misbehaves the way
// training jobs, log rotation and users do, while `runtop dump --follow --format jsonl` runs in
// inotify and in poll mode; every (run, rank, tag, step, value) printed is compared with what was
// written (fault_oracle.h), and one lost, duplicated or unexpected point fails the scenario.
// Each scenario prints one summary line; the one-shot commands are checked on the same faults.
//
// Exact by construction: before an operation that destroys data the writer waits until runtop
// has printed every point written so far, so only points runtop could have read count. The
// scenarios that must stress runtop still do: a burst is appended right after that sync and the
// file rotated at once (runtop must drain it through the descriptor it holds), a file is
// truncated and rewritten past its old size in the same breath. Both happen while runtop is
// held blocked on its unread output (LiveRun::hold), so it never sees them half done, however
// quickly inotify wakes it: what the tester saw in 2 of 7 runs happens in every run.
//
// RUNTOP_FAULT_SEED=N replays a seed (each test prints it; timing is not replayed, only what is
// written); RUNTOP_SOAK_SECONDS=S (`make soak`) runs the churn for S seconds and every scenario
// with larger sizes.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "core/series_key.h"
#include "tests/fault_oracle.h"
#include "tests/fault_writer.h"
#include "tests/follower.h"
#include "tests/test_support.h"
#include "writers/msprobe_writer.h"

namespace runtop {
namespace {

using testing::Comparison;
using testing::Corruption;
using testing::DumpTally;
using testing::FaultWriter;
using testing::Follower;
using testing::FollowerOptions;
using testing::LedgerPoint;
using testing::TempDir;
using Clock = std::chrono::steady_clock;

int soak_seconds() {
    const char* s = std::getenv("RUNTOP_SOAK_SECONDS");
    return s && *s ? std::atoi(s) : 0;
}

// A sync gives up when the output has not grown for this long while points are missing: they
// are lost (the final comparison counts them), and waiting longer only makes a failing run slow.
// A soak's tens of thousands of new files can take runtop longer than that to read in one turn.
int stall_ms() {
    return soak_seconds() > 0 ? 30000 : 3000;
}
constexpr int kStallAfterLossMs = 1000;

// Bigger in a soak: `normal` in `make test`, about `normal * factor` in `make soak`.
int sized(int normal, int soak_factor) {
    return soak_seconds() > 0 ? normal * soak_factor : normal;
}

std::uint64_t base_seed() {
    const char* s = std::getenv("RUNTOP_FAULT_SEED");
    return s && *s ? std::strtoull(s, nullptr, 10) : 20250601;
}

std::uint64_t seed_for(const std::string& test_name) {
    std::uint64_t h = base_seed();
    for (char c : test_name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    return h;
}

void sleep_ms(int ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

int ms_since(Clock::time_point t) {
    return static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count());
}

// The end of a long stderr is where the story is; the start says how it began.
std::string clipped(const std::string& text) {
    constexpr std::size_t kKeep = 3000;
    if (text.size() <= 2 * kKeep) return text;
    return text.substr(0, kKeep) + "\n[... " + std::to_string(text.size() - 2 * kKeep) +
           " bytes ...]\n" + text.substr(text.size() - kKeep);
}

struct Mode {
    std::string flag;  // dump --follow's watcher option
    std::string name;
    int interval_ms;  // how soon runtop looks again: the scale of pauses
};

void PrintTo(const Mode& mode, std::ostream* os) {
    *os << mode.name;
}

const Mode kInotify{"", "inotify", 20};
const Mode kPoll{"--poll=100", "poll", 100};

// `runtop dump --follow --format jsonl ROOT` against a writer's ledger.
class LiveRun {
  public:
    LiveRun(FaultWriter& writer, const std::string& root, const Mode& mode,
            rlim_t max_open_files = 0)
        : writer_(writer),
          mode_(mode),
          // Where hold() makes work for runtop: a file of its own, its points in the ledger too.
          // Long tags make long lines: a pipe's worth of output in a few hundred points.
          busy_(writer.add_event_stream("busy", "root/busy", kNoRank,
                                        "busy/" + std::string(200, 'b') + "/")),
          follower_(root,
                    FollowerOptions{mode.flag, false, true, max_open_files, {"dump", "--follow"}}),
          tally_(writer.ledger()) {
        writer.set_hooks({[this] { sync("before destroying data"); }, [this] { hold(); },
                          [this] { release(); }, [this] { pump(); }});
    }

    ~LiveRun() { writer_.set_hooks({}); }
    LiveRun(const LiveRun&) = delete;
    LiveRun& operator=(const LiveRun&) = delete;

    // Reads what runtop has printed, without waiting.
    void pump() {
        for (std::size_t size = ~std::size_t{0}; size != follower_.out().size() && !dead_;) {
            size = follower_.out().size();
            follower_.read_some(0);
        }
    }

    // Keeps runtop busy until release(): with its output unread, runtop blocks on its full
    // stdout pipe writing the lines of a block appended to the busy file, in the middle of a
    // turn of its loop, and only looks at the files again once released. Whatever the test does
    // meanwhile, runtop sees only the outcome, however fast it would otherwise react.
    void hold() {
        if (dead_) return;
        writer_.append_block(busy_, 400);  // ~120 KB of output: more than a pipe holds
        auto start = Clock::now();
        while (!follower_.output_pipe_full()) {
            if (ms_since(start) > 10000) {
                std::printf(
                    "[fault] runtop's output pipe did not fill within 10 s: this operation's "
                    "timing is not forced\n");
                return;
            }
            sleep_ms(1);  // nothing to wait on: a pipe says when it has room, not when it is full
        }
    }
    void release() {
        while (!dead_ && follower_.output_pipe_full()) follower_.read_some(100);
    }

    // Waits until the output holds every point written so far.
    void sync(const char* when) {
        if (dead_) return;
        auto last_growth = Clock::now();
        std::size_t size = follower_.out().size();
        for (;;) {
            tally_.feed(follower_.out());
            const std::size_t waiting = tally_.waiting();
            if (waiting == 0) return;
            if (ms_since(last_growth) > stall_ms_) {
                std::printf(
                    "[fault] sync %s: %zu written points not printed after %d ms without "
                    "output; going on (they count as lost unless printed later), e.g.%s\n",
                    when, waiting, stall_ms_, tally_.give_up().c_str());
                stall_ms_ = kStallAfterLossMs;
                return;
            }
            if (!follower_.read_some(100)) {
                dead_ = true;
                ADD_FAILURE() << "runtop dump --follow closed its output " << when << "\n"
                              << clipped(follower_.err());
                return;
            }
            if (follower_.out().size() != size) {
                size = follower_.out().size();
                last_growth = Clock::now();
            }
        }
    }

    // Waits for every point, then a little longer for late duplicates; stops runtop and
    // compares. Prints the scenario's summary line.
    Comparison finish(const std::string& scenario, std::uint64_t seed) {
        sync("at the end");
        // Late duplicates: a file read twice shows within a few of runtop's looks.
        const int quiet = std::max(300, 3 * mode_.interval_ms);
        for (auto start = Clock::now(); !dead_ && ms_since(start) < quiet;)
            follower_.read_some(quiet - ms_since(start));
        const int code = follower_.stop();
        tally_.feed(follower_.out());
        Comparison c = tally_.compare();
        std::printf("[fault] %s\n", c.summary(scenario, mode_.name).c_str());
        EXPECT_TRUE(c.exact()) << c.summary(scenario, mode_.name) << c.examples
                               << "\nseed: RUNTOP_FAULT_SEED=" << base_seed() << " (test seed "
                               << seed << ")\nruntop dump --follow stderr:\n"
                               << clipped(follower_.err());
        EXPECT_EQ(code, 0) << clipped(follower_.err());
        return c;
    }

    const std::string& err() const { return follower_.err(); }

  private:
    FaultWriter& writer_;
    Mode mode_;
    int busy_;
    Follower follower_;
    DumpTally tally_;
    int stall_ms_ = stall_ms();
    bool dead_ = false;
};

// One-shot `runtop dump --format jsonl` of the tree against what its files hold now.
testing::CommandResult check_one_shot_dump(const std::string& scenario, const std::string& root,
                                           const std::vector<LedgerPoint>& expected,
                                           const testing::RunOptions& options = {}) {
    testing::CommandResult r = testing::run_runtop({"dump", "--format", "jsonl", root}, options);
    DumpTally tally(expected);
    tally.feed(r.out);
    Comparison c = tally.compare();
    std::printf("[fault] %s\n", c.summary(scenario, "one-shot").c_str());
    EXPECT_TRUE(c.exact()) << c.summary(scenario, "one-shot") << c.examples
                           << "\nruntop dump stderr:\n"
                           << clipped(r.err);
    EXPECT_EQ(r.exit_code, 0) << clipped(r.err);
    return r;
}

class FaultLive : public ::testing::TestWithParam<Mode> {
  protected:
    void SetUp() override {
        const Mode& mode = GetParam();
        seed_ = seed_for(::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::printf("[fault] seed: RUNTOP_FAULT_SEED=%llu (test seed %llu)\n",
                    static_cast<unsigned long long>(base_seed()),
                    static_cast<unsigned long long>(seed_));
        writer_ = std::make_unique<FaultWriter>(root_, dir_ / "outside", seed_);
        // Poll mode must see torn records too: pauses up to 1.5 of its intervals.
        writer_->set_split(0.3, mode.interval_ms * 3 / 2);
    }

    FaultWriter& w() { return *writer_; }
    const Mode& mode() const { return GetParam(); }

    std::vector<int> event_ranks(int n) {
        std::vector<int> s;
        for (int r = 0; r < n; ++r)
            s.push_back(w().add_event_stream("rank" + std::to_string(r), "root", r));
        return s;
    }
    int lightning_csv() {
        return w().add_csv_stream("lightning/version_0", "root/lightning/version_0");
    }

    // `records` records over `streams`, `gap_ms` apart, each maybe split; halves land when due.
    void write_spread(const std::vector<int>& streams, int records, int gap_ms = 2) {
        for (int i = 0; i < records;) {
            w().tick();
            std::vector<int> ready;
            for (int s : streams)
                if (!w().half_pending(s)) ready.push_back(s);
            if (ready.empty()) {
                sleep_ms(1);
                continue;
            }
            w().append_split(
                ready[static_cast<std::size_t>(w().random(0, static_cast<int>(ready.size()) - 1))]);
            ++i;
            sleep_ms(gap_ms);
        }
        for (;;) {
            w().tick();
            bool pending = false;
            for (int s : streams) pending = pending || w().half_pending(s);
            if (!pending) return;
            sleep_ms(1);
        }
    }
    // The i-th operation's stream, in turn: every stream gets each fault.
    static int each(const std::vector<int>& streams, int i) {
        return streams[static_cast<std::size_t>(i) % streams.size()];
    }
    int pick(const std::vector<int>& streams) {
        return streams[static_cast<std::size_t>(
            w().random(0, static_cast<int>(streams.size()) - 1))];
    }

    TempDir dir_;
    std::string root_ = dir_ / "root";  // runtop names the run "root"
    std::uint64_t seed_ = 0;
    std::unique_ptr<FaultWriter> writer_;
};

// Appends, a third of the records split at a random byte with a pause between the halves.
TEST_P(FaultLive, SplitAppends) {
    std::vector<int> streams = event_ranks(4);
    streams.push_back(lightning_csv());
    LiveRun run(w(), root_, mode());
    write_spread(streams, sized(250, 40));
    run.finish("split appends", seed_);
}

// Rotation out of the root: a burst right after runtop caught up, then rename away and a new
// file with the same name. The renamed file's tail must still be read (runtop holds it open).
TEST_P(FaultLive, RotateOut) {
    std::vector<int> streams = event_ranks(2);
    streams.push_back(lightning_csv());
    LiveRun run(w(), root_, mode());
    for (int i = 0; i < sized(6, 50); ++i) {
        write_spread(streams, 10);
        w().rotate_out(each(streams, i), w().random(1, 5));
    }
    write_spread(streams, 10);
    run.finish("rotate out", seed_);
}

// Rotation within the directory: "<name>" renamed to "<name>.old", a new "<name>". The renamed
// file keeps its identity: nothing read twice. Afterwards a one-shot dump keeps every step.
TEST_P(FaultLive, RotateIn) {
    std::vector<int> streams = event_ranks(4);
    LiveRun run(w(), root_, mode());
    write_spread(streams, 40);
    for (int s : streams) {
        w().rotate_in(s, w().random(1, 5));
        write_spread(streams, 10);
    }
    write_spread(streams, 30);
    run.finish("rotate in", seed_);
    const std::vector<LedgerPoint> on_disk = w().on_disk();
    check_one_shot_dump("rotate in, then dump", root_, on_disk);
}

// Truncated to 0 and at once rewritten past the old size with new records.
TEST_P(FaultLive, TruncateRewriteAtOnce) {
    std::vector<int> streams = event_ranks(2);
    streams.push_back(lightning_csv());
    LiveRun run(w(), root_, mode());
    for (int i = 0; i < sized(6, 50); ++i) {
        write_spread(streams, 12);
        w().truncate_rewrite(each(streams, i));
    }
    write_spread(streams, 10);
    run.finish("truncate+rewrite at once", seed_);
}

// Truncated, a pause runtop can see, then rewritten (shorter or longer than before).
TEST_P(FaultLive, TruncatePauseRewrite) {
    std::vector<int> streams = event_ranks(2);
    streams.push_back(lightning_csv());
    LiveRun run(w(), root_, mode());
    for (int i = 0; i < sized(6, 50); ++i) {
        write_spread(streams, 12);
        w().truncate_pause_rewrite(each(streams, i), 3 * mode().interval_ms);
    }
    write_spread(streams, 10);
    run.finish("truncate, pause, rewrite", seed_);
}

// A rank directory deleted with its files; the rank comes back later in a new one.
TEST_P(FaultLive, DeleteRankDir) {
    std::vector<int> streams = event_ranks(4);
    LiveRun run(w(), root_, mode());
    for (int i = 0; i < sized(4, 50); ++i) {
        write_spread(streams, 30);
        w().delete_dir(streams[static_cast<std::size_t>(1 + i % 3)]);
    }
    write_spread(streams, 30);
    run.finish("delete rank dir", seed_);
}

// Garbage bytes, records failing their data or length checksum (CSV: lines that are no row),
// each followed by valid records that must all be read.
TEST_P(FaultLive, CorruptRecords) {
    std::vector<int> streams = event_ranks(2);
    streams.push_back(lightning_csv());
    LiveRun run(w(), root_, mode());
    for (int i = 0; i < sized(9, 50); ++i) {
        write_spread(streams, 10);
        w().corrupt(each(streams, i / 3), static_cast<Corruption>(i % 3));
    }
    write_spread(streams, 10);
    run.finish("corrupt records", seed_);
}

// A length header claiming 2^28+5 or 2^34 bytes with a valid length checksum, then 1000 valid
// records: a length past the format's limit is corruption to resync from, not a record to wait
// for.
TEST_P(FaultLive, OversizedValidCrcHeaders) {
    std::vector<int> streams = event_ranks(2);
    LiveRun run(w(), root_, mode());
    write_spread(streams, 10);
    w().oversized_header(streams[0], (std::uint64_t{1} << 28) + 5);
    w().oversized_header(streams[1], std::uint64_t{1} << 34);
    for (int i = 0; i < 10; ++i)
        for (int s : streams) w().append(s, 100);
    run.finish("oversized valid-CRC header", seed_);
}

// A CSV line over 1 MiB without a newline for a while, then the newline and valid rows.
TEST_P(FaultLive, LongCsvLine) {
    const int csv = w().add_csv_stream("", "root");
    LiveRun run(w(), root_, mode());
    write_spread({csv}, 20);
    w().long_line(csv, (std::size_t{3} << 20) / 2, 6, mode().interval_ms);
    write_spread({csv}, 20);
    run.finish("CSV line > 1 MiB", seed_);
}

// msProbe's default: one CSV per step per rank, in nested run directories, with the follower's
// descriptors limited to 256; half the files exist before it starts, half arrive while it runs.
std::vector<int> msprobe_ranks(FaultWriter& w, int jobs, int ranks) {
    std::vector<int> streams;
    for (int j = 0; j < jobs; ++j)
        for (int r = 0; r < ranks; ++r) {
            const std::string job = "job" + std::to_string(j);
            const std::string run_dir = msprobe::run_dir_name(
                1'700'000'000 + j, r, 0xad82d4e3u + static_cast<std::uint32_t>(r));
            streams.push_back(w.add_msprobe_stream(job + "/" + run_dir, "root/" + job, r));
        }
    return streams;
}

TEST_P(FaultLive, ThousandsOfFiles) {
    const std::vector<int> streams = msprobe_ranks(w(), 2, 4);
    const int steps = sized(3000, 33) / static_cast<int>(streams.size());  // 3,000 / ~100,000
    for (int s : streams) w().append(s, steps / 2);
    LiveRun run(w(), root_, mode(), 256);
    for (int i = steps / 2; i < steps; ++i)
        for (int s : streams) w().append(s, 1);
    run.finish("thousands of files", seed_);
    EXPECT_EQ(run.err().find("Too many open files"), std::string::npos) << clipped(run.err());
}

// Everything at once on 4 ranks and a metrics.csv, for a few seconds (a soak: for longer).
TEST_P(FaultLive, MixedChurn) {
    std::vector<int> ranks = event_ranks(4);
    std::vector<int> all = ranks;
    all.push_back(lightning_csv());
    LiveRun run(w(), root_, mode());
    const int duration_ms = soak_seconds() > 0 ? soak_seconds() * 1000 : 4000;
    std::size_t ops = 0;
    for (auto start = Clock::now(); ms_since(start) < duration_ms; ++ops) {
        w().tick();
        const int roll = w().random(0, 99);
        const int s = pick(all);
        if (roll < 60) {
            if (!w().half_pending(s)) w().append_split(s);
        } else if (roll < 70) {
            w().append(s, w().random(1, 5));
        } else if (roll < 74) {
            w().rotate_out(s, w().random(1, 5));
        } else if (roll < 77) {
            w().rotate_in(pick(ranks), w().random(1, 5));
        } else if (roll < 80) {
            w().truncate_rewrite(s);
        } else if (roll < 82) {
            w().truncate_pause_rewrite(s, 3 * mode().interval_ms);
        } else if (roll < 84) {
            w().delete_dir(s);
        } else if (roll < 92) {
            w().corrupt(s, static_cast<Corruption>(w().random(0, 2)));
            w().append(s, 1);
        } else if (roll < 94) {
            w().oversized_header(pick(ranks), w().random(0, 1) ? (std::uint64_t{1} << 28) + 5
                                                               : std::uint64_t{1} << 34);
        } else {
            sleep_ms(mode().interval_ms);  // quiet now and then, as between steps
        }
        sleep_ms(2);
    }
    w().complete_all();
    std::printf("[fault] mixed churn: %zu operations in %d ms\n", ops, duration_ms);
    run.finish("mixed churn", seed_);
}

INSTANTIATE_TEST_SUITE_P(Modes, FaultLive, ::testing::Values(kInotify, kPoll),
                         [](const auto& info) { return info.param.name; });

// ---- The same faults, read once.

// `check` on event files with an oversized valid-CRC header reads the 1000 records after it
// and warns; `dump` prints every point.
TEST(FaultOneShot, CheckReadsPastOversizedValidCrcHeaders) {
    TempDir dir;
    const std::string root = dir / "root";
    FaultWriter w(root, dir / "outside", seed_for("oversized one-shot"));
    std::vector<std::string> paths;
    for (int r = 0; r < 2; ++r) {
        const int s = w.add_event_stream("rank" + std::to_string(r), "root", r);
        w.append(s, 1);
        w.oversized_header(s, r == 0 ? (std::uint64_t{1} << 28) + 5 : std::uint64_t{1} << 34);
        w.append(s, 1000);
        paths.push_back(w.path_of(s));
    }
    testing::CommandResult check = testing::run_runtop({"check", root});
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        check.err, m,
        std::regex(R"((\d+) points (?:read )?from (\d+) files;[^\n]*?(\d+) warning)")))
        << check.err;
    std::printf("[fault] oversized valid-CRC header: check read %s of %zu points, %s warnings\n",
                m[1].str().c_str(), w.ledger().size(), m[3].str().c_str());
    EXPECT_EQ(std::stoul(m[1].str()), w.ledger().size()) << check.err;
    EXPECT_GE(std::stoul(m[3].str()), 2u) << check.err;
    for (const std::string& p : paths)
        EXPECT_NE(check.err.find(p), std::string::npos) << "no warning names " << p << "\n"
                                                        << check.err;
    EXPECT_NE(check.exit_code, 2) << check.err;
    check_one_shot_dump("oversized header, dump", root, w.ledger());
}

// A 200 MB CSV line: `ls` skips it in bounded memory (a regression test against reading a
// whole line, however long, into memory) and reads the rows after it. A forked child's peak
// RSS (wait4's ru_maxrss) includes this process's pages as of the fork, and a sanitizer build
// starts at ~110 MB: the bound is over `ls` of the same file with a short line, both forked
// from this process in the same state.
TEST(FaultOneShot, LsOfAHugeCsvLineStaysSmall) {
    TempDir dir;
    const std::size_t lines[2] = {10, std::size_t{200} << 20};
    for (std::size_t line : lines) {
        const std::string root = dir / ("root" + std::to_string(line));
        FaultWriter w(root, dir / "outside", seed_for("long line one-shot"));
        const int csv = w.add_csv_stream("", "root");
        w.append(csv, 10);
        w.long_line(csv, line, 1, 0);
        w.append(csv, 10);
    }
    long peak_kb[2];
    for (int i = 0; i < 2; ++i) {
        const std::string root = "root=" + (dir / ("root" + std::to_string(lines[i])));
        testing::CommandResult ls = testing::run_runtop({"ls", "--format", "csv", root});
        EXPECT_NE(ls.out.find("root,,train_loss,20,"), std::string::npos) << ls.out << ls.err;
        peak_kb[i] = ls.max_rss_kb;
    }
    std::printf("[fault] 200 MB CSV line: runtop ls peak RSS %ld MB (%ld MB with a short line)\n",
                peak_kb[1] / 1024, peak_kb[0] / 1024);
    EXPECT_LT(peak_kb[1] - peak_kb[0], 100 * 1024)
        << "KB more for the long line: it was read into memory whole";
}

// 3,000 msProbe CSVs with RLIMIT_NOFILE at 256: every point, and no "Too many open files".
TEST(FaultOneShot, DumpReadsThousandsOfFilesWithFewDescriptors) {
    TempDir dir;
    const std::string root = dir / "root";
    FaultWriter w(root, dir / "outside", seed_for("thousands one-shot"));
    const std::vector<int> streams = msprobe_ranks(w, 2, 4);
    const int steps = sized(3000, 33) / static_cast<int>(streams.size());
    for (int s : streams) w.append(s, steps);
    testing::RunOptions few;
    few.max_open_files = 256;
    testing::CommandResult r = check_one_shot_dump("thousands of files", root, w.ledger(), few);
    EXPECT_EQ(r.err.find("Too many open files"), std::string::npos) << clipped(r.err);
}

}  // namespace
}  // namespace runtop
