// The boundary between readers and the model: readers turn bytes into calls on a PointSink.
// The Store implements it for the dashboard and `ls`; `dump --follow` prints instead.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "core/anomaly_record.h"
#include "core/series_key.h"
#include "core/series_source.h"

namespace runtop {

// Free-form text a run carries (TensorBoard text summaries: configs, hparams, notes).
// Kept per run for later comparison of configurations.
struct ConfigText {
    std::string run;
    int rank = kNoRank;
    std::string tag;
    std::int64_t step = 0;
    std::string text;
};

// The id a sink returns for a series it does not keep (a filter at ingest, core/filtering_sink.h):
// appends to it are dropped, so a reader may skip decoding that series' values altogether.
inline constexpr SeriesId kSkippedSeries = std::numeric_limits<SeriesId>::max();

class PointSink {
  public:
    virtual ~PointSink() = default;
    // Returns a stable id for the series, creating it on first sight. The reader says where it
    // came from (its format, its step axis); the first sight's source is kept. kSkippedSeries
    // when the sink keeps nothing of it; readers keep the id they got, so ask once per key.
    virtual SeriesId series(const SeriesKey& key, SourceId source) = 0;
    // Whether series() would give kSkippedSeries for `key`: answered without side effects and
    // from any thread, so readers on a pool thread (readers/reader_pool.h) skip what it skips.
    virtual bool skips(const SeriesKey& key) const {
        (void)key;
        return false;
    }
    virtual void append(SeriesId id, const Point& point) = 0;
    // A session (re)started at `step` (TensorBoard SessionLog START): every series of
    // (run, rank) forgets its points at or after `step`.
    virtual void session_start(std::string_view run, int rank, std::int64_t step,
                               double wall_time) = 0;
    virtual void config_text(ConfigText text) = 0;
    // An anomaly detected by the training job's own monitor. The same key may arrive again
    // (the file is rewritten whole every step): the later copy replaces the earlier.
    virtual void anomaly(ImportedAnomaly anomaly) = 0;
};

}  // namespace runtop
