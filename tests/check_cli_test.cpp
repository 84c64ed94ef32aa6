// `runtop check` as scripts use it (DESIGN.md §4): anomalies first failure first, text and JSON,
// exit 0 (none), 1 (found), 2 (error), --rules, --filter, --ranks, the user's rules file.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "tests/test_support.h"
#include "tests/view_fixture.h"
#include "writers/event_writer.h"
#include "writers/msprobe_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using nlohmann::json;
using testing::run_runtop;
using testing::TempDir;

// (rank, tag, step, rule, source) of every anomaly in check's JSON.
using Found = std::tuple<int, std::string, long, std::string, std::string>;
std::vector<Found> found(const std::string& out) {
    std::vector<Found> all;
    const json doc = json::parse(out);
    for (const json& a : doc.at("anomalies"))
        all.emplace_back(a["rank"].is_null() ? -1 : a["rank"].get<int>(), a["tag"], a["step"],
                         a["rule"], a["source"]);
    return all;
}

// A healthy run: a decaying noisy loss, a warmup-then-decay lr, a lognormal grad norm.
std::string healthy_events(int steps, int nan_at = -1, int spike_at = -1) {
    std::string bytes;
    testing::FixtureNoise noise(42);
    for (int s = 0; s < steps; ++s) {
        double loss = (0.6 + 2.5 * std::exp(-s / 400.0)) * std::exp(0.05 * noise());
        double grad = 1.2 * std::exp(0.3 * noise());
        double lr = s < 100 ? 1e-3 * s / 100 : 1e-3 * (1 - (s - 100.0) / steps);
        if (s == nan_at) loss = std::nan("");
        if (s == spike_at) grad *= 30;
        bytes += testing::training_step_records(s, loss, grad, lr);
    }
    return bytes;
}

class Check : public ::testing::Test {
  protected:
    void SetUp() override {
        // Never pick up the rules of whoever runs the tests.
        ::setenv("XDG_CONFIG_HOME", (dir_ / "config").c_str(), 1);
    }
    // Writes `bytes` to `relative` under the test's directory, making its parents.
    void write(const std::string& relative, const std::string& bytes) {
        const std::string path = dir_ / relative;
        testing::make_dirs(path.substr(0, path.rfind('/')));
        testing::write_file(path, bytes);
    }
    TempDir dir_;
};

TEST_F(Check, HealthyRunIsSilentAndExitsZero) {
    write("run/events.out.tfevents.1", healthy_events(2000));
    auto text = run_runtop({"check", dir_.path()});
    EXPECT_EQ(text.exit_code, 0) << text.err;
    EXPECT_EQ(text.out, "");
    EXPECT_NE(text.err.find("0 incidents (0 major, 0 minor), 0 conditions; from 0 anomalies"),
              std::string::npos)
        << text.err;
    EXPECT_NE(text.err.find("3 series, 6000 points"), std::string::npos) << text.err;
    auto js = run_runtop({"check", "--format", "json", dir_.path()});
    EXPECT_EQ(js.exit_code, 0);
    EXPECT_EQ(json::parse(js.out),
              json::parse(R"({"incidents":[],"conditions":[],"first":null,"anomalies":[]})"));
}

TEST_F(Check, FindsInjectedNaNAndSpikeFirstFailureFirst) {
    write("run/rank_3/events.out.tfevents.1",
          healthy_events(2000, /*nan_at=*/1500, /*spike_at=*/900));
    write("run/rank_0/events.out.tfevents.1", healthy_events(2000));
    auto r = run_runtop({"check", "--format", "json", "t=" + dir_.path()});
    ASSERT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(found(r.out), (std::vector<Found>{{3, "train/grad_norm", 900, "spike", "runtop"},
                                                {3, "train/loss", 1500, "nonfinite", "runtop"}}));
    const json first = json::parse(r.out)["anomalies"][1];
    EXPECT_EQ(first["value"], "nan");  // JSON has no NaN: a string, as in dump
    EXPECT_EQ(first["severity"], "alert");
    EXPECT_EQ(first["message"], "value is NaN");
    EXPECT_EQ(first["run"], "t/run");

    auto text = run_runtop({"check", "t=" + dir_.path()});
    EXPECT_EQ(text.exit_code, 1);
    std::vector<std::string> lines = testing::split_lines(text.out);
    ASSERT_EQ(lines.size(), 3u) << text.out;
    EXPECT_EQ(lines[0].rfind("STEP", 0), 0u);
    EXPECT_EQ(lines[1].rfind("900 ", 0), 0u) << lines[1];
    EXPECT_NE(lines[2].find("value is NaN"), std::string::npos);
    EXPECT_NE(text.err.find("first major: rank 3 train/grad_norm spike at step 900: "),
              std::string::npos)
        << text.err;
}

TEST_F(Check, FilterAndRanksLimitWhatIsJudged) {
    write("run/rank_3/events.out.tfevents.1", healthy_events(600, 500));
    write("run/rank_4/events.out.tfevents.1", healthy_events(600, 400));
    EXPECT_EQ(run_runtop({"check", "--ranks", "!3,!4", dir_.path()}).exit_code, 0);
    EXPECT_EQ(run_runtop({"check", "--filter", "grad", dir_.path()}).exit_code, 0);
    auto r = run_runtop({"check", "--format", "json", "--ranks", "4", dir_.path()});
    EXPECT_EQ(found(r.out), (std::vector<Found>{{4, "train/loss", 400, "nonfinite", "runtop"}}));
}

TEST_F(Check, ConsecutiveNaNsAreOneEpisode) {
    std::string bytes = healthy_events(300);
    for (int s = 300; s < 320; ++s)
        bytes += frame_record(events::simple_scalar("train/loss", std::nanf(""), s, 1.7e9 + s));
    write("run/events.out.tfevents.1", bytes);
    auto r = run_runtop({"check", "--format", "json", dir_.path()});
    const json a = json::parse(r.out)["anomalies"];
    ASSERT_EQ(a.size(), 1u) << r.out;
    EXPECT_EQ(a[0]["step"], 300);
    EXPECT_EQ(a[0]["last_step"], 319);
    EXPECT_EQ(a[0]["count"], 20);
}

TEST_F(Check, RulesFileAddsThresholdAndCanTurnDefaultsOff) {
    write("run/events.out.tfevents.1", healthy_events(500, 450));
    write("lr.json", R"({"rules":[{"rule":"threshold","tags":"^train/lr$","above":0.000971,)"
                     R"("severity":"warn"}]})");
    auto r = run_runtop({"check", "--format", "json", "--rules", dir_ / "lr.json", dir_.path()});
    EXPECT_EQ(r.exit_code, 1);
    const json a = json::parse(r.out)["anomalies"];
    ASSERT_EQ(a.size(), 2u) << r.out;
    EXPECT_EQ(a[0]["rule"], "threshold");  // lr is above 0.000971 from step 98 to 114: one episode
    EXPECT_EQ(a[0]["step"], 98);
    EXPECT_EQ(a[0]["last_step"], 114);
    EXPECT_EQ(a[1]["rule"], "nonfinite");

    write("quiet.json", R"({"defaults":false,"rules":[]})");
    EXPECT_EQ(run_runtop({"check", "--rules", dir_ / "quiet.json", dir_.path()}).exit_code, 0);
}

TEST_F(Check, UserRulesFileIsUsedWithoutRulesOption) {
    write("run/events.out.tfevents.1", healthy_events(500, 450));
    write("config/runtop/rules.json", R"({"defaults":false})");
    auto r = run_runtop({"check", dir_.path()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("config/runtop/rules.json"), std::string::npos) << r.err;
}

TEST_F(Check, ErrorsExitTwoWithOneLineNamingTheCause) {
    write("run/events.out.tfevents.1", healthy_events(100));
    write("bad.json", R"({"rules":[{"rule":"spike","kk":1}]})");
    auto bad = run_runtop({"check", "--rules", dir_ / "bad.json", dir_.path()});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_EQ(testing::split_lines(bad.err).size(), 1u) << bad.err;
    EXPECT_NE(bad.err.find(dir_ / "bad.json"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("unknown key 'kk'"), std::string::npos) << bad.err;

    auto missing_rules = run_runtop({"check", "--rules", dir_ / "nope.json", dir_.path()});
    EXPECT_EQ(missing_rules.exit_code, 2);
    EXPECT_NE(missing_rules.err.find("nope.json"), std::string::npos);

    // A missing root is reported and fails the gate, while the other root is still checked.
    auto missing_root = run_runtop({"check", dir_ / "gone", dir_.path()});
    EXPECT_EQ(missing_root.exit_code, 2);
    EXPECT_NE(missing_root.err.find("gone"), std::string::npos);

    EXPECT_EQ(run_runtop({"check", "--format", "xml", dir_.path()}).exit_code, 2);
}

// --fail-on alert: a pipeline that stops on a NaN (an alert) but not on a spike (a warning),
// whatever else the log lists (msProbe's own warnings included).
TEST_F(Check, FailOnAlertIgnoresWarnings) {
    write("spiky/events.out.tfevents.1", healthy_events(500, -1, 300));
    write("nan/events.out.tfevents.1", healthy_events(500, 450));
    auto spiky = run_runtop({"check", dir_ / "spiky"});
    EXPECT_EQ(spiky.exit_code, 1) << spiky.err;
    EXPECT_NE(spiky.out.find("spike"), std::string::npos) << spiky.out;
    auto spiky_alert = run_runtop({"check", "--fail-on", "alert", dir_ / "spiky"});
    EXPECT_EQ(spiky_alert.exit_code, 0) << spiky_alert.err;
    EXPECT_EQ(spiky_alert.out, spiky.out);  // listed all the same
    EXPECT_EQ(run_runtop({"check", "--fail-on=alert", dir_ / "nan"}).exit_code, 1);
    auto bad = run_runtop({"check", "--fail-on", "error", dir_ / "nan"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--fail-on must be minor, warn or alert"), std::string::npos) << bad.err;
}

// Nothing to judge is not a pass: an empty directory (a job that never started, a wrong path).
TEST_F(Check, NoDataFilesIsAnErrorNotAPass) {
    testing::make_dirs(dir_ / "empty/sub");
    write("empty/sub/notes.txt", "not a monitor file\n");
    auto r = run_runtop({"check", dir_ / "empty"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("no data files under " + (dir_ / "empty")), std::string::npos) << r.err;
}

// msProbe's monitor output for one rank: `actv/fc1.input:0/norm` at steps 0-14, +Inf at step 10,
// and msProbe's own anomaly.json calling that step AnomalyTurbulence (a warning), as msProbe does.
void write_msprobe_inf_run(const std::string& root) {
    const std::string run_dir =
        root + "/monitor_output/" + msprobe::run_dir_name(1.7e9, 1, 0x1535879au);
    testing::make_dirs(run_dir);
    msprobe::MonitorCsvWriter csv(run_dir, {"norm"}, 5);
    for (int step = 0; step < 15; ++step) {
        const double norm = step == 10 ? INFINITY : 6.5 + 0.01 * step;
        ASSERT_TRUE(csv.write_step("actv", true, step, {{0, "fc1.input", 0, {norm}, "[4, 16]"}}));
    }
    msprobe::Anomaly a;
    a.rank = 1;
    a.step = 10;
    a.tag_name = "0:fc1.input:0/rank1/actv";
    a.rule = "AnomalyTurbulence";
    a.op = "norm";
    a.value = INFINITY;
    a.history_mean = 6.55;
    a.group_mates = {1};
    testing::make_dirs(root + "/monitor_output/anomaly_detected/rank1");
    testing::write_file(root + "/monitor_output/anomaly_detected/rank1/anomaly.json",
                        msprobe::anomaly_json({a}));
}

// runtop's alert merged into msProbe's warning for the same step stays an alert: the entry is
// shown once, as msProbe's, with the higher severity, and `--fail-on alert` fails on it.
TEST_F(Check, AnAlertMergedIntoMsProbesWarningStaysAnAlert) {
    write_msprobe_inf_run(dir_ / "job");
    const std::vector<std::string> args = {
        "check",   "--fail-on", "alert",     "--filter", "^actv/fc1.input:0/norm$",
        "--ranks", "1",         dir_ / "job"};
    auto text = run_runtop(args);
    EXPECT_EQ(text.exit_code, 1) << text.out << text.err;
    std::vector<std::string> lines = testing::split_lines(text.out);
    ASSERT_EQ(lines.size(), 2u) << text.out;
    EXPECT_NE(lines[1].find("AnomalyTurbulence  alert"), std::string::npos) << lines[1];
    EXPECT_NE(lines[1].find("[runtop found it too: nonfinite]"), std::string::npos) << lines[1];
    EXPECT_NE(text.err.find("1 incident (1 major, 0 minor), 0 conditions; from 1 anomaly (1 "
                            "imported from msProbe, 1 of runtop's merged into them)"),
              std::string::npos)
        << text.err;

    std::vector<std::string> json_args = args;
    json_args.insert(json_args.begin() + 1, {"--format", "json"});
    auto js = run_runtop(json_args);
    EXPECT_EQ(js.exit_code, 1) << js.err;
    const json a = json::parse(js.out)["anomalies"];
    ASSERT_EQ(a.size(), 1u) << js.out;
    EXPECT_EQ(a[0]["step"], 10);
    EXPECT_EQ(a[0]["source"], "msprobe");
    EXPECT_EQ(a[0]["rule"], "AnomalyTurbulence");
    EXPECT_EQ(a[0]["severity"], "alert");
    EXPECT_EQ(a[0]["also_runtop"], true);
}

// A gate that could not read part of what it was asked to judge does not pass: a data file it
// cannot open and a directory it cannot list are exit 2, whatever the rest holds, unless
// --allow-unreadable says to judge what could be read.
TEST_F(Check, UnreadableFilesOrDirectoriesFailTheGateUnlessAllowed) {
    ASSERT_EQ(::chmod(dir_.path().c_str(), 0755), 0);  // for nobody
    write("run/rank_0/events.out.tfevents.1", healthy_events(200));
    write("run/rank_1/events.out.tfevents.1", healthy_events(200, /*nan_at=*/150));
    write("run/rank_2/events.out.tfevents.1", healthy_events(200));
    const std::string locked_file = dir_ / "run/rank_1/events.out.tfevents.1";
    const std::string locked_dir = dir_ / "run/rank_2";
    ASSERT_EQ(::chmod(locked_file.c_str(), 0), 0);
    ASSERT_EQ(::chmod(locked_dir.c_str(), 0), 0);
    const std::string root = dir_ / "run";

    auto r = testing::run_runtop_without_root({"check", root});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(locked_file + ": cannot open: Permission denied"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(locked_dir + ": cannot read directory: Permission denied"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("; 2 unreadable, 0 waiting, 2 warnings"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("runtop check: 1 data file and 1 directory under " + root +
                         " could not be read: the gate did not pass"),
              std::string::npos)
        << r.err;

    auto allowed = testing::run_runtop_without_root({"check", "--allow-unreadable", root});
    EXPECT_EQ(allowed.exit_code, 0) << allowed.err;  // rank 0 is healthy; rank 1's NaN unseen
    EXPECT_NE(allowed.err.find("1 data file and 1 directory could not be read, skipped "
                               "(--allow-unreadable)"),
              std::string::npos)
        << allowed.err;

    // Every file unreadable: nothing left to judge, even when allowed.
    const std::string only = dir_ / "run/rank_0/events.out.tfevents.1";
    ASSERT_EQ(::chmod(only.c_str(), 0), 0);
    auto none = testing::run_runtop_without_root({"check", "--allow-unreadable", root});
    EXPECT_EQ(none.exit_code, 2) << none.err;
    EXPECT_NE(none.err.find("no readable data under " + root), std::string::npos) << none.err;
}

// Files that hold nothing of their format are no data to judge: a single file root that is no
// event file (`runtop check /etc/passwd`), a directory holding only a garbage event file.
TEST_F(Check, NoReadableDataIsAnErrorNotAPass) {
    write("passwd", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/bin/sh\n");
    std::string garbage(3000, '\0');
    testing::FixtureNoise noise(7);
    for (char& c : garbage) c = static_cast<char>(static_cast<int>(noise() * 1000) & 0xff);
    write("garbage/events.out.tfevents.123.x", garbage);
    for (const std::string& root : {dir_ / "passwd", dir_ / "garbage"}) {
        auto r = run_runtop({"check", root});
        EXPECT_EQ(r.exit_code, 2) << root << "\n" << r.err;
        EXPECT_NE(r.err.find(": not a TFRecord event file"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("runtop check: no readable data under " + root +
                             ": 1 data file, none holding a valid record of its format"),
                  std::string::npos)
            << r.err;
    }
    // Beside a file that holds data, the garbage is a warning, not an error.
    write("garbage/events.out.tfevents.124.y", healthy_events(100));
    auto mixed = run_runtop({"check", dir_ / "garbage"});
    EXPECT_EQ(mixed.exit_code, 0) << mixed.err;
    EXPECT_NE(mixed.err.find("not a TFRecord event file"), std::string::npos) << mixed.err;
    // Each root on its own: a second run that never wrote, or wrote only garbage, fails the
    // gate whatever the first holds.
    write("other/events.out.tfevents.125.z", garbage);
    auto other = run_runtop({"check", dir_ / "garbage", dir_ / "other"});
    EXPECT_EQ(other.exit_code, 2) << other.err;
    EXPECT_NE(other.err.find("runtop check: no readable data under " + (dir_ / "other")),
              std::string::npos)
        << other.err;
    testing::make_dirs(dir_ / "empty");
    auto empty = run_runtop({"check", dir_ / "garbage", dir_ / "empty"});
    EXPECT_EQ(empty.exit_code, 2) << empty.err;
    EXPECT_NE(empty.err.find("runtop check: no data files under " + (dir_ / "empty")),
              std::string::npos)
        << empty.err;
}

// ---- ../shared/samples -------------------------------------------------------------------

class CheckSamples : public Check {
  protected:
    void SetUp() override {
        Check::SetUp();
        samples_ = testing::samples_dir();
        if (samples_.empty()) GTEST_SKIP() << "../shared/samples is absent";
    }
    std::string samples_;
};

TEST_F(CheckSamples, DeepSpeedNaNLossIsFoundInCsvAndEventFiles) {
    auto r = run_runtop({"check", "--format", "json", samples_ + "/generated/deepspeed"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const json a = json::parse(r.out)["anomalies"];
    ASSERT_EQ(a.size(), 2u) << r.out;
    std::set<std::string> runs;
    for (const json& x : a) {
        EXPECT_EQ(x["tag"], "Train/Samples/train_loss");
        EXPECT_EQ(x["step"], 256);
        EXPECT_EQ(x["rule"], "nonfinite");
        runs.insert(x["run"]);
    }
    EXPECT_EQ(runs, (std::set<std::string>{"deepspeed/csv_monitor/ds_pipe_job",
                                           "deepspeed/tensorboard/ds_pipe_job"}));
}

TEST_F(CheckSamples, MsProbeImportedCountAndFirstEightMatchItsAnalyser) {
    const std::string root = samples_ + "/generated/msprobe/trainermon_2rank_csv";
    auto r = run_runtop({"check", "--format", "json", root});
    ASSERT_EQ(r.exit_code, 1) << r.err;
    const json all = json::parse(r.out)["anomalies"];
    std::size_t imported = 0;
    for (const json& a : all) imported += a["source"] == "msprobe";
    std::size_t in_json = 0;
    for (const char* rank : {"rank0", "rank1"})
        in_json += json::parse(testing::read_file(root + "/monitor_output/anomaly_detected/" +
                                                  rank + "/anomaly.json"))
                       .size();
    EXPECT_EQ(imported, in_json);  // 318 + 298, every entry once (analyse.json repeats 8)
    // ordered_json: the analyser writes its top-k in its order, and the test compares that order.
    const nlohmann::ordered_json analyse = nlohmann::ordered_json::parse(
        testing::read_file(root + "/monitor_output/anomaly_detected/anomaly_analyse.json"));
    ASSERT_GE(all.size(), analyse.size());
    std::size_t i = 0;
    for (const auto& [key, entry] : analyse.items()) {
        EXPECT_EQ(all[i]["message"], entry["message"]) << i;
        EXPECT_EQ(all[i]["rank"], entry["rank"]) << i;
        ++i;
    }
}

// runtop evaluating msProbe's rules on msProbe's CSVs flags what msProbe flagged while training.
// The CSVs round to 6 decimals: a value like 2.49e-09 is written as 0.0, so a turbulence msProbe
// saw on the exact value cannot be seen in the file. Those, and only those, are missed.
TEST_F(CheckSamples, MsProbeRulesOnTheCsvsFlagWhatMsProbeFlagged) {
    const std::string root = samples_ + "/generated/msprobe/trainermon_2rank_csv";
    const json config = json::parse(testing::read_file(root + "/monitor_config.json"));
    json rules = {{"defaults", false}, {"rules", config["alert"]["rules"]}};
    write("msprobe.json", rules.dump());
    auto r = run_runtop({"check", "--format", "json", "--rules", dir_ / "msprobe.json", root});
    ASSERT_EQ(r.exit_code, 1) << r.err;
    std::size_t runtop_only = 0, both = 0;
    std::vector<std::string> missed;
    const json doc = json::parse(r.out);
    for (const json& a : doc["anomalies"]) {
        if (a["source"] == "runtop")
            ++runtop_only;
        else if (a["also_runtop"])
            ++both;
        else
            missed.push_back(a["message"]);
    }
    EXPECT_EQ(runtop_only, 0u);  // nothing msProbe did not report
    EXPECT_EQ(both, 614u);
    ASSERT_EQ(missed.size(), 2u);
    for (const std::string& m : missed) {
        const double value = std::stod(m.substr(m.find("current value ") + 14));
        EXPECT_LT(std::fabs(value), 5e-7) << m;  // rounds to 0.0 at 6 decimals
    }
}

// The default rules on every public event-file sample. They are healthy public runs, so the
// rules must be nearly silent; what fires is listed and justified here.
TEST_F(CheckSamples, DefaultRulesOnPublicEventFilesAreNearlySilent) {
    const std::string pub = samples_ + "/tfevents-public";
    for (const char* quiet :
         {"guildai", "katib", "study_tensorboard", "tensorboard-flight", "tensorboard-logs-dipesh",
          "tensorboard-reducer", "tensorboard-tutorial-keras", "tfevents-js", "tfx-estimator"}) {
        auto r = run_runtop({"check", pub + "/" + quiet});
        EXPECT_EQ(r.exit_code, 0) << quiet << "\n" << r.out;
    }
    // Two kinds of firing, both real events rather than noise:
    // - Ray PPO on JBW-cycle-1e6: the environment changes its cycle at one million steps, and
    //   the value loss (and so the total loss) of two trials jumps to 28-31x its level there.
    // - Stable-Baselines3 PPO, seeds 4 and 5: the entropy loss jumps to 5x and 9x its level for
    //   one rollout: the policy's entropy suddenly multiplied, which is worth a look.
    // Everything else in the public samples (540k Keras points, 2.5k reducer points...) is quiet.
    auto ray = run_runtop({"check", "--format", "json", pub + "/process-tensorboard-logs"});
    EXPECT_EQ(ray.exit_code, 1);
    std::vector<std::tuple<long, std::string>> fired;
    const json doc = json::parse(ray.out);
    for (const json& x : doc["anomalies"]) {
        EXPECT_EQ(x["rule"], "spike");
        const std::string tag = x["tag"];
        fired.emplace_back(x["step"].get<long>(), tag.substr(tag.rfind('/') + 1));
    }
    EXPECT_EQ(fired, (std::vector<std::tuple<long, std::string>>{{1004000, "total_loss"},
                                                                 {1004000, "vf_loss"},
                                                                 {1004000, "total_loss"},
                                                                 {1004000, "vf_loss"},
                                                                 {1292288, "entropy_loss"},
                                                                 {1771520, "entropy_loss"}}))
        << ray.out;

    // ArcRoute (Lightning, RL): the reward collapses to -2856 (486x its level) at step 6249 and
    // to -129 at 7249, then recovers: two catastrophic rollouts.
    auto arc = run_runtop({"check", "--format", "json", samples_ + "/other-public/lightning"});
    EXPECT_EQ(found(arc.out), (std::vector<Found>{{-1, "train/reward", 6249, "spike", "runtop"},
                                                  {-1, "train/reward", 7249, "spike", "runtop"}}))
        << arc.out;
}

// The tester's command: msProbe called rank 1's Inf at step 10 turbulence (a warning); runtop's
// own nonfinite alert merged into it must keep the gate failing with --fail-on alert.
TEST_F(CheckSamples, MsProbesTurbulenceOnAnInfStaysAnAlert) {
    const std::string root = samples_ + "/generated/msprobe/trainermon_2rank_csv";
    auto r = run_runtop({"check", "--format", "json", "--fail-on", "alert", "--filter",
                         "^actv/fc1.input:0/norm$", "--ranks", "1", root});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    bool seen = false;
    const json doc = json::parse(r.out);
    for (const json& a : doc["anomalies"]) {
        if (a["step"] != 10) continue;
        seen = true;
        EXPECT_EQ(a["source"], "msprobe");
        EXPECT_EQ(a["rule"], "AnomalyTurbulence");
        EXPECT_EQ(a["value"], "inf");
        EXPECT_EQ(a["also_runtop"], true);
        EXPECT_EQ(a["severity"], "alert");
    }
    EXPECT_TRUE(seen) << r.out;
}

}  // namespace
}  // namespace runtop
