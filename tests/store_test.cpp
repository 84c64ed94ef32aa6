#include "core/store/store.h"

#include <gtest/gtest.h>

#include <random>

namespace runtop {
namespace {

std::vector<std::int64_t> steps(const Series& s) {
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < s.retained(); ++i) out.push_back(s.point(i).step);
    return out;
}

TEST(Store, StepGoingBackReplacesEverythingAtOrAfterIt) {
    Store store;
    SeriesId id = store.series({"run", 0, "loss"}, source_id({"tfevents"}));
    for (int s = 0; s < 10; ++s) store.append(id, {s, 100.0 + s, s * 1.0});
    store.append(id, {5, 200, -1});
    store.append(id, {6, 201, -2});
    const Series& series = store.at(id);
    EXPECT_EQ(steps(series), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(series.point(5).value, -1);
    ASSERT_EQ(series.restarts().size(), 1u);
    EXPECT_EQ(series.restarts()[0].step, 5);
    EXPECT_EQ(series.restarts()[0].dropped, 5u);
    EXPECT_EQ(series.received(), 12u);
}

TEST(Store, SameStepAgainReplacesTheValueWithoutARestart) {
    Store store;
    SeriesId id = store.series({"run", kNoRank, "loss"}, source_id({"tfevents"}));
    store.append(id, {3, 1, 1.0});
    store.append(id, {3, 2, 2.0});
    EXPECT_EQ(store.at(id).count(), 1u);
    EXPECT_EQ(store.at(id).back().value, 2.0);
    EXPECT_TRUE(store.at(id).restarts().empty());
}

TEST(Store, SessionStartPurgesEveryTagOfTheRunAndRank) {
    Store store;
    SeriesId a = store.series({"run", 0, "a"}, source_id({"tfevents"}));
    SeriesId b = store.series({"run", 0, "b"}, source_id({"tfevents"}));
    SeriesId other = store.series({"run", 1, "a"}, source_id({"tfevents"}));
    for (int s = 0; s < 10; ++s) {
        store.append(a, {s, 0, 1});
        store.append(b, {s, 0, 1});
        store.append(other, {s, 0, 1});
    }
    store.session_start("run", 0, 6, 50);
    EXPECT_EQ(store.at(a).count(), 6u);
    EXPECT_EQ(store.at(b).count(), 6u);
    EXPECT_EQ(store.at(other).count(), 10u);
    ASSERT_EQ(store.at(a).restarts().size(), 1u);
    EXPECT_EQ(store.at(a).restarts()[0].dropped, 4u);
    store.session_start("elsewhere", 0, 0, 0);  // unknown run: nothing to do
}

TEST(Store, SeriesAreSharedByKeyAndSortedForOutput) {
    Store store;
    SeriesId z = store.series({"run", 10, "z"}, source_id({"tfevents"}));
    SeriesId a = store.series({"run", 2, "a"}, source_id({"tfevents"}));
    SeriesId none = store.series({"run", kNoRank, "a"}, source_id({"tfevents"}));
    EXPECT_EQ(store.series({"run", 10, "z"}, source_id({"tfevents"})), z);
    EXPECT_EQ(store.sorted_ids(), (std::vector<SeriesId>{none, a, z}));
}

TEST(Store, ConfigTextKeepsTheLatestPerTag) {
    Store store;
    store.config_text({"run", 0, "config", 0, "a"});
    store.config_text({"run", 0, "config", 5, "b"});
    store.config_text({"run", 1, "config", 0, "c"});
    ASSERT_EQ(store.config_texts().size(), 2u);
    EXPECT_EQ(store.config_texts()[0].text, "b");
}

}  // namespace
}  // namespace runtop

namespace runtop {
namespace {

// The chunked columns against a plain model: random appends, repeats and restarts across
// chunk boundaries, checked point by point.
TEST(Store, ChunkedSeriesMatchAPlainModelThroughRandomRestarts) {
    Store store;
    SeriesId id = store.series({"run", 0, "loss"}, source_id({"tfevents"}));
    std::vector<Point> model;
    std::mt19937_64 rng(42);
    std::int64_t step = 0;
    for (int i = 0; i < 20000; ++i) {
        int action = static_cast<int>(rng() % 100);
        if (action < 2 && step > 0) {
            step = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(step));  // restart
        } else if (action < 5 && step > 0) {
            --step;  // the same step again
        }
        Point p{step, 1e9 + i, static_cast<double>(rng() % 1000) / 7};
        store.append(id, p);
        while (!model.empty() && model.back().step >= p.step) model.pop_back();
        model.push_back(p);
        ++step;
    }
    const Series& s = store.at(id);
    ASSERT_EQ(s.count(), model.size());
    ASSERT_EQ(s.retained(), model.size());
    for (std::size_t i = 0; i < model.size(); ++i) {
        ASSERT_EQ(s.point(i).step, model[i].step) << i;
        ASSERT_EQ(s.point(i).wall_time, model[i].wall_time) << i;
        ASSERT_EQ(s.point(i).value, model[i].value) << i;
    }
    EXPECT_EQ(s.back().step, model.back().step);
    EXPECT_EQ(s.received(), 20000u);
}

// total_points() is a running sum kept by append and session_start: through restarts, repeated
// steps, session starts and a budget that folds, it stays the sum of every series' count().
TEST(Store, TotalPointsIsTheSumOfEverySeriesCount) {
    StoreLimits limits;
    limits.memory_bytes = 256 << 10;
    Store store(limits);
    std::vector<SeriesId> ids;
    for (int rank = 0; rank < 4; ++rank)
        for (const char* tag : {"loss", "grad_norm", "lr"})
            ids.push_back(store.series({"run", rank, tag}, source_id({"tfevents"})));
    std::mt19937_64 rng(7);
    std::vector<std::int64_t> next(ids.size(), 0);
    const auto sum = [&] {
        std::uint64_t n = 0;
        for (SeriesId id : ids) n += store.at(id).count();
        return n;
    };
    for (int i = 0; i < 60000; ++i) {
        const std::size_t k = rng() % ids.size();
        const int action = static_cast<int>(rng() % 1000);
        if (action < 3 && next[k] > 0) {
            next[k] = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(next[k]));
        } else if (action < 20 && next[k] > 0) {
            --next[k];
        } else if (action < 22) {
            const int rank = static_cast<int>(rng() % 4);
            const std::int64_t step = next[k] / 2;
            store.session_start("run", rank, step, 1e9);
            for (std::size_t j = 0; j < ids.size(); ++j)
                if (store.at(ids[j]).key().rank == rank) next[j] = std::min(next[j], step);
            ASSERT_EQ(store.total_points(), sum()) << i;
            continue;
        }
        store.append(ids[k], {next[k]++, 1e9 + i, static_cast<double>(rng() % 100)});
        if (i % 997 == 0) {
            ASSERT_EQ(store.total_points(), sum()) << i;
        }
    }
    EXPECT_EQ(store.total_points(), sum());
    EXPECT_GT(store.total_points(), 0u);
}

// One alarm read from msProbe's anomaly.json and from its console log is one anomaly: the
// file's copy (call id, stages, group mates) whichever comes first; others stay apart.
TEST(Store, AnAnomalyReadFromTwoFilesIsOne) {
    const auto alarm = [](std::string key, std::string op, std::int64_t call) {
        ImportedAnomaly a;
        a.run = "run";
        a.rank = 1;
        a.key = std::move(key);
        a.raw_tag = "0:fc1.input:0/rank1/actv_grad";
        a.op = std::move(op);
        a.rule = "AnomalyNan";
        a.step = 7;
        a.call_id = call;
        return a;
    };
    Store store;
    store.anomaly(alarm("console norm", "norm", -1));
    store.anomaly(alarm("console nans", "nans", -1));
    store.anomaly(alarm("file", "nans", 16));
    store.anomaly(alarm("console nans", "nans", -1));  // the console read again
    ASSERT_EQ(store.imported_anomalies().size(), 2u);
    EXPECT_EQ(store.imported_anomalies()[0].key, "console norm");
    EXPECT_EQ(store.imported_anomalies()[1].key, "file");
    EXPECT_EQ(store.imported_anomalies()[1].call_id, 16);
    ImportedAnomaly rewritten = alarm("file", "nans", 16);
    rewritten.value = 2;
    store.anomaly(rewritten);  // the file rewritten: replaces its entry
    ASSERT_EQ(store.imported_anomalies().size(), 2u);
    EXPECT_EQ(store.imported_anomalies()[1].value, 2);

    Store other;  // the file first, the console after
    other.anomaly(alarm("file", "nans", 16));
    other.anomaly(alarm("console nans", "nans", -1));
    ASSERT_EQ(other.imported_anomalies().size(), 1u);
    EXPECT_EQ(other.imported_anomalies()[0].key, "file");
}

}  // namespace
}  // namespace runtop
