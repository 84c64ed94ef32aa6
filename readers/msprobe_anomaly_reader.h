// msProbe's anomaly files (FORMATS.md §1.4): `anomaly_detected/rank<R>/anomaly.json`, which
// the monitor rewrites whole at every step with an anomaly (and wipes to `{}` at a restart),
// and the offline analyser's `anomaly_analyse.json` (same schema, top-k). Every entry becomes
// an ImportedAnomaly; each read sends all entries again and the sink keeps one per
// (run, key), so an entry rewritten with other values replaces the earlier copy.
//
// The op, rule and values live only in the message:
//   "Rule <rule> reports anomaly signal in ('<tag_name>', '<op>') at step <s>[, current value
//    <v>, history mean <m>]."        (legacy: "... signal in <tag_name> at step <s>.")
// and tag_name is "<vpp>:<name>[:<micro>]/rank<R>/<kind>". runtop's tag is the one the same
// statistic has in the monitor's CSV files (DESIGN.md §2):
// "<prefix>/[<vpp>:]<name>[:<micro>]/<op>", the prefix being the CSV file's for that kind.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/analysis/msprobe_tag.h"
#include "readers/whole_file_reader.h"

namespace runtop {

// What an anomaly message says; `op` is "" when the message is not in the current form.
struct AnomalyMessage {
    std::string rule;
    std::string op;
    double value = 0;         // NaN when absent
    double history_mean = 0;  // NaN when absent
};
// False when the text is not an anomaly message at all.
bool parse_anomaly_message(std::string_view message, AnomalyMessage& out);

class MsProbeAnomalyReader final : public WholeFileReader {
  public:
    MsProbeAnomalyReader(SourceFile file, PointSink& sink);

  private:
    ParseOutcome parse(std::string_view text, bool settled) override;

    bool warned_bad_entry_ = false;  // the file is rewritten every step: describe a bad entry once
};

}  // namespace runtop
