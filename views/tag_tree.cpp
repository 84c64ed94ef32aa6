#include "views/tag_tree.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace runtop::ui {
namespace {

// Where a dotted part's numbered layer ends: "model.layers.12.mlp.weight" -> the length of
// "model.layers.12", or npos when no inner component is a number followed by more.
std::size_t layer_end(std::string_view part) {
    std::size_t start = 0;
    while (start < part.size()) {
        std::size_t dot = part.find('.', start);
        if (dot == std::string_view::npos) return std::string_view::npos;  // the last component
        const std::string_view comp = part.substr(start, dot - start);
        const bool number = !comp.empty() && start > 0 &&
                            std::all_of(comp.begin(), comp.end(),
                                        [](unsigned char c) { return std::isdigit(c) != 0; });
        if (number) return dot;
        start = dot + 1;
    }
    return std::string_view::npos;
}

}  // namespace

std::vector<std::string_view> tag_parts(std::string_view tag) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t slash = tag.find('/', start);
        std::string_view part = tag.substr(
            start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
        if (const std::size_t end = layer_end(part); end != std::string_view::npos) {
            parts.push_back(part.substr(0, end));
            part = part.substr(end + 1);
        }
        parts.push_back(part);
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    return parts;
}

TagTree::TagTree(const std::vector<TagGroup>& groups) {
    nodes_.emplace_back();
    // Children by name, per node, while building.
    std::vector<std::unordered_map<std::string_view, int>> index(1);
    for (int g = 0; g < static_cast<int>(groups.size()); ++g) {
        const std::string& tag = groups[g].tag;
        const std::vector<std::string_view> parts = tag_parts(tag);
        int at = 0;
        nodes_[0].members.push_back(g);
        for (std::size_t p = 0; p < parts.size(); ++p) {
            auto it = index[at].find(parts[p]);
            int next;
            if (it == index[at].end()) {
                next = static_cast<int>(nodes_.size());
                TagNode n;
                n.name = std::string(parts[p]);
                // The tag's text up to the end of this part.
                const std::size_t end =
                    static_cast<std::size_t>(parts[p].data() - tag.data()) + parts[p].size();
                n.path = tag.substr(0, end);
                n.parent = at;
                nodes_.push_back(std::move(n));
                index.emplace_back();
                index[at].emplace(parts[p], next);
                nodes_[at].children.push_back(next);
            } else {
                next = it->second;
            }
            at = next;
            nodes_[at].members.push_back(g);
        }
        nodes_[at].own.push_back(g);
    }
    // A level holding one child only (and no card of its own) is that child: "Train" with
    // only "Samples" under it shows as "Train/Samples".
    for (int i = 1; i < static_cast<int>(nodes_.size()); ++i) {
        TagNode& n = nodes_[i];
        while (n.children.size() == 1 && n.own.empty()) {
            TagNode& only = nodes_[n.children.front()];
            const char sep = only.path.size() > n.path.size() ? only.path[n.path.size()] : '/';
            n.name += sep;
            n.name += only.name;
            n.path = only.path;
            n.own = std::move(only.own);
            n.children = std::move(only.children);
            for (int c : n.children) nodes_[c].parent = i;
            only.children.clear();
            only.members.clear();
            only.parent = -2;  // folded away
        }
    }
}

int TagTree::find(std::string_view path) const {
    if (path.empty()) return 0;
    for (int i = 1; i < static_cast<int>(nodes_.size()); ++i)
        if (nodes_[i].parent != -2 && nodes_[i].path == path) return i;
    return 0;
}

std::vector<TagTree::Entry> TagTree::entries(int node) const {
    const TagNode& n = nodes_[node];
    std::vector<std::pair<int, Entry>> order;  // (first member, entry)
    for (int c : n.children) {
        const TagNode& child = nodes_[c];
        if (child.members.empty()) continue;
        if (child.members.size() == 1)
            order.push_back({child.members.front(), Entry{-1, child.members.front()}});
        else
            order.push_back({child.members.front(), Entry{c, -1}});
    }
    for (int g : n.own) order.push_back({g, Entry{-1, g}});
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Entry> out;
    out.reserve(order.size());
    for (const auto& [first, e] : order) out.push_back(e);
    return out;
}

}  // namespace runtop::ui
