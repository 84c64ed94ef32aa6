// Tag titles (views/tag_title.h): the prefix a page's tags share, and middle elision that keeps
// the layer number and the op.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "views/canvas.h"
#include "views/tag_title.h"

namespace runtop::ui {
namespace {

std::string shared(std::vector<std::string_view> tags) {
    return shared_tag_prefix(tags);
}

TEST(SharedTagPrefix, WholePathPartsEveryTagHas) {
    EXPECT_EQ(shared({"grad_reduced/layers.0.weight/norm", "grad_reduced/layers.1.bias/norm"}),
              "grad_reduced/");
    // "grad_" is common but not a whole part.
    EXPECT_EQ(shared({"grad_reduced/a", "grad_unreduced/a"}), "");
    EXPECT_EQ(shared({"a/b/c/x", "a/b/c/y", "a/b/d"}), "a/b/");
    // One tag, or one left with nothing: no prefix.
    EXPECT_EQ(shared({"train/loss"}), "");
    EXPECT_EQ(shared({"a/b", "a/"}), "");
    EXPECT_EQ(shared({}), "");
}

TEST(FitTag, KeepsTheLayerNumberAndTheOp) {
    const std::string tag = "layers.12.mlp.down_proj.weight/norm";
    EXPECT_EQ(fit_tag(tag, 60, false), tag);
    EXPECT_EQ(fit_tag(tag, 24, false), "layers.12…weight/norm");
    EXPECT_EQ(fit_tag(tag, 30, false), "layers.12.mlp…weight/norm");
    EXPECT_EQ(fit_tag(tag, 16, false), "layers.12…norm");
    EXPECT_EQ(fit_tag(tag, 24, true), "layers.12~weight/norm");
    // Two tags that differ only in the middle still differ once fitted.
    EXPECT_NE(fit_tag("layers.3.self_attn.q_proj.weight/norm", 22, false),
              fit_tag("layers.30.self_attn.q_proj.weight/norm", 22, false));
    for (int w = 1; w < 40; ++w) EXPECT_LE(display_width(fit_tag(tag, w, false)), w) << w;
}

TEST(FitTag, WithoutANumberTheStartAndTheEndInWholeParts) {
    EXPECT_EQ(fit_tag("Train/Samples/group/x/train_loss", 22, false), "…group/x/train_loss");
    EXPECT_EQ(fit_tag("Train/Samples/group/x/train_loss", 26, false), "Train/…group/x/train_loss");
    // Non-ASCII, or no room for the op: cut at the end as fit() does.
    EXPECT_EQ(fit_tag("損失/訓練/とても長い名前", 8, false), fit("損失/訓練/とても長い名前", 8));
    EXPECT_EQ(fit_tag("layers.0.weight/a_very_long_operation_name", 10, false),
              fit("layers.0.weight/a_very_long_operation_name", 10));
}

}  // namespace
}  // namespace runtop::ui
