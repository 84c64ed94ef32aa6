#include "readers/reader_factory.h"

#include "readers/event_file_reader.h"
#include "readers/json_readers.h"
#include "readers/log_file_reader.h"
#include "readers/log_format_catalog.h"
#include "readers/msprobe_csv_reader.h"
#include "readers/step_table_csv_reader.h"

namespace runtop {

bool reader_shares_state(SourceFormat format) {
    switch (format) {
        case SourceFormat::kEventFile:
        case SourceFormat::kMsProbeCsv:
        case SourceFormat::kMsProbeV2Csv:
        case SourceFormat::kDeepSpeedCsv:
        case SourceFormat::kLightningCsv:
        case SourceFormat::kPlainCsv:
        case SourceFormat::kDeepSpeedConfig:
        case SourceFormat::kTextLog:
            return false;
        default:
            return true;
    }
}

ReaderFactory::ReaderFactory(std::size_t msprobe_tables_kept)
    : json_(make_json_reader_shared()),
      msprobe_(std::make_unique<MsProbeKeyTables>(msprobe_tables_kept)) {}
ReaderFactory::~ReaderFactory() = default;

std::uint64_t ReaderFactory::memory_bytes() const {
    return msprobe_ ? msprobe_->bytes() : 0;
}

std::unique_ptr<SourceReader> ReaderFactory::make(SourceFile file, PointSink& sink) {
    switch (file.format) {
        case SourceFormat::kEventFile:
            return std::make_unique<EventFileReader>(std::move(file), sink);
        case SourceFormat::kMsProbeCsv:
        case SourceFormat::kMsProbeV2Csv:
            return std::make_unique<MsProbeCsvReader>(std::move(file), sink, msprobe_.get());
        case SourceFormat::kDeepSpeedCsv:
        case SourceFormat::kLightningCsv:
        case SourceFormat::kPlainCsv:
            return std::make_unique<StepTableCsvReader>(std::move(file), sink);
        case SourceFormat::kDeepSpeedConfig:
            return std::make_unique<KeyValueCsvReader>(std::move(file), sink);
        case SourceFormat::kTextLog:
            return std::make_unique<LogFileReader>(std::move(file), sink, log_formats().formats,
                                                   log_formats().forced);
        case SourceFormat::kMsProbeAnomaly:
        case SourceFormat::kMsProbeAnomalyAnalyse:
        case SourceFormat::kHfTrainerState:
        case SourceFormat::kOumiTelemetry:
        case SourceFormat::kLightningHparams:
            return make_json_reader(std::move(file), sink, *json_);
    }
    return nullptr;
}

}  // namespace runtop
