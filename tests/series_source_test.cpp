// The table readers describe their series in: one id per distinct descriptor, text kept.
#include "core/series_source.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace runtop {
namespace {

TEST(SeriesSource, EqualDescriptorsShareAnIdAndTheTextIsCopied) {
    std::string name = "test-format-a";
    const SourceId a = source_id({name});
    const SourceId samples = source_id({name, StepAxis::kSamples});
    const SourceId ops = source_id({name, StepAxis::kSteps, true});
    name = "overwritten!!";  // the table keeps its own copy
    EXPECT_EQ(source_id({"test-format-a"}), a);
    EXPECT_NE(samples, a);
    EXPECT_NE(ops, a);
    EXPECT_NE(ops, samples);
    EXPECT_EQ(series_source(a).format, "test-format-a");
    EXPECT_EQ(series_source(a).axis, StepAxis::kSteps);
    EXPECT_EQ(series_source(samples).axis, StepAxis::kSamples);
    EXPECT_TRUE(series_source(ops).msprobe_ops);
    EXPECT_EQ(step_axis_name(StepAxis::kSteps), "steps");
    EXPECT_EQ(step_axis_name(StepAxis::kSamples), "samples");
}

TEST(SeriesSource, ThreadsAskingAtOnceGetOneId) {
    std::vector<SourceId> got(8);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < got.size(); ++i)
        threads.emplace_back([&got, i] { got[i] = source_id({"test-format-threads"}); });
    for (std::thread& t : threads) t.join();
    for (SourceId id : got) EXPECT_EQ(id, got[0]);
    EXPECT_EQ(series_source(got[0]).format, "test-format-threads");
}

}  // namespace
}  // namespace runtop
