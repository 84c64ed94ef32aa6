// A PointSink that hands everything to the Store and shows it to the Analyzer: what makes the
// rules run as points arrive, whoever reads the files.
#pragma once

#include <utility>

#include "core/analyzer.h"
#include "core/store.h"

namespace runtop {

class AnalyzingSink final : public PointSink {
  public:
    AnalyzingSink(Store& store, Analyzer& analyzer) : store_(store), analyzer_(analyzer) {}

    SeriesId series(const SeriesKey& key, SourceKind kind) override {
        const SeriesId id = store_.series(key, kind);
        analyzer_.add_series(id, key, kind);
        return id;
    }
    void append(SeriesId id, const Point& point) override {
        store_.append(id, point);
        analyzer_.add_point(id, point);
    }
    void session_start(std::string_view run, int rank, std::int64_t step,
                       double wall_time) override {
        store_.session_start(run, rank, step, wall_time);
    }
    void config_text(ConfigText text) override { store_.config_text(std::move(text)); }
    void anomaly(ImportedAnomaly anomaly) override {
        analyzer_.import(anomaly);
        store_.anomaly(std::move(anomaly));
    }

  private:
    Store& store_;
    Analyzer& analyzer_;
};

}  // namespace runtop
