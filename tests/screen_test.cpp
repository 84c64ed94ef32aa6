// The dashboard's state machine (views/screen.h): keys through the action table switch views,
// carry the selected tag across them, open the detail chart from every view (an anomaly at its
// step), filter with live preview and undo, acknowledge, follow/pause, help and quit; the key
// scripts of `runtop snapshot --keys`. In-process, no terminal: what the event loop calls.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/store/store.h"
#include "tests/test_support.h"
#include "views/actions.h"
#include "views/anomaly_view.h"
#include "views/compare/compare_view.h"
#include "views/screen.h"
#include "views/view_table.h"

namespace runtop::ui {
namespace {

constexpr int kW = 120, kH = 40;

class Screen : public ::testing::Test {
  protected:
    Screen() : analyzer_(default_rules()), sink_(analyzer_, &store_), model_(store_, analyzer_) {
        // Four ranks; rank 2's loss turns NaN at step 300.
        for (int rank = 0; rank < 4; ++rank) {
            for (const char* tag : {"train/loss", "train/grad_norm", "eval/accuracy"}) {
                const SeriesId id = sink_.series({"job", rank, tag}, source_id({"tfevents"}));
                for (int s = 0; s < 400; ++s) {
                    double v = 1.0 + 1.0 / (s + 1) + 0.001 * rank;
                    if (rank == 2 && s == 300 && std::string(tag) == "train/loss") v = NAN;
                    sink_.append(id, {s, 1.7e9 + s, v});
                }
            }
        }
        analyzer_.finish();
        model_.update();
    }
    Outcome key(const std::string& name, bool text = false) {
        return handle(state_, InputEvent::named(name, text), model_, analyzer_, kW, kH);
    }
    void keys(const std::string& script) {
        for (const InputEvent& e : parse_key_script(script))
            handle(state_, e, model_, analyzer_, kW, kH);
    }
    std::string frame() {
        Canvas c(kW, kH);
        draw_screen(c, model_, state_);
        return c.to_text();
    }

    Store store_;
    Analyzer analyzer_;
    AnalyzingSink sink_;
    ViewModel model_;
    UiState state_;
};

TEST_F(Screen, NumberKeysSwitchViewsAndQIsQuit) {
    EXPECT_TRUE(key("2").redraw);
    EXPECT_EQ(state_.view, ViewId::kRanks);
    key("3");
    EXPECT_EQ(state_.view, ViewId::kHeatmap);
    key("4");
    EXPECT_EQ(state_.view, ViewId::kAnomalies);
    key("1");
    EXPECT_EQ(state_.view, ViewId::kOverview);
    EXPECT_FALSE(key("j").quit);
    EXPECT_TRUE(key("q").quit);
    EXPECT_TRUE(key("Ctrl-C").quit);
    EXPECT_TRUE(key("Ctrl-L").force);
}

TEST_F(Screen, EnterOpensTheSelectedCardAndEscGoesBack) {
    keys("Right Right Enter");  // the first move selects the first card, the second moves
    ASSERT_EQ(state_.view, ViewId::kDetail);
    EXPECT_EQ(state_.detail.tag, model_.groups()[1].tag);
    key("Esc");
    EXPECT_EQ(state_.view, ViewId::kOverview);
    EXPECT_EQ(state_.overview.selected, 1);
}

TEST_F(Screen, TheSelectedTagFollowsAcrossViews) {
    keys("Right Right Right");
    const std::string tag = model_.groups()[2].tag;
    key("3");
    EXPECT_EQ(state_.heatmap.tag, tag);
    key("2");
    EXPECT_EQ(state_.ranks.row, 2);
    key("Enter");
    EXPECT_EQ(state_.detail.tag, tag);
}

TEST_F(Screen, AnAnomalyOpensAtItsStepOnItsRank) {
    key("4");
    key("Enter");
    ASSERT_EQ(state_.view, ViewId::kDetail);
    EXPECT_EQ(state_.detail.tag, "train/loss");
    ASSERT_TRUE(state_.detail.focus);
    EXPECT_EQ(state_.detail.focus->rank, 2);
    ASSERT_TRUE(state_.detail.cursor);
    EXPECT_EQ(*state_.detail.cursor, 300);
    key("Esc");
    EXPECT_EQ(state_.view, ViewId::kAnomalies);
}

TEST_F(Screen, NFromAnywhereShowsTheFirstFailure) {
    key("n");
    ASSERT_EQ(state_.view, ViewId::kDetail);
    EXPECT_EQ(state_.detail.tag, "train/loss");
    EXPECT_EQ(*state_.detail.cursor, 300);
    EXPECT_NE(frame().find("incident 1/1 (major)"), std::string::npos);
}

// n at the last incident and N at the first say so: they used to open the same chart again,
// nothing visible changing.
TEST_F(Screen, NAtTheLastAnomalyAndNAtTheFirstSaySo) {
    // Three more: rank 0's grad norm is NaN at steps 100, 200 and 350.
    const SeriesId grad = sink_.series({"job", 0, "eval/nan_probe"}, source_id({"tfevents"}));
    for (int s = 0; s < 400; ++s)
        sink_.append(grad, {s, 1.7e9 + s, s == 100 || s == 200 || s == 350 ? NAN : 1.0});
    model_.update();
    key("n");
    EXPECT_EQ(state_.flash, "incident 1/4 (major)");
    keys("n n n");
    EXPECT_EQ(state_.flash, "incident 4/4 (major)");
    ASSERT_EQ(state_.view, ViewId::kDetail);
    EXPECT_EQ(*state_.detail.cursor, 350);
    key("n");
    EXPECT_EQ(state_.flash, "last incident (4 of 4, major)");
    EXPECT_EQ(*state_.detail.cursor, 350);  // still the last
    EXPECT_NE(frame().find("last incident (4 of 4, major)"), std::string::npos) << frame();
    keys("N N N");
    EXPECT_EQ(state_.flash, "incident 1/4 (major)");
    key("N");
    EXPECT_EQ(state_.flash, "first incident (1 of 4, major)");
    EXPECT_EQ(*state_.detail.cursor, 100);
    // From the list itself too.
    keys("4 End n");
    EXPECT_EQ(state_.flash, "last incident (4 of 4, major)");
}

TEST_F(Screen, TagFilterPreviewsAsTypedAndEscUndoes) {
    const std::size_t all = model_.selected().size();
    keys("/ grad");
    EXPECT_EQ(state_.prompt.kind, Prompt::Kind::kTags);
    EXPECT_EQ(model_.selected().size(), 4u);  // applied while typing
    EXPECT_NE(frame().find("filter tags (RE2): grad"), std::string::npos);
    key("Esc");
    EXPECT_EQ(model_.selected().size(), all);
    EXPECT_EQ(model_.filter_tags(), "");
    keys("/ loss Enter");
    EXPECT_EQ(state_.prompt.kind, Prompt::Kind::kNone);
    EXPECT_EQ(model_.filter_tags(), "loss");
    EXPECT_EQ(model_.selected().size(), 4u);
    // Empty clears.
    keys("/ Backspace Backspace Backspace Backspace Enter");
    EXPECT_EQ(model_.filter_tags(), "");
    EXPECT_EQ(model_.selected().size(), all);
}

TEST_F(Screen, ABadRegexSaysWhyAndKeepsTheLastGoodFilter) {
    keys("/ los");
    EXPECT_EQ(model_.selected().size(), 4u);
    keys("(");
    EXPECT_FALSE(state_.prompt.error.empty());
    EXPECT_EQ(model_.filter_tags(), "los");  // still the last good one
    key("Enter");                            // not kept while it does not parse
    EXPECT_EQ(state_.prompt.kind, Prompt::Kind::kTags);
    key("Backspace");
    key("Enter");
    EXPECT_EQ(state_.prompt.kind, Prompt::Kind::kNone);
    EXPECT_EQ(model_.filter_tags(), "los");
}

TEST_F(Screen, RankFilter) {
    keys("r 0-1,!1 Enter");
    EXPECT_EQ(model_.filter_ranks(), "0-1,!1");
    EXPECT_EQ(model_.selected().size(), 3u);  // rank 0's three tags
    keys("r x");
    EXPECT_FALSE(state_.prompt.error.empty());
    key("Esc");
    EXPECT_EQ(model_.filter_ranks(), "0-1,!1");
}

TEST_F(Screen, RankFilterByNode) {
    model_.set_ranks_per_node(2);
    keys("r n1 Enter");  // ranks 2 and 3
    EXPECT_EQ(model_.filter_ranks(), "n1");
    EXPECT_EQ(model_.selected().size(), 6u);
    for (SeriesId id : model_.selected()) EXPECT_GE(model_.run_rank(id).rank, 2);
}

TEST_F(Screen, AFilterSaysWhatAlertsItHides) {
    // Rank 2's NaN loss is the one alert; ranks 0 and 1 have none.
    keys("r 0-1 Enter");
    std::string status = testing::split_lines(frame())[kH - 1];
    EXPECT_NE(status.find("no alerts in the filter"), std::string::npos) << status;
    EXPECT_NE(status.find("the filter hides ▲ 1 alert"), std::string::npos) << status;
    keys("r 2 Enter");
    status = testing::split_lines(frame())[kH - 1];
    EXPECT_NE(status.find("▲ 1 alert"), std::string::npos) << status;
    EXPECT_EQ(status.find("the filter hides"), std::string::npos) << status;
    // Series a filter at ingest never read were never judged: the line says so.
    model_.ingest.skipped_series = 5;
    keys("r 0 Enter");
    status = testing::split_lines(frame())[kH - 1];
    EXPECT_NE(status.find("not judged"), std::string::npos) << status;
}

// Issue 18: `R` prompts for a run filter as `r` does for ranks: previewed as typed, Esc undoes,
// and the status line names it.
TEST_F(Screen, RunFilterPromptsPreviewsAndShowsInTheStatusLine) {
    for (const char* run : {"ds/csv_monitor/ds_pipe_job", "ds/tensorboard/ds_pipe_job"}) {
        const SeriesId id = sink_.series({run, kNoRank, "Train/Samples/lr"}, source_id({"csv"}));
        for (int s = 0; s < 10; ++s) sink_.append(id, {s, 1.7e9 + s, 0.1});
    }
    model_.update();
    const std::size_t all = model_.selected().size();
    keys("R");
    EXPECT_EQ(state_.prompt.kind, Prompt::Kind::kRuns);
    EXPECT_NE(frame().find("runs (glob,!glob): "), std::string::npos) << frame();
    keys("csv_monitor/*");
    EXPECT_EQ(model_.selected().size(), 1u);  // applied while typing
    EXPECT_NE(frame().find("runs (glob,!glob): csv_monitor/*"), std::string::npos) << frame();
    key("Esc");
    EXPECT_EQ(model_.filter_runs(), "");
    EXPECT_EQ(model_.selected().size(), all);
    keys("R !ds_pipe_job Enter");
    EXPECT_EQ(state_.prompt.kind, Prompt::Kind::kNone);
    EXPECT_EQ(model_.filter_runs(), "!ds_pipe_job");
    EXPECT_EQ(model_.selected().size(), all - 2);
    EXPECT_NE(frame().find("runs !ds_pipe_job"), std::string::npos) << frame();
    // A pattern list that does not parse says why and keeps the last good filter ("a").
    keys("R Ctrl-U a,,b");
    EXPECT_FALSE(state_.prompt.error.empty());
    EXPECT_EQ(model_.filter_runs(), "a");
    key("Esc");
    EXPECT_EQ(model_.filter_runs(), "!ds_pipe_job");
}

TEST_F(Screen, AcknowledgingKeepsTheRecordButCalmsTheCounts) {
    EXPECT_EQ(model_.alert_counts().alert, 1u);
    keys("4 a");
    EXPECT_EQ(state_.anomalies.acknowledged.size(), 1u);
    EXPECT_EQ(model_.alert_counts().alert, 0u);
    EXPECT_EQ(model_.alert_counts().acknowledged, 1u);
    const std::string f = frame();
    EXPECT_NE(f.find("ack"), std::string::npos);
    EXPECT_NE(f.find("train/loss"), std::string::npos);  // still listed
}

// A grad norm that spikes (a warning) at step 150 and turns NaN (an alert) at step 250.
class LaterAlertScreen : public Screen {
  protected:
    LaterAlertScreen() {
        const SeriesId id = sink_.series({"job", 0, "train/gn"}, source_id({"tfevents"}));
        for (int s = 0; s < 300; ++s) {
            double v = 1.0 + 0.01 * (s % 5);
            if (s == 150) v = 60;
            if (s == 250) v = NAN;
            sink_.append(id, {s, 1.7e9 + s, v});
        }
        analyzer_.finish();
        model_.update();
    }
    // The anomaly list's row of `rule` on train/gn, selected.
    void select(const std::string& rule) {
        const auto& records = model_.analyzer().log().records();
        keys("4");
        for (int i = 0; i < 20; ++i) {
            const std::optional<std::size_t> at = anomaly_selected_record(state_.anomalies, model_);
            if (at && records[*at].tag == "train/gn" && records[*at].rule == rule) return;
            key("j");
        }
        FAIL() << "no " << rule << " record on train/gn";
    }
};

TEST_F(LaterAlertScreen, AcknowledgingAnEarlierWarningLeavesALaterAlertCounted) {
    // Rank 2's NaN loss and this NaN: two series in alert (the spike's warning is the same
    // series as the NaN, counted once, at its worst).
    ASSERT_EQ(model_.alert_counts().alert, 2u);
    select("spike");
    key("a");
    EXPECT_EQ(model_.alert_counts().alert, 2u);
    EXPECT_EQ(model_.alert_counts().acknowledged, 0u);
    EXPECT_NE(state_.flash.find("what fired on it later (step 250) still counts"),
              std::string::npos)
        << state_.flash;
    EXPECT_NE(frame().find("2 alert"), std::string::npos) << frame();
    // Acknowledging the latest one acknowledges the series.
    select("nonfinite");
    key("a");
    EXPECT_EQ(model_.alert_counts().alert, 1u);
    EXPECT_EQ(model_.alert_counts().acknowledged, 1u);
}

TEST_F(Screen, SmoothingFollowAndLogYAreStateTheAppReads) {
    EXPECT_DOUBLE_EQ(state_.detail.smoothing, 0.6);
    key("s");
    EXPECT_DOUBLE_EQ(state_.detail.smoothing, 0.9);
    key("f");
    EXPECT_FALSE(state_.follow);
    EXPECT_NE(frame().find("paused"), std::string::npos);
    key("f");
    EXPECT_TRUE(state_.follow);
    key("l");
    EXPECT_TRUE(state_.detail.log_y);
    key("Enter");
    EXPECT_TRUE(state_.detail.log_y);  // carried into the chart
}

TEST_F(Screen, HelpIsTheActionTableAndAnyKeyClosesIt) {
    key("?");
    EXPECT_TRUE(state_.help);
    // Every binding is on the help screen, scrolling down through it.
    std::string seen;
    for (int i = 0; i < 8; ++i) {
        seen += frame();
        key("PgDn");
    }
    for (const Binding& b : bindings())
        EXPECT_NE(seen.find(std::string(b.help).substr(0, 30)), std::string::npos) << b.help;
    EXPECT_NE(seen.find("wheel"), std::string::npos);
    EXPECT_FALSE(key("q").quit);  // closes the help, does not quit
    EXPECT_FALSE(state_.help);
}

TEST_F(Screen, GGoesToATypedStepInTheChartAndTheHeatmap) {
    keys("Right Enter");
    ASSERT_EQ(state_.view, ViewId::kDetail);
    keys("g 123");
    EXPECT_NE(frame().find("go to step: 123"), std::string::npos) << frame();
    key("Enter");
    ASSERT_TRUE(state_.detail.cursor);
    EXPECT_EQ(*state_.detail.cursor, 123);
    EXPECT_EQ(state_.flash, "cursor at step 123");
    // Zoomed in elsewhere, the window moves to hold the step.
    keys("+ + + g 10 Enter");
    EXPECT_EQ(*state_.detail.cursor, 10);
    ASSERT_TRUE(state_.detail.window_lo);
    EXPECT_LE(*state_.detail.window_lo, 10);
    EXPECT_GE(*state_.detail.window_hi, 10);
    // Esc cancels; letters are not steps.
    keys("g 5 x Esc");
    EXPECT_FALSE(state_.go_to_step);
    EXPECT_EQ(*state_.detail.cursor, 10);
    // The heatmap: the column holding the step.
    keys("Esc 3 g 250 Enter");
    ASSERT_EQ(state_.view, ViewId::kHeatmap);
    EXPECT_NE(state_.flash.find("step 250"), std::string::npos) << state_.flash;
    // Where there are no steps, g is still the first row.
    keys("2 j j g");
    EXPECT_FALSE(state_.go_to_step);
    EXPECT_EQ(state_.ranks.row, 0);
}

TEST_F(Screen, F1IsHelpAndF10QuitsAsInHtop) {
    key("F1");
    EXPECT_TRUE(state_.help);
    key("Esc");
    EXPECT_FALSE(state_.help);
    EXPECT_TRUE(key("F10").quit);
}

TEST_F(Screen, UnknownKeysSaySoInsteadOfDoingNothingSilently) {
    key("Z", true);
    EXPECT_NE(state_.flash.find("? shows the keys"), std::string::npos);
    key("1");
    EXPECT_TRUE(state_.flash.empty());
}

TEST_F(Screen, ClickSelectsAndASecondClickOpens) {
    const InputEvent click = InputEvent::mouse(40, 2, MouseButton::kLeft);
    handle(state_, click, model_, analyzer_, kW, kH);
    const int selected = state_.overview.selected;
    EXPECT_GT(selected, 0);
    handle(state_, click, model_, analyzer_, kW, kH);
    EXPECT_EQ(state_.view, ViewId::kDetail);
    EXPECT_EQ(state_.detail.tag, model_.groups()[selected].tag);
}

// The compare view's keys on three runs: b is a with rank 1's loss 10% higher from step 50; c
// is a with a NaN loss on rank 0 at step 70 (an anomaly for n).
class CompareScreen : public Screen {
  protected:
    CompareScreen() {
        for (const char* run : {"a", "b", "c"}) {
            for (int rank = 0; rank < 2; ++rank) {
                for (const char* tag : {"train/loss", "train/lr", "train/grad_norm", "eval/a",
                                        "eval/b", "eval/c", "eval/d"}) {
                    const SeriesId id = sink_.series({run, rank, tag}, source_id({"tfevents"}));
                    const bool loss = std::string(tag) == "train/loss";
                    for (int s = 0; s < 100; ++s) {
                        double v = 1.0 + 1.0 / (s + 1) + (loss ? 0 : 1);
                        if (loss && run[0] == 'b' && rank == 1 && s >= 50) v *= 1.1;
                        if (loss && run[0] == 'c' && rank == 0 && s == 70) v = NAN;
                        sink_.append(id, {s, 1.7e9 + s, v});
                    }
                }
            }
        }
        analyzer_.finish();
        model_.update();
    }
    std::pair<std::string, std::string> runs() { return compare_runs_of(state_.compare, model_); }
};

TEST_F(CompareScreen, TabInTheOverviewPutsTheNextRunInFrontOfEveryCard) {
    ASSERT_EQ(state_.view, ViewId::kOverview);
    key("Tab");
    ASSERT_TRUE(state_.overview.focus.has_value());
    EXPECT_EQ(state_.overview.focus->run, "a");
    key("Tab");
    EXPECT_EQ(state_.overview.focus->run, "b");
    key("BackTab");
    EXPECT_EQ(state_.overview.focus->run, "a");
    EXPECT_EQ(frame().find("no key"), std::string::npos) << frame();
}

TEST_F(CompareScreen, FiveOpensCompareAndBracketsCycleTheRunsSkippingTheOther) {
    // The Screen fixture's run "job" is there too: run_names() is a, b, c, job.
    ASSERT_EQ(model_.run_names(), (std::vector<std::string>{"a", "b", "c", "job"}));
    key("5");
    ASSERT_EQ(state_.view, ViewId::kCompare);
    EXPECT_EQ(runs(), (std::pair<std::string, std::string>{"a", "b"}));
    key("]");
    EXPECT_EQ(runs(), (std::pair<std::string, std::string>{"a", "c"}));
    EXPECT_NE(state_.flash.find("comparing A a with B c"), std::string::npos) << state_.flash;
    key("]");
    key("]");
    EXPECT_EQ(runs(), (std::pair<std::string, std::string>{"a", "b"}));  // job, then b (not a)
    key("[");
    EXPECT_EQ(runs(), (std::pair<std::string, std::string>{"c", "b"}));  // skips b
    keys("[ [");
    EXPECT_EQ(runs(), (std::pair<std::string, std::string>{"a", "b"}));
    EXPECT_NE(frame().find("A a vs B b"), std::string::npos) << frame();
}

// `runtop base=D1 new=D2` where each root holds a job's tensorboard/ and monitor_output/: A and B
// are the same run of each root, never two runs of the first root.
TEST(CompareDefaultPair, TwoRootsPairTheRunAtTheSamePlaceUnderEach) {
    Store store;
    Analyzer analyzer(default_rules());
    AnalyzingSink sink(analyzer, &store);
    ViewModel model(store, analyzer);
    auto add = [&](const char* run) {
        const SeriesId id = sink.series({run, 0, "train/loss"}, source_id({"tfevents"}));
        for (int s = 0; s < 10; ++s) sink.append(id, {s, 1.7e9 + s, 1.0 + s});
    };
    for (const char* run : {"base/monitor_output", "base/tensorboard", "new/tensorboard"}) add(run);
    model.set_root_names({"base", "new"});
    analyzer.finish();
    model.update();
    CompareState state;
    EXPECT_EQ(compare_runs_of(state, model),
              (std::pair<std::string, std::string>{"base/tensorboard", "new/tensorboard"}));
    add("new/monitor_output");
    model.update();
    EXPECT_EQ(compare_runs_of(state, model),
              (std::pair<std::string, std::string>{"base/monitor_output", "new/monitor_output"}));
    // One root: its first two runs, as before.
    model.set_root_names({"base"});
    model.update();
    EXPECT_EQ(compare_runs_of(state, model),
              (std::pair<std::string, std::string>{"base/monitor_output", "base/tensorboard"}));
}

TEST_F(CompareScreen, OAMAndCChangeSortAlignmentRanksAndThePanel) {
    key("5");
    EXPECT_EQ(state_.compare.sort, CompareSort::kDivergence);
    key("o");
    EXPECT_EQ(state_.compare.sort, CompareSort::kDelta);
    EXPECT_NE(frame().find("sort |Δ|"), std::string::npos) << frame();
    keys("o o");
    EXPECT_EQ(state_.compare.sort, CompareSort::kDivergence);
    key("a");
    EXPECT_EQ(state_.compare.options.align, CompareAlign::kRelativeWall);
    EXPECT_NE(frame().find("wall, ranks, tol 1e-6"), std::string::npos) << frame();
    key("a");
    EXPECT_EQ(state_.compare.options.align, CompareAlign::kStep);
    key("m");
    EXPECT_EQ(state_.compare.options.ranks, CompareRanks::kMean);
    EXPECT_NE(frame().find("mean of ranks"), std::string::npos) << frame();
    key("m");
    EXPECT_EQ(state_.compare.options.ranks, CompareRanks::kPerRank);
    key("c");
    EXPECT_TRUE(state_.compare.config);
    EXPECT_NE(frame().find("configuration, A a"), std::string::npos) << frame();
    key("c");
    EXPECT_FALSE(state_.compare.config);
    // Elsewhere these keys are not the compare view's: `a` acknowledges in the anomaly list only.
    key("1");
    key("a", true);
    EXPECT_NE(state_.flash.find("no key a here"), std::string::npos) << state_.flash;
}

TEST_F(CompareScreen, EnterOpensTheCompareChartAtTheFirstDivergenceAndEscComesBack) {
    key("5");
    key("Enter");  // the one diverging tag is on top
    ASSERT_EQ(state_.view, ViewId::kDetail);
    EXPECT_EQ(state_.detail.tag, "train/loss");
    ASSERT_TRUE(state_.detail.compare);
    EXPECT_EQ(*state_.detail.compare,
              (CompareDetail{"a", "b", 1, false, CompareAlign::kStep, 1e-6}));
    ASSERT_TRUE(state_.detail.cursor);
    EXPECT_EQ(*state_.detail.cursor, 50);
    key("Esc");
    EXPECT_EQ(state_.view, ViewId::kCompare);
    EXPECT_EQ(state_.compare.selected, 0);
    // A row that never diverges opens at the newest step (the rest are by name).
    key("j");
    key("Enter");
    EXPECT_EQ(state_.detail.tag, "eval/a");
    EXPECT_FALSE(state_.detail.cursor);
}

TEST_F(CompareScreen, TheSelectedTagComesAlongAndNJumpsToAnomalies) {
    // Select train/lr's card in the overview (cards: train/loss, train/grad_norm, train/lr...).
    int lr = -1;
    for (std::size_t i = 0; i < model_.groups().size(); ++i)
        if (model_.groups()[i].tag == "train/lr") lr = static_cast<int>(i);
    ASSERT_GE(lr, 0);
    state_.overview.selected = lr;
    key("5");
    const std::optional<CompareSelection> s = compare_selection(state_.compare, model_);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->tag, "train/lr");
    // n: the first failure in the detail chart (not a comparison), and Esc comes back here.
    key("n");
    ASSERT_EQ(state_.view, ViewId::kDetail);
    EXPECT_FALSE(state_.detail.compare);
    key("Esc");
    EXPECT_EQ(state_.view, ViewId::kCompare);
    key("2");
    EXPECT_EQ(model_.groups()[state_.ranks.row].tag, "train/lr");
}

TEST_F(CompareScreen, ClickSelectsASecondClickOpensAndTheWheelScrolls) {
    key("5");
    const CompareLayout l = compare_layout(state_.compare, model_, kW, kH);
    ASSERT_EQ(l.rows, 7);
    const InputEvent click = InputEvent::mouse(5, l.body_y + 2, MouseButton::kLeft);
    handle(state_, click, model_, analyzer_, kW, kH);
    EXPECT_EQ(state_.compare.selected, 2);
    EXPECT_EQ(state_.view, ViewId::kCompare);
    handle(state_, click, model_, analyzer_, kW, kH);
    EXPECT_EQ(state_.view, ViewId::kDetail);
    EXPECT_TRUE(state_.detail.compare);
    key("Esc");
    // Seven rows all fit: the wheel has nothing to scroll on a 40-line canvas.
    EXPECT_FALSE(handle(state_, InputEvent::mouse(5, l.body_y, MouseButton::kWheelDown), model_,
                        analyzer_, kW, kH)
                     .redraw);
    // On a short one it scrolls, and the selection stays on screen.
    state_.compare.selected = 0;
    handle(state_, InputEvent::mouse(5, 2, MouseButton::kWheelDown), model_, analyzer_, kW, 8);
    const CompareLayout s = compare_layout(state_.compare, model_, kW, 8);
    EXPECT_GT(s.first, 0);
    EXPECT_GE(state_.compare.selected, s.first);
}

TEST(InitialView, CompareWithTwoRootsElseTheOverview) {
    EXPECT_EQ(initial_view(2), ViewId::kCompare);
    EXPECT_EQ(initial_view(1), ViewId::kOverview);
    EXPECT_EQ(initial_view(3), ViewId::kOverview);
    EXPECT_EQ(view_name(ViewId::kCompare), "compare");
}

TEST(StatusLine, AStalledRunIsNamedWithItsQuietTimeAndPausedIsSaid) {
    Store store;
    Analyzer analyzer(default_rules());
    AnalyzingSink sink(analyzer, &store);
    const SeriesId id = sink.series({"job", 0, "train/loss"}, source_id({"tfevents"}));
    analyzer.set_live();
    for (int s = 0; s < 10; ++s) {
        analyzer.set_now(990 + s);
        sink.append(id, {s, 990.0 + s, 1.0});
    }
    ViewModel model(store, analyzer);
    model.update();
    model.ingest.live = true;
    model.ingest.now = 999 + 1800;  // half an hour of silence
    analyzer.set_now(model.ingest.now);
    analyzer.tick();
    Canvas c(120, 10);
    UiState state;
    draw_screen(c, model, state);
    const std::string status = testing::split_lines(c.to_text()).back();
    EXPECT_NE(status.find("stalled job 30m"), std::string::npos) << status;
    model.ingest.following = false;
    model.ingest.waiting = 12345;
    draw_screen(c, model, state);
    const std::string paused = testing::split_lines(c.to_text()).back();
    EXPECT_NE(paused.find("paused, 12.35k waiting"), std::string::npos) << paused;
}

TEST(KeyScript, NamesAreKeysOtherWordsAreTyped) {
    const std::vector<InputEvent> e = parse_key_script("2 j Enter / loss Space Ctrl-L");
    std::vector<std::string> names;
    for (const InputEvent& i : e) names.push_back(i.key);
    EXPECT_EQ(names, (std::vector<std::string>{"2", "j", "Enter", "/", "l", "o", "s", "s", "Space",
                                               "Ctrl-L"}));
    EXPECT_TRUE(e[3].text);
    EXPECT_FALSE(e[2].text);
    EXPECT_TRUE(parse_key_script("  ").empty());
}

// Every ViewId has its row in the view table, found by its id, with its own name and scope.
TEST(ViewTable, EveryViewHasOneRow) {
    std::set<std::string_view> names;
    for (ViewId id : {ViewId::kOverview, ViewId::kRanks, ViewId::kHeatmap, ViewId::kAnomalies,
                      ViewId::kDetail, ViewId::kCompare, ViewId::kModules}) {
        const ViewRow& row = view_row(id);
        EXPECT_EQ(row.id, id);
        EXPECT_EQ(view_name(id), row.name);
        EXPECT_TRUE(names.insert(row.name).second) << row.name;
        EXPECT_EQ(row.take_tag == nullptr, row.takes == TakesTag::kNever) << row.name;
    }
    EXPECT_EQ(view_rows().size(), names.size());
}

}  // namespace
}  // namespace runtop::ui
