// The msProbe anomaly reader (anomaly_detected/*.json): entry fields, current and legacy
// messages, tag and rank mapping, bad entries; and every sample file checked against its raw
// text, parsed here by regex.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "readers/msprobe_anomaly_reader.h"
#include "tests/json_test_support.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::anomaly_entry;
using testing::anomaly_file;
using testing::anomaly_json;
using testing::FakeClock;
using testing::RecordingSink;
using testing::sample_files;
using testing::TempDir;
using testing::write_file;

TEST(MsProbeAnomalyReader, EntryFieldsAndMessage) {
    TempDir dir;
    const std::string path = dir / "anomaly.json";
    write_file(path, anomaly_json({anomaly_entry("0:fc1.input:1/rank1/actv", 7, 12, "norm")}));
    RecordingSink sink;
    MsProbeAnomalyReader reader(anomaly_file(path, 5), sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.anomalies.size(), 1u);
    const ImportedAnomaly& a = sink.anomalies[0];
    EXPECT_EQ(a.run, "job");
    EXPECT_EQ(a.rank, 1);  // the entry's, not the file's
    EXPECT_EQ(a.key, "0:fc1.input:1/rank1/actv_step_7_call_12");
    EXPECT_EQ(a.raw_tag, "0:fc1.input:1/rank1/actv");
    EXPECT_EQ(a.tag, "actv/fc1.input:1/norm");
    EXPECT_EQ(a.op, "norm");
    EXPECT_EQ(a.rule, "AnomalyTurbulence");
    EXPECT_EQ(a.step, 7);
    EXPECT_EQ(a.micro_step, 1);  // from the tag: the entry's micro_step is always 0
    EXPECT_EQ(a.pp_stage, 1);
    EXPECT_EQ(a.vpp_stage, 0);
    EXPECT_EQ(a.call_id, 12);
    EXPECT_EQ(a.value, 476.07618007421394);
    EXPECT_EQ(a.history_mean, 4.355570156327922);
    EXPECT_EQ(a.group_mates, (std::vector<int>{0, 1}));
    EXPECT_EQ(a.source_path, path);
    EXPECT_NE(a.message.find("reports anomaly signal"), std::string::npos);
    IngestTotals totals;
    reader.add_totals(totals);
    EXPECT_EQ(totals.records, 1u);
    EXPECT_EQ(totals.anomalies, 1u);
}

TEST(MsProbeAnomalyReader, NonFiniteValuesInMessages) {
    AnomalyMessage m;
    ASSERT_TRUE(parse_anomaly_message(
        "Rule AnomalyNan reports anomaly signal in ('0:fc1.bias/rank1/param_origin', 'min') at "
        "step 11, current value nan, history mean 0.2545.",
        m));
    EXPECT_EQ(m.rule, "AnomalyNan");
    EXPECT_EQ(m.op, "min");
    EXPECT_TRUE(std::isnan(m.value));
    EXPECT_EQ(m.history_mean, 0.2545);
    ASSERT_TRUE(parse_anomaly_message(
        "Rule AnomalyTurbulence reports anomaly signal in ('0:x/rank0/actv', 'norm') at step 10, "
        "current value inf, history mean -inf.",
        m));
    EXPECT_EQ(m.value, INFINITY);
    EXPECT_EQ(m.history_mean, -INFINITY);
    ASSERT_TRUE(parse_anomaly_message(
        "Rule AnomalyNan reports anomaly signal in ('0:x/rank0/actv', 'nans') at step 0, current "
        "value nan, history mean nan.",
        m));
    EXPECT_TRUE(std::isnan(m.history_mean));
    // The values are optional in the current form too.
    ASSERT_TRUE(parse_anomaly_message(
        "Rule AnomalyNan reports anomaly signal in ('0:x/rank0/actv', 'max') at step 3.", m));
    EXPECT_EQ(m.op, "max");
    EXPECT_TRUE(std::isnan(m.value));
    EXPECT_FALSE(parse_anomaly_message("something else entirely", m));
}

TEST(MsProbeAnomalyReader, LegacyMessageGivesTheRuleOnly) {
    TempDir dir;
    const std::string path = dir / "anomaly.json";
    write_file(
        path,
        "{\"0:fc1.weight/rank0/post_grad_step_4_call_2\": {\"rank\": 0, \"step\": 4, "
        "\"micro_step\": 0, \"pp_stage\": 0, \"vpp_stage\": 0, \"call_id\": 2, \"tag_name\": "
        "\"0:fc1.weight/rank0/post_grad\", \"message\": \"Rule AnomalyTurbulence reports "
        "anomaly signal in 0:fc1.weight/rank0/post_grad at step 4.\", \"group_mates\": [0]}}");
    RecordingSink sink;
    MsProbeAnomalyReader reader(anomaly_file(path), sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.anomalies.size(), 1u);
    const ImportedAnomaly& a = sink.anomalies[0];
    EXPECT_EQ(a.rule, "AnomalyTurbulence");
    EXPECT_EQ(a.op, "");
    EXPECT_EQ(a.tag, "");  // the op is unknown, so is the series
    EXPECT_EQ(a.raw_tag, "0:fc1.weight/rank0/post_grad");
    EXPECT_EQ(a.step, 4);
    EXPECT_TRUE(std::isnan(a.value));
    EXPECT_TRUE(std::isnan(a.history_mean));
    EXPECT_EQ(a.group_mates, (std::vector<int>{0}));
}

TEST(MsProbeAnomalyReader, TagMapping) {
    struct Case {
        const char* tag_name;
        const char* op;
        const char* tag;
    };
    for (const Case& c : {
             Case{"0:fc1.input:0/rank0/actv", "norm", "actv/fc1.input:0/norm"},
             Case{"0:fc2.weight/rank1/post_grad", "min", "grad_reduced/fc2.weight/min"},
             Case{"0:fc2.weight/rank1/pre_grad", "max", "grad_unreduced/fc2.weight/max"},
             Case{"0:fc2.weight/rank1/acc_grad", "max", "grad_unreduced/fc2.weight/max"},
             Case{"1:fc2.weight/rank1/exp_avg_sq", "mean", "exp_avg_sq/1:fc2.weight/mean"},
             Case{"2:.input:1/rank3/actv_grad", "nans", "actv_grad/2:.input:1/nans"},
             Case{"0:l.weight/rank0/exp_avg", "norm", "exp_avg/l.weight/norm"},
             Case{"0:l.weight/rank0/param_origin", "norm", "param_origin/l.weight/norm"},
             Case{"0:l.weight/rank0/param_updated", "norm", "param_updated/l.weight/norm"},
             Case{"0:l.weight/rank0/mg_direction", "norm", "other/l.weight/norm"},
             Case{"0:l.weight/rank0/something_new", "norm", "something_new/l.weight/norm"},
             Case{"0:l.weight/rank0/actv", "", ""},
             Case{"no_kind", "norm", ""},
         }) {
        EXPECT_EQ(anomaly_series_tag(c.tag_name, c.op), c.tag) << c.tag_name;
    }
    AnomalyTagName parts = parse_anomaly_tag_name("3:decoder.layers.0.mlp:2/rank12/actv");
    EXPECT_TRUE(parts.ok);
    EXPECT_EQ(parts.vpp, 3);
    EXPECT_EQ(parts.name, "decoder.layers.0.mlp");
    EXPECT_EQ(parts.micro, 2);
    EXPECT_EQ(parts.rank, 12);
    EXPECT_EQ(parts.kind, "actv");
}

TEST(MsProbeAnomalyReader, RankFallsBackToTheFileAndBadEntriesAreSkippedWithOneWarning) {
    TempDir dir;
    const std::string path = dir / "anomaly_analyse.json";
    write_file(path,
               "{\"x_step_1_call_0\": {\"step\": 1, \"tag_name\": \"0:x/rank2/actv\", "
               "\"message\": \"\"}, \"bad\": [1], \"worse\": 3}");
    RecordingSink sink;
    MsProbeAnomalyReader reader(SourceFile{path, "job", 2, SourceFormat::kMsProbeAnomalyAnalyse},
                                sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.anomalies.size(), 1u);
    EXPECT_EQ(sink.anomalies[0].rank, 2);
    EXPECT_EQ(sink.anomalies[0].call_id, -1);
    EXPECT_EQ(sink.anomalies[0].rule, "");
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("2 entries skipped (entry \"bad\" is an array"), std::string::npos)
        << warnings[0];
    // The file is rewritten every step: the same bad entries are not described again.
    write_file(path, "{\"bad\": [1, 2]}");
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(reader.take_warnings().empty());
}

TEST(MsProbeAnomalyReader, TopLevelThatIsNotAnObjectIsInvalid) {
    TempDir dir;
    const std::string path = dir / "anomaly.json";
    write_file(path, "[1, 2]");
    RecordingSink sink;
    FakeClock clock;
    MsProbeAnomalyReader reader(anomaly_file(path), sink);
    reader.set_clock(clock.fn());
    ASSERT_TRUE(reader.poll());
    EXPECT_NE(reader.pending().find("the top level is an array"), std::string::npos);
    clock.ms = 2500;
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(reader.take_warnings().size(), 1u);
}

// --- samples (../shared/samples): checked against the raw text, parsed here by regex ---

bool same_value(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

// msProbe's tag_name to runtop's tag, by regex: an independent take on the mapping.
std::string expected_anomaly_tag(const std::string& tag_name, const std::string& op) {
    static const std::regex re(R"(^(\d+):(.*?)(?::(\d+))?/rank\d+/(\w+)$)");
    std::smatch m;
    if (op.empty() || !std::regex_match(tag_name, m, re)) return "";
    std::string kind = m[4];
    std::string prefix = kind == "post_grad"                        ? "grad_reduced"
                         : kind == "pre_grad" || kind == "acc_grad" ? "grad_unreduced"
                         : kind == "mg_direction"                   ? "other"
                                                                    : kind;
    std::string vpp = m[1] == "0" ? "" : std::string(m[1]) + ":";
    std::string micro = m[3].matched ? ":" + std::string(m[3]) : "";
    return prefix + "/" + vpp + std::string(m[2]) + micro + "/" + op;
}

TEST(JsonSamples, MsProbeAnomalyFiles) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent (it ships with CI only)";
    const std::vector<std::string> files =
        sample_files(samples + "/generated/msprobe",
                     std::regex(R"(/monitor_output/anomaly_detected/.*\.json$)"));
    ASSERT_FALSE(files.empty());
    std::size_t total = 0, with_values = 0;
    for (const std::string& path : files) {
        SCOPED_TRACE(path);
        const bool analyse = path.ends_with("anomaly_analyse.json");
        std::smatch dir_rank;
        const bool per_rank =
            std::regex_search(path, dir_rank, std::regex(R"(/rank(\d+)/anomaly\.json$)"));
        RecordingSink sink;
        MsProbeAnomalyReader reader(
            SourceFile{
                path, "monitor_output", per_rank ? std::stoi(dir_rank[1]) : kNoRank,
                analyse ? SourceFormat::kMsProbeAnomalyAnalyse : SourceFormat::kMsProbeAnomaly},
            sink);
        ASSERT_TRUE(reader.poll());
        EXPECT_EQ(reader.pending(), "");
        EXPECT_TRUE(reader.take_warnings().empty());

        // The raw entries: json.dump(indent=1) puts each key at one space of indentation.
        const std::string text = testing::read_file(path);
        static const std::regex entry_re(
            R"re(\n "([^"]+)_step_(\d+)_call_(-?\d+)": \{\n  "rank": (\d+),(?:[^{}]|\[[^\]]*\])*?"tag_name": "([^"]*)",\n  "message": "([^"]*)")re");
        std::vector<std::smatch> raw;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), entry_re);
             it != std::sregex_iterator(); ++it)
            raw.push_back(*it);
        ASSERT_FALSE(raw.empty());
        ASSERT_EQ(sink.anomalies.size(), raw.size());
        for (std::size_t i = 0; i < raw.size(); ++i) {
            const ImportedAnomaly& a = sink.anomalies[i];
            const std::smatch& m = raw[i];
            SCOPED_TRACE(a.key);
            EXPECT_EQ(a.key, std::string(m[1]) + "_step_" + std::string(m[2]) + "_call_" +
                                 std::string(m[3]));
            EXPECT_EQ(a.raw_tag, std::string(m[1]));
            EXPECT_EQ(a.raw_tag, std::string(m[5]));
            EXPECT_EQ(a.step, std::stoll(m[2]));
            EXPECT_EQ(a.call_id, std::stoll(m[3]));
            EXPECT_EQ(a.rank, std::stoi(m[4]));
            if (per_rank) {
                EXPECT_EQ(a.rank, std::stoi(dir_rank[1]));
            }
            EXPECT_EQ(a.message, std::string(m[6]));
            EXPECT_EQ(a.source_path, path);
            EXPECT_EQ(a.run, "monitor_output");
            std::smatch msg;
            const std::string message = m[6];
            ASSERT_TRUE(std::regex_search(
                message, msg,
                std::regex(
                    R"(Rule (\S+) reports anomaly signal in \('([^']*)', '([^']*)'\) at step (\d+)(?:, current value (\S+), history mean (\S+))?\.)")));
            EXPECT_EQ(a.rule, std::string(msg[1]));
            EXPECT_EQ(a.op, std::string(msg[3]));
            EXPECT_EQ(std::to_string(a.step), std::string(msg[4]));
            if (msg[5].matched) {
                ++with_values;
                EXPECT_TRUE(same_value(a.value, std::strtod(std::string(msg[5]).c_str(), nullptr)))
                    << msg[5];
                EXPECT_TRUE(
                    same_value(a.history_mean, std::strtod(std::string(msg[6]).c_str(), nullptr)))
                    << msg[6];
            }
            EXPECT_EQ(a.tag, expected_anomaly_tag(a.raw_tag, a.op));
            EXPECT_FALSE(a.tag.empty());
            std::smatch micro;
            if (std::regex_search(a.raw_tag, micro, std::regex(R"(:(\d+)/rank\d+/)"))) {
                EXPECT_EQ(a.micro_step, std::stoll(micro[1]));
            }
            EXPECT_FALSE(a.group_mates.empty());
        }
        IngestTotals totals;
        reader.add_totals(totals);
        EXPECT_EQ(totals.anomalies, raw.size());
        EXPECT_EQ(totals.bytes, text.size());
        total += raw.size();
    }
    EXPECT_GT(total, 100u);
    EXPECT_GT(with_values, 100u);
}

}  // namespace
}  // namespace runtop
