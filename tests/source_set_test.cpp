// Discovery, identity and restart semantics across files: what `ls` and `dump` stand on.
#include "readers/source_set.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <set>
#include <string>

#include "core/store/store.h"
#include "readers/discovery.h"
#include "tests/test_support.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::TempDir;

std::string scalars(const std::string& tag, int from, int to, float value, int wall = 1000) {
    std::string out;
    for (int s = from; s < to; ++s)
        out += frame_record(events::simple_scalar(tag, value, s, wall + s));
    return out;
}

const Series* find(const Store& store, const SeriesKey& key) {
    for (SeriesId id = 0; id < store.series_count(); ++id)
        if (store.at(id).key() == key) return &store.at(id);
    return nullptr;
}

TEST(SourceSet, TwoFilesInOneRunWithPurgeStepRestart) {
    TempDir dir;
    testing::make_dirs(dir / "exp");
    // The first process wrote steps 0..9; the resumed one (SummaryWriter(purge_step=6)) writes a
    // new file: version record, Event(step=6, file_version), SessionLog START at 6, then data.
    testing::write_file(dir / "exp/events.out.tfevents.1700000000.host.1.0",
                        frame_record(events::file_version(1000)) + scalars("loss", 0, 10, 1.0f) +
                            scalars("acc", 0, 10, 0.5f));
    std::string resumed = frame_record(events::file_version(2000));
    resumed += frame_record(events::session_start(6, 2000));
    resumed += scalars("loss", 6, 8, 2.0f, 2000);
    testing::write_file(dir / "exp/events.out.tfevents.1700000100.host.2.0", resumed);

    Store store;
    SourceSet sources(store);
    sources.add_root(RootSpec{"logs", dir.path()});
    sources.rescan();
    sources.poll();
    EXPECT_TRUE(sources.take_messages().empty());
    const Series* loss = find(store, {"logs/exp", kNoRank, "loss"});
    const Series* acc = find(store, {"logs/exp", kNoRank, "acc"});
    ASSERT_TRUE(loss && acc);
    ASSERT_EQ(loss->count(), 8u);  // 0..5 from the first file, 6..7 from the second
    EXPECT_EQ(loss->point(6).value, 2.0);
    EXPECT_EQ(acc->count(), 6u);  // the START purged every tag of the run at step >= 6
    ASSERT_EQ(loss->restarts().size(), 1u);
    EXPECT_EQ(loss->restarts()[0].step, 6);
    EXPECT_EQ(loss->restarts()[0].dropped, 4u);
    EXPECT_EQ(sources.totals().files, 2u);
}

TEST(SourceSet, StepsGoingBackInASecondFileReplaceLaterPoints) {
    TempDir dir;
    testing::write_file(dir / "events.out.tfevents.1.a", scalars("loss", 0, 100, 1.0f));
    testing::write_file(dir / "events.out.tfevents.2.b", scalars("loss", 90, 100, 3.0f));
    Store store;
    SourceSet sources(store);
    sources.add_root(RootSpec{"r", dir.path()});
    sources.rescan();
    sources.poll();
    const Series* loss = find(store, {"r", kNoRank, "loss"});
    ASSERT_TRUE(loss);
    EXPECT_EQ(loss->count(), 100u);
    EXPECT_EQ(loss->point(89).value, 1.0);
    EXPECT_EQ(loss->point(90).value, 3.0);
    EXPECT_EQ(loss->restarts().size(), 1u);
}

TEST(SourceSet, NestedLayoutsNameRunsAndRanks) {
    TempDir dir;
    const std::string one = scalars("loss", 0, 3, 1.0f);
    for (int r = 0; r < 4; ++r) {
        testing::make_dirs(dir / ("run_a/rank_" + std::to_string(r)));
        testing::write_file(dir / ("run_a/rank_" + std::to_string(r) + "/events.out.tfevents.1.h"),
                            one);
    }
    for (int r : {0, 5}) {
        std::string d = "monitor_output/Nov21_14-35-29-rank" + std::to_string(r) + "-ad82d4e3";
        testing::make_dirs(dir / d);
        testing::write_file(
            dir / (d + "/events.out.tfevents.1.h"),
            frame_record(events::simple_scalar(
                "0:fc1.weight/rank" + std::to_string(r) + "/post_grad_norm", 1, 1, 1)));
    }
    testing::make_dirs(dir / "seed_1/DQN_1");
    testing::write_file(dir / "seed_1/DQN_1/events.out.tfevents.1.h", one);
    testing::make_dirs(dir / "ms/rank_2");
    testing::write_file(dir / "ms/rank_2/events.out.events.summary.1.h_MS",
                        frame_record(events::file_version(1, "MindSpore.Event:1")) +
                            frame_record(events::mindspore_scalar("loss", 1.5f, 1, 1)));
    testing::write_file(dir / "run_a/events.out.tfevents.1.profile-empty", one);  // not data
    testing::write_file(dir / "run_a/notes.txt", "x");

    Store store;
    SourceSet sources(store);
    sources.add_root(RootSpec{"logs", dir.path()});
    sources.rescan();
    sources.poll();
    std::set<std::string> got;
    for (SeriesId id : store.sorted_ids()) {
        const SeriesKeyRef k = store.at(id).key();
        got.insert(std::string(k.run) + "|" + std::to_string(k.rank) + "|" + std::string(k.tag) +
                   "|" + std::string(store.at(id).source().format));
    }
    EXPECT_EQ(got, (std::set<std::string>{
                       "logs/run_a|0|loss|tfevents", "logs/run_a|1|loss|tfevents",
                       "logs/run_a|2|loss|tfevents", "logs/run_a|3|loss|tfevents",
                       "logs/monitor_output|0|0:fc1.weight/post_grad_norm|tfevents",
                       "logs/monitor_output|5|0:fc1.weight/post_grad_norm|tfevents",
                       "logs/seed_1/DQN_1|-1|loss|tfevents", "logs/ms|2|loss|mindspore"}));
    EXPECT_EQ(sources.totals().files, 8u);
}

TEST(SourceSet, NewFilesAndGrowthArePickedUpByRescanAndPoll) {
    TempDir dir;
    Store store;
    SourceSet sources(store);
    sources.add_root(RootSpec{"r", dir.path()});
    sources.rescan();
    sources.poll();
    EXPECT_EQ(store.series_count(), 0u);
    testing::make_dirs(dir / "rank_1");
    std::string path = dir / "rank_1/events.out.tfevents.1.h";
    testing::write_file(path, scalars("loss", 0, 5, 1.0f));
    sources.rescan();
    sources.poll();
    ASSERT_EQ(store.series_count(), 1u);
    testing::append_file(path, scalars("loss", 5, 8, 1.0f));
    sources.rescan();  // already known: not added twice
    sources.poll();
    EXPECT_EQ(store.at(0).count(), 8u);
    EXPECT_EQ(sources.totals().files, 1u);
}

TEST(SourceSet, MissingRootIsReportedOnceAndOtherRootsStillWork) {
    TempDir dir;
    testing::write_file(dir / "events.out.tfevents.1", scalars("loss", 0, 2, 1.0f));
    Store store;
    SourceSet sources(store);
    sources.add_root(RootSpec{"gone", dir / "does-not-exist"});
    sources.add_root(RootSpec{"ok", dir.path()});
    sources.rescan();
    sources.poll();
    std::vector<std::string> messages = sources.take_messages();
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_NE(messages[0].find("does-not-exist"), std::string::npos);
    EXPECT_EQ(sources.readable_roots(), 1u);
    EXPECT_EQ(store.series_count(), 1u);
    sources.rescan();
    EXPECT_TRUE(sources.take_messages().empty());
}

TEST(SourceSet, SymlinkLoopsAreCut) {
    TempDir dir;
    testing::make_dirs(dir / "a");
    testing::write_file(dir / "a/events.out.tfevents.1", scalars("loss", 0, 2, 1.0f));
    ASSERT_EQ(::symlink(dir.path().c_str(), (dir / "a/loop").c_str()), 0);
    Discovered found = discover(RootSpec{"r", dir.path()});
    EXPECT_EQ(found.files.size(), 1u);
}

}  // namespace
}  // namespace runtop
