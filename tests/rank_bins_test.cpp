// Rows of ranks when they outnumber the screen's (views/rank_bins.h): bins of neighbours, the
// outliers on rows of their own, and a bin's column as its members' together; then the heatmap
// binning 1,024 ranks (views/heatmap_view.h).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/model_fixture.h"
#include "tests/view_fixture.h"
#include "views/canvas.h"
#include "views/heatmap_view.h"
#include "views/model.h"
#include "views/rank_bins.h"

namespace runtop {
namespace {

// Golden frames of binned rows: 48 ranks of the shared fixture's event files (rank 30's grad
// norm spikes at step 200, rank 9's loss is NaN at step 300) on canvases too short for them.
class RankBinsSnapshot : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new testing::TempDir();
        for (int rank = 0; rank < 48; ++rank) {
            const std::string d = dir_->path() + "/job/rank_" + std::to_string(rank);
            testing::make_dirs(d);
            testing::write_file(
                d + "/events.out.tfevents.1",
                testing::rank_events(rank, 400, rank == 9 ? 300 : -1, rank == 30 ? 200 : -1));
        }
    }
    static void TearDownTestSuite() { delete dir_; }
    void SetUp() override { ::setenv("XDG_CONFIG_HOME", (config_.path() + "/config").c_str(), 1); }
    static void expect_golden(const std::string& name, std::vector<std::string> args) {
        args.insert(args.begin(), "snapshot");
        args.push_back("fx=" + dir_->path());
        testing::expect_golden_output(name, testing::run_runtop(args));
    }
    static inline testing::TempDir* dir_ = nullptr;
    testing::TempDir config_;
};

TEST_F(RankBinsSnapshot, HeatmapBinsTheRanksAndKeepsTheOutliers) {
    expect_golden("heatmap_100x24_bins",
                  {"--size", "100x24", "--view", "heatmap", "--tag", "train/grad_norm"});
}

TEST_F(RankBinsSnapshot, HeatmapOutliersFirst) {
    expect_golden("heatmap_100x24_bins_outliers_first",
                  {"--size", "100x24", "--view", "heatmap", "--tag", "train/loss", "--keys", "o"});
}

TEST_F(RankBinsSnapshot, RankSparklinesBinned) {
    expect_golden("ranks_100x24_sparkline_bins",
                  {"--size", "100x24", "--view", "ranks", "--keys", "v"});
}

}  // namespace
}  // namespace runtop

namespace runtop::ui {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<std::vector<int>> members(const std::vector<RankRow>& rows) {
    std::vector<std::vector<int>> out;
    for (const RankRow& r : rows) out.push_back(r.members);
    return out;
}

TEST(RankRows, ARowPerRankWhileTheyFit) {
    const std::vector<double> scores = {0.1, 3, 0.2, kInf};
    const auto rows = rank_rows(scores, {4, 8, true, false});
    EXPECT_EQ(members(rows), (std::vector<std::vector<int>>{{0}, {1}, {2}, {3}}));
    EXPECT_TRUE(rows[1].outlier);
    EXPECT_TRUE(rows[3].outlier);
    EXPECT_FALSE(rows[0].outlier);
    // Outliers first: the NaN (infinite) before the finite distance, then rank order.
    const auto first = rank_rows(scores, {4, 8, true, true});
    EXPECT_EQ(members(first), (std::vector<std::vector<int>>{{3}, {1}, {0}, {2}}));
}

TEST(RankRows, BinsHoldWholeNodesAndOutliersKeepTheirRows) {
    // 64 ranks on 6 rows, rank 13 off its peers: 5 bins' room, ceil(64 / 5) = 13 a bin, rounded
    // up to two nodes of 8: bins of 16, rank 13 on its own row after the bin it falls in.
    std::vector<double> scores(64, 0.2);
    scores[13] = 40;
    const auto rows = rank_rows(scores, {6, 8, true, false});
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0].members.size(), 15u);  // 0-15 without 13
    EXPECT_EQ(rows[0].members.front(), 0);
    EXPECT_EQ(rows[0].members.back(), 15);
    EXPECT_EQ(rows[1].members, std::vector<int>{13});
    EXPECT_TRUE(rows[1].outlier);
    EXPECT_EQ(rows[2].members.front(), 16);
    EXPECT_EQ(rows[4].members.back(), 63);
    // Outliers first puts it on top; the bins stay in rank order.
    const auto first = rank_rows(scores, {6, 8, true, true});
    EXPECT_EQ(first[0].members, std::vector<int>{13});
    EXPECT_EQ(first[1].members.front(), 0);
    // Binning off: a row per rank (paged by the view).
    EXPECT_EQ(rank_rows(scores, {6, 8, false, false}).size(), 64u);
    // More outliers than the room: each still has its row (one bin for the rest: 11 rows).
    std::vector<double> bad(64, 0.2);
    for (int i = 0; i < 10; ++i) bad[i * 6] = 50;
    EXPECT_EQ(rank_rows(bad, {6, 8, true, false}).size(), 11u);
    // Every rank somewhat off (noisy ranks each cross the limit somewhere): none stands out
    // but the one far beyond the others' worst.
    std::vector<double> noisy(64, 2);
    noisy[40] = 7;
    const auto few = rank_rows(noisy, {6, 8, true, true});
    EXPECT_EQ(few[0].members, std::vector<int>{40});
    EXPECT_TRUE(few[0].outlier);
    EXPECT_FALSE(few[1].outlier);
}

TEST(RankRows, MergeIntoAddsPointsAndWeighsTheMean) {
    ColumnSummary a;
    a.count = 2;
    a.min = 1;
    a.max = 3;
    a.mean = 2;
    a.last = 3;
    a.last_step = 10;
    ColumnSummary b;
    b.count = 3;
    b.nan = 1;  // two finite points
    b.min = 0;
    b.max = 10;
    b.mean = 5;
    b.last = 0;
    b.last_step = 12;
    ColumnSummary m;
    merge_into(m, a);
    merge_into(m, b);
    EXPECT_EQ(m.count, 5u);
    EXPECT_EQ(m.nan, 1u);
    EXPECT_EQ(m.min, 0);
    EXPECT_EQ(m.max, 10);
    EXPECT_DOUBLE_EQ(m.mean, 3.5);  // (2 * 2 + 5 * 2) / 4
    EXPECT_EQ(m.last_step, 12);
    // A column of NaN only adds its counts, not its (NaN) extremes.
    ColumnSummary n;
    n.count = 1;
    n.nan = 1;
    n.min = n.max = n.mean = std::nan("");
    merge_into(m, n);
    EXPECT_EQ(m.min, 0);
    EXPECT_EQ(m.nan, 2u);
}

class HeatmapBins : public testing::ModelFixture {
  protected:
    // 1,024 ranks x 100 steps near 1; rank 700 x1000 at step 60, rank 13 NaN at step 30.
    void add_job() {
        for (int rank = 0; rank < 1024; ++rank)
            add("job", rank, "train/grad_norm", 100, [rank](int s) {
                if (rank == 700 && s == 60) return 1000.0;
                if (rank == 13 && s == 30) return std::nan("");
                return 1.0 + 0.01 * std::sin(s * 0.7 + rank);
            });
        analyzer_.finish();
    }
    static int row_of(const HeatmapLayout& l, int member) {
        for (int r = 0; r < l.rows; ++r)
            for (int m : l.lines[r].members)
                if (m == member) return r;
        return -1;
    }
};

TEST_F(HeatmapBins, AThousandRanksFitWithTheOutliersOnTheirOwnRows) {
    add_job();
    ViewModel model(store_, analyzer_);
    const int w = 120, h = 30;
    HeatmapState state;
    const HeatmapLayout l = heatmap_layout(state, model, w, h);
    ASSERT_GT(l.binned, 0);
    EXPECT_LE(l.rows, l.body_rows);  // one page
    EXPECT_EQ(l.outliers, 2);
    const int r700 = row_of(l, 700), r13 = row_of(l, 13);
    ASSERT_GE(r700, 0);
    ASSERT_GE(r13, 0);
    EXPECT_FALSE(l.lines[r700].bin());
    EXPECT_FALSE(l.lines[r13].bin());
    EXPECT_EQ(model.run_rank(l.row_series(r700)), (RunRank{"job", 700}));
    // Every rank is on exactly one row.
    std::vector<int> seen(1024, 0);
    for (const RankRow& r : l.lines)
        for (int m : r.members) ++seen[m];
    for (int i = 0; i < 1024; ++i) EXPECT_EQ(seen[i], 1) << i;

    Canvas canvas(w, h);
    draw_heatmap(canvas, model, state);
    const std::string text = canvas.to_text();
    EXPECT_NE(text.find("1024 ranks in " + std::to_string(l.rows) + " rows"), std::string::npos)
        << text;
    EXPECT_NE(text.find("2 outliers apart"), std::string::npos) << text;
    // The spike and the NaN show on the outliers' rows.
    auto cell = [&](int r, std::int64_t step) {
        return canvas.at(l.map_x + l.column_of(step), l.body_y + r - l.first).ch;
    };
    EXPECT_EQ(cell(r700, 60), U'↑') << text;
    EXPECT_EQ(cell(r13, 30), marks(GlyphTier::kBraille).nan) << text;
    // The bin holding rank 13's neighbours has no NaN: it was taken out.
    EXPECT_NE(cell(r13 - 1, 30), marks(GlyphTier::kBraille).nan) << text;
}

TEST_F(HeatmapBins, OPutsTheOutliersOnTopAndBGivesARowPerRank) {
    add_job();
    ViewModel model(store_, analyzer_);
    const int w = 120, h = 30;
    HeatmapState state;
    EXPECT_TRUE(heatmap_handle(state, Action::kToggleOutliersFirst, model, w, h));
    HeatmapLayout l = heatmap_layout(state, model, w, h);
    EXPECT_EQ(l.lines[0].members, std::vector<int>{13});  // a NaN first
    EXPECT_EQ(l.lines[1].members, std::vector<int>{700});
    EXPECT_NE(heatmap_rows_note(state, model, w, h).find("2 outliers on top"), std::string::npos);
    // The selection followed its rank: rank 0, first of the first bin, now after the outliers.
    EXPECT_EQ(l.lines[l.row].members.front(), 0);
    state.row = 0;  // rank 13
    // b: a row per rank, the selection (row 0: rank 13) following its rank.
    EXPECT_TRUE(heatmap_handle(state, Action::kToggleRankBins, model, w, h));
    l = heatmap_layout(state, model, w, h);
    EXPECT_EQ(l.rows, 1024);
    EXPECT_EQ(l.binned, 0);
    EXPECT_EQ(model.run_rank(l.row_series(l.row)), (RunRank{"job", 13}));
}

TEST_F(HeatmapBins, EnterOnABinOpensTheMemberThatTells) {
    // Rank 37's bump at step 150 is too small to make it an outlier (the ranks spread wider),
    // so it stays in its bin: Enter on the bin's cell opens rank 37 there.
    for (int rank = 0; rank < 256; ++rank)
        add("job", rank, "train/loss", 200,
            [rank](int s) { return 2.0 + 0.001 * rank + (rank == 37 && s == 150 ? 0.05 : 0.0); });
    analyzer_.finish();
    ViewModel model(store_, analyzer_);
    const int w = 100, h = 20;
    HeatmapState state;
    HeatmapLayout l = heatmap_layout(state, model, w, h);
    ASSERT_GT(l.binned, 0);
    const int r = row_of(l, 37);
    ASSERT_TRUE(l.lines[r].bin());
    state.row = r;
    heatmap_go_to_step(state, 150, model, w, h);
    const HeatmapSelection s = heatmap_selection(state, model, w, h);
    // The member furthest from its bin's mean in that column: rank 37's bump.
    EXPECT_EQ(model.run_rank(s.series), (RunRank{"job", 37}));
    ASSERT_TRUE(s.step);
}

TEST_F(HeatmapBins, TheSelectedColumnKeepsItsStepWhileStepsArrive) {
    // The selection is kept as a step: on a live run the columns widen as steps arrive and an
    // index would drift onto other steps.
    add("job", 0, "train/loss", 2000, [](int s) { return 1.0 + 0.001 * s; });
    ViewModel model(store_, analyzer_);
    const int w = 100, h = 14;
    HeatmapState state;
    heatmap_go_to_step(state, 1234, model, w, h);
    HeatmapLayout l = heatmap_layout(state, model, w, h);
    EXPECT_LE(l.bucket_start(l.column), 1234);
    EXPECT_GT(l.bucket_start(l.column + 1), 1234);
    // 2,000 more steps: the column is wider, and still holds step 1234.
    const SeriesId id = sink_.series({"job", 0, "train/loss"}, source_id({"tfevents"}));
    for (int s = 2000; s < 4000; ++s) sink_.append(id, {s, 0, 1.0 + 0.001 * s});
    model.update();
    l = heatmap_layout(state, model, w, h);
    EXPECT_LE(l.bucket_start(l.column), 1234);
    EXPECT_GT(l.bucket_start(l.column + 1), 1234);
    // Right then moves on from there.
    EXPECT_TRUE(heatmap_handle(state, Action::kRight, model, w, h));
    l = heatmap_layout(state, model, w, h);
    EXPECT_GT(l.bucket_start(l.column), 1234);
}

}  // namespace
}  // namespace runtop::ui
