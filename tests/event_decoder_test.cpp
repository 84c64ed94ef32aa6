// Every scalar encoding the writers use, built with the protoc-generated classes, decoded by
// the hand-written decoder.
#include "readers/event_decoder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "writers/event_writer.h"

namespace runtop {
namespace {

using events::DType;
using events::Encoding;

struct Collect : EventHandler {
    std::vector<std::pair<std::string, double>> scalars;
    std::vector<std::string> texts;
    std::vector<std::string> text_tags;
    std::vector<std::int64_t> starts;
    std::int64_t last_step = -1;
    void on_scalar(std::string_view tag, std::int64_t step, double, double value) override {
        scalars.emplace_back(std::string(tag), value);
        last_step = step;
    }
    void on_text(std::string_view tag, std::int64_t, double, std::string text) override {
        text_tags.emplace_back(tag);
        texts.push_back(std::move(text));
    }
    void on_session_start(std::int64_t step, double) override { starts.push_back(step); }
};

struct DtypeCase {
    DType dtype;
    double written;
    double expected;
};

TEST(EventDecoder, EveryNumericDtypeInBothEncodings) {
    const std::vector<DtypeCase> cases = {
        {DType::kFloat, 0.1, static_cast<double>(0.1f)},
        {DType::kDouble, 0.1, 0.1},  // RustBoard drops DT_DOUBLE; we must not
        {DType::kHalf, 1.5, 1.5},
        {DType::kHalf, -std::ldexp(1.0, -14), -std::ldexp(1.0, -14)},  // smallest normal half
        {DType::kHalf, std::ldexp(3.0, -24), std::ldexp(3.0, -24)},    // a subnormal half
        {DType::kHalf, 65504, 65504},
        {DType::kBFloat16, -2.25, -2.25},
        {DType::kBFloat16, 3.0e38, static_cast<double>(std::ldexp(1.7578125, 127))},
        {DType::kInt32, -7, -7},
        {DType::kInt16, -300, -300},
        {DType::kInt8, -5, -5},
        {DType::kUInt8, 200, 200},
        {DType::kUInt16, 60000, 60000},
        {DType::kInt64, -9007199254740993.0, -9007199254740992.0},
        {DType::kUInt32, 4000000000.0, 4000000000.0},
        {DType::kUInt64, 1e19, 1e19},
        {DType::kBool, 1, 1},
        {DType::kBool, 0, 0},
    };
    for (Encoding enc : {Encoding::kTypedField, Encoding::kTensorContent}) {
        for (bool shape_one : {false, true}) {
            for (const DtypeCase& c : cases) {
                SCOPED_TRACE(::testing::Message()
                             << "dtype " << static_cast<int>(c.dtype) << " value " << c.written
                             << " content " << (enc == Encoding::kTensorContent) << " shape[1] "
                             << shape_one);
                EventDecoder decoder;
                Collect got;
                ASSERT_TRUE(decoder.decode(
                    events::tensor_scalar("t", c.dtype, c.written, enc, 42, 1.0, true, shape_one),
                    got));
                ASSERT_EQ(got.scalars.size(), 1u);
                EXPECT_EQ(got.scalars[0].second, c.expected);
                EXPECT_EQ(got.last_step, 42);
            }
        }
    }
}

TEST(EventDecoder, NonFiniteValuesAreKept) {
    EventDecoder decoder;
    Collect got;
    decoder.decode(events::simple_scalar("a", NAN, 1, 1), got);
    decoder.decode(
        events::tensor_scalar("b", DType::kDouble, -INFINITY, Encoding::kTypedField, 1, 1), got);
    decoder.decode(
        events::tensor_scalar("c", DType::kHalf, INFINITY, Encoding::kTensorContent, 1, 1), got);
    decoder.decode(events::tensor_scalar("d", DType::kFloat, -0.0, Encoding::kTensorContent, 1, 1),
                   got);
    ASSERT_EQ(got.scalars.size(), 4u);
    EXPECT_TRUE(std::isnan(got.scalars[0].second));
    EXPECT_EQ(got.scalars[1].second, -INFINITY);
    EXPECT_EQ(got.scalars[2].second, INFINITY);
    EXPECT_TRUE(std::signbit(got.scalars[3].second));
}

TEST(EventDecoder, MetadataOnlyOnTheFirstValueOfATagStillMakesScalars) {
    // TF1-style writers send a tag's metadata once; later tensor values come without it.
    EventDecoder decoder;
    Collect got;
    decoder.decode(
        events::tensor_scalar("acc", DType::kFloat, 0.5, Encoding::kTensorContent, 0, 1, true),
        got);
    decoder.decode(
        events::tensor_scalar("acc", DType::kFloat, 0.75, Encoding::kTensorContent, 1, 2, false),
        got);
    ASSERT_EQ(got.scalars.size(), 2u);
    EXPECT_EQ(got.scalars[1].second, 0.75);
}

TEST(EventDecoder, TensorWithoutScalarsPluginIsNotAScalar) {
    // TensorBoard shows nothing for it either (a custom plugin's data, say).
    EventDecoder decoder;
    Collect got;
    decoder.decode(
        events::tensor_scalar("x", DType::kFloat, 0.5, Encoding::kTensorContent, 0, 1, false), got);
    EXPECT_TRUE(got.scalars.empty());
    EXPECT_EQ(decoder.counts().non_scalar_values, 1u);
}

TEST(EventDecoder, TextHistogramAndSessionStart) {
    EventDecoder decoder;
    Collect got;
    decoder.decode(events::file_version(1), got);
    decoder.decode(events::text("config", "lr: 0.1", 0, 1), got);
    decoder.decode(events::histogram("w", {1, 2}, 0, 1), got);
    decoder.decode(events::session_start(500, 1), got);
    EXPECT_EQ(decoder.file_version(), "brain.Event:2");
    EXPECT_EQ(got.texts, std::vector<std::string>{"lr: 0.1"});
    // The histogram is a distribution now (tests/distribution_test.cpp), not skipped.
    EXPECT_EQ(decoder.counts().distributions, 1u);
    EXPECT_EQ(decoder.counts().non_scalar_values, 0u);
    EXPECT_EQ(decoder.counts().texts, 1u);
    EXPECT_EQ(got.starts, std::vector<std::int64_t>{500});
    EXPECT_TRUE(got.scalars.empty());
}

// add_hparams: the session start's hyperparameters become configuration texts, one per name;
// numbers in their shortest round-trip form.
TEST(EventDecoder, HparamsSessionStartIsConfiguration) {
    EventDecoder decoder;
    Collect got;
    ASSERT_TRUE(decoder.decode(events::hparams_session_start({{"lr", 0.1},
                                                              {"batch_size", 32.0},
                                                              {"optimizer", std::string("SGD")},
                                                              {"amp", true},
                                                              {"tiny", 1e-300}},
                                                             0, 1.0),
                               got));
    EXPECT_TRUE(got.scalars.empty());
    EXPECT_EQ(got.text_tags,
              (std::vector<std::string>{"_hparams_/lr", "_hparams_/batch_size",
                                        "_hparams_/optimizer", "_hparams_/amp", "_hparams_/tiny"}));
    EXPECT_EQ(got.texts, (std::vector<std::string>{"0.1", "32", "SGD", "true", "1e-300"}));
    // An empty map: nothing, and no crash on the other hparams records' shapes.
    Collect none;
    ASSERT_TRUE(decoder.decode(events::hparams_session_start({}, 0, 1.0), none));
    EXPECT_TRUE(none.texts.empty());
}

TEST(EventDecoder, MindSporeScalarsAfterTheirVersionRecord) {
    EventDecoder decoder;
    Collect got;
    // Before the version record, field 3 is TF's obsolete histogram: a fixed32 there is ignored.
    decoder.decode(events::mindspore_scalar("loss", 2.0f, 1, 1), got);
    EXPECT_TRUE(got.scalars.empty());
    decoder.decode(events::file_version(1, "MindSpore.Event:1"), got);
    EXPECT_EQ(decoder.flavor(), EventDecoder::Flavor::kMindSpore);
    decoder.decode(events::mindspore_scalar("loss", 1.5f, 2, 1), got);
    ASSERT_EQ(got.scalars.size(), 1u);
    EXPECT_EQ(got.scalars[0].first, "loss");
    EXPECT_EQ(got.scalars[0].second, 1.5);
}

TEST(EventDecoder, MalformedPayloadIsRejectedWholeWithoutCrashing) {
    EventDecoder decoder;
    Collect got;
    std::string good = events::simple_scalar("loss", 1, 3, 1);
    for (std::size_t cut = 1; cut < good.size(); ++cut) decoder.decode(good.substr(0, cut), got);
    EXPECT_EQ(decoder.decode(std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11), got),
              false);
    EXPECT_GT(decoder.counts().undecodable, 0u);
}

}  // namespace
}  // namespace runtop
