#include "views/overview_groups.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "core/format.h"
#include "views/overview_card.h"
#include "views/sparkline.h"
#include "views/tag_title.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

constexpr int kEnvelopeTags = 32;

// The series of a tag that stands for it in a group's envelope: its worst, else its first.
SeriesId standing_series(const ViewModel& model, const TagGroup& group) {
    SeriesId best = group.series.front();
    AlertLevel worst = AlertLevel::kOk;
    for (SeriesId id : group.series) {
        const AlertLevel level = model.analyzer().series_state(id).level;
        if (level > worst) {
            worst = level;
            best = id;
        }
    }
    return best;
}

// The tags a group's envelope holds: the worst first, then spread evenly, kEnvelopeTags at most.
std::vector<int> envelope_tags(const ViewModel& model, const TagNode& node) {
    std::vector<int> out;
    for (int g : node.members) {
        if (static_cast<int>(out.size()) >= kEnvelopeTags / 4) break;
        if (tag_level(model, g) != AlertLevel::kOk) out.push_back(g);
    }
    const int n = static_cast<int>(node.members.size());
    const int want = std::min(n, kEnvelopeTags) - static_cast<int>(out.size());
    for (int k = 0; k < want; ++k) {
        const int g = node.members[static_cast<std::size_t>(static_cast<long long>(k) * n /
                                                            std::max(1, want))];
        if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
    }
    return out;
}

struct Envelope {
    std::vector<SeriesId> ids;
    std::vector<std::uint64_t> received;
    std::vector<ColumnSummary> columns;
    std::int64_t lo = 0, hi = -1;
};

// A group's envelope, kept while its standing series have not changed.
const Envelope& group_envelope(const ViewModel& model, const TagNode& node, int columns) {
    thread_local std::map<std::string, Envelope, std::less<>> cache;
    thread_local const Store* store = nullptr;
    if (store != &model.store()) {
        cache.clear();
        store = &model.store();
    }
    std::vector<SeriesId> ids;
    std::vector<std::uint64_t> received;
    for (int g : envelope_tags(model, node)) {
        const SeriesId id = standing_series(model, model.groups()[g]);
        ids.push_back(id);
        received.push_back(model.store().at(id).received());
    }
    Envelope& e = cache[node.path];
    if (e.ids == ids && e.received == received && static_cast<int>(e.columns.size()) == columns)
        return e;
    e.ids = std::move(ids);
    e.received = std::move(received);
    e.columns.assign(columns, ColumnSummary{});
    bool any = false;
    for (SeriesId id : e.ids) {
        const Series& s = model.store().at(id);
        if (s.empty()) continue;
        e.lo = any ? std::min(e.lo, s.first_step()) : s.first_step();
        e.hi = any ? std::max(e.hi, s.last_step()) : s.last_step();
        any = true;
    }
    if (!any) {
        e.hi = e.lo - 1;
        return e;
    }
    std::vector<ColumnSummary> one(columns);
    for (SeriesId id : e.ids) {
        std::fill(one.begin(), one.end(), ColumnSummary{});
        model.store().at(id).query(e.lo, e.hi + 1, one);
        for (int c = 0; c < columns; ++c) merge_into(e.columns[c], one[c]);
    }
    return e;
}

// A node's name below `level`: its path without the level's and the separator after it.
std::string name_below(const TagTree& tree, int node, int level) {
    const std::string& path = tree.node(node).path;
    const std::string& above = tree.node(level).path;
    if (!above.empty() && path.size() > above.size() && path.compare(0, above.size(), above) == 0)
        return path.substr(above.size() + 1);
    return path;
}

// A node's name in `room` columns: a layer's number kept (fit_tag), else its start (fit).
std::string fit_name(const std::string& name, int room, bool ascii) {
    const bool numbered =
        std::any_of(name.begin(), name.end(), [](unsigned char c) { return c >= '0' && c <= '9'; });
    return numbered ? fit_tag(name, room, ascii) : fit(name, room, ascii);
}

Style level_style(AlertLevel level) {
    return level == AlertLevel::kAlert  ? Style{Role::kAlert, true}
           : level == AlertLevel::kWarn ? Style{Role::kWarn, true}
                                        : Style{Role::kDim};
}

}  // namespace

const TagTree& overview_tree(const ViewModel& model) {
    struct Kept {
        const Store* store = nullptr;
        std::size_t groups = 0;
        std::uint64_t filter_changes = 0;
        std::string first, last;
        std::unique_ptr<TagTree> tree;
    };
    thread_local Kept kept;
    const auto& groups = model.groups();
    const bool same =
        kept.tree && kept.store == &model.store() && kept.groups == groups.size() &&
        kept.filter_changes == model.filter_changes() &&
        (groups.empty() || (kept.first == groups.front().tag && kept.last == groups.back().tag));
    if (!same) {
        kept.store = &model.store();
        kept.groups = groups.size();
        kept.filter_changes = model.filter_changes();
        kept.first = groups.empty() ? "" : groups.front().tag;
        kept.last = groups.empty() ? "" : groups.back().tag;
        kept.tree = std::make_unique<TagTree>(groups);
    }
    return *kept.tree;
}

namespace {

struct TreeStates {
    const TagTree* tree = nullptr;
    std::size_t nodes_count = 0;
    std::uint64_t filter_changes = 0;
    std::size_t log_size = 0;
    Analyzer::LevelCounts counts;
    std::vector<AlertLevel> tags;
    std::vector<GroupState> nodes;
};

// The states, made again when the tree is another or the Analyzer's counts or log moved (a
// series changes state only with a firing, which logs, or an acknowledgement, which counts).
const TreeStates& tree_states(const ViewModel& model) {
    thread_local TreeStates kept;
    const TagTree& tree = overview_tree(model);
    const Analyzer& a = model.analyzer();
    const Analyzer::LevelCounts& counts = a.level_counts();
    if (kept.tree == &tree && kept.nodes_count == tree.nodes().size() &&
        kept.filter_changes == model.filter_changes() && kept.log_size == a.log().size() &&
        kept.counts.alert == counts.alert && kept.counts.warn == counts.warn &&
        kept.counts.acknowledged == counts.acknowledged &&
        kept.tags.size() == model.groups().size())
        return kept;
    kept.tree = &tree;
    kept.nodes_count = tree.nodes().size();
    kept.filter_changes = model.filter_changes();
    kept.log_size = a.log().size();
    kept.counts = counts;
    const auto& groups = model.groups();
    kept.tags.resize(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) kept.tags[g] = model.level(groups[g]);
    kept.nodes.assign(tree.nodes().size(), GroupState{});
    for (std::size_t i = 0; i < tree.nodes().size(); ++i) {
        GroupState& s = kept.nodes[i];
        for (int g : tree.node(static_cast<int>(i)).members) {
            const AlertLevel level = kept.tags[g];
            if (level > s.level) s = {level, 0, g};
            if (level == s.level && level != AlertLevel::kOk) ++s.count;
        }
    }
    return kept;
}

}  // namespace

const GroupState& group_state(const ViewModel& model, int node) {
    return tree_states(model).nodes[node];
}

AlertLevel tag_level(const ViewModel& model, int group) {
    return tree_states(model).tags[group];
}

void draw_group_card(Canvas& canvas, const ViewModel& model, const TagTree& tree, int node,
                     int level, int x, int y, int w, int h, bool selected) {
    const GlyphTier tier = model.glyphs();
    const bool ascii = model.ascii();
    const TagNode& n = tree.node(node);
    const GroupState& state = group_state(model, node);
    const std::string count = state.count > 1 ? std::to_string(state.count) : std::string();
    const int bw = badge_width(state.level, tier, count);
    const Style border = selected ? Style{Role::kAccent, true} : Style{Role::kBorder};
    canvas.box(x, y, w, h, border, {}, ascii);
    if (bw > 0) {
        const int bx = x + w - 3 - bw;
        canvas.put(bx - 1, y, U' ', border);
        draw_badge(canvas, bx, y, state.level, tier, count);
        canvas.put(bx + bw, y, U' ', border);
    }
    const int room = w - 4 - (bw > 0 ? bw + 3 : 0);
    if (room > 0)
        canvas.text(x + 1, y,
                    " " + fit_name(name_below(tree, node, level) + "/", room, ascii) + " ",
                    selected ? Style{Role::kAccent, true, true} : Style{Role::kTitle, true});
    const int iw = w - 2, ih = h - 2;
    if (iw <= 0 || ih <= 0) return;
    const int x0 = x + 1;
    const Envelope& e = group_envelope(model, n, spark_columns(iw, tier));
    const int text_rows = ih >= 4 ? 2 : 1;
    const int chart_rows = std::max(0, ih - text_rows);
    int row = y + 1;
    if (e.hi >= e.lo)
        draw_chart(canvas, x0, row, chart_rows, e.columns, spark_range(e.columns), tier,
                   {Role::kText});
    else
        canvas.text(x0, row, "no points", {Role::kDim}, iw);
    row += chart_rows;
    const std::string tags = fmt::format("{} tags", n.members.size());
    std::string worst;
    if (state.worst >= 0) {
        const std::string& tag = model.groups()[state.worst].tag;
        const std::string below = tag.size() > n.path.size() ? tag.substr(n.path.size() + 1) : tag;
        worst = fit_tag(below, std::max(0, iw - display_width(tags) - 2), ascii);
    }
    draw_pair(canvas, x0, row++, iw, tags, {Role::kText, true}, worst, level_style(state.level));
    if (text_rows == 2) {
        const std::string dash = ascii ? "-" : "–";
        draw_pair(
            canvas, x0, row, iw,
            e.ids.size() < n.members.size() ? fmt::format("envelope of {}", e.ids.size())
                                            : std::string("envelope of all"),
            {Role::kDim},
            e.hi >= e.lo ? "steps " + short_step(e.lo) + dash + short_step(e.hi) : std::string(),
            {Role::kDim});
    }
}

void draw_tag_side_list(Canvas& canvas, const ViewModel& model, const TagTree& tree, int level,
                        int x, int y, int w, int h) {
    const bool ascii = model.ascii();
    const GlyphTier tier = model.glyphs();
    // The lines: every node open along the path from the root to `level`, depth first.
    std::vector<int> open;
    for (int at = level; at > 0; at = tree.node(at).parent) open.push_back(at);
    struct Line {
        int node, depth;
    };
    std::vector<Line> lines;
    auto add = [&](auto&& self, int node, int depth) -> void {
        for (int c : tree.node(node).children) {
            if (tree.node(c).members.empty()) continue;
            lines.push_back({c, depth});
            if (std::find(open.begin(), open.end(), c) != open.end()) self(self, c, depth + 1);
        }
    };
    lines.push_back({0, 0});
    add(add, 0, 1);
    int current = 0;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].node == level) current = static_cast<int>(i);
    const int first =
        std::clamp(current - h / 2, 0, std::max(0, static_cast<int>(lines.size()) - h));
    for (int r = 0; r < h && first + r < static_cast<int>(lines.size()); ++r) {
        const Line& line = lines[first + r];
        const TagNode& n = tree.node(line.node);
        const bool here = line.node == level;
        const bool is_open =
            line.node == 0 || std::find(open.begin(), open.end(), line.node) != open.end();
        const GroupState& state = group_state(model, line.node);
        std::string text(static_cast<std::size_t>(2 * line.depth), ' ');
        if (n.members.size() > 1 || !n.children.empty())
            append_utf8(text, is_open ? (ascii ? U'v' : U'▾') : (ascii ? U'>' : U'▸'));
        else
            text += ' ';
        text += ' ';
        const std::string right = std::to_string(n.members.size());
        const int mark_w = state.level != AlertLevel::kOk ? 2 : 0;
        // The name keeps what tells siblings apart (a layer's number, the op): fit_tag.
        const int room = w - display_width(right) - 2 - mark_w - display_width(text);
        if (room >= 1) text += fit_name(line.node == 0 ? std::string("all") : n.name, room, ascii);
        const Style style = here ? Style{Role::kAccent, true, true} : Style{Role::kText};
        if (here) canvas.fill(x, y + r, w, 1, U' ', style);
        canvas.text(x, y + r, fit(text, std::max(1, w - display_width(right) - 2 - mark_w), ascii),
                    style);
        canvas.text_right(x + w - 1 - mark_w, y + r, right, here ? style : Style{Role::kDim});
        if (mark_w > 0) draw_badge(canvas, x + w - 1, y + r, state.level, tier);
    }
    // The rule between the list and the cards.
    for (int r = 0; r < h; ++r) canvas.put(x + w, y + r, ascii ? U'|' : U'│', {Role::kBorder});
}

}  // namespace runtop::ui
