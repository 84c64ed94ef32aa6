#include "readers/json_readers.h"

#include "readers/hparams_reader.h"
#include "readers/msprobe_anomaly_reader.h"
#include "readers/oumi_telemetry_reader.h"

namespace runtop {

std::unique_ptr<JsonReaderShared> make_json_reader_shared() {
    return std::make_unique<JsonReaderShared>();
}

std::unique_ptr<SourceReader> make_json_reader(SourceFile file, PointSink& sink,
                                               JsonReaderShared& shared) {
    switch (file.format) {
        case SourceFormat::kMsProbeAnomaly:
        case SourceFormat::kMsProbeAnomalyAnalyse:
            return std::make_unique<MsProbeAnomalyReader>(std::move(file), sink);
        case SourceFormat::kHfTrainerState:
            return std::make_unique<HfTrainerStateReader>(std::move(file), sink,
                                                          shared.hf_ledgers());
        case SourceFormat::kOumiTelemetry:
            return std::make_unique<OumiTelemetryReader>(std::move(file), sink);
        case SourceFormat::kLightningHparams:
            return std::make_unique<HparamsReader>(std::move(file), sink);
        default:
            return nullptr;
    }
}

}  // namespace runtop
