#include "tests/mixed_tree.h"

#include <gtest/gtest.h>
#include <sys/time.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "bench/events_scale.h"
#include "bench/msprobe_scale.h"
#include "tests/test_support.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop::testing {

std::string scalar_records(const std::string& tag, int from, int to, float value, int wall) {
    std::string out;
    for (int s = from; s < to; ++s)
        out += frame_record(events::simple_scalar(tag, value + s, s, wall + s));
    return out;
}

void write_mixed_tree(const std::string& root, bool trainer_states) {
    make_dirs(root);
    ::testing::internal::CaptureStdout();
    EXPECT_EQ(bench::write_msprobe_scale(root + "/msprobe", {6, 5, 23, 5}), 0);
    EXPECT_EQ(bench::write_msprobe_scale(root + "/msprobe1", {3, 3, 7, 1}), 0);
    ::testing::internal::GetCapturedStdout();
    EXPECT_TRUE(bench::write_events_scale(root + "/events", {3, 40, 300}));

    make_dirs(root + "/exp");
    write_file(root + "/exp/events.out.tfevents.1700000000.host.1.0",
               frame_record(events::file_version(1000)) + scalar_records("loss", 0, 10, 1.0f) +
                   frame_record(events::text("config", "lr: 0.1", 0, 1000)) +
                   scalar_records("acc", 0, 10, 0.5f));
    write_file(root + "/exp/events.out.tfevents.1700000100.host.2.0",
               frame_record(events::file_version(2000)) +
                   frame_record(events::session_start(6, 2000)) +
                   scalar_records("loss", 6, 8, 2.0f, 2000));
    make_dirs(root + "/bad");
    write_file(root + "/bad/events.out.tfevents.1700000000.host.1.0",
               frame_record(events::file_version(1000)) + scalar_records("loss", 0, 5, 1.0f) +
                   "\x07garbage that is no record at all\x01\x02" +
                   scalar_records("loss", 5, 9, 3.0f) + "\x10\x00\x00");
    std::vector<std::string> csvs;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root + "/msprobe"))
        if (e.path().extension() == ".csv") csvs.push_back(e.path().string());
    ASSERT_FALSE(csvs.empty());
    std::sort(csvs.begin(), csvs.end());
    append_file(csvs[csvs.size() / 2], "this,row,does,not,fit\n1,2,3");

    make_dirs(root + "/lightning/version_0");
    write_file(root + "/lightning/version_0/metrics.csv",
               "epoch,step,train_loss,val_acc\n0,0,1.5,\n0,1,1.25,\n0,2,,0.5\nx,y\n");
    make_dirs(root + "/plain");
    write_file(root + "/plain/stats.csv", "step,throughput\n0,10\n1,11\n2,12.5\n");

    if (trainer_states) {
        for (const char* checkpoint : {"checkpoint-2", "checkpoint-4"}) {
            make_dirs(root + "/hf/" + checkpoint);
            write_file(root + "/hf/" + checkpoint + "/trainer_state.json",
                       std::string("{\"global_step\": 4, \"log_history\": [{\"loss\": 1.5, "
                                   "\"step\": 2}") +
                           (checkpoint[11] == '4' ? ", {\"loss\": 1.25, \"step\": 4}" : "") + "]}");
        }
    }
    const timeval when[2] = {{1700000000, 0}, {1700000000, 0}};
    for (const auto& e : std::filesystem::recursive_directory_iterator(root))
        if (e.is_regular_file()) ::utimes(e.path().c_str(), when);
}

}  // namespace runtop::testing
