// Training logs through the real binary: `runtop formats` and `formats --test`, a user's format
// directory ($XDG_CONFIG_HOME/runtop/formats) with its errors, --log-format, and the demo's logs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::make_dirs;
using testing::run_runtop;
using testing::TempDir;
using testing::write_file;

// XDG_CONFIG_HOME for the children of one test.
class ConfigHome {
  public:
    explicit ConfigHome(const std::string& dir) {
        if (const char* old = std::getenv("XDG_CONFIG_HOME")) old_ = old;
        ::setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
    }
    ~ConfigHome() {
        if (old_.empty())
            ::unsetenv("XDG_CONFIG_HOME");
        else
            ::setenv("XDG_CONFIG_HOME", old_.c_str(), 1);
    }

  private:
    std::string old_;
};

const char* const kMegatronLines =
    "0: > building GPT model ...\n"
    "0:  [2025-08-01 07:19:37] iteration        1/    5000 | consumed samples:          128 | "
    "elapsed time per iteration (ms): 19138.8 | learning rate: 6.976744E-08 | global batch "
    "size:   128 | lm loss: 1.043863E+01 | loss scale: 1.0 | grad norm: 26.203 | number of "
    "skipped iterations:   0 | number of nan iterations:   0 |\n"
    "0:  [2025-08-01 07:19:56] iteration        2/    5000 | consumed samples:          256 | "
    "lm loss: 1.040001E+01 | loss scale: 1.0 | grad norm: 25.5 | number of skipped iterations: "
    "  0 | number of nan iterations:   0 |\n";

TEST(FormatsCli, ListsEveryFormatWithItsDescription) {
    TempDir home;
    ConfigHome config(home.path());
    const auto r = run_runtop({"formats"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* name : {"mindformers", "megatron", "nemo", "deepspeed", "torchtitan",
                             "hf-trainer", "msprobe-alarm", "nanogpt"})
        EXPECT_NE(r.out.find(std::string("\n") + name + " "), std::string::npos) << name;
    EXPECT_NE(r.out.find(home.path() + "/runtop/formats"), std::string::npos) << r.out;
    EXPECT_EQ(r.err, "");
}

TEST(FormatsCli, TestShowsWhatEachLineYields) {
    TempDir dir;
    write_file(dir / "slurm-7.out", kMegatronLines);
    const auto r = run_runtop({"formats", "--test", dir / "slurm-7.out"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("2: megatron step 1 rank 0 | consumed samples=128 | elapsed time per "
                         "iteration (ms)=19138.8 | learning rate=6.976744e-08"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("3: megatron step 2 rank 0 |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("lm loss=10.40001"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("1: "), std::string::npos) << r.out;  // the model line yields nothing
    EXPECT_NE(r.out.find(": 3 lines, 2 matched (megatron 2)"), std::string::npos) << r.out;

    write_file(dir / "README.txt", "nothing to see\n");
    const auto none = run_runtop({"formats", "--test", dir / "README.txt"});
    EXPECT_EQ(none.exit_code, 1);
    EXPECT_NE(none.out.find("no format matched"), std::string::npos) << none.out;
    const auto missing = run_runtop({"formats", "--test", dir / "absent.log"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find(dir / "absent.log"), std::string::npos) << missing.err;
}

TEST(FormatsCli, AUserFormatIsReadAndABrokenOneIsOneLineNamingIt) {
    TempDir home;
    make_dirs(home / "runtop/formats");
    write_file(home / "runtop/formats/mine.json",
               R"json({"name": "mine", "description": "my training loop",
  "require": ["epoch "],
  "line": "^epoch \\d+ batch (?P<step>\\d+):",
  "metrics": [{"pairs": "(?P<name>[a-z_]+)=(?P<value>{NUM})"}]})json");
    write_file(home / "runtop/formats/broken.json",
               "{\"name\": \"broken\",\n \"line\": \"(?P<step>\\\\d+\",\n \"metrics\": []}");
    ConfigHome config(home.path());

    const auto list = run_runtop({"formats"});
    ASSERT_EQ(list.exit_code, 0);
    EXPECT_NE(list.out.find("mine "), std::string::npos);
    EXPECT_LT(list.out.find("mine "), list.out.find("mindformers "));  // yours first
    EXPECT_NE(list.out.find(home / "runtop/formats/mine.json"), std::string::npos);
    EXPECT_NE(list.err.find(home / "runtop/formats/broken.json:2: 'line' is not a valid RE2"),
              std::string::npos)
        << list.err;

    TempDir run;
    write_file(run / "train.log",
               "epoch 1 batch 10: loss=0.5 acc=0.75\nepoch 1 batch 20: loss=0.25\n");
    const auto ls = run_runtop({"ls", "--format", "csv", run.path()});
    ASSERT_EQ(ls.exit_code, 0) << ls.err;
    EXPECT_NE(ls.out.find(",loss,2,10,20,0.25,mine\n"), std::string::npos) << ls.out;
    EXPECT_NE(ls.out.find(",acc,1,10,10,0.75,mine\n"), std::string::npos) << ls.out;
    // The broken file: one line, naming it, once.
    const std::string said = home / "runtop/formats/broken.json:2:";
    const std::size_t at = ls.err.find(said);
    ASSERT_NE(at, std::string::npos) << ls.err;
    EXPECT_EQ(ls.err.find(said, at + 1), std::string::npos) << ls.err;
}

TEST(FormatsCli, LogFormatForcesOneFormat) {
    TempDir home;
    ConfigHome config(home.path());
    TempDir run;
    std::string text;
    while (text.size() < 100 * 1024) text += "a long preamble that is no metric line\n";
    text += "iter 5: loss 1.5, time 10.00ms, mfu 20.00%\n";
    write_file(run / "notes.txt", text);
    // Without it the file's sample matched nothing: left alone.
    const auto sampled = run_runtop({"ls", "--format", "csv", run.path()});
    EXPECT_EQ(sampled.out.find(",loss,"), std::string::npos) << sampled.out;
    const auto forced =
        run_runtop({"ls", "--format", "csv", "--log-format", "nanogpt", run.path()});
    ASSERT_EQ(forced.exit_code, 0) << forced.err;
    EXPECT_NE(forced.out.find(",loss,1,5,5,1.5,nanogpt\n"), std::string::npos) << forced.out;
    const auto unknown = run_runtop({"ls", "--log-format", "nanogtp", run.path()});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("no format named 'nanogtp'"), std::string::npos) << unknown.err;
}

// `make run`'s demo writes training logs too: Megatron's job output (the last rank prints) and
// MindFormers' rank logs, read like the rest.
TEST(FormatsCli, TheDemoWritesMegatronAndMindFormersLogs) {
    TempDir dir;
    ASSERT_EQ(run_runtop({"demo", "--no-ui", "--rate", "0", "--ranks", "2", "--steps", "30",
                          "--dir", dir / "demo"})
                  .exit_code,
              0);
    const auto r = run_runtop({"ls", "--format", "csv", dir / "demo"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The NaN step (70 % in) leaves the loss out of Megatron's line and counts a nan iteration.
    EXPECT_NE(r.out.find("demo,1,lm loss,29,1,30,"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("demo,1,number of nan iterations,30,1,30,"), std::string::npos);
    for (const char* rank : {"0", "1"}) {
        EXPECT_NE(r.out.find(std::string("demo/output/log,") + rank + ",loss,30,1,30,"),
                  std::string::npos)
            << r.out;
        EXPECT_NE(r.out.find(std::string("demo/output/log,") + rank +
                             ",local_norm/model.layers.0.attention.wq.weight,30,1,30,"),
                  std::string::npos);
    }
}

}  // namespace
}  // namespace runtop
