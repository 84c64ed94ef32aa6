#include "views/anomaly_layout.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string_view>

#include "views/anomaly_readout.h"
#include "views/view_common.h"

namespace runtop::ui {
namespace {

// Widest a column gets from what it holds (the cell is fitted with an ellipsis); 0: no cap.
constexpr std::array<int, kColumns> kCaps = {0, 0, 24, 6, 48, 24, 0, 10, 0};
// What the run, tag and rule are cut to before anything else goes.
constexpr int kLeastRun = 8, kLeastRule = 10, kLeastTag = 16;
// The least worth a message column: with less, the column goes, the readout holds the selected
// row's message whole, and no other column is cut for it.
constexpr int kLeastMessage = 16;
constexpr int kCompactSeverity = 3;  // "SEV" over the badge's mark, or "ack"

// The readout takes at most a third of the rows between the header and the status line, and
// is left out when that is fewer than its rule and two lines.
constexpr int kLeastReadout = 3;

// Columns of untrusted text as drawn; printable ASCII (nearly every cell) without sanitising.
int columns_of(std::string_view text) {
    for (char c : text)
        if (c < 0x20 || c >= 0x7f) return display_width(text);
    return static_cast<int>(text.size());
}

// The widest cell of each column over every row, its header included, within the caps.
std::array<int, kColumns> natural_widths(const ViewModel& model, const AnomalyState& state,
                                         const std::vector<AnomalyRow>& rows,
                                         std::size_t run_strip) {
    const AnomalyLog& log = model.analyzer().log();
    std::array<int, kColumns> width{};
    for (int c = 0; c < kColumns; ++c) width[c] = display_width(kAnomalyHeads[c]);
    for (const AnomalyRow& row : rows) {
        const LogEntry& e = log.ordered()[row.entry];
        const std::array<std::string, kColumns> cells =
            anomaly_cells(log, row, run_strip, model.ascii());
        for (int c = 0; c < kColumns; ++c) {
            int cw = c != kSeverity ? columns_of(cells[c])
                     : state.acknowledged.count(e.index)
                         ? display_width("ack " + cells[c])
                         : badge_width(alert_level(e.severity), model.glyphs(), cells[c]);
            if (kCaps[c] > 0) cw = std::min(cw, kCaps[c]);
            width[c] = std::max(width[c], cw);
        }
    }
    return width;
}

// See AnomalyLayout::run_strip.
std::size_t shared_run_prefix(const AnomalyLog& log, const std::vector<AnomalyRow>& rows) {
    std::string_view first;
    std::size_t common = 0;
    bool many = false;
    for (const AnomalyRow& row : rows) {
        const std::string& run = log.records()[log.ordered()[row.entry].index].run;
        if (run.empty() || run == first) continue;
        if (first.empty()) {
            first = run;
            common = run.size();
            continue;
        }
        many = true;
        const auto diff =
            std::mismatch(first.begin(), first.begin() + common, run.begin(), run.end());
        common = static_cast<std::size_t>(diff.first - first.begin());
    }
    const std::size_t slash = first.substr(0, many ? common : first.size()).rfind('/');
    return slash == std::string_view::npos ? 0 : slash + 1;
}

// The columns the row takes, with a gap after each.
int columns_used(const AnomalyLayout& l) {
    int used = 0;
    for (int c = 0; c < kColumns; ++c)
        if (l.shown[c]) used += l.width[c] + kAnomalyGap;
    return used;
}

// Cuts column c toward `least` by up to `over` columns; returns what is still over.
int cut(AnomalyLayout& l, int c, int least, int over) {
    if (over <= 0 || !l.shown[c]) return over;
    const int by = std::clamp(l.width[c] - least, 0, over);
    l.width[c] -= by;
    return over - by;
}

// Drops column c when anything is still over; returns what is then.
int drop(AnomalyLayout& l, int c, int over) {
    if (over <= 0 || !l.shown[c]) return over;
    l.shown[c] = false;
    return over - l.width[c] - kAnomalyGap;
}

int compact(AnomalyLayout& l, int over) {
    if (over <= 0 || !l.shown[kSeverity] || l.width[kSeverity] <= kCompactSeverity) return over;
    l.compact_severity = true;
    const int by = l.width[kSeverity] - kCompactSeverity;
    l.width[kSeverity] = kCompactSeverity;
    return over - by;
}

// The columns on a row of `w`: with a message column when the source going and the severity
// showing its mark alone leave it kLeastMessage, else without one, the other columns cut or
// dropped as far as they must.
void fit_columns(AnomalyLayout& l, int w) {
    const AnomalyLayout natural = l;
    int over = columns_used(l) + kLeastMessage - w;
    over = drop(l, kSource, over);
    over = compact(l, over);
    if (over <= 0) {
        l.message_width = w - columns_used(l);
        return;
    }
    // Without: the last column needs no gap after it.
    l = natural;
    l.message_width = 0;
    over = columns_used(l) - kAnomalyGap - w;
    over = drop(l, kSource, over);
    over = compact(l, over);
    over = cut(l, kRun, kLeastRun, over);
    over = cut(l, kRule, kLeastRule, over);
    over = cut(l, kTag, kLeastTag, over);
    for (int c : {kValue, kRun, kSeverity, kRank}) over = drop(l, c, over);
    over = cut(l, kTag, display_width(kAnomalyHeads[kTag]), over);
    cut(l, kRule, display_width(kAnomalyHeads[kRule]), over);
}

}  // namespace

std::array<std::string, kColumns> anomaly_cells(const AnomalyLog& log, const AnomalyRow& row,
                                                std::size_t run_strip, bool ascii) {
    const LogEntry& e = log.ordered()[row.entry];
    const AnomalyRecord& r = log.records()[e.index];
    return {anomaly_incident_cell(row, ascii),
            anomaly_steps_text(r),
            r.run.empty() ? std::string("-") : r.run.substr(std::min(run_strip, r.run.size())),
            r.rank == kNoRank ? std::string("-") : std::to_string(r.rank),
            r.tag.empty() ? std::string("-") : r.tag,
            r.rule,
            std::string(severity_name(e.severity)),
            short_value(r.value),
            std::string(anomaly_source_name(r.source))};
}

// What the last layout was worked out from. The log changes only as points are judged (a record
// added or an episode grown) or msProbe's records imported (one read again is the same record:
// msProbe rewrites its file whole), so the points judged and the records held tell a changed log.
struct AnomalyLayoutCache {
    struct Key {
        std::uint64_t points = 0;
        std::size_t records = 0, shown = 0, rows = 0, acknowledged = 0, expanded = 0;
        std::uint64_t filter_changes = 0;
        int width = 0, height = 0;
        GlyphTier tier = GlyphTier::kBraille;
        bool operator==(const Key&) const = default;
    };
    Key key;
    AnomalyLayout layout;
};

AnomalyLayout anomaly_layout(const ViewModel& model, const AnomalyState& state,
                             const std::vector<AnomalyRow>& rows, int width, int height) {
    const AnomalyLog& log = model.analyzer().log();
    const AnomalyLayoutCache::Key key{model.analyzer().points(),
                                      log.size(),
                                      log.ordered().size(),
                                      rows.size(),
                                      state.acknowledged.size(),
                                      state.expanded.size(),
                                      model.filter_changes(),
                                      width,
                                      height,
                                      model.glyphs()};
    if (state.layout_cache && state.layout_cache->key == key) return state.layout_cache->layout;

    AnomalyLayout l;
    l.shown.fill(true);
    l.run_strip = shared_run_prefix(log, rows);
    l.width = natural_widths(model, state, rows, l.run_strip);
    fit_columns(l, width);

    // The readout: as many lines as the longest row's takes at this width, within its share.
    const int share = (height - 2) / 3;
    if (share >= kLeastReadout && !rows.empty()) {
        int lines = 0;
        for (const AnomalyRow& row : rows) {
            const LogEntry& e = log.ordered()[row.entry];
            const bool acked = state.acknowledged.count(e.index) > 0;
            lines = std::max(lines, anomaly_readout_lines(log, e, acked, model.glyphs(), width));
            if (lines + 1 >= share) break;  // it can take no more
        }
        l.readout_lines = std::min(share, lines + 1);
    }
    l.rows_per_page = std::max(1, height - 2 - l.readout_lines);

    if (!state.layout_cache) state.layout_cache = std::make_shared<AnomalyLayoutCache>();
    *state.layout_cache = {key, l};
    return l;
}

}  // namespace runtop::ui
