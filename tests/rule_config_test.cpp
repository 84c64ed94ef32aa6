// Rules files: the built-in defaults, msProbe's own monitor config read verbatim, built-in types
// replacing their defaults, errors that say where they are; the default tag regexes on real tags.
#include "core/analysis/rule_config.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <string>
#include <string_view>
#include <vector>

namespace runtop {
namespace {

std::vector<RuleType> types_of(const RuleSet& set) {
    std::vector<RuleType> out;
    for (const RuleConfig& r : set.rules) out.push_back(r.type);
    return out;
}

const RuleConfig* find_rule(const RuleSet& set, RuleType type) {
    for (const RuleConfig& r : set.rules)
        if (r.type == type) return &r;
    return nullptr;
}

RuleSet parsed(std::string_view text) {
    Result<RuleSet> set = parse_rules(text, "rules.json");
    EXPECT_TRUE(set.ok()) << (set.ok() ? "" : set.error().message);
    return set.ok() ? *set : RuleSet{};
}

std::string error_of(std::string_view text) {
    Result<RuleSet> set = parse_rules(text, "rules.json");
    EXPECT_FALSE(set.ok()) << text;
    return set.ok() ? std::string() : set.error().message;
}

using Types = std::vector<RuleType>;
const Types kDefaultTypes{RuleType::kNonFinite, RuleType::kSpike, RuleType::kCrossRank,
                          RuleType::kStall, RuleType::kThreshold};

TEST(RuleConfig, DefaultsAreNonFiniteSpikeCrossRankStallAndNanIterations) {
    const RuleSet set = default_rules();
    EXPECT_EQ(types_of(set), kDefaultTypes);
    EXPECT_TRUE(set.warnings.empty());

    const RuleConfig& nonfinite = set.rules[0];
    EXPECT_EQ(nonfinite.name, "nonfinite");
    EXPECT_EQ(nonfinite.severity, Severity::kAlert);
    EXPECT_TRUE(nonfinite.scope.tags.empty());
    EXPECT_TRUE(nonfinite.scope.exclude_tags.empty());

    const RuleConfig& spike = set.rules[1];
    EXPECT_EQ(spike.name, "spike");
    EXPECT_EQ(spike.severity, Severity::kWarn);
    EXPECT_EQ(spike.scope.exclude_tags, default_spike_exclusions());
    EXPECT_EQ(spike.spike.k, 6.0);

    // A rank ten times its peers, from the first step, on the tags spikes are judged on.
    const RuleConfig& cross_rank = set.rules[2];
    EXPECT_EQ(cross_rank.name, "cross_rank");
    EXPECT_EQ(cross_rank.severity, Severity::kWarn);
    EXPECT_EQ(cross_rank.scope.exclude_tags, default_spike_exclusions());
    EXPECT_EQ(cross_rank.cross_rank.min_ratio, 10);
    EXPECT_EQ(cross_rank.cross_rank.k, 5);

    const RuleConfig& stall = set.rules[3];
    EXPECT_EQ(stall.name, "stall");
    EXPECT_EQ(stall.severity, Severity::kWarn);
    EXPECT_EQ(stall.stall.seconds, 600);

    // Megatron's count of NaN iterations, from its log: any is a failure.
    const RuleConfig& nan_iterations = set.rules[4];
    EXPECT_EQ(nan_iterations.name, "nan_iterations");
    EXPECT_EQ(nan_iterations.severity, Severity::kAlert);
    EXPECT_EQ(nan_iterations.scope.tags, "^number of nan iterations$");
    EXPECT_EQ(nan_iterations.threshold.above, 0);
    EXPECT_FALSE(nan_iterations.threshold.below);
}

TEST(RuleConfig, EmptyObjectKeepsTheDefaults) {
    EXPECT_EQ(types_of(parsed("{}")), kDefaultTypes);
    EXPECT_EQ(types_of(parsed(R"({"defaults": true, "rules": []})")), kDefaultTypes);
}

TEST(RuleConfig, MsProbeMonitorConfigIsReadVerbatim) {
    const RuleSet set =
        parsed(R"({"targets":{},"ops":["norm"],"alert":{"rules":[{"rule_name":"AnomalyNan"},)"
               R"({"rule_name":"AnomalyTurbulence","args":{"threshold":0.5}}],"dump":true}})");
    EXPECT_EQ(types_of(set), (Types{RuleType::kNonFinite, RuleType::kSpike, RuleType::kCrossRank,
                                    RuleType::kStall, RuleType::kThreshold, RuleType::kMsProbe}));
    EXPECT_TRUE(set.warnings.empty());
    const RuleConfig& m = set.rules.back();
    EXPECT_EQ(m.name, "msprobe");
    EXPECT_EQ(m.msprobe.variant, MsProbeVariant::kCurrent);
    ASSERT_EQ(m.msprobe.specs.size(), 2u);
    EXPECT_EQ(m.msprobe.specs[0].rule_name, "AnomalyNan");
    EXPECT_FALSE(m.msprobe.specs[0].threshold);
    EXPECT_EQ(m.msprobe.specs[1].rule_name, "AnomalyTurbulence");
    EXPECT_EQ(m.msprobe.specs[1].threshold, 0.5);
}

TEST(RuleConfig, TopLevelRulesMayBeMsProbeRuleNames) {
    const RuleSet set = parsed(R"({"rules":[
        {"rule_name":"AnomalyTurbulence","args":{"threshold":0.5}},
        {"rule_name":"AnomalyNan","args":{"threshold":1e10}}]})");
    ASSERT_EQ(set.rules.size(), 6u);
    const RuleConfig& m = set.rules.back();
    EXPECT_EQ(m.type, RuleType::kMsProbe);
    ASSERT_EQ(m.msprobe.specs.size(), 2u);
    EXPECT_EQ(m.msprobe.specs[0].rule_name, "AnomalyTurbulence");
    EXPECT_EQ(m.msprobe.specs[0].threshold, 0.5);
    EXPECT_EQ(m.msprobe.specs[1].rule_name, "AnomalyNan");
    EXPECT_EQ(m.msprobe.specs[1].threshold, 1e10);
}

TEST(RuleConfig, DefaultsFalseDropsTheBuiltIns) {
    EXPECT_TRUE(parsed(R"({"defaults": false})").rules.empty());
    const RuleSet set = parsed(R"({"defaults": false, "rules": [
        {"rule": "threshold", "tags": "loss", "above": 10}]})");
    ASSERT_EQ(types_of(set), Types{RuleType::kThreshold});
    EXPECT_EQ(set.rules[0].scope.tags, "loss");
    EXPECT_EQ(set.rules[0].threshold.above, 10);
    EXPECT_FALSE(set.rules[0].threshold.below);
    EXPECT_EQ(set.rules[0].severity, Severity::kAlert);
}

TEST(RuleConfig, BuiltInTypeReplacesItsDefault) {
    const RuleSet set = parsed(R"({"rules": [{"rule": "spike", "k": 9}]})");
    EXPECT_EQ(types_of(set), (Types{RuleType::kNonFinite, RuleType::kCrossRank, RuleType::kStall,
                                    RuleType::kThreshold, RuleType::kSpike}));
    const RuleConfig* spike = find_rule(set, RuleType::kSpike);
    ASSERT_NE(spike, nullptr);
    EXPECT_EQ(spike->spike.k, 9);
    EXPECT_EQ(spike->spike.window, SpikeParams{}.window);
    // The replacement keeps the default exclusions unless it says otherwise.
    EXPECT_EQ(spike->scope.exclude_tags, default_spike_exclusions());
}

TEST(RuleConfig, DisabledBuiltInIsRemoved) {
    const RuleSet set = parsed(R"({"rules": [{"rule": "nonfinite", "enabled": false}]})");
    EXPECT_EQ(types_of(set), (Types{RuleType::kSpike, RuleType::kCrossRank, RuleType::kStall,
                                    RuleType::kThreshold}));
    const RuleSet no_cross = parsed(R"({"rules": [{"rule": "cross_rank", "enabled": false}]})");
    EXPECT_EQ(types_of(no_cross), (Types{RuleType::kNonFinite, RuleType::kSpike, RuleType::kStall,
                                         RuleType::kThreshold}));
}

// A cross_rank entry replaces the built-in one, and is what it says: no ratio, no exclusions.
TEST(RuleConfig, ACrossRankEntryReplacesTheBuiltInOne) {
    const RuleSet set = parsed(R"({"rules": [{"rule": "cross_rank", "tags": "grad", "k": 4}]})");
    EXPECT_EQ(types_of(set), (Types{RuleType::kNonFinite, RuleType::kSpike, RuleType::kStall,
                                    RuleType::kThreshold, RuleType::kCrossRank}));
    const RuleConfig* c = find_rule(set, RuleType::kCrossRank);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->cross_rank.k, 4);
    EXPECT_EQ(c->cross_rank.min_ratio, 0);
    EXPECT_TRUE(c->scope.exclude_tags.empty());
    EXPECT_EQ(parsed(R"({"rules": [{"rule": "cross_rank", "min_ratio": 20}]})")
                  .rules.back()
                  .cross_rank.min_ratio,
              20);
}

TEST(RuleConfig, SecondEntryOfABuiltInTypeAddsARule) {
    const RuleSet set = parsed(R"({"rules": [
        {"rule": "spike", "tags": "loss", "k": 8},
        {"rule": "spike", "tags": "grad", "k": 10}]})");
    std::vector<double> ks;
    for (const RuleConfig& r : set.rules)
        if (r.type == RuleType::kSpike) ks.push_back(r.spike.k);
    EXPECT_EQ(ks, (std::vector<double>{8, 10}));
}

TEST(RuleConfig, RuleFieldsAreRead) {
    const RuleSet set = parsed(R"({"defaults": false, "rules": [
        {"rule": "cross_rank", "tags": "grad_norm", "exclude_tags": "eval", "ranks": "0-7,!3",
         "k": 4, "rel_floor": 0.1, "abs_floor": 0.5, "min_ranks": 6, "severity": "alert",
         "name": "ranks apart"},
        {"rule": "stall", "seconds": 120, "interval_factor": 5},
        {"rule": "threshold", "below": -1.5, "severity": "warn"}]})");
    ASSERT_EQ(set.rules.size(), 3u);
    const RuleConfig& c = set.rules[0];
    EXPECT_EQ(c.type, RuleType::kCrossRank);
    EXPECT_EQ(c.name, "ranks apart");
    EXPECT_EQ(c.severity, Severity::kAlert);
    EXPECT_EQ(c.scope.tags, "grad_norm");
    EXPECT_EQ(c.scope.exclude_tags, "eval");
    EXPECT_EQ(c.scope.ranks, "0-7,!3");
    EXPECT_EQ(c.cross_rank.k, 4);
    EXPECT_EQ(c.cross_rank.rel_floor, 0.1);
    EXPECT_EQ(c.cross_rank.abs_floor, 0.5);
    EXPECT_EQ(c.cross_rank.min_ranks, 6);
    EXPECT_EQ(set.rules[1].stall.seconds, 120);
    EXPECT_EQ(set.rules[1].stall.interval_factor, 5);
    EXPECT_EQ(set.rules[2].threshold.below, -1.5);
    EXPECT_FALSE(set.rules[2].threshold.above);
    EXPECT_EQ(set.rules[2].severity, Severity::kWarn);
}

TEST(RuleConfig, ThresholdNeedsAboveOrBelow) {
    const std::string e = error_of(R"({"rules": [{"rule": "threshold", "tags": "loss"}]})");
    EXPECT_EQ(e, "rules.json: rule 1 (threshold): needs 'above' or 'below'");
}

TEST(RuleConfig, ErrorsNameTheFileAndTheRuleNumber) {
    const std::string spike = R"({"rule": "spike"})";
    EXPECT_EQ(error_of(R"({"rules": [)" + spike + R"(, {"rule": "threshold", "abov": 1}]})"),
              "rules.json: rule 2 (threshold): unknown key 'abov'");
    const std::string unknown = error_of(R"({"rules": [)" + spike + R"(, {"rule": "spikes"}]})");
    EXPECT_EQ(unknown.rfind("rules.json: rule 2: unknown rule 'spikes'", 0), 0u) << unknown;
    EXPECT_EQ(error_of(R"({"rules": [{"rule": "spike", "severity": "fatal"}]})"),
              R"(rules.json: rule 1 (spike): 'severity' is not "warn" or "alert")");
    EXPECT_EQ(error_of(R"({"rules": [)" + spike + R"(, {"rule": "spike", "k": "9"}]})"),
              "rules.json: rule 2 (spike): 'k' is not a number");
    EXPECT_EQ(error_of(R"({"rules": [{"rule_name": 7}]})"),
              "rules.json: rule 1: 'rule_name' is not a string");
    EXPECT_EQ(error_of(R"({"rules": [3]})"), "rules.json: rule 1 is not an object");
}

// A bad regex or rank spec is only found once the rule is compiled; the message must still say
// which entry of the file it is in (two threshold rules would otherwise be told apart by nothing).
TEST(RuleConfig, ScopeErrorsNameTheFileAndTheRuleNumber) {
    const std::string regex = error_of(R"({"rules": [{"rule": "spike"},
        {"rule": "threshold", "above": 1, "tags": "loss("}]})");
    EXPECT_EQ(regex.rfind("rules.json: ", 0), 0u) << regex;
    EXPECT_NE(regex.find("rule 2"), std::string::npos) << regex;
    EXPECT_NE(regex.find("loss("), std::string::npos) << regex;

    const std::string ranks = error_of(R"({"rules": [{"rule": "spike"},
        {"rule": "nonfinite", "ranks": "0-x"}]})");
    EXPECT_EQ(ranks.rfind("rules.json: ", 0), 0u) << ranks;
    EXPECT_NE(ranks.find("rule 2"), std::string::npos) << ranks;
    EXPECT_NE(ranks.find("0-x"), std::string::npos) << ranks;
}

TEST(RuleConfig, DocumentErrorsNameTheFile) {
    EXPECT_EQ(error_of(R"({"rules": [)"),
              "rules.json: not valid JSON (line 1, column 12: the text ends where a value should "
              "be)");
    EXPECT_EQ(error_of("[]"), "rules.json: the top level is not an object");
    EXPECT_EQ(error_of(R"({"rule": []})"), "rules.json: unknown key 'rule'");
    EXPECT_EQ(error_of(R"({"defaults": "no"})"), "rules.json: 'defaults' is not true or false");
    EXPECT_EQ(error_of(R"({"rules": {}})"), "rules.json: 'rules' is not a list");
    EXPECT_EQ(error_of(R"({"msprobe": {"variant": "old"}})"),
              R"(rules.json: 'msprobe.variant' is not "current" or "legacy")");
}

TEST(RuleConfig, TurbulenceWithoutThresholdIsAWarning) {
    const RuleSet set = parsed(R"({"rules": [{"rule_name": "AnomalyTurbulence"},
                                             {"rule_name": "AnomalyNan"}]})");
    ASSERT_EQ(set.warnings.size(), 1u);
    EXPECT_EQ(set.warnings[0].rfind("rules.json: ", 0), 0u) << set.warnings[0];
    EXPECT_NE(set.warnings[0].find("AnomalyTurbulence without a threshold"), std::string::npos)
        << set.warnings[0];
    // The spec is kept as written: the rule set skips it exactly as msProbe does.
    const RuleConfig* m = find_rule(set, RuleType::kMsProbe);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->msprobe.specs.size(), 2u);
}

TEST(RuleConfig, MsProbeSectionSetsVariantAndScope) {
    const RuleSet set = parsed(R"({"msprobe": {"variant": "legacy", "tags": "grad", "ranks": "0-3"},
        "rules": [{"rule_name": "AnomalyTurbulence", "args": {"threshold": 0.5}}]})");
    const RuleConfig* m = find_rule(set, RuleType::kMsProbe);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->msprobe.variant, MsProbeVariant::kLegacy);
    EXPECT_EQ(m->scope.tags, "grad");
    EXPECT_EQ(m->scope.ranks, "0-3");
    EXPECT_EQ(m->severity, Severity::kAlert);
}

// ---- the default regexes, as the Analyzer applies them: RE2, case-insensitive, anywhere ----

bool matches(std::string_view pattern, std::string_view tag) {
    RE2::Options options;
    options.set_case_sensitive(false);
    const RE2 re(pattern, options);
    EXPECT_TRUE(re.ok()) << re.error();
    return RE2::PartialMatch(tag, re);
}

TEST(RuleConfig, SpikeExclusionsCoverSchedulesCountersAndClocks) {
    for (const char* tag :
         {"lr", "train/lr", "lr-Adam/pg1", "learning_rate", "Train/Samples/lr", "loss_scale",
          "train/epoch", "perf/throughput", "time/forward_ms",
          "Train/Samples/elapsed_time_ms_forward", "grad_reduced/fc1.weight/zeros", "actv/x/nans",
          "samples_per_second", "LR", "train/Learning_Rate", "momentum"}) {
        EXPECT_TRUE(matches(default_spike_exclusions(), tag)) << tag;
    }
}

TEST(RuleConfig, SpikeExclusionsLeaveLossesAndNormsAlone) {
    for (const char* tag :
         {"train/loss", "Train/Samples/train_loss", "grad_norm", "grad_reduced/fc1.weight/norm",
          "eval/accuracy", "Loss/train", "val_ppl", "train/reward", "actv/fc1.input:0/max",
          "train/learner_kl", "flr", "lrx"}) {
        EXPECT_FALSE(matches(default_spike_exclusions(), tag)) << tag;
    }
}

TEST(RuleConfig, LossLikeRegexKnowsWhereHigherIsWorse) {
    const std::string loss_like = SpikeParams{}.loss_like;
    for (const char* tag : {"train/loss", "Loss/train", "grad_norm", "grad_reduced/x/norm",
                            "val_ppl", "perplexity", "Train/Samples/train_loss", "policy/kl"}) {
        EXPECT_TRUE(matches(loss_like, tag)) << tag;
    }
    for (const char* tag :
         {"eval/accuracy", "train/reward", "clip_fraction", "glossary", "normal_count"}) {
        EXPECT_FALSE(matches(loss_like, tag)) << tag;
    }
}

}  // namespace
}  // namespace runtop
