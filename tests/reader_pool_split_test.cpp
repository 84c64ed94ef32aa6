// ReaderPool::run_split (readers/reader_pool.h) on readers that hand over what a test says: each
// (run, rank) group's files go into one sink, every job ends once, and a call that names another
// (run, rank) than its group's, or an anomaly, is noticed (ThreadStores then reads again into
// one Store; tests/thread_stores_test.cpp reads real trees split).
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "readers/reader_factory.h"
#include "readers/reader_pool.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

// ReaderPool::run_split on readers that hand over what a test says: each group's files go into
// one sink, every job is finished once, and a call that names another (run, rank) than its
// group's, or an anomaly, is noticed.
class NamingReader final : public SourceReader {
  public:
    NamingReader(SourceFile file, PointSink& sink, int names_rank, bool anomaly)
        : file_(std::move(file)), sink_(sink), names_rank_(names_rank), anomaly_(anomaly) {}
    Status poll() override {
        const SeriesId id = sink_.series({file_.run, names_rank_, "t/" + file_.path},
                                         source_id(SeriesSource{"test", StepAxis::kSteps, false}));
        for (int s = 0; s < 3; ++s) sink_.append(id, {s, 1.0, s * 0.5});
        if (anomaly_) sink_.anomaly(ImportedAnomaly{});
        return ok_status();
    }
    void moved_to(std::string path) override { file_.path = std::move(path); }
    const SourceFile& file() const override { return file_; }
    const std::string& pending() const override { return pending_; }
    std::vector<std::string> take_warnings() override { return {}; }
    void add_totals(IngestTotals&) const override {}

  private:
    SourceFile file_;
    PointSink& sink_;
    int names_rank_;
    bool anomaly_;
    std::string pending_;
};

struct SplitOutcome {
    bool strayed = false;
    std::vector<int> finished;                 // per job, how often
    std::map<std::string, std::set<int>> in;   // key -> the sinks holding it
    std::map<int, std::set<int>> group_sinks;  // rank -> the sinks its files went to
};

SplitOutcome split(std::size_t threads, int stray_job, bool anomaly_job) {
    const std::size_t files = 23;
    std::vector<std::unique_ptr<SourceReader>> readers(files);
    std::vector<ReaderPool::Job> jobs;
    std::vector<ReaderPool::Group> groups(5);
    for (std::size_t i = 0; i < files; ++i) {
        jobs.push_back({&readers[i], true});
        const int rank = static_cast<int>(i % 5);
        groups[static_cast<std::size_t>(rank)].run = "r";
        groups[static_cast<std::size_t>(rank)].rank = rank;
        groups[static_cast<std::size_t>(rank)].jobs.push_back(i);
    }
    std::vector<testing::RecordingSink> sinks(threads);
    std::vector<PointSink*> to;
    for (auto& s : sinks) to.push_back(&s);
    const std::function<bool()> no_stop;
    ReaderPool pool(sinks[0], threads, no_stop);
    ReaderFactory here;
    SplitOutcome out;
    out.finished.assign(files, 0);
    pool.run_split(
        jobs, groups, to, here,
        [&](std::size_t i, ReaderFactory&, PointSink& sink) -> std::unique_ptr<SourceReader> {
            const int rank = static_cast<int>(i % 5);
            return std::make_unique<NamingReader>(
                SourceFile{std::to_string(i), "r", rank, SourceFormat::kEventFile}, sink,
                static_cast<int>(i) == stray_job ? rank + 100 : rank,
                static_cast<int>(i) == static_cast<int>(anomaly_job ? 7 : -1));
        },
        [&](std::size_t i, std::vector<ReaderPool::PollOutcome>& polls) {
            EXPECT_EQ(polls.size(), 1u);
            ++out.finished[i];
        });
    for (std::size_t k = 0; k < sinks.size(); ++k) {
        for (const auto& s : sinks[k].scalars) {
            out.in[s.key.tag].insert(static_cast<int>(k));
            out.group_sinks[s.key.rank].insert(static_cast<int>(k));
        }
    }
    out.strayed = pool.strayed();
    return out;
}

TEST(ReaderPoolSplit, EachGroupGoesToOneSinkAndEveryJobEndsOnce) {
    for (std::size_t threads : {2u, 3u}) {
        const SplitOutcome out = split(threads, -1, false);
        EXPECT_FALSE(out.strayed);
        EXPECT_EQ(out.finished, std::vector<int>(23, 1));
        EXPECT_EQ(out.in.size(), 23u);  // every file's series, in one sink each
        for (const auto& [tag, sinks] : out.in) EXPECT_EQ(sinks.size(), 1u) << tag;
        ASSERT_EQ(out.group_sinks.size(), 5u);
        for (const auto& [rank, sinks] : out.group_sinks) EXPECT_EQ(sinks.size(), 1u) << rank;
    }
}

TEST(ReaderPoolSplit, ACallNamingAnotherRankOrAnAnomalyIsNoticed) {
    EXPECT_TRUE(split(2, 11, false).strayed);
    EXPECT_TRUE(split(2, 0, false).strayed);  // read by whichever thread took its group
    EXPECT_TRUE(split(3, -1, true).strayed);
    EXPECT_FALSE(split(3, -1, false).strayed);
}

}  // namespace
}  // namespace runtop
