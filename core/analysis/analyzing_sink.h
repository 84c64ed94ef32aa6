// A PointSink that shows every point to the Analyzer, and hands it to the Store when there is
// one: what makes the rules run as points arrive, whoever reads the files. Without a Store (a
// one-shot `check`, which needs no points afterwards) series are numbered here instead.
#pragma once

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
        return id;
    }
    void append(SeriesId id, const Point& point) override {
        if (store_) store_->append(id, point);
        analyzer_.add_point(id, point);
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
    Analyzer& analyzer_;
    Store* store_;
    SeriesIndex ids_;  // without a Store: keys interned, 12 bytes a series
};

}  // namespace runtop
