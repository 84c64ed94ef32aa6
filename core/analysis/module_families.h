// Tag families whose middle names a module of the model (issue 18, the module x step heatmap):
// the same statistic of every module, so a view can lay the modules out in model order.
//
//   msProbe CSV tags  "<prefix>/[<vpp>:]<name>[:<micro>]/<op>" (core/analysis/msprobe_tag.h),
//                     prefix one of msProbe's CSV prefixes: task = prefix, module = [vpp:]name,
//                     op = op; a module's micro-steps are one module (each a member tag).
//   other tags        a '/'-separated part holding a numbered layer (`layers.12`, `layer_3`,
//                     `h.7`, `blocks.2`): task = the parts before it, op = the parts after ("" when
//                     none), module = that part. TensorBoard's
//                     `grad_norm/model.layers.12.mlp.weight` and MindFormers'
//                     `local_norm/model.layers.0.attention.wq.weight` are family
//                     `grad_norm`/`local_norm` with op "". A dotted part without a layer
//                     (`model.norm.weight`) joins a family that has layered modules with the same
//                     task and op; a bare word (`loss`) never does.
//
// Model order: by vpp stage, then the layer number (natural: 2 before 10), and within a layer the
// order the tags were first seen (msProbe writes its CSV rows in the order the hooks ran; the
// gradient prefixes, written backward, take the order the forward prefixes give the same
// names, when they name every one of them). A
// module with no layer number sits after the highest layer seen before it, so an embedding seen
// first comes first and a final norm seen last comes last, whatever the tag's spelling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace runtop {

struct FamilyModule {
    std::string name;  // as shown: "fc1.weight", "1:layers.3.mlp" (vpp written when not 0)
    std::int64_t vpp = 0;
    std::optional<std::int64_t> layer;  // the layer number, when the name has one
    std::vector<std::size_t> tags;      // indices into the input: its tags (one per micro-step)
};

struct ModuleFamily {
    std::string task;  // "grad_unreduced", "grad_norm"
    std::string op;    // "norm", "" when the tags end with the module
    bool msprobe = false;
    std::vector<FamilyModule> modules;  // in model order
};

// The layer number of a module name: the number after a `layers`/`layer`/`h`/`blocks`/`block`
// part (`layers.12`, `h.7`, `blocks/3`) or inside one (`layer_3`, `layers_12`); nullopt when none.
std::optional<std::int64_t> module_layer(std::string_view name);

// The families of `tags`, given in the order they were first seen (each once): families by
// task, then op, in first-seen order; a family has at least one module.
std::vector<ModuleFamily> module_families(std::span<const std::string_view> tags);

}  // namespace runtop
