// The entry point for the readers of files rewritten whole (readers/json_readers.h): which
// reader make_json_reader() gives for each format. The readers themselves are tested in
// whole_file_reader_test, msprobe_anomaly_reader_test, hf_trainer_state_reader_test,
// oumi_telemetry_reader_test and hparams_reader_test.
#include <gtest/gtest.h>

#include <memory>

#include "readers/hf_trainer_state_reader.h"
#include "readers/json_readers.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::RecordingSink;

TEST(JsonReaders, MakeReaderByFormat) {
    RecordingSink sink;
    std::unique_ptr<JsonReaderShared> shared = make_json_reader_shared();
    for (SourceFormat f : {SourceFormat::kMsProbeAnomaly, SourceFormat::kMsProbeAnomalyAnalyse,
                           SourceFormat::kHfTrainerState, SourceFormat::kOumiTelemetry,
                           SourceFormat::kLightningHparams}) {
        std::unique_ptr<SourceReader> r =
            make_json_reader(SourceFile{"/x", "r", 0, f}, sink, *shared);
        ASSERT_NE(r, nullptr);
        EXPECT_EQ(r->file().format, f);
    }
    for (SourceFormat f : {SourceFormat::kEventFile, SourceFormat::kMsProbeCsv,
                           SourceFormat::kLightningCsv, SourceFormat::kPlainCsv})
        EXPECT_EQ(make_json_reader(SourceFile{"/x", "r", 0, f}, sink, *shared), nullptr);
    EXPECT_NE(
        dynamic_cast<HfTrainerStateReader*>(
            make_json_reader(SourceFile{"/x", "r", 0, SourceFormat::kHfTrainerState}, sink, *shared)
                .get()),
        nullptr);
}

}  // namespace
}  // namespace runtop
