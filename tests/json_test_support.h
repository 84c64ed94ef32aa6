// Helpers shared by the tests of the readers of files rewritten whole (whole_file_reader_test,
// msprobe_anomaly_reader_test, hf_trainer_state_reader_test, oumi_telemetry_reader_test,
// hparams_reader_test): a clock moved by hand, msProbe anomaly fixtures, and the sample files
// that the JsonSamples tests check against their raw text. Header-only, so tests/CMakeLists.txt
// needs no new source.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <regex>
#include <string>
#include <system_error>
#include <vector>

#include "readers/source_reader.h"
#include "readers/whole_file_reader.h"

namespace runtop::testing {

// A clock the test moves by hand.
struct FakeClock {
    std::int64_t ms = 0;
    WholeFileReader::Clock fn() {
        return [this] { return ms; };
    }
};

inline SourceFile anomaly_file(const std::string& path, int rank = 0) {
    return SourceFile{path, "job", rank, SourceFormat::kMsProbeAnomaly};
}

inline std::string anomaly_entry(const std::string& tag_name, int step, int call,
                                 const std::string& op,
                                 const std::string& value = "476.07618007421394",
                                 const std::string& mean = "4.355570156327922") {
    std::string message = "Rule AnomalyTurbulence reports anomaly signal in ('" + tag_name +
                          "', '" + op + "') at step " + std::to_string(step) + ", current value " +
                          value + ", history mean " + mean + ".";
    return "\"" + tag_name + "_step_" + std::to_string(step) + "_call_" + std::to_string(call) +
           "\": {\n  \"rank\": 1,\n  \"step\": " + std::to_string(step) +
           ",\n  \"micro_step\": 0,\n  \"pp_stage\": 1,\n  \"vpp_stage\": 0,\n  \"call_id\": " +
           std::to_string(call) + ",\n  \"tag_name\": \"" + tag_name + "\",\n  \"message\": \"" +
           message + "\",\n  \"group_mates\": [\n   0,\n   1\n  ]\n }";
}

inline std::string anomaly_json(const std::vector<std::string>& entries) {
    std::string out = "{";
    for (std::size_t i = 0; i < entries.size(); ++i) out += (i ? ",\n " : "\n ") + entries[i];
    return out + "\n}";
}

// --- samples (../shared/samples), for the JsonSamples tests ---

// The regular files below `dir` whose path matches `name`, sorted; none when `dir` is absent.
inline std::vector<std::string> sample_files(const std::string& dir, const std::regex& name) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return out;
    for (const auto& e : fs::recursive_directory_iterator(dir, ec))
        if (e.is_regular_file() && std::regex_search(e.path().string(), name))
            out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace runtop::testing
