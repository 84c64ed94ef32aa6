// Blocks of text made on several threads come out whole and in block order, never more than
// a few ahead of the one written; `ls` prints the same bytes on one CPU as on all of them.
#include "app/ordered_blocks.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_support.h"

namespace runtop {
namespace {

// Uneven work: a block's text is its number repeated, more of it for some blocks.
void make_block(std::size_t b, std::string& text) {
    const std::size_t repeats = 1 + (b * 7919) % 97 * 40;
    for (std::size_t i = 0; i < repeats; ++i) text += std::to_string(b) + ',';
    text += '\n';
}

TEST(OrderedBlocks, EveryBlockComesOnceInOrderWithItsOwnText) {
    for (std::size_t threads : {1u, 2u, 3u, 8u}) {
        for (std::size_t count : {0u, 1u, 2u, 5u, 64u, 301u}) {
            std::atomic<std::size_t> emitted{0};
            std::atomic<std::size_t> most_ahead{0};
            std::mutex made_mutex;
            std::set<std::size_t> made;
            std::vector<std::string> out;
            make_in_order(
                count, threads,
                [&](std::size_t b, std::string& text) {
                    EXPECT_TRUE(text.empty()) << "block " << b;
                    const std::size_t ahead = b - std::min(b, emitted.load());
                    std::size_t seen = most_ahead.load();
                    while (ahead > seen && !most_ahead.compare_exchange_weak(seen, ahead)) {
                    }
                    {
                        std::lock_guard lock(made_mutex);
                        EXPECT_TRUE(made.insert(b).second) << "block " << b << " made twice";
                    }
                    make_block(b, text);
                },
                [&](std::string& text) {
                    out.push_back(text);
                    ++emitted;
                });
            ASSERT_EQ(out.size(), count) << threads << " threads";
            for (std::size_t b = 0; b < count; ++b) {
                std::string expected;
                make_block(b, expected);
                EXPECT_EQ(out[b], expected) << threads << " threads, block " << b;
            }
            // Blocks are made at most 2 * threads past the one being written.
            EXPECT_LE(most_ahead.load(), 2 * threads) << threads << " threads";
        }
    }
}

TEST(OrderedBlocks, PartsCoverTheRangeOnce) {
    for (std::size_t threads : {1u, 2u, 5u}) {
        for (std::size_t count : {0u, 1u, 3u, 1000u}) {
            std::vector<std::atomic<int>> hits(count);
            std::atomic<std::size_t> parts{0};
            in_parts(count, threads, [&](std::size_t, std::size_t begin, std::size_t end) {
                ++parts;
                for (std::size_t i = begin; i < end; ++i) ++hits[i];
            });
            for (std::size_t i = 0; i < count; ++i) EXPECT_EQ(hits[i].load(), 1) << i;
            EXPECT_EQ(parts.load(), std::max<std::size_t>(1, std::min(threads, count)));
        }
    }
}

// Runs `args` on every CPU and on one: the same output, exit 0. Returns the stderr of the run
// on every CPU.
std::string same_on_one_cpu(const std::vector<std::string>& args) {
    testing::RunOptions one;
    one.cpus = 1;
    const testing::CommandResult all = testing::run_runtop(args);
    const testing::CommandResult single = testing::run_runtop(args, one);
    EXPECT_EQ(all.exit_code, 0) << all.err;
    EXPECT_EQ(single.exit_code, 0) << single.err;
    EXPECT_EQ(all.out, single.out) << args[0] << " " << args[2];
    return all.err;
}

// More series than one block of rows (4096), formatted on every CPU, are listed byte for byte
// as on one.
TEST(OrderedBlocks, LsPrintsTheSameOnOneCpuAsOnAll) {
    if (testing::usable_cpus() < 2) GTEST_SKIP() << "one CPU: nothing to compare";
    testing::TempDir dir;
    testing::make_dirs(dir / "run");
    std::string header = "step", rows[3];
    for (int c = 0; c < 9000; ++c) header += ",metric_" + std::to_string(c);
    for (int r = 0; r < 3; ++r) {
        rows[r] = std::to_string(r);
        for (int c = 0; c < 9000; ++c) rows[r] += "," + std::to_string((c * 31 + r) % 1000) + ".5";
    }
    testing::write_file(dir / "run/metrics.csv",
                        header + "\n" + rows[0] + "\n" + rows[1] + "\n" + rows[2] + "\n");
    for (const char* format : {"text", "csv"})
        EXPECT_NE(same_on_one_cpu({"ls", "--format", format, dir.path()}).find("9000 series"),
                  std::string::npos);
}

// dump cuts a series longer than a block (32k points) and packs short ones together: every
// point comes once, in step order within its series, series in key order, the same bytes on
// one CPU as on all.
TEST(OrderedBlocks, DumpPrintsEveryPointOnceInOrderOnAnyNumberOfCpus) {
    testing::TempDir dir;
    testing::make_dirs(dir / "run");
    constexpr int kLong = 70000;  // each long series spans three blocks
    std::string csv = "step,a_long,b_long,c_short\n";
    for (int s = 0; s < kLong; ++s)
        csv += std::to_string(s) + "," + std::to_string(s) + ".25," + std::to_string(-s) + ".5," +
               (s < 3 ? std::to_string(s * 10) : std::string()) + "\n";
    testing::write_file(dir / "run/metrics.csv", csv);
    testing::write_file(dir / "run/other.csv", "step,z\n1,1.5\n2,nan\n3,inf\n");
    for (const char* format : {"csv", "jsonl"})
        same_on_one_cpu({"dump", "--format", format, dir.path()});
    const std::string out = testing::run_runtop({"dump", dir.path()}).out;
    std::istringstream lines(out);
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line, "run,rank,tag,step,wall_time,value");
    // tag -> the steps and values seen, in order
    std::vector<std::string> tags;
    std::map<std::string, std::vector<std::pair<long, std::string>>> seen;
    while (std::getline(lines, line)) {
        std::vector<std::string> cells;
        std::istringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
        ASSERT_EQ(cells.size(), 6u) << line;
        if (tags.empty() || tags.back() != cells[2]) tags.push_back(cells[2]);
        seen[cells[2]].emplace_back(std::stol(cells[3]), cells[5]);
    }
    EXPECT_EQ(tags, (std::vector<std::string>{"a_long", "b_long", "c_short", "z"}));
    ASSERT_EQ(seen["a_long"].size(), static_cast<std::size_t>(kLong));
    ASSERT_EQ(seen["b_long"].size(), static_cast<std::size_t>(kLong));
    for (int s = 0; s < kLong; ++s) {
        EXPECT_EQ(seen["a_long"][s], std::make_pair(long{s}, std::to_string(s) + ".25"));
        EXPECT_EQ(seen["b_long"][s].second, (s ? "-" : "") + std::to_string(s) + ".5");
    }
    EXPECT_EQ(seen["c_short"].size(), 3u);
    EXPECT_EQ(seen["z"],
              (std::vector<std::pair<long, std::string>>{{1, "1.5"}, {2, "nan"}, {3, "inf"}}));
}

}  // namespace
}  // namespace runtop
