#include "views/compare/compare_config.h"

#include <algorithm>
#include <functional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/config/config_diff.h"
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

}  // namespace

void draw_config_panel(Canvas& canvas, const ViewModel& model, const CompareState& state,
                       const CompareRows& rows, int y, int height) {
    const bool ascii = model.ascii();
    const int w = canvas.width();
    if (height < 3 || w < 10) return;
    const CompareCache& c = config_diff(state, model, rows);
    const std::vector<ConfigChange>& changes = c.config_changes;
    const ConfigChangeCounts n = count_changes(changes);
    canvas.fill(0, y, w, height, U' ', {Role::kText});
    const std::string title =
        fmt::format("configuration, A {} {} B {}: {} changed, {} added, {} removed", rows.run_a,
                    ascii ? "->" : "→", rows.run_b, n.changed, n.added, n.removed);
    canvas.box(0, y, w, height, {Role::kBorder}, title, ascii);
    const int x0 = 2, inner = w - 4, lines = height - 2;
    if (changes.empty()) {
        const std::string text =
            c.config_keys_a + c.config_keys_b == 0
                ? "neither run carries a configuration (text summaries, hparams.yaml, "
                  "deepspeed_config.csv)"
                : fmt::format("the same configuration: {} keys", c.config_keys_a);
        canvas.text(x0, y + 1, fit(text, inner, ascii), {Role::kDim});
        return;
    }
    int key_w = 0;
    for (const ConfigChange& ch : changes)
        key_w = std::max(key_w, display_width(config_entry_name(ch.key, ch.rank)));
    key_w = std::min(key_w, std::max(8, inner / 3));
    const int total = static_cast<int>(changes.size());
    const int shown = total <= lines ? total : lines - 1;
    const std::string arrow = ascii ? " -> " : " → ";
    for (int i = 0; i < shown; ++i) {
        const ConfigChange& ch = changes[i];
        const int yy = y + 1 + i;
        const char* mark = ch.kind == ConfigChangeKind::kChanged ? "~"
                           : ch.kind == ConfigChangeKind::kAdded ? "+"
                                                                 : "-";
        const Style style = ch.kind == ConfigChangeKind::kChanged ? Style{Role::kWarn, true}
                            : ch.kind == ConfigChangeKind::kAdded ? run_style(model, rows.run_b)
                                                                  : run_style(model, rows.run_a);
        canvas.text(x0, yy, mark, style);
        canvas.text(x0 + 2, yy, fit(config_entry_name(ch.key, ch.rank), key_w, ascii),
                    {Role::kText});
        const int vx = x0 + 2 + key_w + 2;
        const int room = x0 + inner - vx;
        if (room < 4) continue;
        if (ch.kind == ConfigChangeKind::kChanged) {
            // Both sides get half the room when both are long.
            const std::string a = one_line(ch.value_a), b = one_line(ch.value_b);
            const int half = (room - display_width(arrow)) / 2;
            const int aw = std::min(display_width(a),
                                    std::max(half, room - display_width(arrow) - display_width(b)));
            int x = vx + canvas.text(vx, yy, fit(a, aw, ascii), run_style(model, rows.run_a));
            x += canvas.text(x, yy, arrow, {Role::kDim});
            canvas.text(x, yy, fit(b, x0 + inner - x, ascii), run_style(model, rows.run_b));
        } else {
            const std::string v =
                one_line(ch.kind == ConfigChangeKind::kAdded ? ch.value_b : ch.value_a);
            canvas.text(vx, yy, fit(v, room, ascii), style);
        }
    }
    if (shown < total)
        canvas.text(
            x0, y + 1 + shown,
            fit(fmt::format("+{} more (runtop diff lists every key)", total - shown), inner, ascii),
            {Role::kDim});
}

}  // namespace runtop::ui
