// Distributions (core/distribution.h): TensorBoard's compress_histogram and its loader's
// HistogramProto conversion, the decoder's histograms (legacy `histo`, TF2 "histograms"
// tensors), the reader's nine quantile series, the analyzer's judging of them and the view
// model's one card per histogram; and TensorBoard's own numbers on the public samples.
#include "core/distribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/analysis/analyzer.h"
#include "core/analysis/analyzing_sink.h"
#include "core/store/store.h"
#include "readers/event_decoder.h"
#include "readers/event_file_reader.h"
#include "tests/test_support.h"
#include "views/model.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

DistributionValues compress(const std::vector<HistogramBucket>& buckets) {
    return compress_histogram(buckets);
}

TEST(CompressHistogram, AnEmptyHistogramIsZeroEverywhere) {
    const DistributionValues v = compress({});
    for (double x : v) EXPECT_EQ(x, 0.0);
}

TEST(CompressHistogram, OneBucketOfOneValueIsThatValueEverywhere) {
    // tf.summary.histogram of a constant: one bucket [v, v, n].
    const DistributionValues v = compress({{2.5, 2.5, 7}});
    for (double x : v) EXPECT_EQ(x, 2.5);
}

TEST(CompressHistogram, InterpolatesLinearlyInTheBucketWhereTheCountCrossesTheBasisPoint) {
    // Two buckets of 1 and 3 values: cumulative weights 2500 and 10000 basis points.
    const DistributionValues v = compress({{0, 1, 1}, {1, 3, 3}});
    EXPECT_EQ(v[0], 0.0);  // min
    // 668 bp is in the first bucket: 0 + 668 / 2500 * (1 - 0).
    EXPECT_EQ(v[1], 0 + (668.0 - 0) * (1.0 - 0) / (2500.0 - 0));
    // 5000 bp in the second: 1 + (5000 - 2500) * (3 - 1) / (10000 - 2500).
    EXPECT_EQ(v[4], 1 + (5000.0 - 2500) * (3.0 - 1) / (10000.0 - 2500));
    // 10000 bp: no weight is past it, so the last right edge.
    EXPECT_EQ(v[8], 3.0);
}

TEST(CompressHistogram, SkipsEmptyBucketsAndStartsFromTheMinAfterThem) {
    // Cumulative weights 0, 5000, 5000, 10000 (values checked against compressor.py).
    const DistributionValues v = compress({{-4, -2, 0}, {-2, 0, 2}, {0, 2, 0}, {2, 4, 2}});
    // 0 bp: the first weight past it is the second bucket's; the one before is 0, so the left
    // edge is the histogram's min (`not cumsum_prev`), not the empty bucket's right edge.
    EXPECT_EQ(v[0], -4.0);
    // 3085 bp: -4 + 3085 * (0 - -4) / 5000, from the min again.
    EXPECT_EQ(v[3], -4 + (3085.0 - 0) * (0.0 - -4) / (5000.0 - 0));
    // 5000 bp equals a cumulative weight: searchsorted(side="right") goes past it and past the
    // empty third bucket (equal weights), to the fourth, whose left edge is 2.
    EXPECT_EQ(v[4], 2.0);
    EXPECT_EQ(v[5], 2 + (6915.0 - 5000) * (4.0 - 2) / (10000.0 - 5000));
    EXPECT_EQ(v[8], 4.0);
}

TEST(CompressHistogram, EdgesAreClampedAsTensorBoardClampsThem) {
    // A right edge past the histogram's max is cut to it (min(right, maxmax)); a left edge is
    // only raised to the min (max(left, minmin)), so a backwards bucket interpolates from its
    // left edge down (values checked against compressor.py).
    const DistributionValues v = compress({{1, 5, 1}, {5, 3, 1}});
    EXPECT_EQ(v[1], 1 + (668.0 - 0) * (std::min(5.0, 3.0) - 1) / (5000.0 - 0));
    EXPECT_EQ(v[4], 5.0);
    EXPECT_EQ(v[5], 5 + (6915.0 - 5000) * (3.0 - 5) / (10000.0 - 5000));
    EXPECT_EQ(v[8], 3.0);
}

TEST(HistoBuckets, DropsEmptyEndBucketsAndUsesMinAndMaxAsTheOuterEdges) {
    // TF1's last limit is DBL_MAX; the loader never shows it (the last edge is max).
    const std::vector<double> limits = {-1, 0, 1, 2, DBL_MAX};
    const std::vector<double> counts = {0, 3, 4, 2, 0};
    const auto b = buckets_from_histo(-0.5, 1.75, limits, counts);
    ASSERT_EQ(b.size(), 3u);
    EXPECT_EQ(b[0].left, -0.5);
    EXPECT_EQ(b[0].right, 0.0);
    EXPECT_EQ(b[1].left, 0.0);
    EXPECT_EQ(b[1].right, 1.0);
    EXPECT_EQ(b[2].left, 1.0);
    EXPECT_EQ(b[2].right, 1.75);
    EXPECT_EQ(b[2].count, 2.0);
}

TEST(HistoBuckets, TheLastBucketUpToDblMaxEndsAtMax) {
    const std::vector<double> limits = {0, DBL_MAX};
    const std::vector<double> counts = {1, 1};
    const auto b = buckets_from_histo(-1, 1e300, limits, counts);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[1].left, 0.0);
    // 1e300 is no float32: the loader's float32 array makes it infinite, as numpy does.
    EXPECT_EQ(b[1].right, std::numeric_limits<double>::infinity());
}

TEST(HistoBuckets, EveryNumberIsRoundedToFloat32AsTheLoaderStoresIt) {
    const std::vector<double> limits = {0.1, 0.7};
    const std::vector<double> counts = {1, 1};
    const auto b = buckets_from_histo(0.01, 0.3, limits, counts);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[0].left, static_cast<double>(0.01f));
    EXPECT_EQ(b[0].right, static_cast<double>(0.1f));
    EXPECT_EQ(b[1].right, static_cast<double>(0.3f));
}

TEST(HistoBuckets, NoNonEmptyBucketIsAnEmptyHistogram) {
    const std::vector<double> limits = {1, 2};
    const std::vector<double> counts = {0, 0};
    EXPECT_TRUE(buckets_from_histo(0, 0, limits, counts).empty());
}

TEST(DistributionTags, SuffixesNameTheQuantilesAndComeOffAgain) {
    EXPECT_EQ(distribution_suffix(0), "#min");
    EXPECT_EQ(distribution_suffix(kMedianQuantile), "#p50");
    EXPECT_EQ(distribution_suffix(8), "#max");
    EXPECT_EQ(distribution_label(1), "7%");
    EXPECT_EQ(distribution_base("layer/w#p50", kMedianQuantile), "layer/w");
    EXPECT_FALSE(distribution_base("layer/w#p50", 0).has_value());
}

// --- decoding ------------------------------------------------------------------------------

struct CollectDistributions : EventHandler {
    std::vector<std::pair<std::string, DistributionValues>> seen;
    std::vector<std::int64_t> steps;
    void on_scalar(std::string_view, std::int64_t, double, double) override {}
    void on_text(std::string_view, std::int64_t, double, std::string) override {}
    void on_session_start(std::int64_t, double) override {}
    void on_distribution(std::string_view tag, std::int64_t step, double,
                         const DistributionValues& q) override {
        seen.emplace_back(std::string(tag), q);
        steps.push_back(step);
    }
};

TEST(EventDecoderHistograms, ALegacyHistoIsCompressedAsTensorBoardLoadsIt) {
    EventDecoder d;
    CollectDistributions c;
    const std::vector<double> limits = {-1, 0, 1, DBL_MAX};
    const std::vector<double> counts = {2, 5, 3, 0};
    ASSERT_TRUE(d.decode(events::histogram_proto("w", -1.5, 0.9, limits, counts, 7, 1.0), c));
    ASSERT_EQ(c.seen.size(), 1u);
    EXPECT_EQ(c.seen[0].first, "w");
    EXPECT_EQ(c.steps[0], 7);
    const auto expected = compress_histogram(buckets_from_histo(-1.5, 0.9, limits, counts));
    EXPECT_EQ(c.seen[0].second, expected);
    EXPECT_EQ(c.seen[0].second[0], -1.5);
    EXPECT_EQ(c.seen[0].second[8], static_cast<double>(0.9f));
    EXPECT_EQ(d.counts().distributions, 1u);
    EXPECT_EQ(d.counts().non_scalar_values, 0u);
}

TEST(EventDecoderHistograms, ATf2TensorOfRowsIsCompressedAsItIs) {
    EventDecoder d;
    CollectDistributions c;
    const std::vector<std::array<double, 3>> rows = {{-1, 0, 2}, {0, 1, 6}, {1, 2, 2}};
    // The metadata comes with the first value only (TF1 style): the tag keeps its plugin.
    ASSERT_TRUE(d.decode(events::histogram_tensor("h", rows, 1, 1.0), c));
    ASSERT_TRUE(d.decode(events::histogram_tensor("h", rows, 2, 2.0, /*metadata=*/false), c));
    // DT_FLOAT as Python's data_compat makes it.
    ASSERT_TRUE(d.decode(events::histogram_tensor("f", rows, 3, 3.0, true, /*as_float=*/true), c));
    ASSERT_EQ(c.seen.size(), 3u);
    std::vector<HistogramBucket> b;
    for (const auto& r : rows) b.push_back({r[0], r[1], r[2]});
    EXPECT_EQ(c.seen[0].second, compress_histogram(b));
    EXPECT_EQ(c.seen[1].second, compress_histogram(b));
    EXPECT_EQ(c.seen[2].second, compress_histogram(b));
    EXPECT_EQ(c.seen[0].second[4], 0.5);  // 5000 bp: halfway through the middle bucket
}

TEST(EventDecoderHistograms, AnEmptyTf2HistogramIsZeroEverywhere) {
    EventDecoder d;
    CollectDistributions c;
    ASSERT_TRUE(d.decode(events::histogram_tensor("h", {}, 1, 1.0), c));
    ASSERT_EQ(c.seen.size(), 1u);
    for (double x : c.seen[0].second) EXPECT_EQ(x, 0.0);
}

TEST(EventDecoderHistograms, AHistogramTensorOfAnotherShapeIsSkipped) {
    EventDecoder d;
    CollectDistributions c;
    // A scalar with the histograms plugin: not [k, 3].
    std::string bytes = events::tensor_scalar("h", events::DType::kDouble, 1.0,
                                              events::Encoding::kTensorContent, 1, 1.0, false);
    ASSERT_TRUE(d.decode(events::histogram_tensor("h", {{0, 1, 1}}, 0, 1.0), c));
    ASSERT_TRUE(d.decode(bytes, c));
    EXPECT_EQ(c.seen.size(), 1u);
    EXPECT_EQ(d.counts().non_scalar_values, 1u);
}

// --- the reader and the model ---------------------------------------------------------------

TEST(EventFileReaderHistograms, EachHistogramTagIsNineQuantileSeries) {
    testing::TempDir dir;
    const std::string path = dir / "events.out.tfevents.1";
    std::string bytes = frame_record(events::histogram("layer/w", {1, 2, 3, 4}, 5, 1.0));
    bytes += frame_record(events::simple_scalar("loss", 1.0f, 5, 1.0));
    testing::write_file(path, bytes);
    testing::RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", 2}, sink);
    ASSERT_TRUE(reader.poll().ok());
    ASSERT_EQ(sink.keys.size(), 10u);
    for (int q = 0; q < kDistributionQuantiles; ++q) {
        const auto i = static_cast<std::size_t>(q);
        EXPECT_EQ(sink.keys[i],
                  (SeriesKey{"run", 2, "layer/w" + std::string(distribution_suffix(q))}));
        EXPECT_EQ(sink.source(i).quantile, q);
        EXPECT_EQ(sink.source(i).format, "tfevents");
    }
    EXPECT_EQ(sink.source(9).quantile, -1);  // the scalar
    ASSERT_EQ(sink.quantiles.size(), 9u);
    ASSERT_EQ(sink.scalars.size(), 1u);
    EXPECT_EQ(sink.quantiles[0].point.value, 1.0);  // min
    EXPECT_EQ(sink.quantiles[8].point.value, 4.0);  // max
    EXPECT_EQ(sink.quantiles[0].point.step, 5);
    EXPECT_EQ(reader.counts().distributions, 1u);
}

// Nine quantile series of `tag` in (run, rank), as the event reader makes them.
std::array<SeriesId, kDistributionQuantiles> add_distribution(
    PointSink& sink, const std::string& run, int rank, const std::string& tag,
    const std::vector<std::pair<std::int64_t, DistributionValues>>& points) {
    std::array<SeriesId, kDistributionQuantiles> ids{};
    for (int q = 0; q < kDistributionQuantiles; ++q) {
        SeriesSource source{"tfevents"};
        source.quantile = static_cast<std::int8_t>(q);
        ids[static_cast<std::size_t>(q)] = sink.series(
            SeriesKey{run, rank, tag + std::string(distribution_suffix(q))}, source_id(source));
    }
    for (const auto& [step, values] : points)
        for (int q = 0; q < kDistributionQuantiles; ++q)
            sink.append(ids[static_cast<std::size_t>(q)],
                        Point{step, 1.7e9 + static_cast<double>(step),
                              values[static_cast<std::size_t>(q)]});
    return ids;
}

DistributionValues spread(double centre, double width) {
    DistributionValues v;
    for (int q = 0; q < kDistributionQuantiles; ++q)
        v[static_cast<std::size_t>(q)] = centre + width * (q - kMedianQuantile);
    return v;
}

TEST(DistributionModel, AHistogramTagIsOneCardOfItsMedians) {
    Store store;
    Analyzer analyzer(default_rules());
    AnalyzingSink sink(analyzer, &store);
    std::vector<std::pair<std::int64_t, DistributionValues>> points;
    for (int s = 0; s < 10; ++s) points.emplace_back(s, spread(s, 0.5));
    const auto r0 = add_distribution(sink, "run", 0, "layer/w", points);
    const auto r1 = add_distribution(sink, "run", 1, "layer/w", points);
    const SeriesId loss = sink.series({"run", 0, "loss"}, source_id({"tfevents"}));
    sink.append(loss, {0, 1.7e9, 1.0});
    ui::ViewModel model(store, analyzer);
    ASSERT_EQ(model.groups().size(), 2u);
    const ui::TagGroup* g = model.group("layer/w");
    ASSERT_NE(g, nullptr);
    EXPECT_TRUE(g->distribution);
    EXPECT_EQ(g->series, (std::vector<SeriesId>{r0[kMedianQuantile], r1[kMedianQuantile]}));
    EXPECT_EQ(model.band(r0[kMedianQuantile]), r0);
    EXPECT_EQ(model.band(r1[kMedianQuantile]), r1);
    EXPECT_FALSE(model.group("loss")->distribution);
    EXPECT_EQ(model.band(loss)[0], kSkippedSeries);
    // Every quantile is selected (ls, dump, the point counts), not only the medians.
    EXPECT_EQ(model.selected_count(), 19u);
}

TEST(DistributionAnalysis, OnlyTheEndsAndTheMedianAreJudgedAndOnlyForNonFiniteValues) {
    Store store;
    Analyzer analyzer(default_rules());
    AnalyzingSink sink(analyzer, &store);
    std::vector<std::pair<std::int64_t, DistributionValues>> points;
    // A steady distribution, then a jump of every quantile x100 at step 300: a spike on any
    // scalar, nothing on a distribution; then a NaN histogram at 400.
    for (int s = 0; s < 400; ++s)
        points.emplace_back(s, spread(s == 300 ? 100.0 : 1.0 + 0.001 * (s % 7), 0.1));
    DistributionValues nan;
    nan.fill(kNaN);
    points.emplace_back(400, nan);
    const auto ids = add_distribution(sink, "run", 0, "layer/w", points);
    for (int q = 0; q < kDistributionQuantiles; ++q) {
        const AlertLevel level = analyzer.series_state(ids[static_cast<std::size_t>(q)]).level;
        const bool judged = q == 0 || q == kMedianQuantile || q == kDistributionQuantiles - 1;
        EXPECT_EQ(level, judged ? AlertLevel::kAlert : AlertLevel::kOk) << q;
    }
    for (const AnomalyRecord& r : analyzer.log().records())
        EXPECT_EQ(r.step, 400) << r.rule << " at " << r.step << " on " << r.tag;
}

// --- TensorBoard's numbers -------------------------------------------------------------------

struct Expected {
    const char* file;  // under tfevents-public/
    const char* tag;
    std::int64_t step;
    DistributionValues values;
};

// Produced by TensorBoard's own code: each file's records decoded, each `histo` converted as
// tensorboard/data_compat.py's _migrate_histogram_value does (float32 [left, right, count]),
// each "histograms" tensor taken as it is, then tensorboard/plugins/distribution/compressor.py's
// compress_histogram (tensorflow/tensorboard @ 2c608914) run unchanged over them, in float64
// (numpy was not installed: its sum, cumsum and searchsorted were stood in for with numpy's
// algorithms). Values printed with float.hex, so they are TensorBoard's to the bit. One of each
// writer the samples have: PyTorch add_histogram, TF2 Keras (DT_DOUBLE [k,3] tensors), TF1
// Estimator (`histo` with the DBL_MAX edge, activations with empty buckets), tensorboardX
// (Ray Tune, a constant). The same run over all 4,214 histograms of the samples matched runtop's
// `dump` to the bit (see the commit message).
const Expected kExpected[] = {
    {"study_tensorboard/runs/histogram_experiment/"
     "events.out.tfevents.1771596220.zyzkings.19040.0",
     "MyLinearLayer/Weights_Distribution",
     1,
     {-0x1.9e45c00000000p-2, -0x1.57b0a651eb852p-2, -0x1.db1c722e147aep-3, -0x1.ff7fb27333333p-4,
      0x1.87794c0000000p-5, 0x1.6a15140888889p-3, 0x1.2363226666666p-2, 0x1.7a0f1c8f5c28fp-2,
      0x1.188afc0000000p-1}},
    {"study_tensorboard/runs/histogram_experiment/"
     "events.out.tfevents.1771596220.zyzkings.19040.0",
     "MyLinearLayer/Weights_Distribution",
     9,
     {-0x1.067fc00000000p+0, -0x1.26b6bb8bf258cp-1, -0x1.9384358000000p-2, -0x1.a0a812eaaaaabp-3,
      0x1.19a3d80000000p-7, 0x1.750c8a0000000p-3, 0x1.a4d81ac000000p-2, 0x1.5991c6da740dap-1,
      0x1.d8bb300000000p-1}},
    {"tensorboard-tutorial-keras/archive/MNIST-extra-metrics1690486849/train/"
     "events.out.tfevents.1690486852.e-bnbobg-f77fv-0.244.0.v2",
     "dense/kernel_0/histogram",
     0,
     {-0x1.9743a60000000p-4, -0x1.e05501a93c38dp-5, -0x1.778fdc5f7c16ap-5, -0x1.a011e255d6c29p-6,
      0x1.50f92488e9338p-11, 0x1.b6b3ee622924fp-6, 0x1.8239131d63f6bp-5, 0x1.ea1a2791b7d2cp-5,
      0x1.b5ce640000000p-4}},
    {"tensorboard-tutorial-keras/archive/MNIST-extra-metrics1690486849/train/"
     "events.out.tfevents.1690486852.e-bnbobg-f77fv-0.244.0.v2",
     "dense_1/bias_0/histogram",
     0,
     {-0x1.8186d80000000p-4, -0x1.713d364c756b3p-4, -0x1.c1d60f4f30782p-5, -0x1.ccfab628f5c27p-6,
      0x1.cfa8955555560p-8, 0x1.2eaf9628f5c2ap-6, 0x1.027e23a7983c2p-4, 0x1.49aa6e4c756b3p-4,
      0x1.59f4100000000p-4}},
    {"tfx-estimator/tfx/components/testdata/trainer/current/Format-Serving/"
     "events.out.tfevents.1646034739.jiyongjung.c.googlers.com",
     "dnn/hiddenlayer_0/activation",
     901,
     {0x0.0p+0, 0x1.2e5a2ac2d139bp-43, 0x1.67280a8e2001ap-42, 0x1.5d15e672bfef9p-41,
      0x1.08349d8000000p-10, 0x1.c5ab246c2b448p-5, 0x1.fa59e73333333p-4, 0x1.f9862a4210842p-3,
      0x1.52a3dc0000000p+0}},
    {"tfx-estimator/tfx/components/testdata/trainer/current/Format-Serving/"
     "events.out.tfevents.1646034739.jiyongjung.c.googlers.com",
     "linear/activation",
     901,
     {-0x1.e2d02c0000000p-1, -0x1.d18814b020c4ap-1, -0x1.bb1c7dad7eaefp-1, -0x1.9f26d18253c82p-1,
      -0x1.841fc40000000p-1, -0x1.07dbd2428f5c3p-2, -0x1.b8d15faaaaaabp-3, -0x1.885e6da740da7p-3,
      -0x1.725f040000000p-3}},
    {"process-tensorboard-logs/Ray_PPO_cycle_1e6/"
     "PPO_JBW-cycle-1e6-v3_9a92d_00000_0_2021-04-11_10-56-44/"
     "events.out.tfevents.1618138604.285e2a0aa751",
     "ray/tune/hist_stats/episode_lengths",
     12000,
     {0x1.3880000000000p+13, 0x1.3880000000000p+13, 0x1.3880000000000p+13, 0x1.3880000000000p+13,
      0x1.3880000000000p+13, 0x1.3880000000000p+13, 0x1.3880000000000p+13, 0x1.3880000000000p+13,
      0x1.3880000000000p+13}},
};

TEST(DistributionSamples, QuantilesAreTensorBoardsToTheBit) {
    const std::string samples = testing::samples_dir();
    if (samples.empty())
        GTEST_SKIP() << "../shared/samples is absent: TensorBoard's numbers unchecked";
    for (const Expected& e : kExpected) {
        const std::string path = samples + "/tfevents-public/" + e.file;
        testing::RecordingSink sink;
        EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
        ASSERT_TRUE(reader.poll().ok()) << path;
        // Per quantile, its value at the step (the first: a file may repeat a step).
        std::map<std::string, double> at_step;
        for (const auto& s : sink.quantiles)
            if (s.point.step == e.step) at_step.try_emplace(s.key.tag, s.point.value);
        for (int q = 0; q < kDistributionQuantiles; ++q) {
            const std::string tag = e.tag + std::string(distribution_suffix(q));
            ASSERT_TRUE(at_step.count(tag)) << e.file << " " << tag << " at " << e.step;
            EXPECT_EQ(at_step[tag], e.values[static_cast<std::size_t>(q)])
                << e.file << " " << tag << " at " << e.step;
        }
    }
}

}  // namespace
}  // namespace runtop
