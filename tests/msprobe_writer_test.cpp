// runtop's msProbe writer (demo, benchmarks, tests) writes what msProbe writes.
#include "writers/msprobe_writer.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/identity.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

std::string py(double v, int ndigits = 6) {
    std::string out;
    msprobe::append_python_float(out, v, ndigits);
    return out;
}

TEST(MsProbeWriter, PandasFloatFormatting) {
    EXPECT_EQ(py(0.18285812), "0.182858");
    EXPECT_EQ(py(4.0), "4.0");
    EXPECT_EQ(py(1e-6), "1e-06");
    EXPECT_EQ(py(1.5e20), "1.5e+20");
    EXPECT_EQ(py(-1e-9), "-0.0");  // rounds to negative zero, as pandas prints it
    EXPECT_EQ(py(std::nan("")), "nan");
    EXPECT_EQ(py(-INFINITY), "-inf");
    EXPECT_EQ(py(476.07618007421394, -1), "476.07618007421394");
}

TEST(MsProbeWriter, RunDirNamesAreMsProbesAndCarryTheRank) {
    // 2026-11-21 06:35:29 UTC is 14:35:29 in Asia/Shanghai.
    std::string name = msprobe::run_dir_name(1795242929, 5, 0xad82d4e3);
    EXPECT_EQ(name, "Nov21_14-35-29-rank5-ad82d4e3");
    EXPECT_EQ(rank_of_dir_component(name), 5);
}

TEST(MsProbeWriter, FilesAreCreatedHeaderOnlyThenAppendedPerStep) {
    testing::TempDir dir;
    msprobe::MonitorCsvWriter writer(dir.path(), {"norm", "nans"}, 5);
    msprobe::Row row{0, "fc1.weight", -1, {2.5, 0}, "[4, 8]"};
    ASSERT_TRUE(writer.write_step("grad_reduced", false, 6, {row}));
    EXPECT_EQ(writer.path_for("grad_reduced", 6), dir / "grad_reduced_5-9.csv");
    EXPECT_EQ(testing::read_file(dir / "grad_reduced_5-9.csv"),
              "vpp_stage,name,step,norm,nans,shape,dtype\n"
              "0,fc1.weight,6,2.5,0.0,\"[4, 8]\",torch.float32\n");
    msprobe::Row micro{1, "fc1.input", 1, {1, 0}, "[4]"};
    ASSERT_TRUE(writer.write_step("actv", true, 10, {micro}));
    EXPECT_EQ(testing::read_file(dir / "actv_10-14.csv"),
              "vpp_stage,name,step,micro_step,norm,nans,shape,dtype\n"
              "1,fc1.input,10,1,1.0,0.0,[4],torch.float32\n");
}

TEST(MsProbeWriter, AnomalyJsonKeysAndMessages) {
    msprobe::Anomaly a;
    a.rank = 1;
    a.step = 11;
    a.call_id = 2;
    a.tag_name = "0:fc1.bias/rank1/param_origin";
    a.rule = "AnomalyNan";
    a.op = "min";
    a.value = std::nan("");
    a.history_mean = 0.25;
    a.group_mates = {0, 1};
    EXPECT_EQ(msprobe::anomaly_key(a), "0:fc1.bias/rank1/param_origin_step_11_call_2");
    std::string json = msprobe::anomaly_json({a});
    EXPECT_NE(json.find("\"message\": \"Rule AnomalyNan reports anomaly signal in "
                        "('0:fc1.bias/rank1/param_origin', 'min') at step 11, current value nan, "
                        "history mean 0.25.\""),
              std::string::npos)
        << json;
    EXPECT_NE(json.find("\"group_mates\": [\n   0,\n   1\n  ]"), std::string::npos) << json;
    EXPECT_EQ(msprobe::anomaly_json({}), "{}");
}

}  // namespace
}  // namespace runtop
