// The entry point for the readers of files rewritten whole (JSON and hparams.yaml): the
// SourceSet makes one JsonReaderShared for its lifetime and asks make_json_reader() for a
// reader per discovered file of these formats.
#pragma once

#include <memory>

#include "readers/hf_trainer_state_reader.h"
#include "readers/source_reader.h"

namespace runtop {

// State shared between the readers of one SourceSet: the Hugging Face history ledgers per run
// (every checkpoint's trainer_state.json repeats the run's history; it is delivered once).
class JsonReaderShared {
  public:
    HfLedgers& hf_ledgers() { return hf_ledgers_; }

  private:
    HfLedgers hf_ledgers_;
};

std::unique_ptr<JsonReaderShared> make_json_reader_shared();

// A reader for kMsProbeAnomaly, kMsProbeAnomalyAnalyse, kHfTrainerState, kOumiTelemetry and
// kLightningHparams files; nullptr for other formats. `sink` and `shared` must outlive it.
std::unique_ptr<SourceReader> make_json_reader(SourceFile file, PointSink& sink,
                                               JsonReaderShared& shared);

}  // namespace runtop
