// Spike windows within the budget (issue 17, docs/design.md): a series whose window is shed is
// judged by its tag's envelope across ranks. One rank's envelope finds exactly what its own
// window finds; across ranks a spike is named on the rank that holds it, at its step, once every
// rank wrote the step; healthy ranks stay quiet; shedding frees the windows and the count of
// memory stays exact.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/analysis/analyzer.h"
#include "tests/noisy_series.h"

namespace runtop {
namespace {

constexpr SeriesSource kEvents{"tfevents"};
constexpr std::uint64_t kEverything = std::numeric_limits<std::uint64_t>::max();

struct Found {
    int rank;
    std::int64_t step;
    double value;
    Severity severity;
    bool operator==(const Found&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Found& f) {
    return os << "{rank " << f.rank << ", step " << f.step << ", " << f.value << "}";
}

// The spike records, in the log's order.
std::vector<Found> found(const Analyzer& a) {
    std::vector<Found> out;
    for (const LogEntry& e : a.log().ordered()) {
        const AnomalyRecord& r = a.log().records()[e.index];
        if (r.rule != "spike") continue;  // the NaN below is nonfinite's
        out.push_back({r.rank, r.step, r.value, r.severity});
    }
    return out;
}

// The same series judged by its own window and, windows shed before it began, by its envelope.
void expect_same_findings(const std::string& tag, const std::vector<double>& v, bool live) {
    Analyzer own(default_rules());
    Analyzer envelope(default_rules());
    envelope.shed_windows(kEverything);
    for (Analyzer* a : {&own, &envelope}) {
        if (live) a->set_live();
        a->add_series(0, {"r", 0, tag}, kEvents);
        for (std::size_t t = 0; t < v.size(); ++t)
            a->add_point(0, Point{static_cast<std::int64_t>(t), 0, v[t]});
        a->finish();
    }
    EXPECT_EQ(envelope.enveloped_series(), 1u);
    EXPECT_EQ(envelope.window_bytes(), 0u);
    EXPECT_EQ(found(envelope), found(own)) << tag << (live ? " live" : " backfill");
}

TEST(SpikeEnvelope, OneRanksEnvelopeFindsWhatItsOwnWindowFinds) {
    int findings = 0;
    for (std::uint32_t seed = 1; seed <= 6; ++seed) {
        std::vector<double> v = noisy(400, 0.5 + seed, seed, 150 + 20 * static_cast<int>(seed), 12);
        v[300] *= 30;           // a second spike
        v[390] *= 20;           // one the data ends on
        v[200] = std::nan("");  // not the spike rule's business: skipped alike
        for (bool live : {false, true}) {
            expect_same_findings("train/loss", v, live);    // loss-like: at once
            expect_same_findings("train/reward", v, live);  // confirmed once it falls back
        }
        Analyzer a(default_rules());
        a.add_series(0, {"r", 0, "train/reward"}, kEvents);
        for (std::size_t t = 0; t < v.size(); ++t)
            a.add_point(0, Point{static_cast<std::int64_t>(t), 0, v[t]});
        a.finish();
        findings += static_cast<int>(a.log().size());
    }
    EXPECT_GE(findings, 12);  // the comparison compared something
}

// 8 ranks of one tag, rank after rank as a backfill reads them.
void eight_ranks(Analyzer& a, const std::string& tag, int spike_rank, int spike_step) {
    a.shed_windows(kEverything);
    for (int rank = 0; rank < 8; ++rank) {
        a.add_series(static_cast<SeriesId>(rank), {"r", rank, tag}, kEvents);
        const std::vector<double> v =
            noisy(300, 1.0 + 0.1 * rank, 40 + static_cast<std::uint32_t>(rank),
                  rank == spike_rank ? spike_step : -1, 10);
        for (int t = 0; t < 300; ++t) a.add_point(static_cast<SeriesId>(rank), Point{t, 0, v[t]});
    }
    a.finish();
}

TEST(SpikeEnvelope, ASpikeOnOneRankIsNamedOnThatRankAtItsStep) {
    for (const std::string tag : {"train/grad_norm", "train/reward"}) {
        Analyzer a(default_rules());
        eight_ranks(a, tag, 5, 150);
        const std::vector<Found> f = found(a);
        ASSERT_EQ(f.size(), 1u) << tag;
        EXPECT_EQ(f[0].rank, 5);
        EXPECT_EQ(f[0].step, 150);
        const AnomalyRecord& r = a.log().records()[0];
        EXPECT_EQ(r.tag, tag);
        EXPECT_EQ(r.series, SeriesId{5});
        EXPECT_NE(r.message.find("envelope over 8 ranks"), std::string::npos) << r.message;
        EXPECT_EQ(a.series_state(5).level, AlertLevel::kWarn);
        EXPECT_EQ(a.series_state(4).level, AlertLevel::kOk);
    }
}

TEST(SpikeEnvelope, HealthyRanksStayQuiet) {
    for (const std::string tag : {"train/grad_norm", "train/reward"}) {
        Analyzer a(default_rules());
        eight_ranks(a, tag, -1, -1);
        EXPECT_TRUE(found(a).empty()) << tag;
    }
}

// Four ranks of a loss, `n` values of noise each, rank `spike_rank` 10x at `spike_step`.
using Ranks = std::vector<std::vector<double>>;
Ranks four_losses(Analyzer& a, int n, std::uint32_t seed, int spike_rank, int spike_step) {
    Ranks v;
    for (int rank = 0; rank < 4; ++rank) {
        a.add_series(static_cast<SeriesId>(rank), {"r", rank, "train/loss"}, kEvents);
        v.push_back(noisy(n, 2.0, seed + static_cast<std::uint32_t>(rank),
                          rank == spike_rank ? spike_step : -1, 10));
    }
    return v;
}

// Steps [from, to) of every rank, step after step as a live job writes them.
void feed(Analyzer& a, const Ranks& v, int from, int to) {
    for (int t = from; t < to; ++t)
        for (int rank = 0; rank < 4; ++rank)
            a.add_point(static_cast<SeriesId>(rank), Point{t, 0, v[rank][t]});
}

TEST(SpikeEnvelope, LiveStepsAreJudgedOnceEveryRankWroteThem) {
    Analyzer a(default_rules());
    a.shed_windows(kEverything);
    a.set_live();
    const Ranks v = four_losses(a, 200, 60, 2, 150);
    feed(a, v, 0, 150);
    for (int rank = 0; rank < 3; ++rank)
        a.add_point(static_cast<SeriesId>(rank), Point{150, 0, v[rank][150]});
    EXPECT_TRUE(found(a).empty()) << "rank 3 has not written step 150";
    a.add_point(3, Point{150, 0, v[3][150]});
    EXPECT_EQ(found(a), (std::vector<Found>{{2, 150, v[2][150], Severity::kWarn}}));
    EXPECT_TRUE(a.log().records()[0].message.find("envelope over 4 ranks") != std::string::npos);
}

TEST(SpikeEnvelope, ShedWindowsAreFreedAndTheirSeriesJudgedByTheEnvelope) {
    Analyzer a(default_rules());
    a.set_live();
    const Ranks v = four_losses(a, 300, 70, 3, 130);
    feed(a, v, 0, 100);
    const std::uint64_t windows = a.window_bytes();
    EXPECT_GT(windows, 0u);
    EXPECT_EQ(a.memory_bytes(), a.recount_bytes());
    const std::uint64_t before = a.memory_bytes();
    // Rank 0's window goes to the envelope with its history: the other three are freed.
    EXPECT_EQ(a.shed_windows(kEverything), windows / 4 * 3);
    EXPECT_TRUE(a.windows_closed());
    EXPECT_EQ(a.window_bytes(), 0u);
    EXPECT_EQ(a.enveloped_series(), 4u);
    EXPECT_LT(a.memory_bytes(), before);
    EXPECT_EQ(a.memory_bytes(), a.recount_bytes());
    // A series that comes now has no window at all.
    a.add_series(4, {"r", 4, "train/loss"}, kEvents);
    EXPECT_EQ(a.enveloped_series(), 5u);
    feed(a, v, 100, 300);
    a.add_point(4, Point{299, 0, 2.0});
    EXPECT_EQ(a.window_bytes(), 0u);
    EXPECT_EQ(a.memory_bytes(), a.recount_bytes());
    // The envelope is warm from rank 0's history: rank 3's spike 30 steps later is found.
    EXPECT_EQ(found(a), (std::vector<Found>{{3, 130, v[3][130], Severity::kWarn}}));
}

TEST(SpikeEnvelope, WindowsClosedAWindowThatWouldGrowGoes) {
    Analyzer a(default_rules());
    a.add_series(0, {"r", 0, "train/loss"}, kEvents);
    a.add_series(1, {"r", 1, "train/loss"}, kEvents);
    a.add_point(0, Point{0, 0, 1.0});  // rank 0's window is made
    ASSERT_GT(a.window_bytes(), 0u);
    a.shed_windows(0);  // frees nothing, closes them
    EXPECT_TRUE(a.windows_closed());
    EXPECT_EQ(a.enveloped_series(), 0u);
    a.add_point(1, Point{0, 0, 1.0});  // rank 1's would be made now: it goes to the envelope
    EXPECT_EQ(a.enveloped_series(), 1u);
    for (int t = 1; t < 16; ++t) a.add_point(0, Point{t, 0, 1.0 + t});
    EXPECT_EQ(a.enveloped_series(), 1u) << "its window has room for 16 values";
    a.add_point(0, Point{16, 0, 20.0});
    EXPECT_EQ(a.enveloped_series(), 2u) << "the 17th value would grow it";
    EXPECT_EQ(a.window_bytes(), 0u);
    EXPECT_EQ(a.memory_bytes(), a.recount_bytes());
}

// Once most windows are shed their detectors go too (no new series takes one while windows
// are closed); a window that keeps a candidate waiting keeps its detector and its candidate.
TEST(SpikeEnvelope, ShedDetectorsAreFreedAndAWaitingCandidateSurvives) {
    Analyzer a(default_rules());
    constexpr SeriesId kMany = 8000;
    for (SeriesId id = 0; id < kMany; ++id) {
        a.add_series(id, {"r", static_cast<int>(id), "train/reward"}, kEvents);
        for (int t = 0; t < 20; ++t) a.add_point(id, Point{t, 0, 1.0 + 0.01 * ((id + t) % 7)});
    }
    const SeriesId waiting = kMany;
    a.add_series(waiting, {"other", 0, "train/reward"}, kEvents);
    const std::vector<double> v = noisy(101, 1.0, 9, 99, 20);
    for (int t = 0; t < 100; ++t) a.add_point(waiting, Point{t, 0, v[t]});
    EXPECT_EQ(a.log().size(), 0u) << "the spike at step 99 waits to fall back";

    const std::uint64_t before = a.memory_bytes();
    const std::uint64_t windows = a.window_bytes();
    a.shed_windows(kEverything);
    EXPECT_EQ(a.enveloped_series(), std::size_t{kMany});
    EXPECT_GT(a.window_bytes(), 0u) << "the waiting window stays";
    // The windows and the detectors they were in.
    EXPECT_GE(before - a.memory_bytes(),
              windows - a.window_bytes() + kMany * sizeof(SpikeDetector) * 9 / 10);
    EXPECT_EQ(a.memory_bytes(), a.recount_bytes());

    a.add_point(waiting, Point{100, 0, v[100]});  // falls back: the spike is confirmed
    ASSERT_EQ(a.log().size(), 1u);
    EXPECT_EQ(a.log().records()[0].step, 99);
    EXPECT_EQ(a.log().records()[0].run, "other");
}

}  // namespace
}  // namespace runtop
