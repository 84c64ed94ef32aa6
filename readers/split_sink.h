// The sink a file read on a split reader thread is bound to (SourceSet::split_between): each
// thread reads whole (run, rank) groups of files into a sink of its own, which is sound only
// while every call of a file names that file's run and rank. This passes every call on and
// notes one that does not (another run or rank, or an imported anomaly, which is about a run):
// the caller then reads again into one sink.
#pragma once

#include <string>
#include <string_view>

#include "core/point_sink.h"

namespace runtop {

class SplitSink final : public PointSink {
  public:
    explicit SplitSink(PointSink& target) : target_(target) {}

    // The (run, rank) of the file read next.
    void reading(std::string_view run, int rank) {
        run_.assign(run);
        rank_ = rank;
    }
    // Whether a call named another (run, rank) than its file's.
    bool strayed() const { return strayed_; }

    SeriesId series(const SeriesKey& key, SourceId source) override {
        note(key.run, key.rank);
        return target_.series(key, source);
    }
    bool skips(const SeriesKey& key) const override { return target_.skips(key); }
    void append(SeriesId id, const Point& point) override { target_.append(id, point); }
    void session_start(std::string_view run, int rank, std::int64_t step,
                       double wall_time) override {
        note(run, rank);
        target_.session_start(run, rank, step, wall_time);
    }
    void config_text(ConfigText text) override {
        note(text.run, text.rank);
        target_.config_text(std::move(text));
    }
    void anomaly(ImportedAnomaly anomaly) override {
        strayed_ = true;
        target_.anomaly(std::move(anomaly));
    }

  private:
    void note(std::string_view run, int rank) {
        if (rank != rank_ || run != run_) strayed_ = true;
    }

    PointSink& target_;
    std::string run_;
    int rank_ = kNoRank;
    bool strayed_ = false;
};

}  // namespace runtop
