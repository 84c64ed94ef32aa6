#include "core/filtering_sink.h"

#include <algorithm>

namespace runtop {

SeriesId FilteringSink::series(const SeriesKey& key, SourceId source) {
    if (filter_.selects(key)) return inner_.series(key, source);
    if (counting_) {
        skipped_.push_back(SeriesKeyHash{}(key));
        // Readers of many files ask again for the same key: at most twice the distinct ones.
        if (skipped_.size() >= 2 * unique_ + 1024) compact();
    }
    return kSkippedSeries;
}

void FilteringSink::anomaly(ImportedAnomaly anomaly) {
    const SeriesKeyRef key{anomaly.run, anomaly.rank,
                           anomaly.tag.empty() ? anomaly.raw_tag : anomaly.tag};
    if (filter_.selects(key)) inner_.anomaly(std::move(anomaly));
}

std::size_t FilteringSink::skipped_series() {
    compact();
    return skipped_.size();
}

void FilteringSink::compact() {
    std::sort(skipped_.begin(), skipped_.end());
    skipped_.erase(std::unique(skipped_.begin(), skipped_.end()), skipped_.end());
    unique_ = skipped_.size();
}

}  // namespace runtop
