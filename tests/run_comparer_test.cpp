// The incremental RunComparer (core/compare/run_comparer.h) against compare_runs, and compare_runs
// against a plain model of what the header says, on random runs: points appended in random
// slices, with equal-step replacements, restarts, session starts, NaN and infinities, ranks
// with their own step grids, and budgets small enough to fold, down to near the Store's floor;
// raw and smoothed (CompareOptions::smoothing: the model smooths each series on its own).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis/smoothing.h"
#include "core/compare/run_compare.h"
#include "core/compare/run_comparer.h"
#include "core/series_filter.h"
#include "core/store/store.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Every field, NaN equal to NaN; empty when equal, else what differs.
std::string differences(const SeriesComparison& x, const SeriesComparison& y) {
    std::ostringstream out;
    auto num = [&](const char* name, double a, double b) {
        if (!testing::same_bits(a, b)) out << name << ": " << a << " vs " << b << "; ";
    };
    auto opt = [&](const char* name, const auto& a, const auto& b) {
        if (a.has_value() != b.has_value() || (a && !testing::same_bits(*a, *b)))
            out << name << ": " << (a ? std::to_string(*a) : "none") << " vs "
                << (b ? std::to_string(*b) : "none") << "; ";
    };
    if (x.tag != y.tag || x.rank != y.rank) out << "key; ";
    num("common_steps", static_cast<double>(x.common_steps), static_cast<double>(y.common_steps));
    num("folded", static_cast<double>(x.folded), static_cast<double>(y.folded));
    num("last_a", x.last_a, y.last_a);
    num("last_b", x.last_b, y.last_b);
    num("last_step_a", static_cast<double>(x.last_step_a), static_cast<double>(y.last_step_a));
    num("last_step_b", static_cast<double>(x.last_step_b), static_cast<double>(y.last_step_b));
    opt("last_common_step", x.last_common_step, y.last_common_step);
    num("a", x.a, y.a);
    num("b", x.b, y.b);
    num("delta", x.delta, y.delta);
    num("ratio", x.ratio, y.ratio);
    opt("first_divergence", x.first_divergence, y.first_divergence);
    num("max_relative_difference", x.max_relative_difference, y.max_relative_difference);
    opt("first_divergence_time", x.first_divergence_time, y.first_divergence_time);
    num("ranks_a", static_cast<double>(x.ranks_a), static_cast<double>(y.ranks_a));
    num("ranks_b", static_cast<double>(x.ranks_b), static_cast<double>(y.ranks_b));
    return out.str();
}

std::string differences(const RunComparison& x, const RunComparison& y) {
    std::ostringstream out;
    if (x.only_a != y.only_a) out << "only_a differs; ";
    if (x.only_b != y.only_b) out << "only_b differs; ";
    if (x.pairs.size() != y.pairs.size()) {
        out << "pairs: " << x.pairs.size() << " vs " << y.pairs.size();
        return out.str();
    }
    for (std::size_t i = 0; i < x.pairs.size(); ++i) {
        const std::string d = differences(x.pairs[i], y.pairs[i]);
        if (!d.empty()) out << x.pairs[i].tag << "/" << x.pairs[i].rank << ": " << d << "\n";
    }
    return out.str();
}

// --- The model: the header's words, point by point through Series::point ---

struct Side {
    std::vector<const Series*> series;
};

std::uint64_t folded_of(const Series& s) {
    return s.count() - s.retained();
}

// A series' full-resolution points after step `after` (all of them without), their values
// smoothed when `smoothing` > 0: each point over the points kept up to it.
std::vector<Point> kept_points(const Series& s, std::optional<std::int64_t> after,
                               double smoothing) {
    std::vector<Point> out;
    EmaSmoother ema(smoothing);
    for (std::size_t i = 0; i < s.retained(); ++i) {
        Point p = s.point(i);
        if (after && p.step <= *after) continue;
        if (smoothing > 0) p.value = ema.push(p.value);
        out.push_back(p);
    }
    return out;
}

// The last step any rank of a mean side folded.
std::optional<std::int64_t> folded_until(const Side& side) {
    std::optional<std::int64_t> until;
    for (const Series* s : side.series)
        if (folded_of(*s) > 0)
            until = std::max(until.value_or(INT64_MIN), s->buckets().back().last_step);
    return until;
}

// The points a side offers: a series' full-resolution points, or the rank mean at each step
// after the last step any rank folded; smoothed per series first when `smoothing` > 0.
std::vector<Point> side_points(const Side& side, bool mean, double smoothing) {
    if (!mean) return kept_points(*side.series[0], std::nullopt, smoothing);
    const std::optional<std::int64_t> until = folded_until(side);
    struct Acc {
        double sum = 0, wall = 0;
        std::size_t n = 0;
    };
    std::map<std::int64_t, Acc> at;
    for (const Series* s : side.series)
        for (const Point& p : kept_points(*s, until, smoothing)) {
            Acc& a = at[p.step];
            a.sum = a.n == 0 ? p.value : a.sum + p.value;
            a.wall = a.n == 0 ? p.wall_time : std::max(a.wall, p.wall_time);
            ++a.n;
        }
    std::vector<Point> out;
    for (const auto& [step, a] : at)
        out.push_back({step, a.wall, a.sum / static_cast<double>(a.n)});
    return out;
}

// A series' newest value: its last point's, or smoothed over the points the side walks (NaN
// when it walks none).
double newest_value(const Series& s, std::optional<std::int64_t> after, double smoothing) {
    if (smoothing == 0) return s.back().value;
    const std::vector<Point> kept = kept_points(s, after, smoothing);
    return kept.empty() ? kNaN : kept.back().value;
}

std::optional<Point> side_last(const Side& side, bool mean, double smoothing) {
    if (!mean) {
        if (side.series[0]->empty()) return std::nullopt;
        Point p = side.series[0]->back();
        p.value = newest_value(*side.series[0], std::nullopt, smoothing);
        return p;
    }
    std::optional<std::int64_t> last;
    for (const Series* s : side.series)
        if (!s->empty()) last = std::max(last.value_or(INT64_MIN), s->last_step());
    if (!last) return std::nullopt;
    const std::optional<std::int64_t> until = folded_until(side);
    double sum = 0;
    std::size_t n = 0;
    for (const Series* s : side.series)
        if (!s->empty() && s->last_step() == *last) {
            const double v = newest_value(*s, until, smoothing);
            sum = n == 0 ? v : sum + v;
            ++n;
        }
    return Point{*last, 0, sum / static_cast<double>(n)};
}

SeriesComparison model_pair(const Side& a, const Side& b, double origin_a, double origin_b,
                            const CompareOptions& o) {
    const bool mean = o.ranks == CompareRanks::kMean;
    const std::vector<Point> pa = side_points(a, mean, o.smoothing),
                             pb = side_points(b, mean, o.smoothing);
    SeriesComparison c;
    for (const Side* side : {&a, &b})
        for (const Series* s : side->series) c.folded += folded_of(*s);
    if (mean) {
        c.ranks_a = a.series.size();
        c.ranks_b = b.series.size();
    }
    const std::optional<Point> la = side_last(a, mean, o.smoothing),
                               lb = side_last(b, mean, o.smoothing);
    c.last_a = la ? la->value : kNaN;
    c.last_b = lb ? lb->value : kNaN;
    c.last_step_a = la ? la->step : 0;
    c.last_step_b = lb ? lb->step : 0;
    auto pair = [&](const Point& x, double time, double vb) {
        ++c.common_steps;
        const double rel = relative_difference(x.value, vb);
        c.max_relative_difference = std::max(c.max_relative_difference, rel);
        if (!c.first_divergence && rel > o.tolerance) {
            c.first_divergence = x.step;
            if (o.align == CompareAlign::kRelativeWall) c.first_divergence_time = time;
        }
        c.last_common_step = x.step;
        c.a = x.value;
        c.b = vb;
    };
    if (o.align == CompareAlign::kStep) {
        std::map<std::int64_t, double> by_step;
        for (const Point& p : pb) by_step[p.step] = p.value;
        for (const Point& p : pa)
            if (auto it = by_step.find(p.step); it != by_step.end()) pair(p, 0, it->second);
    } else {
        // B's latest point at or before each of A's times (B's point never moves back), up to
        // B's last point's time.
        std::size_t passed = 0;
        for (const Point& p : pa) {
            const double t = p.wall_time - origin_a;
            while (passed < pb.size() && pb[passed].wall_time - origin_b <= t) ++passed;
            if (passed == 0) continue;
            if (passed == pb.size() && t > pb.back().wall_time - origin_b) break;
            pair(p, t, pb[passed - 1].value);
        }
    }
    c.a = c.last_common_step ? c.a : kNaN;
    c.b = c.last_common_step ? c.b : kNaN;
    c.delta = c.last_common_step ? c.b - c.a : kNaN;
    c.ratio = !c.last_common_step ? kNaN : (c.a == 0 && c.b == 0 ? kNaN : c.b / c.a);
    return c;
}

RunComparison model_runs(const Store& store, const std::string& run_a, const std::string& run_b,
                         const CompareOptions& o, const SeriesFilter* filter) {
    const bool mean = o.ranks == CompareRanks::kMean;
    std::map<std::pair<std::string, int>,
             std::pair<std::vector<const Series*>, std::vector<const Series*>>>
        by_key;
    std::optional<double> origin_a, origin_b;
    auto first_wall = [](const Series& s) -> std::optional<double> {
        if (s.empty()) return std::nullopt;
        return s.buckets().empty() ? s.point(0).wall_time : s.buckets()[0].first_wall;
    };
    for (SeriesId id : store.sorted_ids()) {  // ranks in order within a tag
        const Series& s = store.at(id);
        const SeriesKeyRef k = s.key();
        if (filter && !filter->selects(k)) continue;
        const std::pair<std::string, int> key{k.tag, mean ? kNoRank : k.rank};
        const std::optional<double> w = first_wall(s);
        if (k.run == run_a) {
            by_key[key].first.push_back(&s);
            if (w) origin_a = std::min(origin_a.value_or(kInf), *w);
        }
        if (k.run == run_b) {
            by_key[key].second.push_back(&s);
            if (w) origin_b = std::min(origin_b.value_or(kInf), *w);
        }
    }
    RunComparison out;
    for (const auto& [key, sides] : by_key) {
        const auto& [a, b] = sides;
        if (!a.empty() && !b.empty()) {
            SeriesComparison c =
                model_pair({a}, {b}, origin_a.value_or(0), origin_b.value_or(0), o);
            c.tag = key.first;
            c.rank = key.second;
            out.pairs.push_back(c);
            continue;
        }
        for (const Series* s : a) out.only_a.emplace_back(key.first, s->key().rank);
        for (const Series* s : b) out.only_b.emplace_back(key.first, s->key().rank);
    }
    return out;
}

// --- Random runs ---

class RandomRuns {
  public:
    RandomRuns(Store& store, std::uint64_t seed) : store_(store), rng_(seed) {
        for (const char* run : {"a", "b"})
            for (const char* tag : {"t0", "t1", "t2"})
                for (int rank : {kNoRank, 0, 1, 2}) keys_.push_back({run, rank, tag});
    }

    // One write: mostly the next point of some series, sometimes the same step again, a step
    // back (a restart), a session start, a NaN or an infinity; the clock only moves on.
    void step() {
        wall_ += pick(4) == 0 ? 0 : 0.25 * static_cast<double>(1 + pick(8));
        const int what = pick(1000);
        const SeriesKey& key = keys_[pick(static_cast<int>(keys_.size()))];
        if (what < 5) {
            const std::int64_t back = pick(200);
            store_.session_start(key.run, key.rank, std::max<std::int64_t>(0, clock_ - back),
                                 wall_);
            return;
        }
        const SeriesId id = store_.series(key, source_id({"tfevents"}));
        const Series& s = store_.at(id);
        std::int64_t step;
        if (s.empty())
            step = pick(20);
        else if (what < 40)
            step = s.last_step();  // written again
        else if (what < 55)
            step = std::max<std::int64_t>(0, s.last_step() - pick(300));  // restarted
        else
            step = s.last_step() + (pick(3) == 0 ? 1 + pick(5) : 1);
        clock_ = std::max(clock_, step);
        store_.append(id, {step, wall_, value(key, step)});
    }

  private:
    int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint64_t>(n)); }

    // Both runs mostly agree; now and then one writes something else.
    double value(const SeriesKey& key, std::int64_t step) {
        const int odd = pick(1000);
        if (odd < 15) return kNaN;
        if (odd < 20) return kInf;
        if (odd < 25) return -kInf;
        if (odd < 60) return 1.5 + pick(3);
        return 1.0 + 0.001 * static_cast<double>(step % 97) + 0.01 * (key.rank + 1) +
               (key.tag == "t1" ? 0.5 : 0);
    }

    Store& store_;
    std::mt19937_64 rng_;
    std::vector<SeriesKey> keys_;
    double wall_ = 1.7e9;
    std::int64_t clock_ = 0;
};

struct Case {
    std::string run_a, run_b;
    CompareOptions options;
    const SeriesFilter* filter;
};

std::string describe(const Case& c) {
    return c.run_a + " vs " + c.run_b +
           " align=" + std::string(compare_align_name(c.options.align)) +
           " ranks=" + std::string(compare_ranks_name(c.options.ranks)) +
           " tolerance=" + std::to_string(c.options.tolerance) +
           " smoothing=" + std::to_string(c.options.smoothing) + (c.filter ? " filtered" : "");
}

// In how many slices some series held folded points, and in how many some series was down to
// buckets and its last point (a folded tail): so that a test can check it covers folding.
struct Folding {
    int slices_folded = 0;
    int slices_tail_folded = 0;
};

void count_folding(const Store& store, Folding& folding) {
    bool folded = false, tail_folded = false;
    for (std::size_t id = 0; id < store.series_count(); ++id) {
        const Series& s = store.at(static_cast<SeriesId>(id));
        folded = folded || folded_of(s) > 0;
        tail_folded = tail_folded || (s.retained() == 1 && !s.buckets().empty());
    }
    folding.slices_folded += folded;
    folding.slices_tail_folded += tail_folded;
}

// `folding`, when given, counts the slices that folded.
void run_property(std::uint64_t seed, StoreLimits limits, int writes, Folding* folding = nullptr) {
    Store store(limits);
    RandomRuns runs(store, seed);
    Result<SeriesFilter> filter = SeriesFilter::make("t[01]", "0-1");
    ASSERT_TRUE(filter);
    std::vector<Case> cases;
    for (CompareAlign align : {CompareAlign::kStep, CompareAlign::kRelativeWall})
        for (CompareRanks ranks : {CompareRanks::kPerRank, CompareRanks::kMean}) {
            cases.push_back({"a", "b", {1e-6, align, ranks}, nullptr});
            cases.push_back({"a", "b", {0, align, ranks}, &*filter});
            cases.push_back({"b", "a", {0.5, align, ranks}, nullptr});
            cases.push_back({"a", "b", {0.01, align, ranks, 0.6}, nullptr});
        }
    cases.push_back({"a", "a", {}, nullptr});
    std::vector<std::unique_ptr<RunComparer>> comparers;
    std::vector<RunComparison> previous(cases.size());
    for (const Case& c : cases) {
        comparers.push_back(std::make_unique<RunComparer>(store));
        comparers.back()->configure(c.run_a, c.run_b, c.options, c.filter);
    }
    std::mt19937_64 slices(seed * 7 + 1);
    for (int done = 0, slice = 0; done < writes; ++slice) {
        const int n = 1 + static_cast<int>(slices() % (slices() % 4 == 0 ? 400 : 40));
        for (int i = 0; i < n; ++i) runs.step();
        done += n;
        if (folding) count_folding(store, *folding);
        for (std::size_t k = 0; k < cases.size(); ++k) {
            const Case& c = cases[k];
            const bool changed = comparers[k]->update();
            const RunComparison& got = comparers[k]->result();
            const RunComparison fresh = compare_runs(store, c.run_a, c.run_b, c.options, c.filter);
            ASSERT_EQ(differences(got, fresh), "")
                << "seed " << seed << " slice " << slice << " " << describe(c);
            if (slice > 0) {
                ASSERT_EQ(changed, !differences(got, previous[k]).empty())
                    << "seed " << seed << " slice " << slice << " " << describe(c);
            }
            previous[k] = got;
            if (slice % 5 == 0) {
                ASSERT_EQ(
                    differences(fresh, model_runs(store, c.run_a, c.run_b, c.options, c.filter)),
                    "")
                    << "model, seed " << seed << " slice " << slice << " " << describe(c);
            }
            // Nothing new: nothing changes.
            if (slice % 7 == 0) {
                ASSERT_FALSE(comparers[k]->update());
            }
        }
    }
}

TEST(RunComparer, IncrementalEqualsFromScratchAndTheModel) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) run_property(seed, StoreLimits{}, 6000);
}

// Seeds 11-14 under a budget of `memory_bytes` (and 384 points a series).
Folding run_property_under_budget(std::uint64_t memory_bytes) {
    StoreLimits tiny;
    tiny.memory_bytes = memory_bytes;
    tiny.series_points = 384;
    Folding folding;
    for (std::uint64_t seed = 11; seed <= 14; ++seed) {
        run_property(seed, tiny, 12000, &folding);
        if (::testing::Test::HasFatalFailure()) break;
    }
    return folding;
}

TEST(RunComparer, IncrementalEqualsFromScratchWhileTheBudgetFolds) {
    run_property_under_budget(160 << 10);
}

// Tighter budgets: the Store runs near its floor, folding chunks, merging buckets and folding
// tails (all but the last point), so folds land between any two updates. Each case checks
// that it does fold, so that it keeps covering that regime.
TEST(RunComparer, IncrementalEqualsFromScratchNearTheFloorAt100K) {
    const Folding folding = run_property_under_budget(100 << 10);
    EXPECT_GT(folding.slices_folded, 0);
    EXPECT_GT(folding.slices_tail_folded, 0);
}

TEST(RunComparer, IncrementalEqualsFromScratchNearTheFloorAt80K) {
    const Folding folding = run_property_under_budget(80 << 10);
    EXPECT_GT(folding.slices_folded, 0);
    EXPECT_GT(folding.slices_tail_folded, 0);
}

TEST(RunComparer, IncrementalEqualsFromScratchNearTheFloorAt60K) {
    const Folding folding = run_property_under_budget(60 << 10);
    EXPECT_GT(folding.slices_folded, 0);
    EXPECT_GT(folding.slices_tail_folded, 0);
}

TEST(RunComparer, ARankBehindAnotherRanksFoldStaysOutOfTheMean) {
    // Rank 0 of run a folds steps 0-127 (128 points a series); rank 1 is at step 1, then gains
    // steps 3, 6 and 8: at or before the folded step, so no mean is walked there, on a resumed
    // walk as on a fresh one. Run b folds nothing, so a mean walked there would pair.
    StoreLimits limits;
    limits.series_points = 128;
    Store store(limits);
    const SeriesId a0 = store.series({"a", 0, "t"}, source_id({"tfevents"}));
    const SeriesId a1 = store.series({"a", 1, "t"}, source_id({"tfevents"}));
    const SeriesId b0 = store.series({"b", 0, "t"}, source_id({"tfevents"}));
    for (int s = 0; s < 300; ++s) store.append(a0, {s, 0, 1.0});
    for (int s = 0; s < 150; ++s) store.append(b0, {s, 0, 1.0});
    store.append(a1, {0, 0, 1.0});
    store.append(a1, {1, 0, 1.0});
    ASSERT_GT(store.at(a0).count(), store.at(a0).retained());
    ASSERT_EQ(store.at(b0).count(), store.at(b0).retained());
    const CompareOptions mean{1e-6, CompareAlign::kStep, CompareRanks::kMean};
    RunComparer comparer(store);
    comparer.configure("a", "b", mean, nullptr);
    comparer.update();
    for (int s : {3, 6, 8}) store.append(a1, {s, 0, 5.0});
    comparer.update();
    const RunComparison fresh = compare_runs(store, "a", "b", mean);
    EXPECT_EQ(differences(comparer.result(), fresh), "");
    EXPECT_EQ(differences(fresh, model_runs(store, "a", "b", mean, nullptr)), "");
    EXPECT_EQ(fresh.pairs.at(0).common_steps, 22u);  // steps 128-149
    EXPECT_FALSE(fresh.pairs.at(0).first_divergence);
}

TEST(RunComparer, ReconfiguringStartsOver) {
    Store store;
    RandomRuns runs(store, 99);
    for (int i = 0; i < 3000; ++i) runs.step();
    RunComparer comparer(store);
    comparer.configure("a", "b", {}, nullptr);
    EXPECT_TRUE(comparer.update());
    EXPECT_EQ(comparer.run_a(), "a");
    const CompareOptions mean{1e-6, CompareAlign::kRelativeWall, CompareRanks::kMean};
    comparer.configure("b", "a", mean, nullptr);
    EXPECT_EQ(comparer.run_a(), "b");
    EXPECT_EQ(comparer.run_b(), "a");
    EXPECT_EQ(comparer.options(), mean);
    EXPECT_TRUE(comparer.update());
    EXPECT_EQ(differences(comparer.result(), compare_runs(store, "b", "a", mean)), "");
    EXPECT_FALSE(comparer.update());
    // A run nobody wrote: everything is the other run's alone.
    comparer.configure("a", "nobody", {}, nullptr);
    comparer.update();
    EXPECT_TRUE(comparer.result().pairs.empty());
    EXPECT_FALSE(comparer.result().only_a.empty());
}

TEST(RunComparer, ALaggingRankKeepsTheMeanOpenButStaysExact) {
    // Rank 1 of run a stops at step 10 while rank 0 goes on: the mean after step 10 is
    // compared again on each update, and a late point of rank 1 changes it.
    Store store;
    const SeriesId a0 = store.series({"a", 0, "t"}, source_id({"tfevents"}));
    const SeriesId a1 = store.series({"a", 1, "t"}, source_id({"tfevents"}));
    const SeriesId b0 = store.series({"b", 0, "t"}, source_id({"tfevents"}));
    const CompareOptions mean{1e-6, CompareAlign::kStep, CompareRanks::kMean};
    RunComparer comparer(store);
    comparer.configure("a", "b", mean, nullptr);
    for (int s = 0; s <= 10; ++s) store.append(a1, {s, 0, 1.0});
    for (int s = 0; s < 1000; ++s) {
        store.append(a0, {s, 0, 1.0});
        store.append(b0, {s, 0, 1.0});
        if (s % 100 == 0) {
            comparer.update();
            ASSERT_EQ(differences(comparer.result(), compare_runs(store, "a", "b", mean)), "");
        }
    }
    comparer.update();
    EXPECT_FALSE(comparer.result().pairs.at(0).first_divergence);
    store.append(a1, {500, 0, 3.0});  // the mean at 500 is now 2
    EXPECT_TRUE(comparer.update());
    ASSERT_EQ(differences(comparer.result(), compare_runs(store, "a", "b", mean)), "");
    EXPECT_EQ(*comparer.result().pairs.at(0).first_divergence, 500);
}

}  // namespace
}  // namespace runtop
