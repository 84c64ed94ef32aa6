// RunComparer (core/compare/run_comparer.h): the pairs of two runs, each resumed from where its
// walk stopped (core/compare/compare_pair.h) when its series only gained points. compare_runs() is
// one update of a fresh comparer, so the dashboard's result and `diff`'s are the same code; the
// property test in tests/run_comparer_test.cpp checks that resuming changes nothing.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <map>
#include <thread>
#include <utility>

#include "core/compare/compare_pair.h"
#include "core/compare/run_comparer.h"

namespace runtop {
namespace {

// What a series looked like at the last update. Every change goes through append (received),
// a restart (restart_count) or a fold (count - retained grows); bucket merges change nothing
// a comparison reads.
struct Version {
    std::uint64_t received = 0;
    std::uint64_t count = 0;
    std::uint64_t retained = 0;
    std::uint64_t restarts = 0;
    bool operator==(const Version&) const = default;
};

Version version_of(const Series& s) {
    return {s.received(), s.count(), s.retained(), s.restart_count()};
}

// Whether `now` only has points added after those of `before`, so a walk may resume. A series
// that had no points starts its pairs over: in a rank mean it joins steps already walked.
bool only_grew(const Version& before, const Version& now) {
    return now.restarts == before.restarts &&
           now.count - now.retained == before.count - before.retained &&
           (before.count > 0 || now.count == 0);
}

bool same_double(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

bool same_comparison(const SeriesComparison& x, const SeriesComparison& y) {
    return x.tag == y.tag && x.rank == y.rank && x.common_steps == y.common_steps &&
           x.folded == y.folded && same_double(x.last_a, y.last_a) &&
           same_double(x.last_b, y.last_b) && x.last_step_a == y.last_step_a &&
           x.last_step_b == y.last_step_b && x.last_common_step == y.last_common_step &&
           same_double(x.a, y.a) && same_double(x.b, y.b) && same_double(x.delta, y.delta) &&
           same_double(x.ratio, y.ratio) && x.first_divergence == y.first_divergence &&
           same_double(x.max_relative_difference, y.max_relative_difference) &&
           x.first_divergence_time.has_value() == y.first_divergence_time.has_value() &&
           (!x.first_divergence_time ||
            same_double(*x.first_divergence_time, *y.first_divergence_time)) &&
           x.ranks_a == y.ranks_a && x.ranks_b == y.ranks_b;
}

struct Member {
    SeriesId id;
    int rank;
    Version seen;  // at the last walk
};

// One (tag, rank), or with kMean one tag: its series in each run and its walk.
struct Entry {
    std::vector<Member> a, b;  // by rank
    compare::Progress progress;
    SeriesComparison result;
    bool reset = true;      // walk from the beginning at the next update
    std::size_t index = 0;  // in RunComparison::pairs
    // For the current update.
    compare::Side side_a, side_b;
};

void add_member(std::vector<Member>& members, SeriesId id, int rank) {
    auto at = std::lower_bound(members.begin(), members.end(), rank,
                               [](const Member& m, int r) { return m.rank < r; });
    members.insert(at, Member{id, rank, {}});
}

// Below this many points to walk one thread does it: a second one would cost more than it saves.
constexpr std::uint64_t kThreadedPoints = 1 << 20;

}  // namespace

struct RunComparer::State {
    explicit State(const Store& s) : store(s) {}

    const Store& store;
    std::string run_a, run_b;
    CompareOptions options;
    const SeriesFilter* filter = nullptr;
    bool fresh = true;  // configure() since the last update

    std::size_t scanned = 0;  // store series looked at (ids only grow)
    std::map<std::pair<std::string, int>, Entry, std::less<>> entries;
    std::vector<SeriesId> series_a, series_b;  // every series each run has, for its start
    std::optional<double> origin_a, origin_b;
    RunComparison result;

    bool take_new_series();
    bool origins_moved();
    std::vector<Entry*> stale_entries();
    void walk(const std::vector<Entry*>& work);
    void lay_out();
};

// Series the Store made since the last look that belong to either run and pass the filter.
bool RunComparer::State::take_new_series() {
    bool any = false;
    const bool mean = options.ranks == CompareRanks::kMean;
    for (; scanned < store.series_count(); ++scanned) {
        const auto id = static_cast<SeriesId>(scanned);
        const SeriesKeyRef key = store.at(id).key();
        const bool in_a = key.run == run_a, in_b = key.run == run_b;
        if (!(in_a || in_b) || (filter && !filter->selects(key))) continue;
        auto [it, made] = entries.try_emplace({std::string(key.tag), mean ? kNoRank : key.rank});
        Entry& e = it->second;
        if (made) {  // compare_pair leaves the tag and rank to us
            e.result.tag = it->first.first;
            e.result.rank = it->first.second;
        }
        if (in_a) {
            add_member(e.a, id, key.rank);
            series_a.push_back(id);
        }
        if (in_b) {
            add_member(e.b, id, key.rank);
            series_b.push_back(id);
        }
        e.reset = true;
        any = true;
    }
    return any;
}

// With wall alignment, whether either run's start moved (every pair then starts over).
bool RunComparer::State::origins_moved() {
    if (options.align != CompareAlign::kRelativeWall) return false;
    auto origin = [this](const std::vector<SeriesId>& ids) {
        std::optional<double> start;
        for (SeriesId id : ids) {
            const std::optional<double> w = compare::first_wall(store.at(id));
            if (w && (!start || *w < *start)) start = w;
        }
        return start;
    };
    auto same = [](const std::optional<double>& x, const std::optional<double>& y) {
        return x.has_value() == y.has_value() && (!x || same_double(*x, *y));
    };
    const std::optional<double> a = origin(series_a), b = origin(series_b);
    const bool moved = !same(a, origin_a) || !same(b, origin_b);
    origin_a = a;
    origin_b = b;
    return moved;
}

// Pairs whose series changed since their last walk; those that did more than grow start over.
std::vector<Entry*> RunComparer::State::stale_entries() {
    std::vector<Entry*> work;
    for (auto& [key, e] : entries) {
        if (e.a.empty() || e.b.empty()) continue;
        bool changed = e.reset;
        for (std::vector<Member>* side : {&e.a, &e.b})
            for (Member& m : *side) {
                const Version now = version_of(store.at(m.id));
                if (now == m.seen) continue;
                changed = true;
                if (!only_grew(m.seen, now)) e.reset = true;
                m.seen = now;
            }
        if (!changed) continue;
        if (e.reset) e.progress = compare::Progress{};
        e.reset = false;
        const bool mean = options.ranks == CompareRanks::kMean;
        auto side = [&](const std::vector<Member>& members, const std::optional<double>& origin) {
            compare::Side s;
            for (const Member& m : members) s.series.push_back(&store.at(m.id));
            s.mean = mean;
            s.origin = origin.value_or(0);
            return s;
        };
        e.side_a = side(e.a, origin_a);
        e.side_b = side(e.b, origin_b);
        work.push_back(&e);
    }
    return work;
}

// Walks the stale pairs, on two threads when there is enough to do (pairs are independent and
// only read the Store).
void RunComparer::State::walk(const std::vector<Entry*>& work) {
    std::vector<std::pair<std::uint64_t, Entry*>> jobs;
    std::uint64_t total = 0;
    for (Entry* e : work) {
        const std::uint64_t n = compare::pending_points(e->side_a, e->side_b, e->progress);
        jobs.emplace_back(n, e);
        total += n;
    }
    // Largest first, so that the two threads finish close together.
    std::sort(jobs.begin(), jobs.end(),
              [](const auto& x, const auto& y) { return x.first > y.first; });
    std::atomic<std::size_t> next{0};
    auto run = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < jobs.size();) {
            Entry& e = *jobs[i].second;
            const std::string tag = e.result.tag;
            const int rank = e.result.rank;
            e.result = compare::compare_pair(e.side_a, e.side_b, options, e.progress);
            e.result.tag = tag;
            e.result.rank = rank;
        }
    };
    if (total >= kThreadedPoints && jobs.size() > 1) {
        std::thread helper(run);
        run();
        helper.join();
    } else {
        run();
    }
}

// RunComparison's lists from the entries, in (tag, rank) order.
void RunComparer::State::lay_out() {
    result = RunComparison{};
    for (auto& [key, e] : entries) {
        if (!e.a.empty() && !e.b.empty()) {
            e.index = result.pairs.size();
            result.pairs.push_back(e.result);
            continue;
        }
        for (const Member& m : e.a) result.only_a.emplace_back(key.first, m.rank);
        for (const Member& m : e.b) result.only_b.emplace_back(key.first, m.rank);
    }
}

RunComparer::RunComparer(const Store& store) : state_(std::make_unique<State>(store)) {}

RunComparer::~RunComparer() = default;

void RunComparer::configure(std::string run_a, std::string run_b, CompareOptions options,
                            const SeriesFilter* filter) {
    State& s = *state_;
    s.run_a = std::move(run_a);
    s.run_b = std::move(run_b);
    s.options = options;
    s.filter = filter;
    s.fresh = true;
}

const std::string& RunComparer::run_a() const {
    return state_->run_a;
}

const std::string& RunComparer::run_b() const {
    return state_->run_b;
}

const CompareOptions& RunComparer::options() const {
    return state_->options;
}

bool RunComparer::update() {
    State& s = *state_;
    bool changed = false;
    if (s.fresh) {
        s.fresh = false;
        s.scanned = 0;
        s.entries.clear();
        s.series_a.clear();
        s.series_b.clear();
        s.origin_a.reset();
        s.origin_b.reset();
        s.result = RunComparison{};
        changed = true;
    }
    const bool joined = s.take_new_series();
    if (s.origins_moved())
        for (auto& [key, e] : s.entries) e.reset = true;
    const std::vector<Entry*> work = s.stale_entries();
    std::vector<SeriesComparison> before;
    if (!joined) {
        before.reserve(work.size());
        for (const Entry* e : work) before.push_back(e->result);
    }
    s.walk(work);
    if (joined) {
        s.lay_out();
        return true;
    }
    for (std::size_t i = 0; i < work.size(); ++i) {
        const Entry& e = *work[i];
        if (same_comparison(before[i], e.result)) continue;
        s.result.pairs[e.index] = e.result;
        changed = true;
    }
    return changed;
}

const RunComparison& RunComparer::result() const {
    return state_->result;
}

RunComparison compare_runs(const Store& store, std::string_view run_a, std::string_view run_b,
                           const CompareOptions& options, const SeriesFilter* filter) {
    RunComparer comparer(store);
    comparer.configure(std::string(run_a), std::string(run_b), options, filter);
    comparer.update();
    return comparer.result();
}

}  // namespace runtop
