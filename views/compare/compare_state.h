// What the compare view (views/compare/compare_view.h) keeps between keys: the runs, the
// options, the sort, the selection, the panel; and the memo of what it computed from them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/compare/run_compare.h"

namespace runtop::ui {

// How the table is ordered.
enum class CompareSort : std::uint8_t {
    kDivergence,  // diverging tags first, the earliest first divergence first; then by name
    kDelta,       // the largest relative |Δ| at the newest common step first
    kName,        // by tag
};
struct CompareCache;

// The one owner of a CompareCache (views/compare/compare_cache.h): made with the state, freed
// with it; a copy starts with an empty cache.
class CompareMemo {
  public:
    CompareMemo();
    ~CompareMemo();
    CompareMemo(const CompareMemo&);
    CompareMemo& operator=(const CompareMemo&);
    CompareCache& operator*() const { return *cache_; }
    CompareCache* operator->() const { return cache_.get(); }

  private:
    std::unique_ptr<CompareCache> cache_;
};

struct CompareState {
    // The runs compared, by name; "" = the default pair (compare_runs_of: with two roots, the
    // same run of each; else the first two of ViewModel::run_names()). `[` and `]` set them.
    std::string run_a, run_b;
    CompareOptions options;  // the app sets them from --tolerance, --align, --by
    CompareSort sort = CompareSort::kDivergence;
    int selected = 0;     // a row (index into CompareRows::order); clamped
    int scroll = 0;       // the first row on screen; kept so the selection is visible
    bool config = false;  // the configuration-diff panel is open (`c`)
    // What the view computed for these settings from the Store (the comparer, its rows, the
    // sparklines on screen, the configuration diff). Its content follows from the settings
    // above and the Store alone, so drawing a const state may bring it up to date: it is
    // mutable for that, and this state is its one owner (a copy starts empty and computes it
    // again).
    mutable CompareMemo cache;
};

}  // namespace runtop::ui
