// RunComparer: a run comparison (core/compare/run_compare.h) kept up to date as the Store grows,
// for the dashboard; compare_runs() is one update of a fresh one. Implemented in
// run_comparer.cpp over the resumable pair walk of core/compare/compare_pair.h.
#pragma once

#include <memory>
#include <string>

#include "core/compare/run_compare.h"

namespace runtop {

// A comparison kept up to date as the Store grows (the dashboard): each pair remembers how far
// it compared and resumes there when its series only gained points; a restart, a fold or a
// change of runs, options or filter starts that pair (or everything) over.
//
// What a pair remembers is its state after the last points no later write can change: the
// last point of a series can still be replaced by a write of the same step, and a rank mean
// is final only below the lowest last step of the run's ranks (a rank that stops logging
// keeps the mean after its last step open: those points are compared again on every update
// that brings new ones). With kRelativeWall, a new earliest wall time in either run starts
// every pair over. update() costs one look at each series of the two runs when nothing
// changed, and the new points (plus the still-open ones) otherwise.
class RunComparer {
  public:
    explicit RunComparer(const Store& store);
    ~RunComparer();
    RunComparer(const RunComparer&) = delete;
    RunComparer& operator=(const RunComparer&) = delete;

    // `filter` must outlive the comparer or the next configure() (the ViewModel's filter);
    // call configure() again whenever it changes. nullptr: every series. Every configure()
    // starts over (the next update() compares everything), even with the same arguments:
    // call it when something changed, not every frame.
    void configure(std::string run_a, std::string run_b, CompareOptions options,
                   const SeriesFilter* filter);
    const std::string& run_a() const;
    const std::string& run_b() const;
    const CompareOptions& options() const;
    // Takes in what the Store gained since the last call. Returns whether result() changed.
    bool update();
    // What compare_runs(store, run_a, run_b, options, filter) would return now.
    const RunComparison& result() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace runtop
