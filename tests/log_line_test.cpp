// Lines of a text log made ready for the formats: CRLF, tqdm's '\r' redraws, ANSI colours and
// launcher prefixes (srun --label, torchrun, Open MPI), as LOGS.md §0 and §10 describe them.
#include "readers/log_line.h"

#include <gtest/gtest.h>

#include <string>

namespace runtop {
namespace {

LogLine clean(std::string_view raw, std::string& scratch) {
    return clean_log_line(raw, scratch);
}

TEST(LogLine, PlainLinesPassAsTheyAre) {
    std::string scratch;
    const LogLine l = clean("iter 10: loss 2.5000, time 12.00ms", scratch);
    EXPECT_EQ(l.text, "iter 10: loss 2.5000, time 12.00ms");
    EXPECT_EQ(l.rank, -1);
    EXPECT_EQ(clean("a line\r", scratch).text, "a line") << "CRLF";
    EXPECT_EQ(clean("", scratch).text, "");
}

TEST(LogLine, ARedrawnLineIsWhatWasLeftOnScreen) {
    std::string scratch;
    EXPECT_EQ(clean(" 10%|#    | 1/10\r 20%|##   | 2/10\r", scratch).text, " 20%|##   | 2/10");
    EXPECT_EQ(clean("first\rsecond", scratch).text, "second");
    EXPECT_EQ(clean("\r\r", scratch).text, "");
    // The prefix torchrun put before the whole line names the rank of its redraws.
    const LogLine l = clean("[default2]:Epoch 0:  5%|5| 1/20\rEpoch 0: 10%|1| 2/20", scratch);
    EXPECT_EQ(l.text, "Epoch 0: 10%|1| 2/20");
    EXPECT_EQ(l.rank, 2);
}

TEST(LogLine, AnsiEscapesAreCutOut) {
    std::string scratch;
    EXPECT_EQ(clean("\x1b[32m[INFO]\x1b[0m loss: \x1b[1;31m2.5\x1b[0m", scratch).text,
              "[INFO] loss: 2.5");
    const LogLine coloured = clean("\x1b[36m[rank3]:\x1b[0mstep 4", scratch);
    EXPECT_EQ(coloured.text, "step 4");
    EXPECT_EQ(coloured.rank, 3);
    EXPECT_EQ(clean("an ESC alone \x1b at the end \x1b", scratch).text,
              "an ESC alone \x1b at the end \x1b");
}

TEST(LogLine, LauncherPrefixesGiveTheRank) {
    struct Case {
        std::string_view raw;
        std::string_view text;
        int rank;
    };
    const Case cases[] = {
        {"3: iteration 1/ 10 |", "iteration 1/ 10 |", 3},  // srun --label
        {" 7: x", "x", 7},                                 // padded to the widest id
        {"12: x", "x", 12},                                //
        {"P1 4: x", "x", 4},                               // heterogeneous job
        {"[default3]: [2026-09-11 12:06:52] iteration", " [2026-09-11 12:06:52] iteration", 3},
        {"[rank5]:step: 3", "step: 3", 5},      // torchrun --role rank
        {"[1,3]<stdout>:loss 2", "loss 2", 3},  // Open MPI --tag-output
        {"[1,6]:loss 2", "loss 2", 6},          // Open MPI 5
        {"0: [default3]:x", "x", 3},            // stacked: the innermost
        {"[INFO] 2026-11-21 06:39:34,619 x", "[INFO] 2026-11-21 06:39:34,619 x", -1},
        {"[2025-08-01 07:19:37] iteration", "[2025-08-01 07:19:37] iteration", -1},
        {"3:x", "3:x", -1},  // no space: not a label
        {"10 : x", "10 : x", -1},
        {"[3]: x", " x", 3},  // a prefix template may leave the role out
    };
    for (const Case& c : cases) {
        std::string scratch;
        const LogLine l = clean(c.raw, scratch);
        EXPECT_EQ(l.text, c.text) << c.raw;
        EXPECT_EQ(l.rank, c.rank) << c.raw;
    }
}

}  // namespace
}  // namespace runtop
