// The cross-rank rule over a backfill: what was on disk arrives rank after rank, so every value
// waits until the last rank is read. Usually every rank writes the same steps, and the values
// wait in columns under one list of steps (floats while they are floats exactly); a rank whose
// steps do not follow the others' (a missing or repeated step, a restart, a late start) sends
// the whole group to a flat backlog. Whichever way they waited, the same steps are judged with
// the same ranks and find the same outliers, and the memory they hold is counted right.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "core/analysis/analyzer.h"
#include "core/analysis/step_list.h"

namespace runtop {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr SeriesSource kEvents{"tfevents"};

RuleSet rules(std::string_view json) {
    Result<RuleSet> set = parse_rules(json, "test.json");
    EXPECT_TRUE(set.ok()) << (set.ok() ? "" : set.error().message);
    return set.ok() ? *set : RuleSet{};
}

// The built-in cross-rank rule's own parameters, alone.
const std::string kBuiltInLike = R"({"defaults": false, "rules": [
    {"rule": "cross_rank", "tags": "grad_norm", "min_ratio": 10}]})";

struct Found {
    int rank;
    std::int64_t step;
    double value;
    bool operator==(const Found&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Found& f) {
    return os << "{rank " << f.rank << ", step " << f.step << ", " << f.value << "}";
}
using Founds = std::vector<Found>;

Founds found(const Analyzer& a) {
    Founds out;
    for (const AnomalyRecord& r : a.log().records()) {
        EXPECT_EQ(r.rule, "cross_rank");
        out.push_back({r.rank, r.step, r.value});
    }
    return out;
}

// One rank's history: (step, value) in the order its file holds them.
using History = std::vector<std::pair<std::int64_t, double>>;

// Rank r's grad_norm, every `stride` steps from 0 to `steps`: ranks a few percent apart around a
// slow decay, all floats exactly unless `decimal` (then as a CSV holds them: 0.1 is no float).
History healthy(int rank, std::int64_t steps, std::int64_t stride = 1, bool decimal = false) {
    History h;
    for (std::int64_t s = 0; s < steps; s += stride) {
        double v = (1 + 0.01 * rank) * (2 - static_cast<double>(s) / (2 * steps));
        v = decimal ? v + 0.1 : static_cast<double>(static_cast<float>(v));
        h.emplace_back(s, v);
    }
    return h;
}

void set_value(History& h, std::int64_t step, double value) {
    for (auto& [s, v] : h)
        if (s == step) v = value;
}

// Reads every rank whole, one after another, as a backfill does, then judges (finish()); the
// bytes it counts are checked against a recount after every rank.
Founds backfill(const std::vector<History>& ranks, const std::string& json = kBuiltInLike) {
    Analyzer a(rules(json));
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        a.add_series(static_cast<SeriesId>(r), {"run", static_cast<int>(r), "train/grad_norm"},
                     kEvents);
        for (const auto& [step, value] : ranks[r])
            a.add_point(static_cast<SeriesId>(r), Point{step, 0, value});
        EXPECT_EQ(a.memory_bytes(), a.recount_bytes()) << "after rank " << r;
    }
    EXPECT_TRUE(a.log().records().empty()) << "judged before every rank was read";
    a.finish();
    EXPECT_EQ(a.memory_bytes(), a.recount_bytes()) << "after finish";
    return found(a);
}

std::vector<History> job(int ranks, std::int64_t steps, std::int64_t stride = 1,
                         bool decimal = false) {
    std::vector<History> out;
    for (int r = 0; r < ranks; ++r) out.push_back(healthy(r, steps, stride, decimal));
    return out;
}

TEST(CrossRankBackfill, AlignedRanksFindTheInjectedRankExactly) {
    std::vector<History> ranks = job(8, 200);
    set_value(ranks[5], 30, 1000.0);
    set_value(ranks[0], 150, 512.0);  // the first rank read: it set the steps
    EXPECT_EQ(backfill(ranks), (Founds{{5, 30, 1000.0}, {0, 150, 512.0}}));
    EXPECT_EQ(backfill(job(8, 200)), Founds{}) << "a clean job";
}

TEST(CrossRankBackfill, ValuesThatAreNoFloatsKeepEveryDigit) {
    std::vector<History> ranks = job(8, 100, 1, true);
    set_value(ranks[3], 40, 123.456789012345);
    EXPECT_EQ(backfill(ranks), (Founds{{3, 40, 123.456789012345}}));
    // Floats at first, then a value that is none: the waiting floats become doubles whole.
    ranks = job(8, 100);
    set_value(ranks[6], 90, 77.7);
    set_value(ranks[2], 10, 64.0);
    EXPECT_EQ(backfill(ranks), (Founds{{2, 10, 64.0}, {6, 90, 77.7}}));
}

// Each way a rank's steps leave the others': every one judged as the aligned job is.
TEST(CrossRankBackfill, RanksWhoseStepsDifferAreJudgedTheSame) {
    const auto with_outliers = [](std::vector<History> ranks) {
        set_value(ranks[4], 60, 900.0);
        set_value(ranks[1], 120, 300.0);
        return ranks;
    };
    const Founds expected{{4, 60, 900.0}, {1, 120, 300.0}};
    const std::vector<std::pair<std::string, std::function<void(std::vector<History>&)>>> cases = {
        {"aligned", [](std::vector<History>&) {}},
        {"a rank misses a step", [](auto& r) { r[3].erase(r[3].begin() + 17); }},
        {"the first rank misses a step", [](auto& r) { r[0].erase(r[0].begin() + 90); }},
        {"a rank starts late", [](auto& r) { r[6].erase(r[6].begin(), r[6].begin() + 50); }},
        {"a rank ends early", [](auto& r) { r[7].resize(130); }},
        {"the first rank ends early", [](auto& r) { r[0].resize(100); }},
        {"a rank restarts from a checkpoint",
         [](auto& r) {  // steps 0..99, then 80..199: 80..99 judged with this rank twice
             History again(r[2].begin() + 80, r[2].end());
             r[2].resize(100);
             r[2].insert(r[2].end(), again.begin(), again.end());
         }},
        {"a rank's file has a step twice", [](auto& r) { r[5].insert(r[5].begin() + 9, r[5][8]); }},
    };
    for (const auto& [name, change] : cases) {
        std::vector<History> ranks = with_outliers(job(8, 200));
        change(ranks);
        EXPECT_EQ(backfill(ranks), expected) << name;
    }
}

TEST(CrossRankBackfill, StepsEveryNOrIrregularAreJudgedEachWithItsRanks) {
    std::vector<History> every_ten = job(8, 2000, 10);
    set_value(every_ten[2], 1230, 5000.0);
    EXPECT_EQ(backfill(every_ten), (Founds{{2, 1230, 5000.0}}));

    std::vector<History> irregular = job(8, 300);
    for (History& h : irregular)  // steps 0, 1, 3, 6, 10, ...: no progression
        std::erase_if(h, [](const auto& p) {
            std::int64_t t = 0;
            for (std::int64_t k = 0; t < p.first; ++k) t += k;
            return t != p.first;
        });
    ASSERT_GT(irregular[0].size(), 20u);
    set_value(irregular[7], 210, 4000.0);
    EXPECT_EQ(backfill(irregular), (Founds{{7, 210, 4000.0}}));
}

TEST(CrossRankBackfill, NonFiniteValuesAreNeitherPeersNorOutliers) {
    std::vector<History> ranks = job(6, 50);
    set_value(ranks[1], 20, kNaN);
    set_value(ranks[2], 20, 700.0);
    set_value(ranks[3], 30, std::numeric_limits<double>::infinity());
    EXPECT_EQ(backfill(ranks), (Founds{{2, 20, 700.0}}));
}

// min_ratio 0 (a user's rule without it): every step is judged by its median and MAD alone.
TEST(CrossRankBackfill, WithoutMinRatioEveryOutlierFires) {
    const std::string plain =
        R"({"defaults": false, "rules": [{"rule": "cross_rank", "tags": "grad_norm"}]})";
    std::vector<History> ranks = job(8, 100);
    set_value(ranks[4], 33, ranks[4][33].second * 1.5);  // off by 50 %: an outlier, not 10x
    ranks[6].erase(ranks[6].begin() + 70);               // and the group goes to the backlog
    EXPECT_EQ(backfill(ranks, plain), (Founds{{4, 33, ranks[4][33].second}}));
}

// Two cross-rank rules over one series: each group keeps its own values.
TEST(CrossRankBackfill, TwoRulesOnOneSeriesEachJudgeIt) {
    const std::string two = R"({"defaults": false, "rules": [
        {"rule": "cross_rank", "tags": "grad_norm", "min_ratio": 10},
        {"rule": "cross_rank", "tags": "train/", "min_ratio": 10, "k": 6}]})";
    std::vector<History> ranks = job(8, 100);
    set_value(ranks[3], 50, 800.0);
    EXPECT_EQ(backfill(ranks, two), (Founds{{3, 50, 800.0}, {3, 50, 800.0}}));
}

// ---- StepList ----

TEST(StepList, AProgressionHoldsNoMemoryAndReadsBackEveryStep) {
    StepList steps;
    for (std::int64_t s = 100; s < 100 + 10 * 1000; s += 10) ASSERT_TRUE(steps.push_back(s));
    EXPECT_EQ(steps.size(), 1000u);
    EXPECT_EQ(steps.heap_bytes(), 0u);
    for (std::size_t i = 0; i < steps.size(); ++i)
        ASSERT_EQ(steps[i], 100 + 10 * static_cast<std::int64_t>(i));
    EXPECT_EQ(steps.back(), 100 + 10 * 999);
}

TEST(StepList, AStepOffTheProgressionListsThemAll) {
    StepList steps;
    for (std::int64_t s : {3, 5, 7, 8, 20}) ASSERT_TRUE(steps.push_back(s));
    EXPECT_GT(steps.heap_bytes(), 0u);
    const std::vector<std::int64_t> want{3, 5, 7, 8, 20};
    ASSERT_EQ(steps.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(steps[i], want[i]);
}

TEST(StepList, RefusesAStepNotAboveTheLast) {
    StepList steps;
    EXPECT_TRUE(steps.push_back(-5));
    EXPECT_TRUE(steps.push_back(0));
    EXPECT_FALSE(steps.push_back(0));
    EXPECT_FALSE(steps.push_back(-7));
    EXPECT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps.back(), 0);
}

TEST(StepList, StepsAtTheEndsOfInt64ComeBackWhole) {
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    StepList steps;
    ASSERT_TRUE(steps.push_back(kMin));
    ASSERT_TRUE(steps.push_back(0));
    ASSERT_FALSE(steps.push_back(0));
    // kMin, 0 make a stride of 2^63; the next of the progression would overflow, so kMax is off
    // it and the list becomes a vector.
    ASSERT_TRUE(steps.push_back(kMax));
    EXPECT_EQ(steps[0], kMin);
    EXPECT_EQ(steps[1], 0);
    EXPECT_EQ(steps[2], kMax);
}

}  // namespace
}  // namespace runtop
