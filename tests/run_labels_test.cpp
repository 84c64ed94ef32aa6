// What the views call runs (core/run_labels.h, ViewModel::run_label) and which runs a run
// filter selects (core/run_patterns.h, --runs, `R`). Issue 18: DeepSpeed's csv_monitor and
// tensorboard outputs of one job were both "ds_pipe_job" in every legend.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/analysis/analyzer.h"
#include "core/run_labels.h"
#include "core/run_patterns.h"
#include "core/series_filter.h"
#include "core/store/store.h"
#include "views/canvas.h"
#include "views/model.h"

namespace runtop {
namespace {

std::vector<std::string> texts(const std::vector<std::string>& runs) {
    std::vector<std::string> out;
    for (const RunLabel& l : run_labels(runs)) out.push_back(l.text());
    return out;
}

TEST(RunLabels, NoCollisionLeavesTheLastComponent) {
    EXPECT_EQ(texts({"base", "new/seed1", "jobs/a/loss_run", "x"}),
              (std::vector<std::string>{"base", "seed1", "loss_run", "x"}));
    EXPECT_TRUE(run_labels({}).empty());
}

TEST(RunLabels, EqualNamesGetTheDirectoryThatTellsThemApart) {
    EXPECT_EQ(texts({"deepspeed/csv_monitor/ds_pipe_job", "deepspeed/tensorboard/ds_pipe_job",
                     "deepspeed/csv_monitor/ds_engine_job"}),
              (std::vector<std::string>{"ds_pipe_job (csv_monitor)", "ds_pipe_job (tensorboard)",
                                        "ds_engine_job"}));
    EXPECT_EQ(run_labels({"a/x/job", "b/x/job"})[0], (RunLabel{"job", "a"}));
}

TEST(RunLabels, NestedPathsTakeTheShortestPartNearestTheEnd) {
    // Shared directories are passed over for the one that differs, however deep.
    EXPECT_EQ(texts({"sweep/lr0.1/seed1/tb/job", "sweep/lr0.1/seed2/tb/job"}),
              (std::vector<std::string>{"job (seed1)", "job (seed2)"}));
    // A path inside another's: the one that has more gets its extra part, the other its name.
    EXPECT_EQ(texts({"a/job", "b/a/job"}), (std::vector<std::string>{"a/job", "job (b)"}));
    // A root's own run against a run below another root of that name.
    EXPECT_EQ(texts({"job", "x/job"}), (std::vector<std::string>{"job", "job (x)"}));
}

TEST(RunLabels, ThreeWayCollisions) {
    // No one directory tells the middle run apart: two in a row do.
    EXPECT_EQ(texts({"exp/a/job", "exp/b/job", "other/b/job"}),
              (std::vector<std::string>{"job (a)", "job (exp/b)", "job (other)"}));
    const std::vector<std::string> three = texts({"r/1/job", "r/2/job", "r/3/job"});
    EXPECT_EQ(three, (std::vector<std::string>{"job (1)", "job (2)", "job (3)"}));
}

TEST(RunLabels, TheModelNamesRunsAmongAllItHasAndCutsKeepingThePart) {
    Store store;
    Analyzer analyzer(default_rules());
    ui::ViewModel model(store, analyzer);
    store.series({"deepspeed/csv_monitor/ds_pipe_job", kNoRank, "lr"}, source_id({"csv"}));
    model.update();
    // Alone, the run is its last component.
    EXPECT_EQ(model.run_label("deepspeed/csv_monitor/ds_pipe_job"), "ds_pipe_job");
    store.series({"deepspeed/tensorboard/ds_pipe_job", kNoRank, "lr"}, source_id({"tfevents"}));
    model.update();
    EXPECT_EQ(model.run_label("deepspeed/csv_monitor/ds_pipe_job"), "ds_pipe_job (csv_monitor)");
    EXPECT_EQ(model.run_label("deepspeed/tensorboard/ds_pipe_job"), "ds_pipe_job (tensorboard)");
    // Cut to 16 or 10 columns, both halves keep a share: the two stay apart.
    const std::string a16 = model.run_label("deepspeed/csv_monitor/ds_pipe_job", 16);
    const std::string b16 = model.run_label("deepspeed/tensorboard/ds_pipe_job", 16);
    EXPECT_EQ(a16, "ds_p…(csv_moni…)");
    EXPECT_NE(a16, b16);
    EXPECT_NE(model.run_label("deepspeed/csv_monitor/ds_pipe_job", 10),
              model.run_label("deepspeed/tensorboard/ds_pipe_job", 10));
    EXPECT_LE(ui::display_width(model.run_label("deepspeed/tensorboard/ds_pipe_job", 10)), 10);
    // A run the model does not know: its last component.
    EXPECT_EQ(model.run_label("elsewhere/run7"), "run7");
}

TEST(RunPatterns, GlobsOnTheWholeNameOrItsEnd) {
    auto selects = [](const char* spec, const char* run) {
        Result<RunPatterns> p = RunPatterns::parse(spec);
        EXPECT_TRUE(p.ok()) << spec;
        return p->selects(run);
    };
    const char* csv = "deepspeed/csv_monitor/ds_pipe_job";
    const char* tb = "deepspeed/tensorboard/ds_pipe_job";
    EXPECT_TRUE(selects("", csv));
    EXPECT_TRUE(selects("ds_pipe_job", csv));
    EXPECT_TRUE(selects("ds_pipe_job", tb));
    EXPECT_FALSE(selects("ds_pipe", csv));  // a glob, not a substring
    EXPECT_TRUE(selects("ds_pipe*", csv));
    EXPECT_TRUE(selects("csv_monitor/*", csv));
    EXPECT_FALSE(selects("csv_monitor/*", tb));
    EXPECT_TRUE(selects("*/CSV_MONITOR/*", csv));  // case-insensitive
    EXPECT_TRUE(selects("deepspeed/*", tb));       // '*' crosses '/'
    EXPECT_TRUE(selects("ds_?ipe_job", tb));
    EXPECT_FALSE(selects("monitor/ds_pipe_job", csv));  // the end starts after a '/'
    // Several, and leaving out.
    EXPECT_TRUE(selects("nothing, tensorboard/*", tb));
    EXPECT_FALSE(selects("!tensorboard/*", tb));
    EXPECT_TRUE(selects("!tensorboard/*", csv));
    EXPECT_FALSE(selects("ds_pipe_job,!csv_monitor/*", csv));
    EXPECT_TRUE(selects("ds_pipe_job,!csv_monitor/*", tb));
    for (const char* bad : {"a,,b", "a,", "!", ",a"})
        EXPECT_FALSE(RunPatterns::parse(bad).ok()) << bad;
}

TEST(RunPatterns, TheSeriesFilterSelectsByRunToo) {
    Result<SeriesFilter> f = SeriesFilter::make("loss", "", "csv_monitor/*");
    ASSERT_TRUE(f.ok());
    EXPECT_TRUE(f->selects({"ds/csv_monitor/job", kNoRank, "train_loss"}));
    EXPECT_FALSE(f->selects({"ds/tensorboard/job", kNoRank, "train_loss"}));
    EXPECT_FALSE(f->selects({"ds/csv_monitor/job", kNoRank, "lr"}));
    EXPECT_TRUE(f->selects_run("ds/csv_monitor/job"));
    EXPECT_FALSE(f->selects_run("ds/tensorboard/job"));
    Result<SeriesFilter> bad = SeriesFilter::make("", "", "a,,b");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("--runs"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace runtop
