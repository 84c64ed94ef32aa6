// Incidents (core/analysis/incidents.h): grouping by run and step, the root (step, rank-local
// before shared, upstream before downstream, the larger deviation), conditions, major or minor.
#include "core/analysis/incidents.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace runtop {
namespace {

struct Made {
    std::string run = "job";
    int rank = 0;
    std::string tag;
    std::int64_t step = 0;
    std::string rule = "spike";
    double value = 10;
    double reference = 1;
    Severity severity = Severity::kWarn;
    bool from_first_point = false;
    bool ended = true;
};

std::size_t add(AnomalyLog& log, const Made& m) {
    AnomalyRecord r;
    r.run = m.run;
    r.rank = m.rank;
    r.tag = m.tag;
    r.step = m.step;
    r.rule = m.rule;
    r.value = m.value;
    r.reference = m.reference;
    r.severity = m.severity;
    r.from_first_point = m.from_first_point;
    fill_msprobe_fields(r);
    const std::size_t i = log.fire(std::move(r));
    log.at(i).ended = m.ended;
    return i;
}

// The extension of an episode by one point at `step`.
void extend(AnomalyLog& log, std::size_t record, std::int64_t step) {
    AnomalyRecord r;
    r.step = step;
    log.fire(std::move(r), record);
}

const AnomalyRecord& root(const AnomalyLog& log, const Incident& inc) {
    return log.records()[log.ordered()[inc.root()].index];
}

TEST(Incidents, TheBadBatchOnOneRankIsTheRootNotTheAllReducedNorm) {
    // Rank 2's loss spikes; the all-reduced grad_norm spikes on every rank, more than the loss.
    AnomalyLog log;
    for (int rank : {0, 1, 2, 3})
        add(log, {.rank = rank, .tag = "train/grad_norm", .step = 1234, .value = 90});
    add(log, {.rank = 2, .tag = "train/loss", .step = 1234, .value = 4.7543, .reference = 0.2});
    const IncidentReport report = find_incidents(log);
    ASSERT_EQ(report.incidents.size(), 1u);
    const Incident& inc = report.incidents[0];
    EXPECT_EQ(inc.members.size(), 5u);
    EXPECT_EQ(root(log, inc).rank, 2);
    EXPECT_EQ(root(log, inc).tag, "train/loss");
    EXPECT_EQ(inc.step, 1234);
    EXPECT_TRUE(inc.major);  // runtop's own spike rule found it
    ASSERT_TRUE(report.first_major);
    EXPECT_EQ(*report.first_major, 0u);
    EXPECT_NE(incident_root_text(log, inc).find("rank 2 train/loss spike at step 1234"),
              std::string::npos)
        << incident_root_text(log, inc);
}

TEST(Incidents, UpstreamBeforeDownstreamThenTheLargerDeviation) {
    AnomalyLog log;
    add(log, {.rank = 1, .tag = "optimizer/exp_avg_sq_norm", .step = 5, .value = 1000});
    add(log, {.rank = 1, .tag = "grad/layer3_norm", .step = 5, .value = 50});
    add(log, {.rank = 1, .tag = "grad/layer7_norm", .step = 5, .value = 80});
    add(log, {.rank = 1, .tag = "lr", .step = 5, .value = 1e6});
    const IncidentReport report = find_incidents(log);
    ASSERT_EQ(report.incidents.size(), 1u);
    std::vector<std::string> order;
    for (std::size_t k : report.incidents[0].members)
        order.push_back(log.records()[log.ordered()[k].index].tag);
    EXPECT_EQ(order, (std::vector<std::string>{"grad/layer7_norm", "grad/layer3_norm",
                                               "optimizer/exp_avg_sq_norm", "lr"}));
    EXPECT_EQ(flow_stage(log.records()[0]), FlowStage::kOptimizer);
    EXPECT_EQ(flow_stage(log.records()[3]), FlowStage::kOther);
}

TEST(Incidents, OneStepEventsOnNeighbouringStepsStayApart) {
    // An Inf at step 10 on rank 1 and a NaN at step 11 on rank 0, each gone the step after.
    AnomalyLog log;
    add(log, {.rank = 1,
              .tag = "actv/fc1.input:0/norm",
              .step = 10,
              .rule = "nonfinite",
              .value = std::numeric_limits<double>::infinity(),
              .severity = Severity::kAlert});
    add(log, {.rank = 0,
              .tag = "actv/fc2.output:0/norm",
              .step = 11,
              .rule = "nonfinite",
              .value = std::nan(""),
              .severity = Severity::kAlert});
    const IncidentReport report = find_incidents(log);
    ASSERT_EQ(report.incidents.size(), 2u);
    EXPECT_EQ(root(log, report.incidents[0]).rank, 1);
    EXPECT_EQ(root(log, report.incidents[1]).rank, 0);
    EXPECT_EQ(report.incidents[0].strength, kDeviationCap);
}

TEST(Incidents, ANanReportedAgainEveryStepStaysOneIncidentANewSeriesLaterIsAnother) {
    // msProbe reports rank 2's NaN again at every step; rank 0 goes NaN at 102 (another series).
    AnomalyLog log;
    for (std::int64_t s = 100; s < 104; ++s)
        add(log, {.rank = 2,
                  .tag = "grad_reduced/w/norm",
                  .step = s,
                  .rule = "AnomalyNan",
                  .value = std::nan(""),
                  .severity = Severity::kAlert});
    add(log, {.rank = 2,
              .tag = "train/loss",
              .step = 100,
              .rule = "nonfinite",
              .value = std::nan(""),
              .severity = Severity::kAlert,
              .ended = false});
    add(log, {.rank = 0,
              .tag = "actv/x/norm",
              .step = 102,
              .rule = "nonfinite",
              .value = std::nan(""),
              .severity = Severity::kAlert,
              .ended = false});
    // A finite deviation on the same series again is judged anew.
    add(log, {.rank = 0, .tag = "eval/acc", .step = 150, .value = 0.01, .reference = 0.5});
    add(log, {.rank = 0, .tag = "eval/acc", .step = 151, .value = 0.02, .reference = 0.5});
    const IncidentReport report = find_incidents(log);
    ASSERT_EQ(report.incidents.size(), 4u);
    EXPECT_EQ(report.incidents[0].members.size(), 5u);
    EXPECT_EQ(root(log, report.incidents[0]).tag, "train/loss");  // forward before gradients
    EXPECT_EQ(report.incidents[0].last_step, 103);
    EXPECT_EQ(report.incidents[1].step, 102);
    EXPECT_EQ(root(log, report.incidents[1]).rank, 0);
    EXPECT_EQ(report.incidents[2].step, 150);
    EXPECT_DOUBLE_EQ(report.incidents[2].strength, 50);
    EXPECT_EQ(report.incidents[3].step, 151);
}

TEST(Incidents, AnAllReducedValueOnEveryRankIsSharedOnlyWhenTheValuesAgree) {
    // Two ranks' losses spike by different amounts: both rank-local, the larger one first.
    AnomalyLog log;
    add(log, {.rank = 0, .tag = "train/loss", .step = 9, .value = 30});
    add(log, {.rank = 1, .tag = "train/loss", .step = 9, .value = 60});
    add(log, {.rank = 0, .tag = "train/grad_norm", .step = 9, .value = 7});
    add(log, {.rank = 1, .tag = "train/grad_norm", .step = 9, .value = 7});
    add(log, {.rank = 2, .tag = "train/grad_norm", .step = 9, .value = 7});
    const IncidentReport report = find_incidents(log);
    ASSERT_EQ(report.incidents.size(), 1u);
    EXPECT_EQ(root(log, report.incidents[0]).rank, 1);
    EXPECT_EQ(root(log, report.incidents[0]).tag, "train/loss");
    EXPECT_EQ(log.records()[log.ordered()[report.incidents[0].members[1]].index].rank, 0);
}

TEST(Incidents, RunsAreNeverMixed) {
    AnomalyLog log;
    add(log, {.run = "a", .tag = "loss", .step = 7});
    add(log, {.run = "b", .tag = "loss", .step = 7});
    const IncidentReport report = find_incidents(log);
    ASSERT_EQ(report.incidents.size(), 2u);
    EXPECT_NE(report.incidents[0].run, report.incidents[1].run);
}

TEST(Incidents, ASeriesBadFromItsFirstPointOnIsAConditionNotTheFirstFailure) {
    AnomalyLog log;
    const std::size_t chronic = add(log, {.rank = 0,
                                          .tag = "actv_grad/.input:0/nans",
                                          .step = 0,
                                          .rule = "nonfinite",
                                          .value = 4,
                                          .severity = Severity::kAlert,
                                          .from_first_point = true,
                                          .ended = false});
    for (std::int64_t s = 1; s <= 12; ++s) extend(log, chronic, s);
    // One that began at the first point but recovered is an incident.
    add(log, {.rank = 1,
              .tag = "actv/x/norm",
              .step = 0,
              .rule = "nonfinite",
              .value = std::nan(""),
              .severity = Severity::kAlert,
              .from_first_point = true,
              .ended = true});
    add(log, {.rank = 1,
              .tag = "actv/fc1.input:0/norm",
              .step = 10,
              .rule = "nonfinite",
              .value = std::numeric_limits<double>::infinity(),
              .severity = Severity::kAlert});
    const IncidentReport report = find_incidents(log);
    ASSERT_EQ(report.conditions.size(), 1u);
    EXPECT_EQ(report.conditions[0].record, chronic);
    EXPECT_EQ(report.conditions[0].since_step, 0);
    ASSERT_EQ(report.incidents.size(), 2u);
    EXPECT_EQ(report.incidents[0].step, 0);
    EXPECT_EQ(root(log, report.incidents[0]).tag, "actv/x/norm");
    EXPECT_EQ(report.incidents[1].step, 10);
    for (std::size_t k = 0; k < log.ordered().size(); ++k)
        EXPECT_EQ(report.incident_of[k] == kNoIncident, log.ordered()[k].index == chronic) << k;
}

TEST(Incidents, MsProbesTurbulenceAloneIsMajorOnlyWhereItStandsOut) {
    // Every early step has a few warnings of a few x; step 7 has many, far larger.
    AnomalyLog log;
    auto turbulence = [&](std::int64_t step, int count, double ratio) {
        for (int i = 0; i < count; ++i) {
            ImportedAnomaly a;
            a.run = "job";
            a.rank = i % 2;
            a.raw_tag = "0:layer" + std::to_string(i) + ".weight/rank" + std::to_string(i % 2) +
                        "/post_grad";
            a.key = a.raw_tag + "_step_" + std::to_string(step) + "_call_0";
            a.rule = "AnomalyTurbulence";
            a.step = step;
            a.value = ratio;
            a.history_mean = 1;
            log.import(a, kNoSeries);
        }
    };
    for (std::int64_t s = 1; s <= 6; ++s) turbulence(s, 4 + static_cast<int>(s % 3), 3 + s);
    turbulence(7, 20, 60);
    const IncidentReport report = find_incidents(log);
    ASSERT_EQ(report.incidents.size(), 7u);
    for (std::size_t i = 0; i < 6; ++i) EXPECT_FALSE(report.incidents[i].major) << i;
    EXPECT_TRUE(report.incidents[6].major);
    ASSERT_TRUE(report.first_major);
    EXPECT_EQ(report.incidents[*report.first_major].step, 7);
}

TEST(Incidents, DeviationIsARatioEitherWayCappedForNonFinite) {
    AnomalyRecord r;
    r.value = 50;
    r.reference = 2;
    EXPECT_DOUBLE_EQ(deviation(r), 25);
    r.value = 0.5;
    EXPECT_DOUBLE_EQ(deviation(r), 4);
    r.value = std::nan("");
    EXPECT_EQ(deviation(r), kDeviationCap);
    r.value = 3;
    r.reference = std::nan("");
    EXPECT_EQ(deviation(r), 1);
    r.rule = "nonfinite";  // msProbe's NaN count: finite value, NaN inside the tensor
    EXPECT_EQ(deviation(r), kDeviationCap);
}

}  // namespace
}  // namespace runtop
