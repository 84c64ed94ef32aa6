// A PointSink that shows every point to the Analyzer, and hands it to the Store when there is
// one: what makes the rules run as points arrive, whoever reads the files. Without a Store (a
// one-shot `check`, which needs no points afterwards) series are numbered here instead.
//
// With a Store it charges the Analyzer's memory (and what the caller says the rest holds per
// series: the view model) to the Store's budget as it changes, so the points fold to make room
// for the rules' state and `--memory` bounds the whole process. When the points are folded as
// far as they go and the budget is still over, it has the Analyzer shed spike windows
// (Analyzer::shed_windows()).
#pragma once

#include <cstdint>
#include <utility>

#include "core/analysis/analyzer.h"
#include "core/store/series_index.h"
#include "core/store/store.h"

namespace runtop {

class AnalyzingSink final : public PointSink {
  public:
    explicit AnalyzingSink(Analyzer& analyzer, Store* store = nullptr)
        : analyzer_(analyzer), store_(store) {}

    SeriesId series(const SeriesKey& key, SourceId source) override {
        SeriesId id;
        if (store_) {
            id = store_->series(key, source);
        } else {
            id = ids_.insert(key).id;
        }
        analyzer_.add_series(id, key, series_source(source));
        if (analyzer_.memory_bytes() != charged_) charge();
        return id;
    }
    void append(SeriesId id, const Point& point) override {
        if (store_) store_->append(id, point);
        analyzer_.add_point(id, point);
        if (analyzer_.memory_bytes() != charged_) charge();  // a spike window grew: rarely
    }
    // What the rest of the process holds for the series (the view model), charged beside the
    // Analyzer's memory.
    void set_other_bytes(std::uint64_t bytes) {
        other_ = bytes;
        charge();
    }
    void session_start(std::string_view run, int rank, std::int64_t step,
                       double wall_time) override {
        if (store_) store_->session_start(run, rank, step, wall_time);
    }
    void config_text(ConfigText text) override {
        if (store_) store_->config_text(std::move(text));
    }
    void anomaly(ImportedAnomaly anomaly) override {
        analyzer_.import(anomaly);
        if (store_) store_->anomaly(std::move(anomaly));
    }
    std::size_t series_count() const { return store_ ? store_->series_count() : ids_.size(); }

  private:
    void charge() {
        charged_ = analyzer_.memory_bytes();
        if (!store_) return;
        store_->set_outside_bytes(charged_ + other_);
        // The Store has folded all it can and is still over its budget: spike windows go (their
        // series judged by their tags' envelopes from now on), a sixteenth of the budget beyond
        // the excess, so that a few more series do not ask again at once.
        const std::uint64_t over = store_->over_floor_bytes();
        if (over == 0 || (analyzer_.windows_closed() && analyzer_.window_bytes() == 0)) return;
        analyzer_.shed_windows(over + store_->limits().memory_bytes / 16);
        charged_ = analyzer_.memory_bytes();
        store_->set_outside_bytes(charged_ + other_);
    }

    Analyzer& analyzer_;
    Store* store_;
    SeriesIndex ids_;            // without a Store: keys interned, 12 bytes a series
    std::uint64_t charged_ = 0;  // the Analyzer's memory_bytes() the Store was last told
    std::uint64_t other_ = 0;
};

}  // namespace runtop
