// A PointSink in front of another that lets only the selected series (--filter, --ranks, --runs)
// through, so that `ls`, `dump`, `check` and `snapshot` never store, judge or print the rest: a
// one-tag view of a million series costs what that tag costs (docs/design.md "Filters at
// ingest").
// An unselected series gets kSkippedSeries and is not remembered (readers keep the id they got
// per key, so the filter runs once per key per reader); its points are dropped, or not decoded
// at all by readers that know the tag before the value.
#pragma once

#include <cstdint>
#include <vector>

#include "core/point_sink.h"
#include "core/series_filter.h"

namespace runtop {

class FilteringSink final : public PointSink {
  public:
    // Both must outlive the sink.
    FilteringSink(const SeriesFilter& filter, PointSink& inner) : filter_(filter), inner_(inner) {}

    // Counts the distinct series skipped (for a view's "N hidden"), at 8 bytes a series: a hash
    // of each key, never the key. Off by default: a listing does not need it.
    void count_skipped() { counting_ = true; }
    std::size_t skipped_series();

    SeriesId series(const SeriesKey& key, SourceId source) override;
    bool skips(const SeriesKey& key) const override { return !filter_.selects(key); }
    void append(SeriesId id, const Point& point) override {
        if (id != kSkippedSeries) inner_.append(id, point);
    }
    // Restarts and configuration texts are about a run or rank, not one series: passed on
    // when the run is selected.
    void session_start(std::string_view run, int rank, std::int64_t step,
                       double wall_time) override {
        if (filter_.selects_run(run)) inner_.session_start(run, rank, step, wall_time);
    }
    void config_text(ConfigText text) override {
        if (filter_.selects_run(text.run)) inner_.config_text(std::move(text));
    }
    // Kept when the series it concerns is selected (its raw tag when runtop's is unknown), as
    // the Analyzer keeps them.
    void anomaly(ImportedAnomaly anomaly) override;

  private:
    void compact();

    const SeriesFilter& filter_;
    PointSink& inner_;
    bool counting_ = false;
    std::vector<std::uint64_t> skipped_;  // key hashes; sorted and unique up to `unique_`
    std::size_t unique_ = 0;
};

}  // namespace runtop
