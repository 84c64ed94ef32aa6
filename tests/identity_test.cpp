#include "core/identity.h"

#include <gtest/gtest.h>

#include "core/rank_spec.h"
#include "core/series_key.h"

namespace runtop {
namespace {

bool never(const std::string&) {
    return false;
}
bool always(const std::string&) {
    return true;
}

TEST(Identity, RootSpecs) {
    EXPECT_EQ(parse_root_spec("logs/run_a/", never)->name, "run_a");
    EXPECT_EQ(parse_root_spec("base=logs/x", never)->name, "base");
    EXPECT_EQ(parse_root_spec("base=logs/x", never)->path, "logs/x");
    // A directory literally named "lr=0.1" is a path, not NAME=PATH.
    EXPECT_EQ(parse_root_spec("lr=0.1", always)->path, "lr=0.1");
    EXPECT_EQ(parse_root_spec("lr=0.1", always)->name, "lr=0.1");
    EXPECT_FALSE(parse_root_spec("=x", never).ok());
    EXPECT_FALSE(parse_root_spec("a=", never).ok());
    EXPECT_EQ(parse_root_spec("/", never)->name, "/");
}

TEST(Identity, RankDirectoryComponents) {
    EXPECT_EQ(rank_of_dir_component("rank_3"), 3);
    EXPECT_EQ(rank_of_dir_component("rank12"), 12);
    EXPECT_EQ(rank_of_dir_component("rank-5"), 5);
    EXPECT_EQ(rank_of_dir_component("Nov21_14-35-29-rank1-1535879a"), 1);
    EXPECT_EQ(rank_of_dir_component("Dec03_21-34-40-rank15-ad82d4e3"), 15);
    EXPECT_EQ(rank_of_dir_component("rank"), kNoRank);
    EXPECT_EQ(rank_of_dir_component("ranking"), kNoRank);
    EXPECT_EQ(rank_of_dir_component("rank_x"), kNoRank);
    EXPECT_EQ(rank_of_dir_component("frank3"), kNoRank);
    EXPECT_EQ(rank_of_dir_component("run_a"), kNoRank);
    EXPECT_EQ(rank_of_dir_component("a-rank3"), kNoRank);  // msProbe dirs go on after the rank
}

TEST(Identity, RunsFoldRankDirectories) {
    DirIdentity a = identity_of_dir("run_a/rank_3");
    EXPECT_EQ(a.run_rel, "run_a");
    EXPECT_EQ(a.rank, 3);
    DirIdentity b = identity_of_dir("Nov21_14-35-29-rank1-1535879a");
    EXPECT_EQ(b.run_rel, "");
    EXPECT_EQ(b.rank, 1);
    DirIdentity c = identity_of_dir("worker/tensorboard/rank_0/sub");  // MindFormers + add_scalars
    EXPECT_EQ(c.run_rel, "worker/tensorboard/sub");
    EXPECT_EQ(c.rank, 0);
    DirIdentity d = identity_of_dir("seed_1/DQN_1");
    EXPECT_EQ(d.run_rel, "seed_1/DQN_1");
    EXPECT_EQ(d.rank, kNoRank);
    EXPECT_EQ(identity_of_dir("").run_rel, "");
    EXPECT_EQ(run_name("logs", ""), "logs");
    EXPECT_EQ(run_name("logs", "run_a"), "logs/run_a");
}

TEST(Identity, RankSegmentOfMsProbeTags) {
    TagIdentity t = identity_of_tag("0:fc1.input:0/rank0/actv_norm");
    EXPECT_EQ(t.tag, "0:fc1.input:0/actv_norm");
    EXPECT_EQ(t.rank, 0);
    TagIdentity u = identity_of_tag("all_reduce/rank12/post_0_norm");
    EXPECT_EQ(u.tag, "all_reduce/post_0_norm");
    EXPECT_EQ(u.rank, 12);
    EXPECT_EQ(identity_of_tag("loss/rank0").rank, kNoRank);  // a trailing segment is a name
    EXPECT_EQ(identity_of_tag("train/ranking/x").rank, kNoRank);
    EXPECT_EQ(identity_of_tag("train/loss").tag, "train/loss");
}

TEST(RankSpec, Selections) {
    RankSpec all = *RankSpec::parse("");
    EXPECT_TRUE(all.selects(0));
    EXPECT_TRUE(all.selects(kNoRank));
    RankSpec range = *RankSpec::parse("0-15,!7");
    EXPECT_TRUE(range.selects(0));
    EXPECT_TRUE(range.selects(15));
    EXPECT_FALSE(range.selects(7));
    EXPECT_FALSE(range.selects(16));
    EXPECT_FALSE(range.selects(kNoRank));
    RankSpec list = *RankSpec::parse("0,2,5");
    EXPECT_TRUE(list.selects(2));
    EXPECT_FALSE(list.selects(3));
    RankSpec not3 = *RankSpec::parse("!3");
    EXPECT_TRUE(not3.selects(4));
    EXPECT_FALSE(not3.selects(3));
    EXPECT_TRUE(not3.selects(kNoRank));
    for (const char* bad : {"x", "3-1", "-1", "1-", "!", "1,,2"})
        EXPECT_FALSE(RankSpec::parse(bad).ok()) << bad;
}

TEST(RankSpec, WholeNodes) {
    // 8 ranks a node by default: n3 is ranks 24-31.
    RankSpec n3 = *RankSpec::parse("n3");
    EXPECT_FALSE(n3.selects(23));
    EXPECT_TRUE(n3.selects(24));
    EXPECT_TRUE(n3.selects(31));
    EXPECT_FALSE(n3.selects(32));
    // A range of nodes, a node left out, "node" spelled out, mixed with ranks.
    RankSpec mixed = *RankSpec::parse("n0-1,!n1,node4,100");
    EXPECT_TRUE(mixed.selects(7));
    EXPECT_FALSE(mixed.selects(8));
    EXPECT_TRUE(mixed.selects(33));
    EXPECT_TRUE(mixed.selects(100));
    EXPECT_FALSE(mixed.selects(99));
    // Another node size.
    RankSpec sixteen = *RankSpec::parse("n1", 16);
    EXPECT_TRUE(sixteen.selects(16));
    EXPECT_TRUE(sixteen.selects(31));
    EXPECT_FALSE(sixteen.selects(15));
    for (const char* bad : {"n", "nx", "n3-1", "node", "!n", "n99999999999"})
        EXPECT_FALSE(RankSpec::parse(bad).ok()) << bad;
    EXPECT_NE(RankSpec::parse("nx").error().message.find("at 'nx'"), std::string::npos);
}

TEST(Identity, RunInRootIsTheRootOrBelowIt) {
    EXPECT_TRUE(run_in_root("job", "job"));
    EXPECT_TRUE(run_in_root("job/seed1", "job"));
    EXPECT_FALSE(run_in_root("job2", "job"));  // a longer name is not below it
    EXPECT_FALSE(run_in_root("jo", "job"));
    EXPECT_FALSE(run_in_root("other/job", "job"));
}

TEST(Identity, PathBelowRootPairsRunsOfTwoRoots) {
    EXPECT_EQ(path_below_root("new/seed1/tb", "new"), "seed1/tb");
    EXPECT_EQ(path_below_root("new", "new"), "");
    EXPECT_EQ(path_below_root("base/tb", "base"), path_below_root("new/tb", "new"));
}

}  // namespace
}  // namespace runtop
