// msProbe, DeepSpeed and Lightning CSV readers on fixtures written here: header variants,
// quoting, partial lines, bad rows, repeated headers, rewrites, truncation, replacement.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "core/store/store.h"
#include "readers/msprobe_csv_reader.h"
#include "readers/read_scratch.h"
#include "readers/source_set.h"
#include "readers/step_table_csv_reader.h"
#include "tests/delivered.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::Delivered;
using testing::delivered;

using testing::append_file;
using testing::RecordingSink;
using testing::TempDir;
using testing::write_file;

// tag@step -> value, and how often each was delivered.
bool has_warning(std::vector<std::string> warnings, std::string_view text) {
    for (const std::string& w : warnings)
        if (w.find(text) != std::string::npos) return true;
    return false;
}

TEST(MsProbeCsv, PrefixesAreAnchored) {
    EXPECT_EQ(msprobe_csv_prefix("exp_avg_sq_0-4.csv", false), "exp_avg_sq");
    EXPECT_EQ(msprobe_csv_prefix("exp_avg_0-4.csv", false), "exp_avg");
    EXPECT_EQ(msprobe_csv_prefix("actv_grad_10-14.csv", false), "actv_grad");
    EXPECT_EQ(msprobe_csv_prefix("actv_5-9_part_1.csv", false), "actv");
    EXPECT_EQ(msprobe_csv_prefix("moe_router_logit_hook_0-0.csv", false), "moe_router_logit_hook");
    EXPECT_EQ(msprobe_csv_prefix("module_step0-9.csv", true), "module");
    EXPECT_EQ(msprobe_csv_prefix("weight_grad_step10-19.csv", true), "weight_grad");
    EXPECT_EQ(msprobe_csv_prefix("module_step0-9.csv", false), "");
    EXPECT_EQ(msprobe_csv_prefix("stack_info.csv", false), "");
    EXPECT_EQ(msprobe_csv_prefix("grad_0-4.txt", false), "");
    EXPECT_EQ(msprobe_csv_prefix("_0-4.csv", false), "");
    EXPECT_EQ(msprobe_csv_prefix("grad_a-4.csv", false), "");
}

TEST(MsProbeCsv, CurrentLayoutWithMicroStepQuotedShapeAndNonFinite) {
    TempDir dir;
    std::string path = dir / "actv_10-14.csv";
    write_file(
        path,
        "vpp_stage,name,step,micro_step,min,max,mean,norm,zeros,nans,shape,dtype\n"
        "0,act.output,10,0,0.0,0.949156,0.147519,2.129658,0.546875,0,\"[4, 16]\",torch.float32\n"
        "0,fc1.output,10,1,-inf,inf,nan,inf,0.0,0,\"[4, 16]\",torch.float32\n"
        "1,fc1.input,11,0,-0.0,1e-06,1.5e+20,nan,0.0,1,\"[4, 8]\",torch.float32\n"
        "0,.input,0,0,nan,nan,nan,nan,nan,nan,nan,nan\n");
    RecordingSink sink;
    MsProbeCsvReader reader(SourceFile{path, "mon", 3, SourceFormat::kMsProbeCsv}, sink);
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(reader.take_warnings().empty());
    for (const auto& s : sink.scalars) EXPECT_EQ(s.key.rank, 3);
    Delivered d = delivered(sink);
    EXPECT_EQ(sink.scalars.size(), 24u);  // 4 rows x 6 ops; shape and dtype are text
    EXPECT_EQ(d.value["actv/act.output:0/max@10"], 0.949156);
    EXPECT_EQ(d.value["actv/act.output:0/nans@10"], 0);
    EXPECT_TRUE(std::isinf(d.value["actv/fc1.output:1/min@10"]) &&
                d.value["actv/fc1.output:1/min@10"] < 0);
    EXPECT_TRUE(std::isnan(d.value["actv/fc1.output:1/mean@10"]));
    EXPECT_EQ(d.value["actv/1:fc1.input:0/mean@11"], 1.5e20);  // vpp 1 prefixes the name
    EXPECT_TRUE(std::signbit(d.value["actv/1:fc1.input:0/min@11"]));
    EXPECT_TRUE(std::isnan(d.value["actv/.input:0/zeros@0"]));  // a row nan in every column
    EXPECT_EQ(sink.source(0), (SeriesSource{"msprobe-csv", StepAxis::kSteps, true}));
}

TEST(MsProbeCsv, LegacyHeadersAndColumnOrder) {
    TempDir dir;
    // Before shape/dtype were appended (2025-05), and without vpp_stage: found by name.
    std::string legacy = dir / "grad_reduced_0-4.csv";
    write_file(legacy, "name,step,norm,max\nlayers.0.weight,3,0.5,0.25\n");
    RecordingSink sink;
    MsProbeCsvReader reader(SourceFile{legacy, "mon", 0, SourceFormat::kMsProbeCsv}, sink);
    ASSERT_TRUE(reader.poll());
    Delivered d = delivered(sink);
    EXPECT_EQ(d.value["grad_reduced/layers.0.weight/norm@3"], 0.5);
    EXPECT_EQ(d.value["grad_reduced/layers.0.weight/max@3"], 0.25);

    std::string bad = dir / "param_origin_0-4.csv";
    write_file(bad, "what,ever\n1,2\n");
    MsProbeCsvReader rejected(SourceFile{bad, "mon", 0, SourceFormat::kMsProbeCsv}, sink);
    ASSERT_TRUE(rejected.poll());
    EXPECT_TRUE(rejected.ignored());
    EXPECT_TRUE(has_warning(rejected.take_warnings(), "no name and step columns"));
}

TEST(MsProbeCsv, MonitorV2CrlfWithScope) {
    TempDir dir;
    std::string path = dir / "weight_grad_step0-9.csv";
    write_file(path,
               "vpp_stage,step,module_name,scope,micro_step,min,max,mean,norm,nans\r\n"
               "-1,0,0.weight,reduced,1,-0.1637548804283142,0.161960631608963,"
               "-0.0019810209050774574,0.6090776324272156,0.0\r\n"
               "2,1,0.weight,unreduced,0,1,2,3,4,0\r\n");
    RecordingSink sink;
    MsProbeCsvReader reader(SourceFile{path, "out", 1, SourceFormat::kMsProbeV2Csv}, sink);
    ASSERT_TRUE(reader.poll());
    Delivered d = delivered(sink);
    EXPECT_EQ(d.value["weight_grad/reduced/0.weight:1/norm@0"], 0.6090776324272156);
    EXPECT_EQ(d.value["weight_grad/unreduced/2:0.weight:0/mean@1"], 3);
    EXPECT_EQ(sink.source(0), (SeriesSource{"msprobe-v2-csv", StepAxis::kSteps, true}));
}

TEST(MsProbeCsv, ShortRowsAreReportedNotFatal) {
    TempDir dir;
    std::string path = dir / "other_0-4.csv";
    // PyTorch's comm-op rows in other_*.csv lack the vpp prefix and so a column.
    write_file(path,
               "vpp_stage,name,step,min,max,shape,dtype\n"
               "0,fc1.weight,0,1.0,1.0,[],torch.float32\n"
               "all_reduce,0,post_0,1.0,[],torch.float32\n"
               "0,fc1.weight,1,2.0,2.0,[],torch.float32\n");
    RecordingSink sink;
    MsProbeCsvReader reader(SourceFile{path, "mon", 0, SourceFormat::kMsProbeCsv}, sink);
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(reader.bad_rows(), 1u);
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find(path), std::string::npos);
    EXPECT_NE(warnings[0].find("6 fields where the header has 7"), std::string::npos);
    EXPECT_EQ(sink.scalars.size(), 4u);
}

TEST(MsProbeCsv, HeaderOnlyThenRowsAppendedLineAndByteWise) {
    TempDir dir;
    std::string path = dir / "grad_reduced_0-4.csv";
    write_file(path, "vpp_stage,name,step,norm,shape,dtype\n");  // msProbe's first write
    RecordingSink sink;
    MsProbeCsvReader reader(SourceFile{path, "mon", 0, SourceFormat::kMsProbeCsv}, sink);
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(sink.scalars.empty());
    EXPECT_TRUE(reader.pending().empty());
    std::string rows;
    for (int step = 0; step < 5; ++step)
        for (const char* name : {"a.weight", "b.weight", "c.bias"})
            rows += "0," + std::string(name) + "," + std::to_string(step) + "," +
                    std::to_string(step + 0.5) + ",\"[4, 2]\",torch.float32\n";
    // Half the rows appended whole, the rest byte by byte, polling after each write.
    std::size_t half = rows.size() / 2;
    append_file(path, rows.substr(0, half));
    ASSERT_TRUE(reader.poll());
    for (std::size_t i = half; i < rows.size(); ++i) {
        append_file(path, rows.substr(i, 1));
        ASSERT_TRUE(reader.poll());
        if (rows[i] != '\n') {
            EXPECT_FALSE(reader.pending().empty()) << i;
        }
    }
    Delivered d = delivered(sink);
    EXPECT_EQ(sink.scalars.size(), 15u);
    for (const auto& [id, n] : d.count) EXPECT_EQ(n, 1) << id;
    EXPECT_EQ(d.value["grad_reduced/c.bias/norm@4"], 4.5);
    EXPECT_TRUE(reader.take_warnings().empty());
}

// A reader pool's thread keeps the key tables of the last few ranks only (readers/reader_pool.h):
// a table no reader holds and not among the last joined is gone; a reader that let go of its
// table reads on alike, joining one again, and its series keep their keys.
TEST(MsProbeCsv, KeyTablesKeptAreTheLastJoinedAndReadersLetGoOfThem) {
    MsProbeKeyTables all;
    std::weak_ptr<MsProbeKeyTables::KeyTable> any = all.table("a");
    all.table("b");
    EXPECT_FALSE(any.expired());
    MsProbeKeyTables few(2);
    std::weak_ptr<MsProbeKeyTables::KeyTable> first = few.table("a");
    few.table("b");
    few.table("a");
    few.table("c");  // "a" was joined after "b": "b" goes
    EXPECT_FALSE(first.expired());
    EXPECT_EQ(few.table("a"), first.lock());
    few.table("d");
    few.table("e");
    EXPECT_TRUE(first.expired());

    TempDir dir;
    std::string path = dir / "grad_reduced_0-4.csv";
    auto rows = [](int step) {
        std::string out;
        for (const char* name : {"a.weight", "b.bias"})
            out += "0," + std::string(name) + "," + std::to_string(step) + "," +
                   std::to_string(step + 0.5) + "\n";
        return out;
    };
    write_file(path, "vpp_stage,name,step,norm\n" + rows(0));
    RecordingSink sink;
    MsProbeKeyTables tables(1);
    MsProbeCsvReader reader(SourceFile{path, "mon", 0, SourceFormat::kMsProbeCsv}, sink, &tables);
    ASSERT_TRUE(reader.poll());
    reader.let_go_of_shared();
    tables.table("another rank");  // the reader's table is gone
    append_file(path, rows(1));
    ASSERT_TRUE(reader.poll());
    Delivered d = delivered(sink);
    EXPECT_EQ(sink.scalars.size(), 4u);
    for (const auto& [id, n] : d.count) EXPECT_EQ(n, 1) << id;
    EXPECT_EQ(d.value["grad_reduced/b.bias/norm@1"], 1.5);
    EXPECT_EQ(sink.keys.size(), 4u);  // each key asked for again, once
}

// The key tables say what they hold (the dashboard charges it to --memory): it grows with the
// rows of each rank, not with the files that repeat them, and a table given up is not counted.
TEST(MsProbeCsv, KeyTablesCountWhatTheirRowsHold) {
    TempDir dir;
    auto file = [&](int rank, int first_step, int rows) {
        std::string text = "vpp_stage,name,step,norm,max\n";
        for (int step = first_step; step < first_step + 5; ++step)
            for (int r = 0; r < rows; ++r)
                text += "0,language_model.encoder.layers." + std::to_string(r) +
                        ".mlp.dense_h_to_4h.weight," + std::to_string(step) + ",1.5,2.5\n";
        const std::string path =
            dir / ("grad_reduced_" + std::to_string(rank) + "_" + std::to_string(first_step) + "-" +
                   std::to_string(first_step + 4) + ".csv");
        write_file(path, text);
        return SourceFile{path, "mon", rank, SourceFormat::kMsProbeCsv};
    };
    RecordingSink sink;
    MsProbeKeyTables tables;
    const std::uint64_t empty = tables.bytes();
    auto read = [&](SourceFile f) {
        MsProbeCsvReader reader(std::move(f), sink, &tables);
        ASSERT_TRUE(reader.poll());
    };
    read(file(0, 0, 100));
    const std::uint64_t one_rank = tables.bytes() - empty;
    // A row: its struct, a 50-byte key, two ids and an index entry.
    EXPECT_GE(one_rank, 100 * (sizeof(MsProbeCsvReader::RowKey) + 50 + 8));
    EXPECT_LE(one_rank, 100 * (sizeof(MsProbeCsvReader::RowKey) + 200));
    read(file(0, 5, 100));  // the next file of that rank: the same rows
    EXPECT_EQ(tables.bytes() - empty, one_rank);
    read(file(1, 0, 100));  // another rank: rows of its own
    EXPECT_GE(tables.bytes() - empty, 2 * one_rank);

    MsProbeKeyTables few(1);
    {
        MsProbeCsvReader reader(file(2, 0, 100), sink, &few);
        ASSERT_TRUE(reader.poll());
        reader.let_go_of_shared();
    }
    const std::uint64_t kept = few.bytes();
    few.table("another rank");  // the first table goes
    EXPECT_LT(few.bytes(), kept - 100 * sizeof(MsProbeCsvReader::RowKey));
}

TEST(MsProbeCsv, TruncateAndRewriteIsReadAgain) {
    TempDir dir;
    std::string path = dir / "param_updated_0-4.csv";
    write_file(path, "vpp_stage,name,step,norm\n0,w,0,1.0\n0,w,1,2.0\n0,w,2,3.0\n");
    RecordingSink sink;
    MsProbeCsvReader reader(SourceFile{path, "mon", 0, SourceFormat::kMsProbeCsv}, sink);
    ASSERT_TRUE(reader.poll());
    write_file(path, "vpp_stage,name,step,norm\n0,w,0,9.0\n");  // truncated and rewritten shorter
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(has_warning(reader.take_warnings(), "shrank"));
    ASSERT_EQ(sink.scalars.size(), 4u);
    EXPECT_EQ(sink.scalars.back().point.value, 9.0);
    // Rewritten longer with different leading bytes: noticed although the size grew.
    write_file(path, "vpp_stage,name,step,norm\n0,w,0,7.0\n0,w,1,8.0\n0,w,2,9.5\n0,w,3,1.5\n");
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(has_warning(reader.take_warnings(), "rewritten"));
    EXPECT_EQ(sink.scalars.size(), 8u);
    EXPECT_EQ(sink.scalars.back().point.value, 1.5);
}

TEST(MsProbeCsv, RenameOverIsANewFileUnlessItHoldsWhatWasRead) {
    TempDir dir;
    std::string path = dir / "exp_avg_0-4.csv";
    write_file(path, "vpp_stage,name,step,norm\n0,w,0,1.0\n");
    RecordingSink sink;
    MsProbeCsvReader reader(SourceFile{path, "mon", 0, SourceFormat::kMsProbeCsv}, sink);
    ASSERT_TRUE(reader.poll());
    // A copy renamed over it (rsync without --inplace) that holds what was read: only what is
    // new in it is read.
    write_file(dir / "tmp.csv", "vpp_stage,name,step,norm\n0,w,0,1.0\n0,w,1,5.0\n");
    ASSERT_EQ(::rename((dir / "tmp.csv").c_str(), path.c_str()), 0);
    ASSERT_TRUE(reader.poll());
    EXPECT_FALSE(has_warning(reader.take_warnings(), "replaced"));
    ASSERT_EQ(sink.scalars.size(), 2u);
    EXPECT_EQ(sink.scalars.back().point.value, 5.0);
    // Another file renamed over it: read from its start.
    write_file(dir / "tmp.csv", "vpp_stage,name,step,norm\n0,w,7,6.0\n0,w,8,7.0\n");
    ASSERT_EQ(::rename((dir / "tmp.csv").c_str(), path.c_str()), 0);
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(has_warning(reader.take_warnings(), "replaced"));
    ASSERT_EQ(sink.scalars.size(), 4u);
    EXPECT_EQ(sink.scalars.back().point.value, 7.0);
    // Deleted: what was read stays, and the reader says why it waits.
    ASSERT_EQ(::unlink(path.c_str()), 0);
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(reader.pending(), "file was removed");
}

TEST(MsProbeCsv, RestartInANewRunDirReplacesFromTheResumedStep) {
    TempDir dir;
    // The first process (November 30) wrote steps 0..9; the job resumed from step 5 on
    // December 1 in a new run dir. Name order would read December first.
    std::string old_dir = dir / "Nov30_23-00-00-rank0-aaaaaaaa";
    std::string new_dir = dir / "Dec01_01-00-00-rank0-bbbbbbbb";
    testing::make_dirs(old_dir);
    testing::make_dirs(new_dir);
    std::string header = "vpp_stage,name,step,norm\n";
    std::string first = header, second = header, resumed = header;
    for (int s = 0; s < 5; ++s) first += "0,w," + std::to_string(s) + ",1.0\n";
    for (int s = 5; s < 10; ++s) second += "0,w," + std::to_string(s) + ",1.0\n";
    for (int s = 5; s < 8; ++s) resumed += "0,w," + std::to_string(s) + ",2.0\n";
    write_file(old_dir + "/grad_reduced_0-4.csv", first);
    write_file(old_dir + "/grad_reduced_5-9.csv", second);
    write_file(new_dir + "/grad_reduced_5-9.csv", resumed);
    Store store;
    SourceSet sources(store);
    sources.add_root(RootSpec{"mon", dir.path()});
    sources.rescan();
    sources.poll();
    EXPECT_TRUE(sources.take_messages().empty());
    ASSERT_EQ(store.series_count(), 1u);
    const Series& s = store.at(0);
    EXPECT_EQ(s.key(), (SeriesKey{"mon", 0, "grad_reduced/w/norm"}));
    ASSERT_EQ(s.count(), 8u);
    EXPECT_EQ(s.point(4).value, 1.0);
    EXPECT_EQ(s.point(5).value, 2.0);
    EXPECT_EQ(s.back().step, 7);
    ASSERT_EQ(s.restarts().size(), 1u);
    EXPECT_EQ(s.restarts()[0].step, 5);
    EXPECT_EQ(s.restarts()[0].dropped, 5u);
}

TEST(DeepSpeedCsv, RepeatedHeaderCrlfAndTensorCells) {
    TempDir dir;
    std::string path = dir / "Train_Samples_train_loss.csv";
    write_file(path,
               "step,train_loss\r\n32,2.524771754354597\r\n256,nan\r\n"
               "step,train_loss\r\n224,\"tensor(2.25, device='cuda:0')\"\r\n352,inf\r\n");
    RecordingSink sink;
    StepTableCsvReader reader(SourceFile{path, "ds", kNoRank, SourceFormat::kDeepSpeedCsv}, sink);
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(reader.take_warnings().empty());
    ASSERT_EQ(sink.scalars.size(), 4u);
    EXPECT_EQ(sink.scalars[0].key.tag, "Train/Samples/train_loss");
    EXPECT_EQ(sink.scalars[0].point.value, 2.524771754354597);
    EXPECT_TRUE(std::isnan(sink.scalars[1].point.value));
    EXPECT_EQ(sink.scalars[2].point.step, 224);  // after the restart, the step went back
    EXPECT_EQ(sink.scalars[2].point.value, 2.25);
    // The reader says its x counts samples, whatever the file's name.
    EXPECT_EQ(sink.source(0), (SeriesSource{"deepspeed-csv", StepAxis::kSamples}));
}

// DeepSpeed's csv_monitor writes samples as its step, whatever a file is named.
TEST(DeepSpeedCsv, ReaderSuppliesTheSamplesAxis) {
    TempDir dir;
    std::string path = dir / "my_metric.csv";
    write_file(path, "step,my_metric\n32,1.5\n64,1.25\n");
    RecordingSink sink;
    StepTableCsvReader reader(SourceFile{path, "ds", kNoRank, SourceFormat::kDeepSpeedCsv}, sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.keys.size(), 1u);
    EXPECT_EQ(sink.keys[0].tag, "my_metric");
    EXPECT_EQ(sink.source(0), (SeriesSource{"deepspeed-csv", StepAxis::kSamples}));
}

// A column whose tag says it counts samples is on the samples axis in any step table.
TEST(LightningCsv, AColumnNamedVsSamplesIsOnTheSamplesAxis) {
    TempDir dir;
    std::string path = dir / "metrics.csv";
    write_file(path, "step,loss,loss vs samples\n1,0.5,0.5\n2,0.25,0.25\n");
    RecordingSink sink;
    StepTableCsvReader reader(SourceFile{path, "pl", kNoRank, SourceFormat::kLightningCsv}, sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.keys.size(), 2u);
    EXPECT_EQ(sink.keys[1].tag, "loss vs samples");
    EXPECT_EQ(sink.source(0), (SeriesSource{"lightning-csv", StepAxis::kSteps}));
    EXPECT_EQ(sink.source(1), (SeriesSource{"lightning-csv", StepAxis::kSamples}));
}

TEST(DeepSpeedCsv, TagsFromFileNames) {
    EXPECT_EQ(deepspeed_tag_of_file("Train_Samples_lr.csv"), "Train/Samples/lr");
    EXPECT_EQ(deepspeed_tag_of_file("Train_Eigenvalues_ModelBlockParam_0.csv"),
              "Train/Eigenvalues/ModelBlockParam_0");
    EXPECT_EQ(deepspeed_tag_of_file("my_metric.csv"), "my_metric");
}

TEST(DeepSpeedCsv, ConfigKeyValues) {
    TempDir dir;
    std::string path = dir / "deepspeed_config.csv";
    write_file(path, "train_batch_size,32\r\nfp16,\"{'enabled': True, 'loss_scale': 0}\"\r\n");
    RecordingSink sink;
    KeyValueCsvReader reader(SourceFile{path, "ds", kNoRank, SourceFormat::kDeepSpeedConfig}, sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.texts.size(), 2u);
    EXPECT_EQ(sink.texts[0].tag, "train_batch_size");
    EXPECT_EQ(sink.texts[0].text, "32");
    EXPECT_EQ(sink.texts[1].text, "{'enabled': True, 'loss_scale': 0}");
}

TEST(LightningCsv, SparseColumnsAndRewriteWithNewKeyDeliverEachPointOnce) {
    TempDir dir;
    std::string path = dir / "metrics.csv";
    write_file(path, "epoch,step,train_loss\r\n0,1,1.5\r\n0,3,1.25\r\n");
    RecordingSink sink;
    StepTableCsvReader reader(SourceFile{path, "lt", kNoRank, SourceFormat::kLightningCsv}, sink);
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(sink.scalars.size(), 4u);
    // A new key: Lightning >= 2.1 rewrites the whole file with the sorted union header.
    write_file(
        path, "epoch,step,train_loss,val_acc\r\n0,1,1.5,\r\n0,3,1.25,\r\n0,3,,0.5\r\n1,5,nan,\r\n");
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(has_warning(reader.take_warnings(), "rewritten"));
    Delivered d = delivered(sink);
    // Every cell once; epoch@3 twice because two rows (train and val) carry it.
    for (const auto& [id, n] : d.count) EXPECT_EQ(n, id == "epoch@3" ? 2 : 1) << id;
    EXPECT_EQ(d.value["val_acc@3"], 0.5);
    EXPECT_TRUE(std::isnan(d.value["train_loss@5"]));
    EXPECT_EQ(d.value["epoch@5"], 1);
    EXPECT_EQ(sink.scalars.size(), 8u);
    // Older Lightning rewrites the whole file every flush, same header: only new rows count.
    write_file(path,
               "epoch,step,train_loss,val_acc\r\n0,1,1.5,\r\n0,3,1.25,\r\n0,3,,0.5\r\n1,5,nan,\r\n"
               "1,7,0.75,\r\n");
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(sink.scalars.size(), 10u);
}

TEST(PlainCsv, AStepColumnMakesItMetricsOtherwiseIgnoredSilently) {
    TempDir dir;
    std::string metrics = dir / "run1__metrics.csv";
    write_file(metrics, "train/loss,step\n0.5,10\n");
    std::string data = dir / "dataset.csv";
    write_file(data, "text,label\nhello,1\n");
    RecordingSink sink;
    StepTableCsvReader m(SourceFile{metrics, "r", kNoRank, SourceFormat::kPlainCsv}, sink);
    StepTableCsvReader other(SourceFile{data, "r", kNoRank, SourceFormat::kPlainCsv}, sink);
    ASSERT_TRUE(m.poll());
    ASSERT_TRUE(other.poll());
    EXPECT_TRUE(other.ignored());
    EXPECT_TRUE(other.take_warnings().empty());
    ASSERT_EQ(sink.scalars.size(), 1u);
    EXPECT_EQ(sink.scalars[0].key.tag, "train/loss");
    EXPECT_EQ(sink.source(0), (SeriesSource{"lightning-csv", StepAxis::kSteps}));
}

}  // namespace
}  // namespace runtop

namespace runtop {
namespace {

// A line far longer than any record, with no newline for a while: skipped to its end, the
// memory it takes bounded by one read buffer, the rows after it read.
TEST(LightningCsv, AnOverlongLineIsSkippedWithoutHoldingItInMemory) {
    TempDir dir;
    std::string path = dir / "metrics.csv";
    write_file(path, "epoch,step,train_loss\n0,1,1.5\n");
    RecordingSink sink;
    StepTableCsvReader reader(SourceFile{path, "lt", kNoRank, SourceFormat::kLightningCsv}, sink);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.scalars.size(), 2u);
    const std::uint64_t long_at = 30;  // after the header and the first row
    std::string junk(3 * CsvFileReader::kMaxRecordBytes + 17, '7');
    append_file(path, junk);
    do ASSERT_TRUE(reader.poll());
    while (reader.more());
    EXPECT_NE(reader.pending().find("skipping a record longer than 1 MiB"), std::string::npos)
        << reader.pending();
    EXPECT_EQ(read_scratch().size(), kReadChunk);  // never grown to hold the line
    append_file(path, junk + "\n0,2,1.25\n");
    do ASSERT_TRUE(reader.poll());
    while (reader.more());
    EXPECT_EQ(reader.pending(), "");
    EXPECT_EQ(read_scratch().size(), kReadChunk);
    ASSERT_EQ(sink.scalars.size(), 4u);
    EXPECT_EQ(sink.scalars.back().point.value, 1.25);
    EXPECT_EQ(reader.long_records(), 1u);
    EXPECT_EQ(reader.bad_rows(), 1u);
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find(path), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("offset " + std::to_string(long_at)), std::string::npos)
        << warnings[0];
}

TEST(MsProbeCsv, AnOverlongLineInTheMiddleCostsOnlyThatLine) {
    TempDir dir;
    std::string path = dir / "grad_reduced_0-4.csv";
    std::string text = "vpp_stage,name,step,norm\n0,w,0,1.0\n0,w,1," +
                       std::string(2 * CsvFileReader::kMaxRecordBytes, '9') + "\n0,w,2,3.0\n";
    write_file(path, text);
    RecordingSink sink;
    MsProbeCsvReader reader(SourceFile{path, "mon", 0, SourceFormat::kMsProbeCsv}, sink);
    do ASSERT_TRUE(reader.poll());
    while (reader.more());
    ASSERT_EQ(sink.scalars.size(), 2u);
    EXPECT_EQ(sink.scalars[0].point.value, 1.0);
    EXPECT_EQ(sink.scalars[1].point.value, 3.0);
    EXPECT_EQ(reader.bad_rows(), 1u);
}

}  // namespace
}  // namespace runtop
