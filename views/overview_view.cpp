#include "views/overview_view.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/format.h"
#include "views/glyphs.h"
#include "views/overview_card.h"
#include "views/overview_groups.h"
#include "views/overview_runs.h"
#include "views/sparkline.h"
#include "views/tag_title.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

constexpr double kNaN = kCardNaN;

// What a card's data depends on, per series: exact, so a changed series is always noticed.
struct SeriesVersion {
    std::uint64_t received = 0, count = 0;
    std::int64_t last_step = 0;
    bool operator==(const SeriesVersion&) const = default;
};

std::vector<SeriesVersion> versions(const ViewModel& model, const TagGroup& group) {
    std::vector<SeriesVersion> v;
    v.reserve(group.series.size());
    for (SeriesId id : group.series) {
        const Series& s = model.store().at(id);
        v.push_back({s.received(), s.count(), s.empty() ? 0 : s.last_step()});
    }
    return v;
}

}  // namespace

struct OverviewCache {
    struct Entry {
        int columns = 0;
        bool by_run = false;  // the card's data has each run's line
        std::vector<SeriesId> ids;
        std::vector<SeriesVersion> versions;
        std::uint64_t filter_changes = 0;  // ViewModel::filter_changes() when it was queried
        CardData data;
        std::chrono::steady_clock::time_point made;
    };
    const Store* store = nullptr;
    std::map<std::string, Entry, std::less<>> cards, next;  // this frame's cards go to `next`
    // Until when this frame may query cards (a key's frame: see cached_card).
    std::chrono::steady_clock::time_point query_until;
    bool incomplete = false;  // the frame left a card unqueried
};

namespace {

// How old a card's data a key's frame may show (the data frame after it catches up).
constexpr auto kKeyFrameStaleness = std::chrono::milliseconds(1000);

// query_card(), or the last frame's result when the card's series are the same and unchanged.
// Keys sent as fast as they are answered (held down) leave no room for data frames, so a key's
// frame also reuses a card changed since, when it is recent (kKeyFrameStaleness) or the frame's
// query budget (OverviewState::key_frame_queries) is spent; never across a filter change (series
// may have left). A card never queried waits for a later frame once the budget is spent: null.
const CardData* cached_card(const OverviewState& state, const ViewModel& model,
                            const TagGroup& group, int columns, bool by_run) {
    OverviewCache& cache = *state.cache;
    if (cache.store != &model.store()) {
        cache.cards.clear();
        cache.store = &model.store();
    }
    const auto clock = std::chrono::steady_clock::now();
    auto it = cache.cards.find(group.tag);
    const bool found =
        it != cache.cards.end() && it->second.columns == columns && it->second.by_run == by_run;
    const bool spent = model.ingest.key_frame && clock >= cache.query_until;
    const bool key_frame_reuse = found && model.ingest.key_frame &&
                                 it->second.filter_changes == model.filter_changes() &&
                                 (clock - it->second.made < kKeyFrameStaleness || spent);
    if (key_frame_reuse) {
        auto [slot, fresh] = cache.next.insert_or_assign(group.tag, std::move(it->second));
        return &slot->second.data;
    }
    std::vector<SeriesVersion> now = versions(model, group);
    if (found && it->second.ids == group.series && it->second.versions == now) {
        auto [slot, fresh] = cache.next.insert_or_assign(group.tag, std::move(it->second));
        return &slot->second.data;
    }
    if (spent) {
        cache.incomplete = true;
        return nullptr;
    }
    OverviewCache::Entry e{columns,
                           by_run,
                           group.series,
                           std::move(now),
                           model.filter_changes(),
                           query_card(model, group, columns, by_run),
                           clock};
    auto [slot, fresh] = cache.next.insert_or_assign(group.tag, std::move(e));
    return &slot->second.data;
}

// Ends a frame: only the cards it drew stay cached.
void end_frame(const OverviewState& state) {
    if (!state.cache) return;
    state.cache->cards.swap(state.cache->next);
    state.cache->next.clear();
}

// The focus row's columns: the same query the envelope was built from.
std::vector<ColumnSummary> series_columns(const ViewModel& model, const CardData& d, SeriesId id) {
    std::vector<ColumnSummary> columns(d.envelope.size());
    model.store().at(id).query(d.lo, d.end, columns, nullptr, /*snap=*/true);
    return columns;
}

// The series the focus row shows (see overview_view.h).
std::size_t choose_focus(const ViewModel& model, const CardData& d,
                         const std::optional<RunRank>& focus) {
    if (focus)
        for (std::size_t i = 0; i < d.series.size(); ++i)
            if (model.has_run_rank(d.series[i].id, *focus)) return i;
    std::size_t worst = 0;
    AlertLevel worst_level = AlertLevel::kOk;
    std::int64_t worst_step = 0;
    for (std::size_t i = 0; i < d.series.size(); ++i) {
        const AlertState& a = model.analyzer().series_state(d.series[i].id);
        if (a.level > worst_level ||
            (a.level == worst_level && a.level != AlertLevel::kOk && a.first_step < worst_step)) {
            worst = i;
            worst_level = a.level;
            worst_step = a.first_step;
        }
    }
    if (worst_level != AlertLevel::kOk) return worst;
    std::vector<double> lasts;
    for (const CardSeries& s : d.series)
        if (std::isfinite(s.last)) lasts.push_back(s.last);
    if (lasts.size() < 3) return 0;
    std::nth_element(lasts.begin(), lasts.begin() + lasts.size() / 2, lasts.end());
    const double median = lasts[lasts.size() / 2];
    std::size_t far = 0;
    double far_off = 0;
    for (std::size_t i = 0; i < d.series.size(); ++i) {
        const double off = std::fabs(d.series[i].last - median);
        if (std::isfinite(off) && off > far_off) {
            far = i;
            far_off = off;
        }
    }
    return far_off > 0.1 * std::fabs(median) && far_off > 0 ? far : 0;
}

// The badge's count: how many series are in the card's worst state (README, docs/howto.md):
// "▲ 2" is two alerts; "" for one series or none in trouble.
std::string badge_count(const ViewModel& model, const TagGroup& group, AlertLevel level) {
    std::size_t worst = 0;
    for (SeriesId id : group.series)
        worst += level != AlertLevel::kOk && model.analyzer().series_state(id).level == level;
    return group.series.size() > 1 && worst > 0 ? std::to_string(worst) : std::string();
}

// The columns a card `w` wide leaves its title, beside its badge.
int title_room(const ViewModel& model, const TagGroup& group, int w) {
    const AlertLevel level = model.level(group);
    const int bw = badge_width(level, model.glyphs(), badge_count(model, group, level));
    return w - 4 - (bw > 0 ? bw + 3 : 0);
}

void draw_card(Canvas& canvas, const ViewModel& model, const TagGroup& group, int x, int y, int w,
               int h, bool selected, const OverviewState& state, std::size_t shared_prefix) {
    const GlyphTier tier = model.glyphs();
    const bool ascii = model.ascii();
    const int iw = w - 2;  // inside the frame
    const int ih = h - 2;

    // Top edge: the tag, and the badge at the right.
    const AlertLevel level = model.level(group);
    const std::string count = badge_count(model, group, level);
    const int bw = badge_width(level, tier, count);
    const Style border = selected ? Style{Role::kAccent, true} : Style{Role::kBorder};
    canvas.box(x, y, w, h, border, {}, ascii);
    if (bw > 0) {  // " ▲ 2 " on the top edge, one border cell from the corner
        const int bx = x + w - 3 - bw;
        canvas.put(bx - 1, y, U' ', border);
        draw_badge(canvas, bx, y, level, tier, count);
        canvas.put(bx + bw, y, U' ', border);
    }
    const int room = title_room(model, group, w);
    if (room > 0) {
        const std::string title =
            fit_tag(std::string_view(group.tag).substr(shared_prefix), room, ascii);
        canvas.text(x + 1, y, " " + title + " ",
                    selected ? Style{Role::kAccent, true, true} : Style{Role::kTitle, true});
    }
    if (iw <= 0 || ih <= 0) return;

    const int cells = iw;
    const bool by_run = group_by_run(model, group);
    const CardData* queried = cached_card(state, model, group, spark_columns(cells, tier), by_run);
    const int x0 = x + 1;
    if (!queried) {  // a key's frame ran out of time for it: the next frame draws it
        canvas.text(x0, y + 1, ascii ? "..." : "…", {Role::kDim}, iw);
        return;
    }
    const CardData& d = *queried;
    if (!d.any_points) {
        canvas.text(x0, y + 1, "no points", {Role::kDim}, iw);
        return;
    }
    if (group.distribution) {  // a histogram: its band (views/overview_card.h)
        draw_distribution_card_body(canvas, model, d, choose_focus(model, d, state.focus), x0,
                                    y + 1, iw, ih);
        return;
    }
    if (by_run) {
        draw_run_card_body(canvas, model, d, state, x0, y + 1, iw, ih);
        return;
    }
    const SparkRange range = spark_range(d.envelope);
    const bool many = d.series.size() > 1;
    const bool many_runs = d.many_runs;  // labels name the run only then
    const std::size_t focus = choose_focus(model, d, state.focus);
    const CardSeries& f = d.series[focus];
    const Style focus_style{series_role(model.overlay_index(f.id))};

    // Rows from the bottom: the step range and count (when there are 4 inner rows or more),
    // the value line, and the charts above them.
    const int text_rows = ih >= 4 ? 2 : 1;
    const int chart_rows = std::max(0, ih - text_rows);
    int row = y + 1;
    if (many) {
        // The envelope of every series, then the focus series: below a rule naming it when
        // the chart is tall enough to spare the row.
        const int rule = chart_rows >= 5 ? 1 : 0;
        const int focus_rows = chart_rows >= 2 ? std::max(1, (chart_rows - rule) / 3) : 0;
        const int envelope_rows = chart_rows - rule - focus_rows;
        draw_chart(canvas, x0, row, envelope_rows, d.envelope, range, tier, {Role::kText});
        row += envelope_rows;
        if (rule) {
            canvas.fill(x0, row, iw, 1, ascii ? U'-' : U'─', {Role::kDim});
            const std::string label = " " + series_label(model, f.id, many_runs) + " ";
            canvas.text(x0 + 1, row, label, focus_style, std::max(0, iw - 2));
            ++row;
        }
        if (focus_rows > 0)
            draw_chart(canvas, x0, row, focus_rows, series_columns(model, d, f.id), range, tier,
                       focus_style);
        row += focus_rows;
    } else {
        // The series in its colour, then its extremes.
        const int extremes = chart_rows >= 2 ? 1 : 0;
        draw_chart(canvas, x0, row, chart_rows - extremes, d.envelope, range, tier, focus_style);
        row += chart_rows - extremes;
        if (extremes) {
            double lo = kNaN, hi = kNaN;
            for (const ColumnSummary& c : d.envelope) {
                if (c.empty() || std::isnan(c.min)) continue;
                lo = std::isnan(lo) ? c.min : std::min(lo, c.min);
                hi = std::isnan(hi) ? c.max : std::max(hi, c.max);
            }
            draw_pair(canvas, x0, row++, iw, "min " + short_value(lo), {Role::kDim},
                      "max " + short_value(hi), {Role::kDim});
        }
    }
    // The last value (mean over the series) and its trend; the focus series' value.
    {
        double now_all = 0;
        int finite = 0;
        for (const CardSeries& s : d.series) {
            if (std::isfinite(s.last)) {
                now_all += s.last;
                ++finite;
            }
        }
        const double value = many ? (finite > 0 ? now_all / finite : f.last) : f.last;
        const int direction = card_trend(d);
        std::string left = short_value(value);
        append_utf8(left, U' ');
        append_utf8(left, trend_glyph(direction, ascii));
        if (many && display_width(left) + 5 <= iw / 2) left = "mean " + left;
        std::string right;
        if (many) {
            // The label gives way (fitted) before the value does.
            const std::string value_text = short_value(f.last);
            const int room = iw - display_width(left) - 3 - display_width(value_text);
            std::string label = series_label(model, f.id, many_runs);
            if (display_width(label) > room) label = fit(label, room, ascii);
            right = room >= 4 ? label + " " + value_text : value_text;
        }
        const AlertLevel fl = model.analyzer().series_state(f.id).level;
        const Style right_style = fl == AlertLevel::kAlert  ? Style{Role::kAlert, true}
                                  : fl == AlertLevel::kWarn ? Style{Role::kWarn, true}
                                                            : focus_style;
        draw_pair(canvas, x0, row++, iw, left, {Role::kText, true}, right, right_style);
    }
    // How many series; the step range.
    if (text_rows == 2) draw_count_row(canvas, model, d, x0, row, iw);
}

}  // namespace

OverviewLayout overview_layout(int width, int height, int cards, int top) {
    OverviewLayout l;
    // The legend gives way when a card would not fit under it.
    l.top = height - 1 - top >= 5 ? std::max(0, top) : 0;
    const int grid = std::max(0, height - 1 - l.top);
    l.card_height = grid >= 6 ? 6 : 5;
    l.rows = grid / l.card_height;
    l.columns = std::max(1, width / kMinCardWidth);
    const int needed = (cards + l.columns - 1) / l.columns;
    if (needed > 0 && needed <= l.rows) {
        l.card_height = std::clamp(grid / needed, l.card_height, kMaxCardHeight);
        l.rows = grid / l.card_height;
    }
    return l;
}

OverviewLayout overview_layout(int width, int height, const ViewModel& model) {
    return overview_layout(width, height, static_cast<int>(model.groups().size()),
                           overview_by_run(model) ? 1 : 0);
}

int overview_pages(const ViewModel& model, const OverviewLayout& layout) {
    const int per = std::max(1, layout.per_page());
    const int cards = static_cast<int>(model.groups().size());
    return std::max(1, (cards + per - 1) / per);
}

bool overview_incomplete(const OverviewState& state) {
    return state.cache && state.cache->incomplete;
}

namespace {

// The side list's width (with its rule), 0 when it is off or the canvas cannot spare it.
int side_width(const OverviewState& state, int width) {
    if (!state.side_list) return 0;
    const int w = std::clamp(width / 4, 16, 40);
    return width - w - 1 >= kMinCardWidth ? w + 1 : 0;
}

}  // namespace

// The level shown for `node`: a level that would be one group card is that group's level
// (every tag under "m/": the cards of m/, not one card "m/").
int shown_node(const TagTree& tree, int node) {
    for (auto e = tree.entries(node); e.size() == 1 && e.front().node >= 0; e = tree.entries(node))
        node = e.front().node;
    return node;
}

// What the page shows: the cards of the level and where they go.
struct OverviewLevel {
    std::vector<OverviewCard> cards;
    OverviewLayout layout;
    int x = 0, width = 0;  // the cards' columns (the side list is left of x)
    int node = 0;          // the tag tree's node shown (0: the root)
    bool grouped = false;  // the level's tags did not fit: group cards stand for some
};

OverviewLevel overview_level(const OverviewState& state, const ViewModel& model, int width,
                             int height) {
    OverviewLevel v;
    v.x = side_width(state, width);
    v.width = width - v.x;
    const int top = overview_by_run(model) ? 1 : 0;
    const auto& groups = model.groups();
    const int n = static_cast<int>(groups.size());
    // A page's cards at their smallest: when the level's tags fit, they are shown, not groups.
    const int per_page = std::max(1, overview_layout(v.width, height, n + 1000000, top).per_page());
    if (state.tree.empty() && n <= per_page && !state.side_list) {
        v.cards.reserve(n);
        for (int g = 0; g < n; ++g) v.cards.push_back({&groups[g], g, -1});
    } else {
        const TagTree& tree = overview_tree(model);
        v.node = shown_node(tree, tree.find(state.tree));
        const TagNode& node = tree.node(v.node);
        if (static_cast<int>(node.members.size()) <= per_page) {
            for (int g : node.members) v.cards.push_back({&groups[g], g, -1});
        } else {
            // The training loss stays the first card of the first screen, its group after it.
            if (state.tree.empty())
                for (int g = 0; g < n && is_training_loss(groups[g].tag); ++g)
                    v.cards.push_back({&groups[g], g, -1});
            const std::size_t pinned = v.cards.size();
            for (const TagTree::Entry& e : tree.entries(v.node)) {
                if (e.group >= 0 && e.group < static_cast<int>(pinned)) continue;  // pinned above
                v.grouped |= e.node >= 0;
                v.cards.push_back(e.node >= 0 ? OverviewCard{nullptr, -1, e.node}
                                              : OverviewCard{&groups[e.group], e.group, -1});
            }
        }
    }
    v.layout = overview_layout(v.width, height, static_cast<int>(v.cards.size()), top);
    return v;
}

std::vector<OverviewCard> overview_cards(const OverviewState& state, const ViewModel& model,
                                         int width, int height) {
    return overview_level(state, model, width, height).cards;
}

void draw_overview(Canvas& canvas, const ViewModel& model, const OverviewState& state) {
    canvas.clear();
    if (too_small(canvas)) {
        draw_too_small(canvas, "overview");
        return;
    }
    const OverviewLevel v = overview_level(state, model, canvas.width(), canvas.height());
    const OverviewLayout& layout = v.layout;
    const int w = v.width;
    const int per = std::max(1, layout.per_page());
    const int cards = static_cast<int>(v.cards.size());
    const int pages = std::max(1, (cards + per - 1) / per);
    const int page = std::clamp(state.page, 0, pages - 1);

    if (cards == 0) {
        const std::string text =
            model.hidden() > 0
                ? fmt::format("no series match the filter ({} hidden)", model.hidden())
                : std::string("no scalar series read yet");
        canvas.text(v.x + 1, 1 + layout.top, fit(text, w - 2, model.ascii()), {Role::kDim});
    }
    if (!state.cache) state.cache = std::make_shared<OverviewCache>();
    state.cache->query_until = std::chrono::steady_clock::now() + state.key_frame_queries;
    state.cache->incomplete = false;
    if (layout.top > 0) draw_run_legend(canvas, model, state, 0, canvas.width());
    const int first = page * per;
    const int shown = std::clamp(cards - first, 0, per);
    // When a title would not fit, the prefix the page's cards share is said once, in the
    // status line, not on every card ("train/" stays on a page of short tags).
    std::vector<std::string_view> tags;
    bool cut = false;
    for (int i = 0; i < shown; ++i) {
        const OverviewCard& card = v.cards[first + i];
        if (!card.group) continue;
        tags.push_back(card.group->tag);
        const int col = i % layout.columns;
        const int cw = (col + 1) * w / layout.columns - col * w / layout.columns;
        cut = cut || display_width(tags.back()) > title_room(model, *card.group, cw);
    }
    const std::string shared = cut && !v.grouped ? shared_tag_prefix(tags) : std::string();
    const TagTree* tree =
        v.grouped || v.node > 0 || state.side_list ? &overview_tree(model) : nullptr;
    for (int i = 0; i < shown; ++i) {
        const int col = i % layout.columns, row = i / layout.columns;
        // Columns share the width: the leftovers of w / columns go one to a card.
        const int x = v.x + col * w / layout.columns;
        const int cw = (col + 1) * w / layout.columns - col * w / layout.columns;
        const int y = layout.top + row * layout.card_height;
        const OverviewCard& card = v.cards[first + i];
        const bool selected = first + i == state.selected;
        if (card.group)
            draw_card(canvas, model, *card.group, x, y, cw, layout.card_height, selected, state,
                      shared.size());
        else
            draw_group_card(canvas, model, *tree, card.node, v.node, x, y, cw, layout.card_height,
                            selected);
    }
    if (v.x > 0)
        draw_tag_side_list(canvas, model, *tree, v.node, 0, layout.top, v.x - 1,
                           canvas.height() - 1 - layout.top);

    end_frame(state);

    std::string right = pages > 1 ? fmt::format("page {}/{}", page + 1, pages)
                                  : fmt::format("{} card{}", cards, cards == 1 ? "" : "s");
    if (pages > 1 && w >= 100) right += fmt::format(" ({} cards)", cards);
    if (!shared.empty()) right = fit(shared, std::max(8, w / 6), model.ascii()) + "  " + right;
    if (tree && v.node > 0 && !state.tree.empty())
        right = fit_tag(tree->node(v.node).path + "/", std::max(8, w / 4), model.ascii()) +
                " (Backspace: up)  " + right;
    if (v.grouped && w >= 80)
        right += fmt::format(", {} tags (Enter opens a group)", model.groups().size());
    // The first screen a new user sees says where the rest is.
    const bool anomalies = model.analyzer().log().size() > 0;
    if (canvas.width() >= 110)
        right = std::string(anomalies ? "n: first anomaly  " : "") + "?: keys  " + right;
    else if (canvas.width() >= 60)
        right = std::string(anomalies ? "n incident  " : "") + "? keys  " + right;
    draw_status(canvas, model, right);
}

}  // namespace runtop::ui

namespace runtop::ui {

bool overview_handle(OverviewState& state, Action action, const ViewModel& model, int width,
                     int height) {
    if (action == Action::kToggleTagTree) {
        state.side_list = !state.side_list;
        return true;
    }
    if (action == Action::kTreeUp) return overview_up(state, model, width, height);
    const OverviewLevel v = overview_level(state, model, width, height);
    const int cards = static_cast<int>(v.cards.size());
    if (cards == 0) return false;
    if (action == Action::kNextSeries || action == Action::kPreviousSeries) {
        state.focus =
            next_overview_focus(model, state.focus, action == Action::kNextSeries ? 1 : -1);
        return true;
    }
    const OverviewLayout& l = v.layout;
    const int per = std::max(1, l.per_page());
    const int pages = std::max(1, (cards + per - 1) / per);
    const int page = std::clamp(state.page, 0, pages - 1);
    const OverviewState before = state;
    int sel = state.selected;
    if (sel < 0 || sel >= cards) {
        // Nothing selected yet: the first move selects what the user is looking at, except
        // for moves that say where to go.
        if (action == Action::kPageDown || action == Action::kPageUp) {
            state.page = std::clamp(page + (action == Action::kPageDown ? 1 : -1), 0, pages - 1);
            return state.page != before.page;
        }
        sel = action == Action::kLast ? cards - 1 : page * per;
        if (action != Action::kFirst && action != Action::kLast) {
            state.selected = sel;
            state.page = sel / per;
            return true;
        }
    }
    switch (action) {
        case Action::kLeft:
            sel -= 1;
            break;
        case Action::kRight:
            sel += 1;
            break;
        case Action::kUp:
            sel -= l.columns;
            break;
        case Action::kDown:
            sel += l.columns;
            break;
        case Action::kPageUp:
            sel -= per;
            break;
        case Action::kPageDown:
            sel += per;
            break;
        case Action::kFirst:
            sel = 0;
            break;
        case Action::kLast:
            sel = cards - 1;
            break;
        default:
            return false;
    }
    // Moving past an edge stops at it (a down arrow on the last row still reaches the last card).
    state.selected = std::clamp(sel, 0, cards - 1);
    state.page = state.selected / per;
    return state.selected != before.selected || state.page != before.page;
}

int overview_card_at(const OverviewState& state, int x, int y, const ViewModel& model, int width,
                     int height) {
    const OverviewLevel v = overview_level(state, model, width, height);
    const OverviewLayout& l = v.layout;
    const int cards = static_cast<int>(v.cards.size());
    x -= v.x;
    if (x < 0 || x >= v.width || y < l.top || l.card_height <= 0) return -1;
    const int row = (y - l.top) / l.card_height;
    if (row >= l.rows) return -1;
    int col = 0;
    while (col + 1 < l.columns && x >= (col + 1) * v.width / l.columns) ++col;
    const int per = std::max(1, l.per_page());
    const int page = std::clamp(state.page, 0, std::max(1, (cards + per - 1) / per) - 1);
    const int index = page * per + row * l.columns + col;
    return index < cards ? index : -1;
}

int overview_target(const OverviewState& state, const ViewModel& model, int width, int height) {
    const OverviewLevel v = overview_level(state, model, width, height);
    const int cards = static_cast<int>(v.cards.size());
    if (cards == 0) return -1;
    if (state.selected >= 0 && state.selected < cards) return state.selected;
    const int per = std::max(1, v.layout.per_page());
    const int page = std::clamp(state.page, 0, std::max(1, (cards + per - 1) / per) - 1);
    return std::min(cards - 1, page * per);
}

bool overview_enter(OverviewState& state, const ViewModel& model, int width, int height) {
    const OverviewLevel v = overview_level(state, model, width, height);
    const int i = overview_target(state, model, width, height);
    if (i < 0 || v.cards[i].group) return false;
    state.tree = overview_tree(model).node(v.cards[i].node).path;
    state.selected = -1;
    state.page = 0;
    return true;
}

bool overview_up(OverviewState& state, const ViewModel& model, int width, int height) {
    if (state.tree.empty()) return false;
    const TagTree& tree = overview_tree(model);
    const int node = shown_node(tree, tree.find(state.tree));
    // Up to the nearest level that shows more than this group.
    int parent = node > 0 ? std::max(0, tree.node(node).parent) : 0;
    while (parent > 0 && shown_node(tree, parent) == node)
        parent = std::max(0, tree.node(parent).parent);
    // The highest node showing that same level (a level the root shows is the root's).
    while (parent > 0 &&
           shown_node(tree, std::max(0, tree.node(parent).parent)) == shown_node(tree, parent))
        parent = std::max(0, tree.node(parent).parent);
    state.tree = parent > 0 ? tree.node(parent).path : std::string();
    // The group just left is selected in its parent's cards; a parent whose tags now fit on a
    // page (a taller canvas) shows them, and the group's first tag is selected.
    const OverviewLevel v = overview_level(state, model, width, height);
    const int first = tree.node(node).members.front();
    const auto it = std::find_if(v.cards.begin(), v.cards.end(), [&](const OverviewCard& c) {
        return v.grouped ? c.node == node : c.group_index == first;
    });
    state.selected = it == v.cards.end() ? -1 : static_cast<int>(it - v.cards.begin());
    const int per = std::max(1, v.layout.per_page());
    state.page = std::max(0, state.selected) / per;
    return true;
}

void overview_show_tag(OverviewState& state, int group, const ViewModel& model, int width,
                       int height) {
    // From the root down through the groups holding it, to the level showing it as a card.
    state.tree.clear();
    const TagTree* tree = nullptr;
    for (int depth = 0; depth < 64; ++depth) {
        const OverviewLevel v = overview_level(state, model, width, height);
        const int per = std::max(1, v.layout.per_page());
        int into = -1;
        for (int c = 0; c < static_cast<int>(v.cards.size()); ++c) {
            if (v.cards[c].group_index == group) {
                state.selected = c;
                state.page = c / per;
                return;
            }
            if (!tree) tree = &overview_tree(model);
            if (v.cards[c].node >= 0) {
                const auto& m = tree->node(v.cards[c].node).members;
                if (std::find(m.begin(), m.end(), group) != m.end()) into = v.cards[c].node;
            }
        }
        if (into < 0) break;
        state.tree = tree->node(into).path;
    }
    state.selected = -1;
    state.page = 0;
}

Pointer overview_mouse(OverviewState& state, const InputEvent& event, const ViewModel& model,
                       int width, int height) {
    const bool up = event.button == MouseButton::kWheelUp;
    if (up || event.button == MouseButton::kWheelDown)
        return overview_handle(state, up ? Action::kPageUp : Action::kPageDown, model, width,
                               height)
                   ? Pointer::kChanged
                   : Pointer::kNothing;
    if (event.button != MouseButton::kLeft) return Pointer::kNothing;
    const int card = overview_card_at(state, event.x, event.y, model, width, height);
    if (card < 0) return Pointer::kNothing;
    // A click on the selected card opens it (a double click does both).
    if (card == state.selected) return Pointer::kOpen;
    state.selected = card;
    return Pointer::kChanged;
}

ViewSelection overview_selected(const OverviewState& state, const ViewModel& model, int width,
                                int height) {
    const int i = overview_target(state, model, width, height);
    if (i < 0) return {};
    const OverviewLevel v = overview_level(state, model, width, height);
    const TagGroup* group = v.cards[i].group;
    if (!group) {  // a group card: the tag in its worst state (else its first) goes on
        const TagNode& node = overview_tree(model).node(v.cards[i].node);
        const GroupState& gs = group_state(model, v.cards[i].node);
        group = &model.groups()[gs.worst >= 0 ? gs.worst : node.members.front()];
    }
    return {group, ChartTarget{group->tag, state.focus, std::nullopt, std::nullopt}, {}};
}

}  // namespace runtop::ui
