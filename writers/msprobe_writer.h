// Writes msProbe monitor output the way msProbe's TrainerMon does (FORMATS.md §1): run dirs
// "<%b%d_%H-%M-%S>-rank<R>-<uuid8>" (UTC+8 time), "<prefix>_<a>-<b>.csv" files created
// header-only and then appended one step at a time, pandas' float formatting after
// round(6), and anomaly_detected/rank<R>/anomaly.json rewritten whole (json.dump(indent=1)).
// Used by the demo, the benchmarks and the tests; never by the readers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace runtop::msprobe {

// "Nov21_14-35-29-rank0-ad82d4e3": the time in Asia/Shanghai (UTC+8), as msProbe names it.
std::string run_dir_name(double unix_time, int rank, std::uint32_t uuid);

// pandas: DataFrame.round(ndigits) then to_csv, i.e. Python's repr of the rounded float
// ("0.182858", "1e-06", "-0.0", "4.0", "nan", "inf", "-inf").
void append_python_float(std::string& out, double value, int ndigits = 6);

struct Row {
    int vpp_stage = 0;
    std::string name;            // module (".input"/".output") or parameter name
    int micro_step = -1;         // written only by writers created with a micro_step column
    std::vector<double> values;  // one per op, in the writer's op order
    std::string shape;           // Python list repr, e.g. "[4, 16]"
    std::string dtype = "torch.float32";
};

class MonitorCsvWriter {
  public:
    // `ops` as configured (shape and dtype are appended, as msProbe does since 2025-05).
    MonitorCsvWriter(std::string run_dir, std::vector<std::string> ops,
                     std::int64_t step_count_per_record = 1);

    // One prefix's rows of one step: if the step starts a new file it is first created
    // header-only, then every row is appended in one write (two open/close cycles).
    Status write_step(std::string_view prefix, bool with_micro_step, std::int64_t step,
                      const std::vector<Row>& rows);
    std::string path_for(std::string_view prefix, std::int64_t step) const;
    const std::string& run_dir() const { return run_dir_; }

  private:
    std::string run_dir_;
    std::vector<std::string> ops_;
    std::int64_t per_record_;
    std::string buffer_;
};

struct Anomaly {
    int rank = 0;
    std::int64_t step = 0;
    int micro_step = 0;
    int pp_stage = 0;
    int vpp_stage = 0;
    int call_id = 0;
    std::string tag_name;  // "<vpp>:<name>[:<micro>]/rank<R>/<kind>"
    std::string rule;      // AnomalyTurbulence, AnomalyNan
    std::string op;
    double value = 0;
    double history_mean = 0;
    std::vector<int> group_mates;
};

// "<tag_name>_step_<step>_call_<call_id>", msProbe's key.
std::string anomaly_key(const Anomaly& a);
// The whole anomaly.json text for these entries, as json.dump(indent=1) writes it.
std::string anomaly_json(const std::vector<Anomaly>& entries);

}  // namespace runtop::msprobe
