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
    std::string tag_name;  // "" in legacy messages
    std::string op;
    std::int64_t step = -1;
    double value = 0;         // NaN when absent
    double history_mean = 0;  // NaN when absent
};
// False when the text is not an anomaly message at all.
bool parse_anomaly_message(std::string_view message, AnomalyMessage& out);

// An alarm msProbe printed to its console log ("... [rank 3] [INFO] > Rule AnomalyNan reports
// anomaly signal in ('0:layers.1.mlp.weight/rank3/post_grad', 'norm') at step 120, current
// value nan, history mean 0.0123."): the anomaly its anomaly.json holds too, without the
// entry's call id, stages and group mates. Its key is "<tag_name>_step_<s>_op_<op>". False
// when the line holds no alarm in the current form (a legacy one names no op).
bool anomaly_from_alarm(std::string_view line, ImportedAnomaly& out);

class MsProbeAnomalyReader final : public WholeFileReader {
  public:
    MsProbeAnomalyReader(SourceFile file, PointSink& sink);

  private:
    ParseOutcome parse(std::string_view text, bool settled) override;

    bool warned_bad_entry_ = false;  // the file is rewritten every step: describe a bad entry once
};

}  // namespace runtop
