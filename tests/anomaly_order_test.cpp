// msProbe's analyser order: stages, pipeline order per stage, and the top 8 of the sample's
// anomaly.json files against the anomaly_analyse.json msProbe wrote from them.
#include "core/analysis/anomaly_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/json/json_value.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using Fields = MsProbeAnomalyOrderFields;
using Stage = MsProbeTrainStage;

TEST(AnomalyOrder, TrainStageOfEveryKind) {
    EXPECT_EQ(msprobe_train_stage("actv"), Stage::kForward);
    for (const char* k : {"actv_grad", "pre_grad", "post_grad", "acc_grad"}) {
        EXPECT_EQ(msprobe_train_stage(k), Stage::kBackward) << k;
    }
    EXPECT_EQ(msprobe_train_stage("exp_avg"), Stage::kOptimizer);
    EXPECT_EQ(msprobe_train_stage("exp_avg_sq"), Stage::kOptimizer);
    for (const char* k : {"param_origin", "param_updated", "mg_direction", "", "Actv"}) {
        EXPECT_EQ(msprobe_train_stage(k), Stage::kOther) << k;
    }
    EXPECT_EQ(msprobe_tag_kind("0:fc1.input:0/rank0/actv"), "actv");
    EXPECT_EQ(msprobe_tag_kind("0:1.mlp/rank3/exp_avg_sq"), "exp_avg_sq");
    EXPECT_EQ(msprobe_tag_kind("noslash"), "noslash");
}

TEST(AnomalyOrder, StepThenMicroStepThenStage) {
    const Fields late_step{.step = 2, .kind = "param_origin"};
    const Fields early_step{.step = 1, .micro_step = 5, .kind = "exp_avg"};
    EXPECT_TRUE(msprobe_anomaly_less(early_step, late_step));
    EXPECT_FALSE(msprobe_anomaly_less(late_step, early_step));
    const Fields micro0{.step = 1, .micro_step = 0, .kind = "exp_avg"};
    EXPECT_TRUE(msprobe_anomaly_less(micro0, early_step));
    // Within a step: other kinds (-1) before forward, backward, optimizer; call_id last.
    std::vector<Fields> v{{.step = 1, .kind = "exp_avg_sq", .call_id = 0},
                          {.step = 1, .kind = "post_grad", .call_id = 0},
                          {.step = 1, .kind = "actv", .call_id = 9},
                          {.step = 1, .kind = "mg_direction", .call_id = 50},
                          {.step = 1, .kind = "actv", .call_id = 3}};
    std::sort(v.begin(), v.end(), msprobe_anomaly_less);
    const std::vector<std::string_view> kinds{"mg_direction", "actv", "actv", "post_grad",
                                              "exp_avg_sq"};
    for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i].kind, kinds[i]) << i;
    EXPECT_EQ(v[1].call_id, 3);
}

TEST(AnomalyOrder, ForwardGoesUpThePipelineEverythingElseDown) {
    const Fields fwd_pp0{.kind = "actv", .pp_stage = 0, .call_id = 7};
    const Fields fwd_pp1{.kind = "actv", .pp_stage = 1, .call_id = 0};
    EXPECT_TRUE(msprobe_anomaly_less(fwd_pp0, fwd_pp1));  // pp before call_id
    const Fields bwd_pp0{.kind = "actv_grad", .pp_stage = 0, .call_id = 0};
    const Fields bwd_pp1{.kind = "actv_grad", .pp_stage = 1, .call_id = 7};
    EXPECT_TRUE(msprobe_anomaly_less(bwd_pp1, bwd_pp0));
    // vpp before pp, with the same sign rule.
    const Fields fwd_vpp1{.kind = "actv", .vpp_stage = 1, .pp_stage = 0};
    const Fields fwd_vpp0{.kind = "actv", .vpp_stage = 0, .pp_stage = 3};
    EXPECT_TRUE(msprobe_anomaly_less(fwd_vpp0, fwd_vpp1));
    const Fields opt_vpp1{.kind = "exp_avg", .vpp_stage = 1, .pp_stage = 0};
    const Fields opt_vpp0{.kind = "exp_avg", .vpp_stage = 0, .pp_stage = 3};
    EXPECT_TRUE(msprobe_anomaly_less(opt_vpp1, opt_vpp0));
    // Other kinds are not forward either: negated too.
    const Fields other_pp0{.kind = "param_origin", .pp_stage = 0};
    const Fields other_pp2{.kind = "param_origin", .pp_stage = 2};
    EXPECT_TRUE(msprobe_anomaly_less(other_pp2, other_pp0));
}

TEST(AnomalyOrder, EqualKeysAreEquivalent) {
    // Two ranks of one pp_stage (data parallel), or two tags without a call_id.
    const Fields a{.step = 3, .kind = "pre_grad", .pp_stage = 1, .call_id = -1};
    const Fields b{.step = 3, .kind = "acc_grad", .pp_stage = 1, .call_id = -1};
    EXPECT_FALSE(msprobe_anomaly_less(a, b));
    EXPECT_FALSE(msprobe_anomaly_less(b, a));
    EXPECT_EQ(msprobe_order_key(a), (MsProbeAnomalyOrderKey{3, 0, 1, 0, -1, -1}));
}

struct Entry {
    std::string key;  // the anomaly.json member name: tag_step_S_call_C
    std::string tag_name;
    Fields fields;  // kind left empty: it would dangle when the entry moves; see fields_of()
};

Fields fields_of(const Entry& e) {
    Fields f = e.fields;
    f.kind = msprobe_tag_kind(e.tag_name);
    return f;
}

// Every entry of one anomaly JSON file, in file order.
std::vector<Entry> read_entries(const std::string& path) {
    const std::string text = testing::read_file(path);
    const JsonParse parse = parse_json(text);
    EXPECT_TRUE(parse.ok()) << path;
    std::vector<Entry> out;
    if (!parse.ok()) return out;
    for (const JsonMember& m : parse.document().root().members()) {
        Entry e{std::string(m.key), std::string(m.value.get("tag_name").string()), {}};
        EXPECT_TRUE(m.value.get("step").integer(e.fields.step)) << e.key;
        EXPECT_TRUE(m.value.get("micro_step").integer(e.fields.micro_step)) << e.key;
        EXPECT_TRUE(m.value.get("vpp_stage").integer(e.fields.vpp_stage)) << e.key;
        EXPECT_TRUE(m.value.get("pp_stage").integer(e.fields.pp_stage)) << e.key;
        EXPECT_TRUE(m.value.get("call_id").integer(e.fields.call_id)) << e.key;
        out.push_back(std::move(e));
    }
    return out;
}

TEST(AnomalyOrderSample, TopEightEqualMsProbesAnalyse) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent";
    const std::string dir =
        samples + "/generated/msprobe/trainermon_2rank_csv/monitor_output/anomaly_detected";
    // Ranks in order, each file's entries in file order: what stable_sort keeps for ties.
    std::vector<Entry> all = read_entries(dir + "/rank0/anomaly.json");
    for (Entry& e : read_entries(dir + "/rank1/anomaly.json")) all.push_back(std::move(e));
    const std::vector<Entry> expected = read_entries(dir + "/anomaly_analyse.json");
    ASSERT_EQ(expected.size(), 8u);
    ASSERT_GT(all.size(), 8u);

    auto less = [](const Entry& a, const Entry& b) {
        return msprobe_anomaly_less(fields_of(a), fields_of(b));
    };
    std::stable_sort(all.begin(), all.end(), less);

    // msProbe's order is only determined up to equal keys (os.listdir and heapq decide
    // between them), so compare keys position by position and names up to ties.
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(msprobe_order_key(fields_of(all[i])), msprobe_order_key(fields_of(expected[i])))
            << i;
        // The same record appears among ours with an equal key (the whole tie group).
        const auto [lo, hi] = std::equal_range(all.begin(), all.end(), expected[i], less);
        EXPECT_TRUE(std::any_of(lo, hi, [&](const Entry& e) { return e.key == expected[i].key; }))
            << expected[i].key;
    }
    // Where no tie straddles the cut, the top 8 are the same records in the same order.
    const bool tie_at_cut = !less(all[7], all[8]);
    std::size_t ties_inside = 0;
    for (std::size_t i = 0; i + 1 < 8; ++i) ties_inside += !less(all[i], all[i + 1]);
    if (!tie_at_cut && ties_inside == 0) {
        for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(all[i].key, expected[i].key) << i;
    }
    EXPECT_FALSE(tie_at_cut) << "the sample's top 8 is ambiguous at the cut";
    EXPECT_EQ(ties_inside, 0u) << "the sample's top 8 has equal keys";
}

}  // namespace
}  // namespace runtop
