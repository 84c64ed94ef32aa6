// Oumi's telemetry_callback_*.json (FORMATS.md §4): a summary of the run written once, at the
// end of training, so it becomes configuration texts rather than series.
//
// Tags: "oumi/<kind>/<key>/<key>...", one per leaf of the JSON tree (nested objects are
// walked; a leaf is any other value, its text the value's JSON text, arrays without
// whitespace: "[]", "[1,2]"; empty objects give nothing). <kind> is the file name between
// "telemetry_callback_" and ".json" without its "_rank<NNNN>" suffix:
//   telemetry_callback_rank0000.json                  -> summary, rank 0
//   telemetry_callback_all_ranks.json                 -> summary, rank from "rank<NNNN>" keys
//   telemetry_callback_metrics_rank0000.json          -> metrics, rank 0
//   telemetry_callback_gpu_temperature_summary.json   -> gpu_temperature_summary (no rank)
//   telemetry_callback_wandb_rank0000.json            -> wandb, rank 0
// so both collection modes give the same tags: oumi/summary/timers/steps/mean for each rank.
// A top-level key "rank<NNNN>" holding an object sets the rank of everything below it and is
// not part of the tag.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "readers/whole_file_reader.h"

namespace runtop {

class JsonValue;

// The <kind> of a telemetry file name and the rank its name carries (kNoRank if none).
std::string oumi_file_kind(std::string_view basename, int& rank);

class OumiTelemetryReader final : public WholeFileReader {
  public:
    OumiTelemetryReader(SourceFile file, PointSink& sink);

  private:
    ParseOutcome parse(std::string_view text, bool settled) override;
    void walk(const JsonValue& value, int rank, std::string& tag, std::vector<ConfigText>& out);

    std::string kind_;
    int name_rank_;
};

}  // namespace runtop
