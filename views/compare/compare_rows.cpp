#include "views/compare/compare_rows.h"

#include <algorithm>

#include "core/identity.h"

namespace runtop::ui {
namespace {

// The relative |Δ| at the newest common step; -1 when there is none (sorted last).
double relative_delta(const TagComparison& t) {
    if (!t.has_common()) return -1;
    return relative_difference(t.head.a, t.head.b);
}

// Diverging first, the earliest first divergence first (ties: the larger difference), then
// the rest by tag.
bool divergence_before(const TagComparison& x, const TagComparison& y) {
    const bool dx = x.diverges(), dy = y.diverges();
    if (dx != dy) return dx;
    if (dx) {
        if (*x.head.first_divergence != *y.head.first_divergence)
            return *x.head.first_divergence < *y.head.first_divergence;
        if (x.head.max_relative_difference != y.head.max_relative_difference)
            return x.head.max_relative_difference > y.head.max_relative_difference;
    }
    return x.tag < y.tag;
}

void sort_rows(CompareRows& rows, CompareSort sort) {
    const std::vector<TagComparison>& tags = rows.tags;
    switch (sort) {
        case CompareSort::kDivergence:
            std::stable_sort(rows.order.begin(), rows.order.end(),
                             [&](int x, int y) { return divergence_before(tags[x], tags[y]); });
            break;
        case CompareSort::kDelta:
            std::stable_sort(rows.order.begin(), rows.order.end(), [&](int x, int y) {
                return relative_delta(tags[x]) > relative_delta(tags[y]);
            });
            break;
        case CompareSort::kName:
            break;  // tag_rows() is by tag already
    }
}

void build_rows(CompareRows& rows, const RunComparison& result, CompareSort sort) {
    rows.tags = tag_rows(result);
    rows.order.clear();
    rows.only_a.clear();
    rows.only_b.clear();
    rows.diverging = 0;
    rows.first = -1;
    for (int i = 0; i < static_cast<int>(rows.tags.size()); ++i) {
        const TagComparison& t = rows.tags[i];
        if (t.only_a()) {
            rows.only_a.push_back(i);
        } else if (t.only_b()) {
            rows.only_b.push_back(i);
        } else {
            rows.order.push_back(i);
            if (!t.diverges()) continue;
            ++rows.diverging;
            if (rows.first < 0 || divergence_before(t, rows.tags[rows.first])) rows.first = i;
        }
    }
    sort_rows(rows, sort);
}

}  // namespace

std::string_view compare_sort_name(CompareSort sort, bool ascii) {
    switch (sort) {
        case CompareSort::kDivergence:
            return "divergence";
        case CompareSort::kDelta:
            return ascii ? "|delta|" : "|Δ|";
        case CompareSort::kName:
            return "name";
    }
    return "?";
}

CompareSort next_compare_sort(CompareSort sort) {
    switch (sort) {
        case CompareSort::kDivergence:
            return CompareSort::kDelta;
        case CompareSort::kDelta:
            return CompareSort::kName;
        case CompareSort::kName:
            return CompareSort::kDivergence;
    }
    return CompareSort::kDivergence;
}

namespace {

// `runtop base=D1 new=D2`, each root holding several runs (a job's tensorboard/ beside its
// msProbe monitor_output/): run A is the first run of the first root, and run B the run at the
// same place under the second root (base/tensorboard against new/tensorboard), else that root's
// first run. Not two runs of the same root, which would compare a job with itself.
std::pair<std::string, std::string> default_pair(const ViewModel& model) {
    const std::vector<std::string>& roots = model.root_names();
    const std::vector<std::string>& names = model.run_names();
    if (roots.size() < 2) return {};
    auto runs_of = [&](const std::string& root) {
        std::vector<std::string> out;
        for (const std::string& n : names)
            if (run_in_root(n, root) && model.filter().selects_run(n)) out.push_back(n);
        return out;
    };
    const std::vector<std::string> first = runs_of(roots[0]), second = runs_of(roots[1]);
    if (first.empty() || second.empty()) return {};
    for (const std::string& a : first)
        for (const std::string& b : second)
            if (path_below_root(a, roots[0]) == path_below_root(b, roots[1])) return {a, b};
    return {first.front(), second.front()};
}

}  // namespace

std::pair<std::string, std::string> compare_runs_of(const CompareState& state,
                                                    const ViewModel& model) {
    const std::vector<std::string>& names = model.run_names();
    std::string a = state.run_a, b = state.run_b;
    if (a.empty() && b.empty()) {
        auto [da, db] = default_pair(model);
        if (!da.empty() && da != db) return {std::move(da), std::move(db)};
    }
    // Runs the run filter (`R`, --runs) leaves out are not picked.
    if (a.empty()) {
        for (const std::string& n : names)
            if (n != b && model.filter().selects_run(n)) {
                a = n;
                break;
            }
    }
    if (b.empty()) {
        for (const std::string& n : names)
            if (n != a && model.filter().selects_run(n)) {
                b = n;
                break;
            }
    }
    return {std::move(a), std::move(b)};
}

const CompareRows& compare_rows(const CompareState& state, const ViewModel& model) {
    CompareCache& c = *state.cache;
    if (c.store != &model.store()) {
        c = CompareCache{};
        c.store = &model.store();
        c.comparer = std::make_unique<RunComparer>(model.store());
    }
    auto [a, b] = compare_runs_of(state, model);
    const bool same = c.configured && c.run_a == a && c.run_b == b && c.options == state.options &&
                      c.filter_tags == model.filter_tags() &&
                      c.filter_ranks == model.filter_ranks() &&
                      c.filter_runs == model.filter_runs();
    if (!same) {
        c.run_a = std::move(a);
        c.run_b = std::move(b);
        c.options = state.options;
        c.filter_tags = model.filter_tags();
        c.filter_ranks = model.filter_ranks();
        c.filter_runs = model.filter_runs();
        c.rows = CompareRows{};
        c.rows.run_a = c.run_a;
        c.rows.run_b = c.run_b;
        c.rows.options = c.options;
        c.rows_valid = false;
        c.configured = true;
        // Fewer than two runs: nothing to compare; the comparer waits for the second run.
        if (c.rows.two_runs()) c.comparer->configure(c.run_a, c.run_b, c.options, &model.filter());
    }
    if (!c.rows.two_runs()) {
        c.rows_valid = true;
        return c.rows;
    }
    // A key's frame reuses the rows: the data frame right after it takes in the new points.
    bool changed = !c.rows_valid;
    if (!same || !c.rows_valid || !model.ingest.key_frame) changed |= c.comparer->update();
    if (changed) {
        build_rows(c.rows, c.comparer->result(), state.sort);
        c.sort = state.sort;
    } else if (c.sort != state.sort) {
        // Back to tag order, then the new sort.
        std::sort(c.rows.order.begin(), c.rows.order.end());
        sort_rows(c.rows, state.sort);
        c.sort = state.sort;
    }
    c.rows_valid = true;
    return c.rows;
}

int compare_row_of(const CompareRows& rows, std::string_view tag) {
    for (int i = 0; i < rows.rows(); ++i)
        if (rows.row(i).tag == tag) return i;
    return -1;
}

}  // namespace runtop::ui
