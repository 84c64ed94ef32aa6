#include "views/compare/compare_config.h"

#include <algorithm>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/config/config_diff.h"
#include "core/format.h"
#include "core/store/store.h"
#include "views/compare/compare_cache.h"

namespace runtop::ui {
namespace {

// Changes whenever a configuration text of either run is added or replaced.
std::uint64_t texts_signature(const Store& store, const std::string& a, const std::string& b) {
    std::uint64_t h = 1469598103934665603ULL;
    auto mix = [&](std::uint64_t v) {
        h ^= v;
        h *= 1099511628211ULL;
    };
    for (const ConfigText& t : store.config_texts()) {
        if (t.run != a && t.run != b) continue;
        mix(std::hash<std::string_view>{}(t.run));
        mix(static_cast<std::uint64_t>(t.rank));
        mix(std::hash<std::string_view>{}(t.tag));
        mix(static_cast<std::uint64_t>(t.step));
        mix(std::hash<std::string_view>{}(t.text));
    }
    return h;
}

// The diff of the two runs' configurations, made again only when their texts changed.
const CompareCache& config_diff(const CompareState& state, const ViewModel& model,
                                const CompareRows& rows) {
    CompareCache& c = *state.cache;
    const std::uint64_t sig = texts_signature(model.store(), rows.run_a, rows.run_b);
    if (c.config_valid && c.config_a == rows.run_a && c.config_b == rows.run_b &&
        c.config_signature == sig)
        return c;
    const std::vector<ConfigEntry> a = run_config(model.store(), rows.run_a);
    const std::vector<ConfigEntry> b = run_config(model.store(), rows.run_b);
    c.config_changes = diff_configs(a, b);
    c.config_keys_a = a.size();
    c.config_keys_b = b.size();
    c.config_a = rows.run_a;
    c.config_b = rows.run_b;
    c.config_signature = sig;
    c.config_valid = true;
    return c;
}

// A value on one line: line breaks and tabs as spaces, runs of them as one.
std::string one_line(std::string_view text) {
    std::string out;
    bool space = false;
    for (char ch : text) {
        if (ch == '\n' || ch == '\r' || ch == '\t' || ch == ' ') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += ch;
    }
    return out;
}

Style run_style(const ViewModel& model, const std::string& run) {
    const int colour = model.run_colour(run);
    return {colour < 0 ? Role::kText : series_role(colour)};
}

// Text as the glyphs a terminal shows, each with its columns (sanitised first, as
// Canvas::text draws it).
struct Glyph {
    std::string bytes;
    int width;
};
std::vector<Glyph> glyphs_of(std::string_view text) {
    const std::string clean = visible(text);
    std::vector<Glyph> out;
    for (std::size_t i = 0; i < clean.size();) {
        const unsigned char c = static_cast<unsigned char>(clean[i]);
        const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
        std::string bytes = clean.substr(i, n);
        const int width = display_width(bytes);
        out.push_back({std::move(bytes), width});
        i += n;
    }
    return out;
}

std::string join(const std::vector<Glyph>& g, std::size_t from, std::size_t to) {
    std::string out;
    for (std::size_t i = from; i < to; ++i) out += g[i].bytes;
    return out;
}

int width_of(const std::vector<Glyph>& g, std::size_t from, std::size_t to) {
    int w = 0;
    for (std::size_t i = from; i < to; ++i) w += g[i].width;
    return w;
}

// `text` in rows of at most `width` columns, every character kept: a row breaks after its last
// space when it has one past its middle, else where the row is full.
std::vector<std::string> wrap(std::string_view text, int width) {
    const std::vector<Glyph> g = glyphs_of(text);
    std::vector<std::string> rows;
    std::size_t from = 0;
    while (from < g.size()) {
        std::size_t to = from;
        int used = 0;
        while (to < g.size() && used + g[to].width <= width) used += g[to++].width;
        if (to == from) ++to;  // a glyph wider than the row: alone on it (the canvas clips it)
        if (to < g.size()) {
            for (std::size_t k = to; k > from + (to - from) / 2; --k)
                if (g[k - 1].bytes == " ") {
                    to = k;
                    break;
                }
        }
        rows.push_back(join(g, from, to));
        from = to;
    }
    if (rows.empty()) rows.emplace_back();
    return rows;
}

// The tail of `text` in `columns`, "…" first when cut: a key's last part tells it apart.
std::string fit_tail(std::string_view text, int columns, bool ascii) {
    const std::vector<Glyph> g = glyphs_of(text);
    if (width_of(g, 0, g.size()) <= columns) return join(g, 0, g.size());
    std::size_t from = g.size();
    int used = 1;
    while (from > 0 && used + g[from - 1].width <= columns) used += g[--from].width;
    return (ascii ? "~" : "…") + join(g, from, g.size());
}

// What of one side of a change shows in `columns` when it cannot show whole: the part that
// differs from the other side ([lo, hi) of its glyphs), with as much of what both share around
// it as fits, "…" where it is cut. A difference wider than the room shows its start.
std::string around_difference(const std::vector<Glyph>& g, std::size_t lo, std::size_t hi,
                              int columns, bool ascii) {
    const std::string cut = ascii ? "~" : "…";
    if (width_of(g, 0, g.size()) <= columns) return join(g, 0, g.size());
    auto shown_width = [&](std::size_t a, std::size_t b) {
        return width_of(g, a, b) + (a > 0 ? 1 : 0) + (b < g.size() ? 1 : 0);
    };
    if (shown_width(lo, hi) > columns) {
        // Not even the difference fits: its start, cut on both sides.
        const int marks = lo > 0 ? 2 : 1;
        std::size_t b = lo;
        int used = 0;
        while (b < hi && used + g[b].width <= columns - marks) used += g[b++].width;
        return (lo > 0 ? cut : std::string()) + join(g, lo, b) + cut;
    }
    // Context on both sides, a glyph at a time, the left first (what leads up to the change:
    // "seed=" before "1").
    std::size_t a = lo, b = hi;
    for (bool grew = true; grew;) {
        grew = false;
        if (a > 0 && shown_width(a - 1, b) <= columns) --a, grew = true;
        if (b < g.size() && shown_width(a, b + 1) <= columns) ++b, grew = true;
    }
    return (a > 0 ? cut : std::string()) + join(g, a, b) + (b < g.size() ? cut : std::string());
}

// Both sides of a change in `columns` (the arrow's aside): whole when they fit, else each cut
// around where they differ, so the difference stays in sight.
std::pair<std::string, std::string> fit_pair(std::string_view a, std::string_view b, int columns,
                                             bool ascii) {
    const std::vector<Glyph> ga = glyphs_of(a), gb = glyphs_of(b);
    const int wa = width_of(ga, 0, ga.size()), wb = width_of(gb, 0, gb.size());
    if (wa + wb <= columns) return {join(ga, 0, ga.size()), join(gb, 0, gb.size())};
    std::size_t prefix = 0;
    while (prefix < ga.size() && prefix < gb.size() && ga[prefix].bytes == gb[prefix].bytes)
        ++prefix;
    std::size_t suffix = 0;
    while (suffix < ga.size() - prefix && suffix < gb.size() - prefix &&
           ga[ga.size() - 1 - suffix].bytes == gb[gb.size() - 1 - suffix].bytes)
        ++suffix;
    // Half the room each, or what the other side leaves.
    const int half = columns / 2;
    const int room_a = wa <= half ? wa : std::max(half, columns - std::min(wb, columns - half));
    const int room_b = columns - room_a;
    return {around_difference(ga, prefix, ga.size() - suffix, room_a, ascii),
            around_difference(gb, prefix, gb.size() - suffix, room_b, ascii)};
}

// One row of the panel: pieces of text at columns.
struct Span {
    int x;
    std::string text;
    Style style;
};
using PanelRow = std::vector<Span>;

// Where the panel's columns are.
struct PanelColumns {
    int x0, inner, key_w, vx, room;
};

std::string_view mark_of(ConfigChangeKind kind) {
    return kind == ConfigChangeKind::kChanged ? "~" : kind == ConfigChangeKind::kAdded ? "+" : "-";
}

// A change as rows: in full (the key and both values whole, wrapped over rows), or on one row
// (the key's tail, the values cut around where they differ).
std::vector<PanelRow> change_rows(const ConfigChange& ch, bool full, const PanelColumns& c,
                                  const ViewModel& model, const CompareRows& runs) {
    const bool ascii = model.ascii();
    const Style mark_style = ch.kind == ConfigChangeKind::kChanged ? Style{Role::kWarn, true}
                             : ch.kind == ConfigChangeKind::kAdded ? run_style(model, runs.run_b)
                                                                   : run_style(model, runs.run_a);
    const Style a_style = run_style(model, runs.run_a), b_style = run_style(model, runs.run_b);
    const std::string key = config_entry_name(ch.key, ch.rank);
    std::vector<PanelRow> rows(1);
    rows[0].push_back({c.x0, std::string(mark_of(ch.kind)), mark_style});
    if (!full || display_width(key) <= c.key_w) {
        rows[0].push_back({c.x0 + 2, fit_tail(key, c.key_w, ascii), {Role::kText}});
    } else {
        // A key wider than its column: whole on rows of its own, the values below it.
        const std::vector<std::string> parts = wrap(key, c.inner - 2);
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (i > 0) rows.emplace_back();
            rows.back().push_back({c.x0 + 2, parts[i], {Role::kText}});
        }
        if (c.room >= 4) rows.emplace_back();
    }
    if (c.room < 4) return rows;
    const std::string arrow = ascii ? " -> " : " → ";
    const int arrow_w = display_width(arrow);
    if (ch.kind != ConfigChangeKind::kChanged) {
        const std::string v =
            one_line(ch.kind == ConfigChangeKind::kAdded ? ch.value_b : ch.value_a);
        const std::vector<std::string> parts =
            full ? wrap(v, c.room) : std::vector<std::string>{fit(v, c.room, ascii)};
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (i > 0) rows.emplace_back();
            rows.back().push_back({c.vx, parts[i], mark_style});
        }
        return rows;
    }
    const std::string a = one_line(ch.value_a), b = one_line(ch.value_b);
    if (!full || display_width(a) + arrow_w + display_width(b) <= c.room) {
        const auto [fa, fb] = fit_pair(a, b, c.room - arrow_w, ascii);
        const int ax = c.vx + display_width(fa);
        rows.back().push_back({c.vx, fa, a_style});
        rows.back().push_back({ax, arrow, {Role::kDim}});
        rows.back().push_back({ax + arrow_w, fb, b_style});
        return rows;
    }
    // In full over rows: A's value, then B's after the arrow that starts its first row.
    const std::vector<std::string> pa = wrap(a, c.room);
    for (std::size_t i = 0; i < pa.size(); ++i) {
        if (i > 0) rows.emplace_back();
        rows.back().push_back({c.vx, pa[i], a_style});
    }
    const std::string lead = ascii ? "-> " : "→ ";
    const int lead_w = display_width(lead);
    const std::vector<std::string> pb = wrap(b, std::max(1, c.room - lead_w));
    for (std::size_t i = 0; i < pb.size(); ++i) {
        rows.emplace_back();
        if (i == 0) rows.back().push_back({c.vx, lead, {Role::kDim}});
        rows.back().push_back({c.vx + lead_w, pb[i], b_style});
    }
    return rows;
}

int kind_order(ConfigChangeKind kind) {
    return kind == ConfigChangeKind::kChanged ? 0 : kind == ConfigChangeKind::kAdded ? 1 : 2;
}

}  // namespace

void draw_config_panel(Canvas& canvas, const ViewModel& model, const CompareState& state,
                       const CompareRows& rows, int y, int height) {
    const bool ascii = model.ascii();
    const int w = canvas.width();
    if (height < 3 || w < 10) return;
    const CompareCache& c = config_diff(state, model, rows);
    const ConfigChangeCounts n = count_changes(c.config_changes);
    canvas.fill(0, y, w, height, U' ', {Role::kText});
    const std::string title =
        fmt::format("configuration, A {} {} B {}: {} changed, {} added, {} removed",
                    model.run_label(rows.run_a), ascii ? "->" : "→", model.run_label(rows.run_b),
                    n.changed, n.added, n.removed);
    canvas.box(0, y, w, height, {Role::kBorder}, title, ascii);
    PanelColumns cols;
    cols.x0 = 2;
    cols.inner = w - 4;
    const int lines = height - 2;
    if (c.config_changes.empty()) {
        const std::string text =
            c.config_keys_a + c.config_keys_b == 0
                ? "neither run carries a configuration (text summaries, hparams.yaml, "
                  "deepspeed_config.csv)"
                : fmt::format("the same configuration: {} keys", c.config_keys_a);
        canvas.text(cols.x0, y + 1, fit(text, cols.inner, ascii), {Role::kDim});
        return;
    }
    // What changed first (the question the panel answers), then what was added, then removed;
    // each in key order.
    std::vector<const ConfigChange*> changes;
    for (const ConfigChange& ch : c.config_changes) changes.push_back(&ch);
    std::stable_sort(changes.begin(), changes.end(), [](const auto* l, const auto* r) {
        return kind_order(l->kind) < kind_order(r->kind);
    });
    int key_w = 0;
    for (const ConfigChange* ch : changes)
        key_w = std::max(key_w, display_width(config_entry_name(ch->key, ch->rank)));
    cols.key_w = std::min(key_w, std::max(8, cols.inner / 3));
    cols.vx = cols.x0 + 2 + cols.key_w + 2;
    cols.room = cols.x0 + cols.inner - cols.vx;

    // Every change gets a row; the rows left over show changes in full, the first ones first
    // (one that does not fit whole stays on its row, and a later one may).
    const int total = static_cast<int>(changes.size());
    const int shown = total <= lines ? total : lines - 1;
    std::vector<std::vector<PanelRow>> drawn;
    int spare = lines - shown - (shown < total ? 1 : 0);
    for (int i = 0; i < shown; ++i) {
        std::vector<PanelRow> whole = change_rows(*changes[i], true, cols, model, rows);
        const int extra = static_cast<int>(whole.size()) - 1;
        if (extra <= spare) {
            spare -= extra;
            drawn.push_back(std::move(whole));
        } else {
            drawn.push_back(change_rows(*changes[i], false, cols, model, rows));
        }
    }
    int yy = y + 1;
    for (const std::vector<PanelRow>& change : drawn)
        for (const PanelRow& row : change) {
            for (const Span& s : row)
                canvas.text(s.x, yy, s.text, s.style, cols.x0 + cols.inner - s.x);
            ++yy;
        }
    if (shown < total)
        canvas.text(cols.x0, yy,
                    fit(fmt::format("+{} more (runtop diff lists every key)", total - shown),
                        cols.inner, ascii),
                    {Role::kDim});
}

}  // namespace runtop::ui
