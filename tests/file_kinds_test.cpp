// Which files are data, in what format, under which run and rank, in what order.
#include "readers/file_kinds.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace runtop {
namespace {

std::optional<SourceFormat> kind(std::string_view name) {
    return classify_file("", name);
}

TEST(FileKinds, ClassifiesEveryMonitorFormatByName) {
    EXPECT_EQ(kind("events.out.tfevents.1700000000.host.1.0"), SourceFormat::kEventFile);
    EXPECT_EQ(kind("exp_avg_sq_0-4.csv"), SourceFormat::kMsProbeCsv);
    EXPECT_EQ(kind("actv_5-9_part_2.csv"), SourceFormat::kMsProbeCsv);
    EXPECT_EQ(kind("module_step0-9.csv"), SourceFormat::kMsProbeV2Csv);
    EXPECT_EQ(kind("stack_info.csv"), std::nullopt);
    EXPECT_EQ(kind("anomaly.json"), SourceFormat::kMsProbeAnomaly);
    EXPECT_EQ(kind("anomaly_analyse.json"), SourceFormat::kMsProbeAnomalyAnalyse);
    EXPECT_EQ(kind("module_struct.json"), std::nullopt);
    EXPECT_EQ(kind("Train_Samples_train_loss.csv"), SourceFormat::kDeepSpeedCsv);
    EXPECT_EQ(kind("Train_Eigenvalues_ModelBlockParam_0.csv"), SourceFormat::kDeepSpeedCsv);
    EXPECT_EQ(kind("deepspeed_config.csv"), SourceFormat::kDeepSpeedConfig);
    EXPECT_EQ(kind("metrics.csv"), SourceFormat::kLightningCsv);
    EXPECT_EQ(kind("hparams.yaml"), SourceFormat::kLightningHparams);
    EXPECT_EQ(kind("trainer_state.json"), SourceFormat::kHfTrainerState);
    EXPECT_EQ(kind("telemetry_callback_metrics_rank0000.json"), SourceFormat::kOumiTelemetry);
    EXPECT_EQ(kind("whatever.csv"), SourceFormat::kPlainCsv);  // its header decides
    EXPECT_EQ(kind("model.safetensors"), std::nullopt);
    EXPECT_EQ(kind("info.log"), SourceFormat::kTextLog);  // its lines decide
    EXPECT_EQ(kind("slurm-4242.out"), SourceFormat::kTextLog);
    EXPECT_EQ(file_format_of_named_file("proj__version_0__metrics.csv"), SourceFormat::kPlainCsv);
    EXPECT_EQ(file_format_of_named_file("viz__trainer_state.json"), SourceFormat::kHfTrainerState);
    EXPECT_EQ(file_format_of_named_file("v0__hparams.yaml"), SourceFormat::kLightningHparams);
    EXPECT_EQ(file_format_of_named_file("some.bin"), SourceFormat::kEventFile);
}

TEST(FileKinds, MsProbeRunDirsAnomaliesAndCheckpointsJoinTheirRun) {
    RootSpec root{"mon", "/x/monitor_output"};
    SourceFile csv =
        source_file(root, "p", "Nov21_14-35-29-rank3-ad82d4e3", SourceFormat::kMsProbeCsv);
    EXPECT_EQ(csv.run, "mon");
    EXPECT_EQ(csv.rank, 3);
    SourceFile legacy =
        source_file(root, "p", "Nov21_14-35-29-ad82d4e3", SourceFormat::kMsProbeCsv);
    EXPECT_EQ(legacy.run, "mon");
    EXPECT_EQ(legacy.rank, kNoRank);
    SourceFile anomaly =
        source_file(root, "p", "anomaly_detected/rank3", SourceFormat::kMsProbeAnomaly);
    EXPECT_EQ(anomaly.run, "mon");
    EXPECT_EQ(anomaly.rank, 3);
    SourceFile analyse =
        source_file(root, "p", "anomaly_detected", SourceFormat::kMsProbeAnomalyAnalyse);
    EXPECT_EQ(analyse.run, "mon");
    SourceFile v2 = source_file(root, "p", "out/rank_2", SourceFormat::kMsProbeV2Csv);
    EXPECT_EQ(v2.run, "mon/out");
    EXPECT_EQ(v2.rank, 2);
    RootSpec hf{"hf", "/x/out"};
    EXPECT_EQ(source_file(hf, "p", "checkpoint-500", SourceFormat::kHfTrainerState).run, "hf");
    EXPECT_EQ(source_file(hf, "p", "", SourceFormat::kHfTrainerState).run, "hf");
    // Only trainer_state.json leaves its checkpoint dir; other files there are their own run.
    EXPECT_EQ(source_file(hf, "p", "checkpoint-500", SourceFormat::kEventFile).run,
              "hf/checkpoint-500");
}

TEST(FileKinds, ReadOrderReplaysRestartsInTime) {
    auto file = [](std::string path, SourceFormat f = SourceFormat::kMsProbeCsv) {
        return SourceFile{std::move(path), "r", 0, f};
    };
    std::vector<SourceFile> files = {
        file("/m/Dec01_00-00-00-rank0-bbbbbbbb/grad_0-4.csv"),
        file("/m/Nov30_23-00-00-rank0-aaaaaaaa/grad_10-14.csv"),
        file("/m/Nov30_23-00-00-rank0-aaaaaaaa/grad_5-9.csv"),
        file("/m/Nov30_23-00-00-rank0-aaaaaaaa/grad_0-4.csv"),
        file("/h/checkpoint-1000/trainer_state.json", SourceFormat::kHfTrainerState),
        file("/h/checkpoint-500/trainer_state.json", SourceFormat::kHfTrainerState),
    };
    std::sort(files.begin(), files.end(), [](const SourceFile& a, const SourceFile& b) {
        return read_order_key(a) < read_order_key(b);
    });
    std::vector<std::string> paths;
    for (const SourceFile& f : files) paths.push_back(f.path);
    EXPECT_EQ(paths, (std::vector<std::string>{
                         "/h/checkpoint-500/trainer_state.json",
                         "/h/checkpoint-1000/trainer_state.json",
                         "/m/Nov30_23-00-00-rank0-aaaaaaaa/grad_0-4.csv",
                         "/m/Nov30_23-00-00-rank0-aaaaaaaa/grad_5-9.csv",
                         "/m/Nov30_23-00-00-rank0-aaaaaaaa/grad_10-14.csv",
                         "/m/Dec01_00-00-00-rank0-bbbbbbbb/grad_0-4.csv",
                     }));
    // Event files keep TensorBoard's plain name order...
    auto event_key = [&](const char* path) {
        return read_order_key(file(path, SourceFormat::kEventFile));
    };
    EXPECT_LT(event_key("/e/events.out.tfevents.10.h"), event_key("/e/events.out.tfevents.9.h"));
    EXPECT_LT(event_key("/e/a/events.out.tfevents.2.h"), event_key("/e/b/events.out.tfevents.1.h"));
    // ...except that a rotated copy (a name extending another) is older than what replaced it.
    EXPECT_LT(event_key("/e/events.out.tfevents.10.h.0.old"),
              event_key("/e/events.out.tfevents.10.h.0"));
    EXPECT_LT(event_key("/e/events.out.tfevents.10.h.0.bak"),
              event_key("/e/events.out.tfevents.10.h.0"));
    EXPECT_LT(event_key("/e/events.out.tfevents.10.h.0"),
              event_key("/e/events.out.tfevents.11.h.0"));
}

}  // namespace
}  // namespace runtop
