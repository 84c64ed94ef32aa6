// What the rules and the views hold per series counts against `--memory` (issue 17): the
// Analyzer's running byte count equals a recount through every rule, acknowledgements, restarts
// and filters; the Store folds earlier when charged with it, and still shows every extreme and
// NaN; the AnalyzingSink charges it as it changes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/store/store.h"
#include "views/model.h"

namespace runtop {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr SeriesSource kMsProbe{"msprobe-csv", StepAxis::kSteps, true};

RuleSet rules(std::string_view json) {
    Result<RuleSet> set = parse_rules(json, "test.json");
    EXPECT_TRUE(set.ok()) << (set.ok() ? "" : set.error().message);
    return set.ok() ? *set : RuleSet{};
}

// Every kind of rule state at once: the defaults (nonfinite, spike), a threshold (a third slot:
// out of line), cross-rank groups with waiting steps, msProbe histories.
RuleSet every_rule() {
    return rules(R"({"rules": [
        {"rule": "threshold", "tags": "norm", "above": 1000},
        {"rule": "cross_rank", "tags": "norm"},
        {"rule_name": "AnomalyTurbulence", "args": {"threshold": 0.5}}]})");
}

void expect_counted(const Analyzer& a, const char* when) {
    EXPECT_EQ(a.memory_bytes(), a.recount_bytes()) << when;
}

TEST(RuleBudget, AnalyzerBytesEqualARecountThroughEveryRuleAckAndRestart) {
    Analyzer a(every_rule());
    expect_counted(a, "empty");
    const std::uint64_t empty = a.memory_bytes();
    static const char* const kOps[] = {"min", "max", "norm", "nans"};
    std::vector<SeriesId> ids;
    for (int rank = 0; rank < 8; ++rank)
        for (int p = 0; p < 10; ++p)
            for (const char* op : kOps) {
                const SeriesId id = static_cast<SeriesId>(ids.size());
                a.add_series(id, {"r", rank, "grad/layers." + std::to_string(p) + "/" + op},
                             kMsProbe);
                ids.push_back(id);
            }
    expect_counted(a, "series added");
    EXPECT_GT(a.memory_bytes(), empty + ids.size() * 80);

    std::mt19937_64 rng(5);
    std::normal_distribution<double> noise(0, 0.05);
    const auto feed = [&](std::int64_t from, std::int64_t to) {
        for (std::int64_t step = from; step < to; ++step)
            for (SeriesId id : ids) {
                double v = std::exp(noise(rng));
                if (step == 150 && id == 7) v *= 1e4;  // a spike
                if (step == 90 && id == 3) v = kNaN;
                a.add_point(id, Point{step, 1e9 + static_cast<double>(step), v});
            }
    };
    feed(0, 40);  // backfill: cross-rank steps wait, spike windows grow
    expect_counted(a, "backfill");
    a.set_now(1e9 + 40);
    a.set_live();  // the waiting steps are judged and freed
    expect_counted(a, "live");
    feed(40, 200);
    expect_counted(a, "live points");
    a.acknowledge_series(3);
    a.acknowledge_all();
    expect_counted(a, "acknowledged");
    feed(100, 130);  // steps going back: a restarted writer
    expect_counted(a, "restart");
    a.finish();
    expect_counted(a, "finished");
    EXPECT_GT(a.log().size(), 0u);
}

TEST(RuleBudget, AnalyzerBytesEqualARecountWithASelection) {
    Result<SeriesFilter> only_norm = SeriesFilter::make("norm", "");
    ASSERT_TRUE(only_norm.ok());
    Analyzer a(every_rule(), std::move(*only_norm));
    for (SeriesId id = 0; id < 40; ++id)
        a.add_series(id, {"r", static_cast<int>(id / 2), id % 2 ? "g/norm" : "g/min"}, kMsProbe);
    for (std::int64_t step = 0; step < 100; ++step)
        for (SeriesId id = 0; id < 40; ++id) a.add_point(id, Point{step, 0, 1.0 + id});
    a.finish();
    expect_counted(a, "selection");
    EXPECT_EQ(a.selected_series(), 20u);
}

// One series of noise with a spike, a NaN and infinities, into a Store of a given budget, with
// `outside` bytes charged to it: how many points it still holds at full resolution.
std::uint64_t retained_when_charged(std::uint64_t outside) {
    StoreLimits limits;
    limits.memory_bytes = 1 << 20;
    Store store(limits);
    store.set_outside_bytes(outside);
    std::vector<SeriesId> ids;
    for (int s = 0; s < 8; ++s)
        ids.push_back(store.series({"r", s, "loss"}, source_id({"tfevents"})));
    std::mt19937_64 rng(3);
    constexpr int kPoints = 40'000;
    for (int i = 0; i < kPoints; ++i)
        for (SeriesId id : ids) {
            double v = std::uniform_real_distribution<double>(0, 1)(rng);
            if (i == 1234) v = id == 2 ? kNaN : 1e6;  // a spike everywhere, a NaN in one
            store.append(id, Point{i, 1e9 + i, v});
            EXPECT_LE(store.memory_bytes() + outside, limits.memory_bytes);
        }
    std::uint64_t retained = 0;
    for (SeriesId id : ids) {
        const Series& s = store.at(id);
        retained += s.retained();
        ColumnSummary all[1];
        s.query(0, kPoints, all);
        EXPECT_EQ(all[0].count, static_cast<std::uint64_t>(kPoints));
        EXPECT_EQ(all[0].nan, id == 2 ? 1u : 0u);
        if (id != 2) {
            EXPECT_EQ(all[0].max, 1e6);  // the spike is still there
        }
    }
    return retained;
}

TEST(RuleBudget, TheStoreFoldsEarlierWhenChargedAndKeepsExtremesAndNaN) {
    const std::uint64_t alone = retained_when_charged(0);
    const std::uint64_t charged = retained_when_charged(512 << 10);  // half the budget
    EXPECT_LT(charged, alone * 3 / 4) << alone << " vs " << charged;
}

TEST(RuleBudget, ChargingMoreThanTheBudgetFoldsAtOnce) {
    StoreLimits limits;
    limits.memory_bytes = 1 << 20;
    Store store(limits);
    const SeriesId id = store.series({"r", 0, "loss"}, source_id({"tfevents"}));
    for (int i = 0; i < 20'000; ++i) store.append(id, Point{i, 0, std::sin(i * 0.1)});
    const std::uint64_t before = store.memory_bytes();
    store.set_outside_bytes(limits.memory_bytes - before / 4);
    EXPECT_LT(store.memory_bytes(), before / 2);
    EXPECT_LE(store.memory_bytes() + store.outside_bytes(), limits.memory_bytes);
}

TEST(RuleBudget, TheSinkChargesTheAnalyzerAndTheViewModelToTheStore) {
    Store store;
    Analyzer analyzer(default_rules());
    AnalyzingSink sink(analyzer, &store);
    std::vector<SeriesId> ids;
    for (int rank = 0; rank < 4; ++rank)
        for (int t = 0; t < 30; ++t)
            ids.push_back(
                sink.series({"r", rank, "g/" + std::to_string(t) + "/norm"}, source_id(kMsProbe)));
    EXPECT_EQ(store.outside_bytes(), analyzer.memory_bytes());
    for (std::int64_t step = 0; step < 70; ++step)
        for (SeriesId id : ids) sink.append(id, Point{step, 0, 1.0 + static_cast<double>(step)});
    EXPECT_EQ(store.outside_bytes(), analyzer.memory_bytes());  // the windows grew
    sink.session_start("r", 1, 10, 0);
    EXPECT_EQ(analyzer.memory_bytes(), analyzer.recount_bytes());

    ui::ViewModel model(store, analyzer);
    model.update();
    EXPECT_GE(model.memory_bytes(), ids.size() * 2 * sizeof(SeriesId));
    sink.set_other_bytes(model.memory_bytes());
    EXPECT_EQ(store.outside_bytes(), analyzer.memory_bytes() + model.memory_bytes());
    // A filter change selects fewer series: the model counts what it holds now.
    Result<SeriesFilter> one = SeriesFilter::make("^g/1/", "");
    ASSERT_TRUE(one.ok());
    model.set_filter(std::move(*one), "^g/1/", "");
    model.update();
    EXPECT_GT(model.memory_bytes(), 0u);
}

// A budget the points cannot make room in: once the Store has folded all it can and is still
// over, the sink has the Analyzer shed spike windows, so the process comes back within the
// budget; a spike is still found, by its tag's envelope, on its rank.
TEST(RuleBudget, TheSinkShedsSpikeWindowsOnceTheStoreIsAtItsFloor) {
    constexpr int kRanks = 8, kTags = 250, kSteps = 80;
    auto load = [&](Store& store, Analyzer& analyzer) {
        AnalyzingSink sink(analyzer, &store);
        std::vector<SeriesId> ids;
        for (int rank = 0; rank < kRanks; ++rank)
            for (int t = 0; t < kTags; ++t)
                ids.push_back(sink.series({"r", rank, "g/" + std::to_string(t) + "/norm"},
                                          source_id(kMsProbe)));
        std::mt19937 rng(5);
        std::normal_distribution<double> noise(0, 0.05);
        for (std::int64_t step = 0; step < kSteps; ++step)
            for (std::size_t i = 0; i < ids.size(); ++i) {
                const bool spike = step == 70 && i == 3 * kTags + 7;  // rank 3, tag 7
                sink.append(ids[i], Point{step, 0, std::exp(noise(rng)) * (spike ? 50 : 1)});
            }
        EXPECT_EQ(store.outside_bytes(), analyzer.memory_bytes());
        analyzer.finish();
    };
    StoreLimits roomy;
    roomy.memory_bytes = 1ull << 30;
    Store big(roomy);
    // The spike windows are what is shed: the cross-rank rule (it would find the spike too) is
    // left out so the one record is the spike's.
    RuleSet spikes = default_rules();
    std::erase_if(spikes.rules, [](const RuleConfig& r) { return r.type == RuleType::kCrossRank; });
    Analyzer exact(spikes);
    load(big, exact);
    EXPECT_FALSE(exact.windows_closed());
    EXPECT_EQ(exact.enveloped_series(), 0u);

    // The Store's floor: what no budget folds (a budget of one byte, no rules charged).
    StoreLimits none;
    none.memory_bytes = 1;
    Store floor(none);
    Analyzer no_rules(RuleSet{});
    load(floor, no_rules);
    // Room for the floor and the rules' state but half of the windows: some must go.
    StoreLimits tight;
    tight.memory_bytes = floor.memory_bytes() + exact.memory_bytes() - exact.window_bytes() / 2;
    Store small(tight);
    Analyzer shed(spikes);
    load(small, shed);
    EXPECT_TRUE(shed.windows_closed());
    EXPECT_GT(shed.enveloped_series(), std::size_t{kRanks * kTags / 2});
    EXPECT_LT(shed.window_bytes(), exact.window_bytes() / 2);
    EXPECT_EQ(shed.memory_bytes(), shed.recount_bytes());
    // Within the budget once the data is in (the envelopes' waiting steps, held until the end
    // of a backfill, are judged and freed by finish()).
    EXPECT_LE(small.memory_bytes() + shed.memory_bytes(), tight.memory_bytes);

    for (const Analyzer* a : {&exact, &shed}) {
        ASSERT_EQ(a->log().size(), 1u) << (a == &exact ? "exact" : "shed");
        const AnomalyRecord& r = a->log().records()[0];
        EXPECT_EQ(r.rank, 3);
        EXPECT_EQ(r.tag, "g/7/norm");
        EXPECT_EQ(r.step, 70);
    }
}

}  // namespace
}  // namespace runtop
