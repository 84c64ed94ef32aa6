#include "writers/msprobe_writer.h"

#include "writers/file_output.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cmath>
#include <ctime>

namespace runtop::msprobe {

std::string run_dir_name(double unix_time, int rank, std::uint32_t uuid) {
    static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    std::time_t t = static_cast<std::time_t>(unix_time) + 8 * 3600;  // Asia/Shanghai
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    return fmt::format("{}{:02d}_{:02d}-{:02d}-{:02d}-rank{}-{:08x}", kMonths[tm.tm_mon],
                       tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, rank, uuid);
}

void append_python_float(std::string& out, double v, int ndigits) {
    if (std::isnan(v)) {
        out += "nan";
        return;
    }
    if (std::isinf(v)) {
        out += v > 0 ? "inf" : "-inf";
        return;
    }
    if (ndigits >= 0) {
        double scale = std::pow(10.0, ndigits);
        double r = std::nearbyint(v * scale) / scale;  // numpy.round: half to even
        if (std::isfinite(r)) v = r;
    }
    std::string text = fmt::format("{}", v);
    if (text.find_first_of(".e") == std::string::npos) text += ".0";  // repr(4.0) == "4.0"
    out += text;
}

MonitorCsvWriter::MonitorCsvWriter(std::string run_dir, std::vector<std::string> ops,
                                   std::int64_t step_count_per_record)
    : run_dir_(std::move(run_dir)),
      ops_(std::move(ops)),
      per_record_(std::max<std::int64_t>(1, step_count_per_record)) {}

std::string MonitorCsvWriter::path_for(std::string_view prefix, std::int64_t step) const {
    std::int64_t start = step / per_record_ * per_record_;
    return fmt::format("{}/{}_{}-{}.csv", run_dir_, prefix, start, start + per_record_ - 1);
}

Status MonitorCsvWriter::write_step(std::string_view prefix, bool with_micro_step,
                                    std::int64_t step, const std::vector<Row>& rows) {
    std::string path = path_for(prefix, step);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
        std::string header =
            with_micro_step ? "vpp_stage,name,step,micro_step" : "vpp_stage,name,step";
        for (const std::string& op : ops_) header += "," + op;
        header += ",shape,dtype\n";
        if (Status s = rewrite_file(path, header); !s) return s;
    }
    buffer_.clear();
    for (const Row& row : rows) {
        fmt::format_to(std::back_inserter(buffer_), "{},{},{}", row.vpp_stage, row.name, step);
        if (with_micro_step) fmt::format_to(std::back_inserter(buffer_), ",{}", row.micro_step);
        for (double v : row.values) {
            buffer_ += ',';
            append_python_float(buffer_, v);
        }
        buffer_ += ',';
        if (row.shape.find(',') != std::string::npos)
            buffer_ += '"' + row.shape + '"';
        else
            buffer_ += row.shape;
        buffer_ += ',' + row.dtype + '\n';
    }
    return append_to_file(path, buffer_);
}

std::string anomaly_key(const Anomaly& a) {
    return fmt::format("{}_step_{}_call_{}", a.tag_name, a.step, a.call_id);
}

std::string anomaly_json(const std::vector<Anomaly>& entries) {
    if (entries.empty()) return "{}";
    std::string out = "{";
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Anomaly& a = entries[i];
        std::string message =
            fmt::format("Rule {} reports anomaly signal in ('{}', '{}') at step {}, current value ",
                        a.rule, a.tag_name, a.op, a.step);
        append_python_float(message, a.value, -1);
        message += ", history mean ";
        append_python_float(message, a.history_mean, -1);
        message += ".";
        out += i ? ",\n" : "\n";
        fmt::format_to(std::back_inserter(out),
                       " \"{}\": {{\n  \"rank\": {},\n  \"step\": {},\n  \"micro_step\": {},\n"
                       "  \"pp_stage\": {},\n  \"vpp_stage\": {},\n  \"call_id\": {},\n"
                       "  \"tag_name\": \"{}\",\n  \"message\": \"{}\",\n  \"group_mates\": [",
                       anomaly_key(a), a.rank, a.step, a.micro_step, a.pp_stage, a.vpp_stage,
                       a.call_id, a.tag_name, message);
        for (std::size_t m = 0; m < a.group_mates.size(); ++m)
            fmt::format_to(std::back_inserter(out), "{}\n   {}", m ? "," : "", a.group_mates[m]);
        out += a.group_mates.empty() ? "]\n }" : "\n  ]\n }";
    }
    out += "\n}";
    return out;
}

}  // namespace runtop::msprobe
