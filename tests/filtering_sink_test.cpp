// Filters at ingest (core/filtering_sink.h): the decorator lets the selected series through and
// drops the rest; the readers that know a value's series before its text skip decoding it, and
// the selected series come out exactly as an unfiltered read filtered afterwards, bad rows and
// all.
#include "core/filtering_sink.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "readers/hf_trainer_state_reader.h"
#include "readers/msprobe_csv_reader.h"
#include "readers/step_table_csv_reader.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::RecordingSink;
using testing::TempDir;
using testing::write_file;

SeriesFilter filter_of(std::string_view tags, std::string_view ranks = "") {
    Result<SeriesFilter> f = SeriesFilter::make(tags, ranks);
    EXPECT_TRUE(f) << f.error().message;
    return std::move(*f);
}

TEST(FilteringSink, SelectedPassSkippedAreDropped) {
    RecordingSink inner;
    const SeriesFilter filter = filter_of("loss", "0-1");
    FilteringSink sink(filter, inner);
    const SourceId source = source_id({"test", StepAxis::kSteps});

    const SeriesId loss0 = sink.series({"r", 0, "train/loss"}, source);
    EXPECT_EQ(sink.series({"r", 0, "train/lr"}, source), kSkippedSeries);
    EXPECT_EQ(sink.series({"r", 2, "train/loss"}, source), kSkippedSeries);
    const SeriesId loss1 = sink.series({"r", 1, "train/loss"}, source);
    // The inner sink's own ids, and only the selected series reached it.
    EXPECT_EQ(loss0, 0u);
    EXPECT_EQ(loss1, 1u);
    ASSERT_EQ(inner.keys.size(), 2u);
    EXPECT_EQ(inner.keys[1], (SeriesKey{"r", 1, "train/loss"}));

    sink.append(loss1, Point{5, 1.0, 0.5});
    sink.append(kSkippedSeries, Point{5, 1.0, 9.0});
    sink.append(loss0, Point{6, 2.0, 0.25});
    ASSERT_EQ(inner.scalars.size(), 2u);
    EXPECT_EQ(inner.scalars[0].key.rank, 1);
    EXPECT_EQ(inner.scalars[1].point.value, 0.25);
}

TEST(FilteringSink, SessionsAndConfigPassAnomaliesFollowTheirSeries) {
    RecordingSink inner;
    const SeriesFilter filter = filter_of("norm$", "1");
    FilteringSink sink(filter, inner);
    sink.session_start("r", 3, 40, 1.0);  // about a rank, not a series: passed on
    sink.config_text(ConfigText{"r", 3, "lr", 0, "0.1"});
    EXPECT_EQ(inner.starts, std::vector<std::int64_t>{40});
    ASSERT_EQ(inner.texts.size(), 1u);

    ImportedAnomaly kept;
    kept.run = "r";
    kept.rank = 1;
    kept.tag = "grad/fc1/norm";
    ImportedAnomaly other_rank = kept;
    other_rank.rank = 2;
    ImportedAnomaly raw_only;  // no runtop tag: its raw tag decides, as in the Analyzer
    raw_only.run = "r";
    raw_only.rank = 1;
    raw_only.raw_tag = "0:fc1.input:0/rank1/min";
    sink.anomaly(kept);
    sink.anomaly(other_rank);
    sink.anomaly(raw_only);
    ASSERT_EQ(inner.anomalies.size(), 1u);
    EXPECT_EQ(inner.anomalies[0].rank, 1);
}

TEST(FilteringSink, CountsDistinctSkippedSeriesWhenAsked) {
    RecordingSink inner;
    const SeriesFilter filter = filter_of("^keep$");
    FilteringSink sink(filter, inner);
    sink.count_skipped();
    const SourceId source = source_id({"test", StepAxis::kSteps});
    // Readers of many files ask again for the same keys.
    for (int file = 0; file < 3; ++file)
        for (int t = 0; t < 2000; ++t) sink.series({"r", t % 4, "tag" + std::to_string(t)}, source);
    sink.series({"r", 0, "keep"}, source);
    EXPECT_EQ(sink.skipped_series(), 2000u);
    EXPECT_EQ(inner.keys.size(), 1u);
}

// A FilteringSink in front of a RecordingSink that also counts the values a reader decoded for
// a series it was told is skipped: the readers below should decode none.
class ProbeSink final : public PointSink {
  public:
    explicit ProbeSink(const SeriesFilter& filter) : filtering_(filter, recorded) {}
    SeriesId series(const SeriesKey& key, SourceId source) override {
        return filtering_.series(key, source);
    }
    void append(SeriesId id, const Point& point) override {
        decoded_for_skipped += id == kSkippedSeries;
        filtering_.append(id, point);
    }
    void session_start(std::string_view run, int rank, std::int64_t step, double wall) override {
        filtering_.session_start(run, rank, step, wall);
    }
    void config_text(ConfigText text) override { filtering_.config_text(std::move(text)); }
    void anomaly(ImportedAnomaly a) override { filtering_.anomaly(std::move(a)); }

    RecordingSink recorded;
    int decoded_for_skipped = 0;

  private:
    FilteringSink filtering_;
};

// "tag@step=value" of every point, in delivery order; NaN compares as text.
std::vector<std::string> points(const std::vector<RecordingSink::Scalar>& scalars,
                                const SeriesFilter* filter = nullptr) {
    std::vector<std::string> out;
    for (const auto& s : scalars) {
        if (filter && !filter->selects(s.key)) continue;
        out.push_back(s.key.tag + "/r" + std::to_string(s.key.rank) + "@" +
                      std::to_string(s.point.step) + "=" + std::to_string(s.point.value));
    }
    return out;
}

// Reads `path` with a reader `make(sink)` makes, unfiltered and filtered; the filtered read
// must deliver exactly the unfiltered one's selected points and count the same bad rows.
template <typename Make>
void expect_same_selected(const SeriesFilter& filter, Make make, std::size_t expected_points) {
    RecordingSink all;
    auto unfiltered = make(static_cast<PointSink&>(all));
    ASSERT_TRUE(unfiltered->poll());
    ProbeSink probe(filter);
    auto filtered = make(static_cast<PointSink&>(probe));
    ASSERT_TRUE(filtered->poll());

    const std::vector<std::string> want = points(all.scalars, &filter);
    EXPECT_EQ(want.size(), expected_points);
    EXPECT_EQ(points(probe.recorded.scalars), want);
    EXPECT_EQ(probe.decoded_for_skipped, 0);
    IngestTotals a, b;
    unfiltered->add_totals(a);
    filtered->add_totals(b);
    EXPECT_EQ(b.records, a.records);
    EXPECT_EQ(b.bad_rows, a.bad_rows);
    EXPECT_EQ(b.bytes, a.bytes);
}

TEST(FilterAtIngest, MsProbeCsvSkipsRowsAndCellsOfSkippedSeries) {
    TempDir dir;
    const std::string path = dir / "grad_unreduced_0-4.csv";
    write_file(path,
               "vpp_stage,name,step,min,max,norm,shape,dtype\n"
               "0,fc1.weight,0,-1.5,2.5,3.0,[4],torch.float32\n"
               "0,fc2.weight,0,-0.5,0.5,1.0,[4],torch.float32\n"
               "0,fc1.weight,1,-1.25,nan,inf,[4],torch.float32\n"
               "0,fc2.weight,1,-0.25,x,1.5\n"  // one field short: a bad row, next to skipped ones
               "0,fc2.weight,oops,1,2,3,[4],torch.float32\n"  // step not an integer: bad
               "0,fc2.weight,2,-0.75,0.75,2.0,[4],torch.float32\n"
               "0,fc1.weight,2,-1.0,bad,4.0,[4],torch.float32\n");
    const SourceFile file{path, "job", 3, SourceFormat::kMsProbeCsv};
    auto make = [&](PointSink& sink) { return std::make_unique<MsProbeCsvReader>(file, sink); };
    // Two ops of fc1 (the unparsable max cell stays skipped), nothing of fc2.
    expect_same_selected(filter_of("fc1\\.weight/(max|norm)$"), make, 5);
    // Rows every op of which is skipped are not parsed at all; rank filters too.
    expect_same_selected(filter_of("fc2", "3"), make, 6);
    expect_same_selected(filter_of("", "0-2"), make, 0);
}

TEST(FilterAtIngest, StepTableCsvSkipsCellsOfSkippedColumns) {
    TempDir dir;
    const std::string path = dir / "metrics.csv";
    write_file(path,
               "epoch,step,train_loss,val_acc,lr\n"
               "0,0,2.5,,0.1\n"
               "0,1,2.25,not-a-number,0.1\n"
               "0,2,2.0\n"  // short: a bad row
               "1,3,1.75,0.5,0.05\n"
               "1,x,1.5,0.6,0.05\n");  // step not an integer: bad
    const SourceFile file{path, "lit", kNoRank, SourceFormat::kLightningCsv};
    auto make = [&](PointSink& sink) { return std::make_unique<StepTableCsvReader>(file, sink); };
    expect_same_selected(filter_of("loss"), make, 3);
    expect_same_selected(filter_of("^(lr|epoch)$"), make, 6);
}

TEST(FilterAtIngest, HfTrainerStateSkipsValuesOfSkippedTags) {
    TempDir dir;
    const std::string path = dir / "trainer_state.json";
    write_file(path,
               R"({"global_step": 20, "log_history": [
                    {"epoch": 0.5, "grad_norm": 1.5, "loss": 2.0, "step": 10},
                    {"loss": 1.0},
                    {"epoch": 1.0, "grad_norm": 0.5, "loss": 1.5, "step": 20}]})");
    const SourceFile file{path, "hf", kNoRank, SourceFormat::kHfTrainerState};
    // Each read its own ledger: the second must not take the first's entries as delivered.
    std::vector<std::unique_ptr<HfLedgers>> ledgers;
    auto make = [&](PointSink& sink) {
        ledgers.push_back(std::make_unique<HfLedgers>());
        return std::make_unique<HfTrainerStateReader>(file, sink, *ledgers.back());
    };
    expect_same_selected(filter_of("^loss$"), make, 2);
}

}  // namespace
}  // namespace runtop
