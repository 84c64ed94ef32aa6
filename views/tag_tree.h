// The tags as a tree, for the overview's group cards and its side list: TensorBoard's `/`
// hierarchy ("Train/Samples/lr"), msProbe's "<task>/<module>/<op>", and inside a part, a
// numbered layer ("model.layers.12.mlp.weight" -> "model.layers.12" / "mlp.weight"), so the
// thousands of tags of a large model fold into tasks, then layers, then parameters.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "views/model.h"

namespace runtop::ui {

// The parts of a tag, as the tree nests them.
std::vector<std::string_view> tag_parts(std::string_view tag);

struct TagNode {
    std::string name;  // its parts below its parent's, as in the tag ("Train/Samples" when
                       // a level held one child only and was folded into it)
    std::string path;  // the tag's text up to here ("" for the root)
    int parent = -1;
    std::vector<int> children;  // nodes, in the order of their first member
    std::vector<int> own;       // cards (indices into ViewModel::groups()) whose tag ends here
    std::vector<int> members;   // every card under it, in groups() order
};

class TagTree {
  public:
    // The tree of `groups` (ViewModel::groups()); node 0 is the root.
    explicit TagTree(const std::vector<TagGroup>& groups);

    const std::vector<TagNode>& nodes() const { return nodes_; }
    const TagNode& node(int i) const { return nodes_[i]; }
    // The node with this path, or the root.
    int find(std::string_view path) const;
    // What a level shows, in groups() order of their first member: its children (a child
    // holding one card is that card) and the cards ending at it. `node` >= 0: a group.
    struct Entry {
        int node = -1;   // a group: a node with more than one card
        int group = -1;  // a card: an index into groups()
    };
    std::vector<Entry> entries(int node) const;

  private:
    std::vector<TagNode> nodes_;
};

}  // namespace runtop::ui
