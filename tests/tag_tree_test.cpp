// The tag tree (views/tag_tree.h) and the overview's group cards and side list on it
// (views/overview_groups.h): tags that do not fit on a page fold into groups, Enter opens one,
// Backspace goes up, `t` shows the tree beside the cards.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bench/msprobe_scale.h"
#include "tests/model_fixture.h"
#include "tests/view_fixture.h"
#include "views/canvas.h"
#include "views/overview_groups.h"
#include "views/overview_view.h"
#include "views/screen.h"
#include "views/tag_tree.h"

namespace runtop {
namespace {

// Golden frames on a generated msProbe job: 4 ranks x 48 parameters of 8 layers, 5 ops each.
class TagTreeSnapshot : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new testing::TempDir();
        ::testing::internal::CaptureStdout();
        ASSERT_EQ(bench::write_msprobe_scale(dir_->path() + "/job", {4, 48, 30, 5}), 0);
        ::testing::internal::GetCapturedStdout();
    }
    static void TearDownTestSuite() { delete dir_; }
    void SetUp() override { ::setenv("XDG_CONFIG_HOME", (config_.path() + "/config").c_str(), 1); }
    static void expect_golden(const std::string& name, std::vector<std::string> args) {
        args.insert(args.begin(), "snapshot");
        args.push_back(dir_->path() + "/job");
        testing::expect_golden_output(name, testing::run_runtop(args));
    }
    static inline testing::TempDir* dir_ = nullptr;
    testing::TempDir config_;
};

TEST_F(TagTreeSnapshot, GroupCardsStandForTheLayers) {
    expect_golden("overview_120x30_tag_groups", {"--size", "120x30", "--ascii"});
}

TEST_F(TagTreeSnapshot, EnterOpensAGroupAndTheSideListShowsWhere) {
    expect_golden("overview_120x30_tag_tree", {"--size", "120x30", "--keys", "t Right Enter"});
}

}  // namespace
}  // namespace runtop

namespace runtop::ui {
namespace {

std::vector<std::string> parts(std::string_view tag) {
    std::vector<std::string> out;
    for (std::string_view p : tag_parts(tag)) out.emplace_back(p);
    return out;
}

TEST(TagTree, PartsSplitSlashesAndNumberedLayers) {
    EXPECT_EQ(parts("Train/Samples/lr"), (std::vector<std::string>{"Train", "Samples", "lr"}));
    EXPECT_EQ(parts("grad_reduced/model.layers.12.mlp.weight/norm"),
              (std::vector<std::string>{"grad_reduced", "model.layers.12", "mlp.weight", "norm"}));
    EXPECT_EQ(parts("actv/0:layers.3.attn:1/max"),
              (std::vector<std::string>{"actv", "0:layers.3", "attn:1", "max"}));
    // A number at the start or the end of a dotted part is not a layer.
    EXPECT_EQ(parts("loss"), (std::vector<std::string>{"loss"}));
    EXPECT_EQ(parts("eval/acc.5"), (std::vector<std::string>{"eval", "acc.5"}));
    EXPECT_EQ(parts("h.0.attn"), (std::vector<std::string>{"h.0", "attn"}));
}

std::vector<TagGroup> groups_of(const std::vector<std::string>& tags) {
    std::vector<TagGroup> out;
    for (const std::string& t : tags) out.push_back(TagGroup{t, {}});
    return out;
}

TEST(TagTree, LevelsOfOneChildFoldAndEntriesKeepTheCardOrder) {
    const auto groups = groups_of({"train/loss", "Train/Samples/lr", "Train/Samples/loss_scale",
                                   "grad/layers.0.w/norm", "grad/layers.0.b/norm",
                                   "grad/layers.1.w/norm", "train/acc"});
    const TagTree tree(groups);
    const auto root = tree.entries(0);
    // train (2 cards), Train/Samples (2, folded: Train held only Samples), grad (3).
    ASSERT_EQ(root.size(), 3u);
    ASSERT_GE(root[0].node, 0);
    EXPECT_EQ(tree.node(root[0].node).name, "train");
    EXPECT_EQ(tree.node(root[0].node).members, (std::vector<int>{0, 6}));
    ASSERT_GE(root[1].node, 0);
    EXPECT_EQ(tree.node(root[1].node).name, "Train/Samples");
    EXPECT_EQ(tree.node(root[1].node).path, "Train/Samples");
    const int grad = root[2].node;
    ASSERT_GE(grad, 0);
    // In grad: layers.0 (two cards) is a group, layers.1's one card is a card.
    const auto in_grad = tree.entries(grad);
    ASSERT_EQ(in_grad.size(), 2u);
    EXPECT_EQ(tree.node(in_grad[0].node).path, "grad/layers.0");
    EXPECT_EQ(in_grad[1].group, 5);
    EXPECT_EQ(tree.find("grad/layers.0"), in_grad[0].node);
    EXPECT_EQ(tree.find("no/such"), 0);
}

class OverviewTree : public testing::ModelFixture {
  protected:
    // 6 tasks x 10 layers x 2 params: 120 tags of 2 ranks.
    void add_model() {
        for (const char* task :
             {"actv", "actv_grad", "grad_reduced", "grad_unreduced", "param", "exp_avg"})
            for (int layer = 0; layer < 10; ++layer)
                for (const char* param : {"weight", "bias"})
                    for (int rank = 0; rank < 2; ++rank)
                        add("job", rank,
                            std::string(task) + "/model.layers." + std::to_string(layer) + "." +
                                param + "/norm",
                            10,
                            [layer](int s) { return layer == 7 && s == 9 ? std::nan("") : 1.0; });
        analyzer_.finish();
    }
};

TEST_F(OverviewTree, TagsThatDoNotFitFoldIntoGroupsThatOpenAndClose) {
    add_model();
    ViewModel model(store_, analyzer_);
    const int w = 120, h = 30;
    OverviewState state;
    auto cards = overview_cards(state, model, w, h);
    ASSERT_EQ(cards.size(), 6u);  // the tasks
    for (const OverviewCard& c : cards) EXPECT_GE(c.node, 0);
    Canvas canvas(w, h);
    draw_overview(canvas, model, state);
    std::string text = canvas.to_text();
    EXPECT_NE(text.find("grad_unreduced/"), std::string::npos) << text;
    EXPECT_NE(text.find("20 tags"), std::string::npos) << text;

    // Enter on grad_reduced: its layers, each a group of two tags.
    const TagTree& tree = overview_tree(model);
    int task = -1;
    for (int c = 0; c < static_cast<int>(cards.size()); ++c)
        if (tree.node(cards[c].node).path == "grad_reduced") task = c;
    ASSERT_GE(task, 0);
    state.selected = task;
    EXPECT_TRUE(overview_enter(state, model, w, h));
    EXPECT_EQ(state.tree, "grad_reduced");
    cards = overview_cards(state, model, w, h);
    EXPECT_EQ(cards.size(), 10u);
    draw_overview(canvas, model, state);
    text = canvas.to_text();
    EXPECT_NE(text.find("model.layers.3/"), std::string::npos) << text;
    EXPECT_NE(text.find("grad_reduced/ (Backspace: up)"), std::string::npos) << text;
    // A group of two fits: Enter shows its tags' own cards.
    state.selected = 7;
    EXPECT_TRUE(overview_enter(state, model, w, h));
    cards = overview_cards(state, model, w, h);
    ASSERT_EQ(cards.size(), 2u);
    EXPECT_EQ(cards[0].group->tag, "grad_reduced/model.layers.7.bias/norm");
    EXPECT_EQ(cards[1].group->tag, "grad_reduced/model.layers.7.weight/norm");
    // Enter on a tag's card is the chart's, not the tree's.
    state.selected = 0;
    EXPECT_FALSE(overview_enter(state, model, w, h));

    // Backspace twice: back at the tasks, grad_reduced selected.
    EXPECT_TRUE(overview_up(state, model, w, h));
    EXPECT_EQ(state.tree, "grad_reduced");
    EXPECT_EQ(state.selected, 7);
    EXPECT_TRUE(overview_up(state, model, w, h));
    EXPECT_EQ(state.tree, "");
    EXPECT_EQ(state.selected, task);
    EXPECT_FALSE(overview_up(state, model, w, h));

    // A tag taken from another view opens the level showing its card.
    const auto& groups = model.groups();
    int index = -1;
    for (int i = 0; i < static_cast<int>(groups.size()); ++i)
        if (groups[i].tag == "exp_avg/model.layers.4.bias/norm") index = i;
    ASSERT_GE(index, 0);
    overview_show_tag(state, index, model, w, h);
    EXPECT_EQ(state.tree, "exp_avg/model.layers.4");
    cards = overview_cards(state, model, w, h);
    ASSERT_GE(state.selected, 0);
    EXPECT_EQ(cards[state.selected].group_index, index);
}

TEST_F(OverviewTree, AGroupCardCarriesTheWorstStateOfItsTags) {
    add_model();
    ViewModel model(store_, analyzer_);
    const int w = 120, h = 30;
    OverviewState state;
    Canvas canvas(w, h);
    draw_overview(canvas, model, state);
    // Layer 7's NaN in every task: each task's card is in alert, two of its tags (weight and
    // bias) in it, and it names the first of them.
    const std::string text = canvas.to_text();
    const std::string top = testing::split_lines(text)[0];
    std::size_t badges = 0;
    for (std::size_t at = top.find("▲ 2"); at != std::string::npos; at = top.find("▲ 2", at + 1))
        ++badges;
    EXPECT_EQ(badges, 4u) << text;  // the first row of cards: four tasks
    EXPECT_NE(text.find("model.layers.7…norm"), std::string::npos) << text;  // fitted
    const GroupState& gs = group_state(model, overview_cards(state, model, w, h)[0].node);
    EXPECT_EQ(gs.level, AlertLevel::kAlert);
    EXPECT_EQ(gs.count, 2);
}

TEST_F(OverviewTree, TheSideListShowsTheTreeWithCountsAndTheLevel) {
    add_model();
    ViewModel model(store_, analyzer_);
    const int w = 120, h = 30;
    UiState ui;
    // grad_reduced is the fourth task (actv, actv_grad, exp_avg, grad_reduced, ...).
    for (const InputEvent& e : parse_key_script("t Right Right Right Right Enter"))
        handle(ui, e, model, analyzer_, w, h);
    EXPECT_TRUE(ui.overview.side_list);
    EXPECT_EQ(ui.overview.tree, "grad_reduced");
    Canvas canvas(w, h);
    draw_screen(canvas, model, ui);
    const std::string text = canvas.to_text();
    EXPECT_NE(text.find("▾ all"), std::string::npos) << text;
    EXPECT_NE(text.find("▾ grad_reduced"), std::string::npos) << text;
    EXPECT_NE(text.find("▸ model.layers.0"), std::string::npos) << text;
    EXPECT_NE(text.find("▸ actv_grad"), std::string::npos) << text;
    // Backspace through the state machine goes up.
    handle(ui, InputEvent::named("Backspace"), model, analyzer_, w, h);
    EXPECT_EQ(ui.overview.tree, "");
}

}  // namespace
}  // namespace runtop::ui
