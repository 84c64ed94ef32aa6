// The anomaly log: episodes, msProbe imports (replaced by key), msProbe's analyser order, and
// runtop's findings on msProbe statistics merged into the entry msProbe wrote for them.
#include "core/analysis/anomaly_log.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/analysis/msprobe_tag.h"

namespace runtop {
namespace {

AnomalyRecord runtop_record(std::string run, int rank, std::string tag, std::int64_t step,
                            std::string rule = "spike") {
    AnomalyRecord r;
    r.run = std::move(run);
    r.rank = rank;
    r.tag = std::move(tag);
    r.step = step;
    r.rule = std::move(rule);
    fill_msprobe_fields(r);  // leaves tags that are not msProbe's alone
    return r;
}

ImportedAnomaly msprobe_entry(std::string run, int rank, std::string tag_name, std::int64_t step,
                              std::int64_t call_id, std::int64_t pp_stage = 0) {
    ImportedAnomaly a;
    a.run = std::move(run);
    a.rank = rank;
    a.key = tag_name + "_step_" + std::to_string(step) + "_call_" + std::to_string(call_id);
    a.tag = anomaly_series_tag(tag_name, "norm");
    a.raw_tag = std::move(tag_name);
    a.op = "norm";
    a.rule = "AnomalyTurbulence";
    a.message = "from msProbe";
    a.step = step;
    a.pp_stage = pp_stage;
    a.call_id = call_id;
    return a;
}

// The shown records by what identifies them: tag_name for msProbe's, tag for runtop's.
std::vector<std::string> shown(const AnomalyLog& log) {
    std::vector<std::string> out;
    for (const LogEntry& e : log.ordered()) {
        const AnomalyRecord& r = log.records()[e.index];
        out.push_back(r.source == AnomalySource::kMsProbe ? r.msprobe_tag_name : r.tag);
    }
    return out;
}

using Names = std::vector<std::string>;

// What the Analyzer passes to extend an episode: only the step counts.
AnomalyRecord extension(std::int64_t step) {
    AnomalyRecord r;
    r.step = step;
    return r;
}

TEST(AnomalyLog, FireAddsARecordOrExtendsTheOpenEpisode) {
    AnomalyLog log;
    const std::size_t first = log.fire(runtop_record("r", 0, "train/loss", 10, "nonfinite"));
    EXPECT_EQ(log.fire(extension(11), first), first);
    EXPECT_EQ(log.fire(extension(12), first), first);
    ASSERT_EQ(log.size(), 1u);
    const AnomalyRecord& r = log.records()[first];
    EXPECT_EQ(r.step, 10);
    EXPECT_EQ(r.last_step, 12);
    EXPECT_EQ(r.count, 3u);
    EXPECT_EQ(r.rule, "nonfinite");
    EXPECT_EQ(r.tag, "train/loss");  // extending keeps what the first firing said

    const std::size_t second = log.fire(runtop_record("r", 0, "train/loss", 20, "nonfinite"));
    EXPECT_NE(second, first);
    EXPECT_EQ(log.size(), 2u);
    EXPECT_EQ(log.records()[second].last_step, 20);
    EXPECT_EQ(log.records()[second].count, 1u);
    EXPECT_GT(log.records()[second].sequence, log.records()[first].sequence);
}

TEST(AnomalyLog, ImportReplacesTheSameRunAndKey) {
    AnomalyLog log;
    ImportedAnomaly a = msprobe_entry("r", 0, "0:fc1.weight/rank0/post_grad", 5, 3);
    log.import(a, kNoSeries);
    a.message = "written again";
    log.import(a, kNoSeries);
    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log.records()[0].message, "written again");
    EXPECT_EQ(log.records()[0].source, AnomalySource::kMsProbe);
    EXPECT_EQ(log.records()[0].severity, Severity::kWarn);  // turbulence
    EXPECT_EQ(log.records()[0].msprobe_kind, "post_grad");
    EXPECT_EQ(log.records()[0].msprobe_statistic, "grad_reduced/fc1.weight");

    a.run = "other run";  // the same key in another run is another record
    log.import(a, kNoSeries);
    EXPECT_EQ(log.size(), 2u);
    EXPECT_EQ(log.ordered().size(), 2u);
}

TEST(AnomalyLog, OrderedIsStepFirst) {
    AnomalyLog log;
    log.fire(runtop_record("r", 0, "train/loss", 30));
    log.import(msprobe_entry("r", 0, "0:fc1.weight/rank0/exp_avg", 10, 9), kNoSeries);
    log.fire(runtop_record("r", 0, "train/grad_norm", 20));
    EXPECT_EQ(shown(log), (Names{"0:fc1.weight/rank0/exp_avg", "train/grad_norm", "train/loss"}));
}

TEST(AnomalyLog, OrderedFollowsMsProbesStagesAndPipelineOrder) {
    AnomalyLog log;
    // One step, imported in no useful order. Rank r sits at pipeline stage r.
    log.import(msprobe_entry("r", 0, "0:fc1.weight/rank0/exp_avg", 10, 8, 0), kNoSeries);
    log.import(msprobe_entry("r", 0, "0:fc1.output:0/rank0/actv_grad", 10, 6, 0), kNoSeries);
    log.import(msprobe_entry("r", 1, "0:fc2.input:0/rank1/actv", 10, 5, 1), kNoSeries);
    log.import(msprobe_entry("r", 0, "0:fc1.weight/rank0/acc_grad", 10, 7, 0), kNoSeries);
    log.import(msprobe_entry("r", 0, "0:fc1.input:0/rank0/actv", 10, 1, 0), kNoSeries);
    log.import(msprobe_entry("r", 1, "0:fc2.weight/rank1/post_grad", 10, 3, 1), kNoSeries);
    log.import(msprobe_entry("r", 0, "0:fc1.weight/rank0/param_origin", 10, 0, 0), kNoSeries);
    log.fire(runtop_record("r", 0, "train/loss", 10, "nonfinite"));
    EXPECT_EQ(shown(log), (Names{
                              "train/loss",                       // no stage (-1), no call id
                              "0:fc1.weight/rank0/param_origin",  // other (-1)
                              "0:fc1.input:0/rank0/actv",         // forward, pp 0
                              "0:fc2.input:0/rank1/actv",         // forward, pp 1
                              "0:fc2.weight/rank1/post_grad",     // backward, last pp first
                              "0:fc1.output:0/rank0/actv_grad",   // backward pp 0, call 6
                              "0:fc1.weight/rank0/acc_grad",      // backward pp 0, call 7
                              "0:fc1.weight/rank0/exp_avg",       // optimizer
                          }));
}

TEST(AnomalyLog, CallIdOrdersWithinAStage) {
    AnomalyLog log;
    log.import(msprobe_entry("r", 0, "0:fc2.input:0/rank0/actv", 10, 9), kNoSeries);
    log.import(msprobe_entry("r", 0, "0:fc1.input:0/rank0/actv", 10, 4), kNoSeries);
    EXPECT_EQ(shown(log), (Names{"0:fc1.input:0/rank0/actv", "0:fc2.input:0/rank0/actv"}));
}

TEST(AnomalyLog, EqualKeysFallBackToRankThenArrival) {
    AnomalyLog log;
    log.fire(runtop_record("r", 3, "train/loss", 10));
    log.fire(runtop_record("r", 1, "train/loss", 10));
    log.fire(runtop_record("r", 1, "train/grad_norm", 10));
    std::vector<int> ranks;
    for (const LogEntry& e : log.ordered()) ranks.push_back(log.records()[e.index].rank);
    EXPECT_EQ(ranks, (std::vector<int>{1, 1, 3}));
    EXPECT_EQ(shown(log), (Names{"train/grad_norm", "train/loss", "train/loss"}));  // then tag
}

TEST(AnomalyLog, FillMsProbeFieldsGivesMsProbesNames) {
    AnomalyRecord r = runtop_record("r", 1, "grad_reduced/fc1.weight/norm", 5);
    EXPECT_EQ(r.msprobe_kind, "post_grad");
    EXPECT_EQ(r.msprobe_statistic, "grad_reduced/fc1.weight");
    EXPECT_EQ(r.msprobe_tag_name, "0:fc1.weight/rank1/post_grad");
    EXPECT_EQ(r.micro_step, 0);

    AnomalyRecord a = runtop_record("r", 0, "actv/2:fc1.input:1/max", 5);
    EXPECT_EQ(a.msprobe_kind, "actv");
    EXPECT_EQ(a.msprobe_statistic, "actv/2:fc1.input:1");
    EXPECT_EQ(a.msprobe_tag_name, "2:fc1.input:1/rank0/actv");
    EXPECT_EQ(a.vpp_stage, 2);
    EXPECT_EQ(a.micro_step, 1);

    AnomalyRecord plain = runtop_record("r", 0, "train/loss", 5);
    EXPECT_EQ(plain.msprobe_kind, "");
    EXPECT_EQ(plain.msprobe_statistic, "");
}

TEST(AnomalyLog, RuntopFindingOnAnImportedStatisticIsMerged) {
    AnomalyLog log;
    log.import(msprobe_entry("r", 1, "0:fc1.weight/rank1/post_grad", 5, 3), kNoSeries);
    log.fire(runtop_record("r", 1, "grad_reduced/fc1.weight/norm", 5, "AnomalyTurbulence"));
    // msProbe's key names no op: a finding on another op of the statistic merges too.
    log.fire(runtop_record("r", 1, "grad_reduced/fc1.weight/max", 5, "spike"));
    ASSERT_EQ(log.ordered().size(), 1u);
    const LogEntry& e = log.ordered()[0];
    EXPECT_EQ(log.records()[e.index].source, AnomalySource::kMsProbe);
    EXPECT_TRUE(e.also_runtop);
    EXPECT_EQ(log.merged_count(), 2u);
    EXPECT_EQ(log.size(), 3u);  // kept, only not shown
}

TEST(AnomalyLog, OneMergedRecordCountsOnce) {
    AnomalyLog log;
    log.import(msprobe_entry("r", 1, "0:fc1.weight/rank1/post_grad", 5, 3), kNoSeries);
    log.fire(runtop_record("r", 1, "grad_reduced/fc1.weight/norm", 5, "AnomalyTurbulence"));
    EXPECT_EQ(log.ordered().size(), 1u);
    EXPECT_TRUE(log.ordered()[0].also_runtop);
    EXPECT_EQ(log.merged_count(), 1u);
}

// msProbe calls an Inf turbulence, a warning; runtop's nonfinite alert on the same step must not
// be lowered by the merge (a gate on alerts would pass). The higher severity wins either way.
TEST(AnomalyLog, MergedEntryTakesTheHigherSeverity) {
    AnomalyLog log;
    ImportedAnomaly turbulence = msprobe_entry("r", 1, "0:fc1.input:0/rank1/actv", 10, 3);
    ASSERT_EQ(msprobe_severity(turbulence.rule), Severity::kWarn);
    log.import(turbulence, kNoSeries);
    AnomalyRecord spike = runtop_record("r", 1, "actv/fc1.input:0/max", 10, "spike");
    spike.severity = Severity::kWarn;
    log.fire(spike);
    AnomalyRecord inf = runtop_record("r", 1, "actv/fc1.input:0/norm", 10, "nonfinite");
    inf.severity = Severity::kAlert;
    log.fire(inf);
    ASSERT_EQ(log.ordered().size(), 1u);
    const LogEntry& e = log.ordered()[0];
    EXPECT_EQ(log.records()[e.index].source, AnomalySource::kMsProbe);
    EXPECT_EQ(e.severity, Severity::kAlert);
    EXPECT_EQ(log.records()[e.runtop_index].rule, "nonfinite");  // the worst merged record
    EXPECT_EQ(anomaly_message_text(log, e), "from msProbe [runtop found it too: nonfinite]");

    // An msProbe alert (AnomalyNan) stays an alert when runtop only warned.
    AnomalyLog nan_log;
    ImportedAnomaly nan = msprobe_entry("r", 1, "0:fc1.input:0/rank1/actv", 11, 3);
    nan.rule = "AnomalyNan";
    nan_log.import(nan, kNoSeries);
    AnomalyRecord warn = runtop_record("r", 1, "actv/fc1.input:0/norm", 11, "spike");
    warn.severity = Severity::kWarn;
    nan_log.fire(warn);
    ASSERT_EQ(nan_log.ordered().size(), 1u);
    EXPECT_EQ(nan_log.ordered()[0].severity, Severity::kAlert);

    // Unmerged entries show their own severity.
    AnomalyLog alone;
    alone.import(turbulence, kNoSeries);
    ASSERT_EQ(alone.ordered().size(), 1u);
    EXPECT_EQ(alone.ordered()[0].severity, Severity::kWarn);
    EXPECT_FALSE(alone.ordered()[0].also_runtop);
    EXPECT_EQ(alone.ordered()[0].runtop_index, kNoRecord);
}

TEST(AnomalyLog, NoMergeAtAnotherStepRankOrRun) {
    AnomalyLog log;
    log.import(msprobe_entry("r", 1, "0:fc1.weight/rank1/post_grad", 5, 3), kNoSeries);
    log.fire(runtop_record("r", 1, "grad_reduced/fc1.weight/norm", 6));
    log.fire(runtop_record("r", 2, "grad_reduced/fc1.weight/norm", 5));
    log.fire(runtop_record("s", 1, "grad_reduced/fc1.weight/norm", 5));
    log.fire(runtop_record("r", 1, "grad_reduced/fc2.weight/norm", 5));
    EXPECT_EQ(log.ordered().size(), 5u);
    EXPECT_EQ(log.merged_count(), 0u);
    for (const LogEntry& e : log.ordered()) EXPECT_FALSE(e.also_runtop);
}

TEST(AnomalyLog, RuntopRecordsLearnPipelineStageAndCallIdFromImports) {
    AnomalyLog log;
    log.import(msprobe_entry("r", 1, "0:fc1.weight/rank1/post_grad", 5, 7, /*pp_stage=*/3),
               kNoSeries);
    const std::size_t same_tag = log.fire(runtop_record("r", 1, "grad_reduced/fc1.weight/norm", 9));
    const std::size_t same_rank = log.fire(runtop_record("r", 1, "actv/fc2.input:0/norm", 9));
    const std::size_t other_rank =
        log.fire(runtop_record("r", 2, "grad_reduced/fc1.weight/norm", 9));
    const std::size_t not_msprobe = log.fire(runtop_record("r", 1, "train/loss", 9));
    auto entry = [&](std::size_t index) {
        for (const LogEntry& e : log.ordered())
            if (e.index == index) return e;
        ADD_FAILURE() << "record " << index << " not shown";
        return LogEntry{};
    };
    EXPECT_EQ(entry(same_tag).pp_stage, 3);
    EXPECT_EQ(entry(same_tag).call_id, 7);
    EXPECT_EQ(entry(same_rank).pp_stage, 3);
    EXPECT_EQ(entry(same_rank).call_id, -1);
    EXPECT_EQ(entry(other_rank).pp_stage, 0);
    EXPECT_EQ(entry(other_rank).call_id, -1);
    EXPECT_EQ(entry(not_msprobe).pp_stage, 0);
    EXPECT_EQ(entry(not_msprobe).call_id, -1);
    // The records themselves are unchanged: ordering learns, it does not rewrite.
    EXPECT_EQ(log.records()[same_tag].call_id, -1);
}

TEST(AnomalyLog, RecordsWithCallIdsSortAtMicroStepZero) {
    // Two forward activations at step 10: micro-step 1 called first (call 5), micro-step 0
    // later (call 9). msProbe says micro-step 0 for both and orders them by call id.
    const std::string micro1 = "actv/fc1.input:1/norm";
    const std::string micro0 = "actv/fc2.input:0/norm";
    AnomalyLog without_calls;
    without_calls.fire(runtop_record("r", 0, micro1, 10));
    without_calls.fire(runtop_record("r", 0, micro0, 10));
    EXPECT_EQ(shown(without_calls), (Names{micro0, micro1}));  // the micro-step decides

    AnomalyLog with_calls;
    with_calls.import(msprobe_entry("r", 0, "0:fc1.input:1/rank0/actv", 3, 5), kNoSeries);
    with_calls.import(msprobe_entry("r", 0, "0:fc2.input:0/rank0/actv", 3, 9), kNoSeries);
    with_calls.fire(runtop_record("r", 0, micro0, 10));
    with_calls.fire(runtop_record("r", 0, micro1, 10));
    EXPECT_EQ(shown(with_calls),
              (Names{"0:fc1.input:1/rank0/actv", "0:fc2.input:0/rank0/actv", micro1, micro0}));
}

TEST(AnomalyLog, OrderedFollowsLaterChanges) {
    AnomalyLog log;
    log.fire(runtop_record("r", 0, "train/loss", 20));
    EXPECT_EQ(log.ordered().size(), 1u);
    log.fire(runtop_record("r", 0, "train/grad_norm", 10));
    EXPECT_EQ(shown(log), (Names{"train/grad_norm", "train/loss"}));
    log.import(msprobe_entry("r", 0, "0:fc1.weight/rank0/post_grad", 1, 0), kNoSeries);
    EXPECT_EQ(shown(log).front(), "0:fc1.weight/rank0/post_grad");
}

}  // namespace
}  // namespace runtop
