// Tag families of modules (core/analysis/module_families.h), what the module x step heatmap lays
// out: msProbe's CSV tags (vpp and micro-step forms) and numbered layers in any format.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/module_families.h"

namespace runtop {
namespace {

std::vector<ModuleFamily> families(const std::vector<std::string>& tags) {
    std::vector<std::string_view> views(tags.begin(), tags.end());
    return module_families(views);
}

std::vector<std::string> names(const ModuleFamily& f) {
    std::vector<std::string> out;
    for (const FamilyModule& m : f.modules) out.push_back(m.name);
    return out;
}

const ModuleFamily* find(const std::vector<ModuleFamily>& fs, std::string_view task,
                         std::string_view op) {
    for (const ModuleFamily& f : fs)
        if (f.task == task && f.op == op) return &f;
    return nullptr;
}

TEST(ModuleFamilies, LayerNumbersInEveryFormat) {
    EXPECT_EQ(module_layer("model.layers.12.mlp.weight"), 12);
    EXPECT_EQ(module_layer("transformer.h.7.attn"), 7);
    EXPECT_EQ(module_layer("encoder.layer_3.ffn"), 3);
    EXPECT_EQ(module_layer("blocks.0"), 0);
    EXPECT_EQ(module_layer("model.embed_tokens.weight"), std::nullopt);
    EXPECT_EQ(module_layer("fc1.weight"), std::nullopt);
    EXPECT_EQ(module_layer("layers.x.mlp"), std::nullopt);
}

// msProbe: task = the CSV prefix, op = the op; the CSV's row order (first seen) orders modules
// without layers; each (task, op) is a family.
TEST(ModuleFamilies, MsProbeTagsGroupByPrefixAndOpInRowOrder) {
    const auto fs = families({"grad_unreduced/fc2.bias/norm", "grad_unreduced/fc2.bias/max",
                              "grad_unreduced/fc1.weight/norm", "grad_unreduced/fc1.weight/max",
                              "actv/fc1.output/norm", "train/loss"});
    ASSERT_EQ(fs.size(), 3u);
    EXPECT_EQ(fs[0].task, "grad_unreduced");
    EXPECT_EQ(fs[0].op, "norm");
    EXPECT_TRUE(fs[0].msprobe);
    EXPECT_EQ(names(fs[0]), (std::vector<std::string>{"fc2.bias", "fc1.weight"}));
    EXPECT_EQ(fs[0].modules[1].tags, (std::vector<std::size_t>{2}));
    EXPECT_EQ(fs[1].op, "max");
    EXPECT_EQ(fs[2].task, "actv");
    EXPECT_EQ(find(fs, "train", ""), nullptr);  // train/loss is no module
}

// msProbe writes gradient rows as the backward hooks ran (fc2 before fc1): they take the forward
// order the parameters' rows give the same names, read before or after them.
TEST(ModuleFamilies, MsProbeGradientsInForwardOrder) {
    const auto fs = families({"grad_unreduced/fc2.bias/norm", "grad_unreduced/fc2.weight/norm",
                              "grad_unreduced/fc1.weight/norm", "param_origin/fc1.weight/norm",
                              "param_origin/fc2.weight/norm", "param_origin/fc2.bias/norm",
                              "grad_reduced/fc2.bias/norm", "grad_reduced/other.bias/norm"});
    ASSERT_EQ(fs.size(), 3u);
    EXPECT_EQ(names(fs[0]), (std::vector<std::string>{"fc1.weight", "fc2.weight", "fc2.bias"}));
    EXPECT_EQ(names(fs[1]), (std::vector<std::string>{"fc1.weight", "fc2.weight", "fc2.bias"}));
    // other.bias has no forward position: the family keeps its own order.
    EXPECT_EQ(names(fs[2]), (std::vector<std::string>{"fc2.bias", "other.bias"}));
}

// vpp stages order first (each chunk numbers its own layers); a module's micro-steps are one
// module with a tag each.
TEST(ModuleFamilies, MsProbeVppAndMicroSteps) {
    const auto fs = families({
        "actv/1:module.layers.0.mlp.output:0/norm",
        "actv/module.layers.1.mlp.output:0/norm",
        "actv/module.layers.0.mlp.output:0/norm",
        "actv/module.layers.0.mlp.output:1/norm",
        "actv/1:module.layers.0.mlp.output:1/norm",
    });
    ASSERT_EQ(fs.size(), 1u);
    EXPECT_EQ(names(fs[0]),
              (std::vector<std::string>{"module.layers.0.mlp.output", "module.layers.1.mlp.output",
                                        "1:module.layers.0.mlp.output"}));
    EXPECT_EQ(fs[0].modules[0].tags, (std::vector<std::size_t>{2, 3}));
    EXPECT_EQ(fs[0].modules[2].tags, (std::vector<std::size_t>{0, 4}));
    EXPECT_EQ(fs[0].modules[2].vpp, 1);
    EXPECT_EQ(fs[0].modules[0].layer, 0);
}

// Natural order of layers whatever order the tags came in (TensorBoard's are sorted as text);
// within a layer the order first seen; a module without a layer after the highest layer seen
// before it.
TEST(ModuleFamilies, GenericLayersInNaturalOrder) {
    const auto fs = families({
        "grad_norm/model.embed_tokens.weight",
        "grad_norm/model.layers.0.mlp.weight",
        "grad_norm/model.layers.0.attn.weight",
        "grad_norm/model.layers.10.mlp.weight",
        "grad_norm/model.layers.2.mlp.weight",
        "grad_norm/model.layers.2.attn.weight",
        "grad_norm/model.norm.weight",
        "train/loss",
        "train/lr",
        "timing/step.ms",
    });
    ASSERT_EQ(fs.size(), 1u);
    EXPECT_EQ(fs[0].task, "grad_norm");
    EXPECT_EQ(fs[0].op, "");
    EXPECT_FALSE(fs[0].msprobe);
    EXPECT_EQ(names(fs[0]),
              (std::vector<std::string>{"model.embed_tokens.weight", "model.layers.0.mlp.weight",
                                        "model.layers.0.attn.weight", "model.layers.2.mlp.weight",
                                        "model.layers.2.attn.weight", "model.layers.10.mlp.weight",
                                        "model.norm.weight"}));
}

// The part after the module is the op; MindFormers' local_norm is a family of its own.
TEST(ModuleFamilies, GenericOpAfterTheModule) {
    const auto fs =
        families({"local_norm/model.layers.0.attention.wq.weight", "layers.1.mlp/grad/norm",
                  "layers.0.mlp/grad/norm", "layers.0.mlp/grad/max",
                  "local_norm/model.layers.1.attention.wq.weight"});
    ASSERT_EQ(fs.size(), 3u);
    EXPECT_EQ(fs[0].task, "local_norm");
    EXPECT_EQ(fs[0].modules.size(), 2u);
    EXPECT_EQ(fs[1].task, "");
    EXPECT_EQ(fs[1].op, "grad/norm");
    EXPECT_EQ(names(fs[1]), (std::vector<std::string>{"layers.0.mlp", "layers.1.mlp"}));
    EXPECT_EQ(fs[2].op, "grad/max");
}

TEST(ModuleFamilies, NoFamilyWithoutModules) {
    EXPECT_TRUE(families({"train/loss", "eval/accuracy", "timing/step.ms", "a/b.c/d"}).empty());
    EXPECT_TRUE(families({}).empty());
}

}  // namespace
}  // namespace runtop
