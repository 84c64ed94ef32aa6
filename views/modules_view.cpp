#include "views/modules_view.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/analysis/module_families.h"
#include "core/format.h"
#include "views/column_steps.h"
#include "views/glyphs.h"
#include "views/heatmap_view.h"
#include "views/step_axis.h"
#include "views/tag_title.h"
#include "views/view_common.h"

namespace runtop::ui {

// A member's anomaly: a record runtop or msProbe made on it, or its first NaN/Inf (an alert).
struct ModuleMark {
    std::int64_t step = 0;
    Severity severity = Severity::kWarn;
    SeriesId series = kNoSeries;
};

namespace {
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
}  // namespace

// A cell of the map: its members' values aggregated, NaN/Inf and the marks recorded in it.
struct ModuleCell {
    bool empty = true;
    double value = kNan;  // the aggregate of its finite members' means
    bool nan = false, inf = false;
    int mark = 0;  // 0 none, 1 a warn, 2 an alert recorded in it
};

// What a page's cells were queried for: a key frame with the same key reuses them.
struct ModulePageKey {
    int family = -1, zoom = 0, aggregation = 0, rank = 0, first = 0, rows = 0, columns = 0;
    std::int64_t lo = 0, hi = 0;
    std::uint64_t points = 0, filter_changes = 0;
    std::size_t records = 0;
    bool operator==(const ModulePageKey&) const = default;
};

// What was last seen of a member: its first NaN/Inf is looked for only in points added since.
struct MemberCheck {
    std::uint64_t received = 0, restarts = 0;  // Series::received(), restart_count()
    std::int64_t last_step = 0;
    std::optional<std::int64_t> first_bad;
};

struct ModulesCache {
    // The families, remade when series arrive or the filter changes (tags arrive live).
    std::size_t series_count = std::numeric_limits<std::size_t>::max();
    std::uint64_t filter_changes = std::numeric_limits<std::uint64_t>::max();
    std::size_t groups = std::numeric_limits<std::size_t>::max();
    std::vector<ModuleFamily> families;
    std::vector<std::vector<std::vector<SeriesId>>> members;  // [family][module]: its series
    // One family's marks and steps, remade when the data or the log grows (a key frame keeps
    // them: the data frame that follows remakes them).
    int marks_family = -1;
    std::uint64_t received = 0;  // the members' received points and restarts: what changes them
    std::vector<std::vector<ModuleMark>> marks;  // per module, by step
    int checks_family = -1;
    std::vector<std::vector<MemberCheck>> checks;         // per module, per member
    std::unordered_map<SeriesId, std::size_t> module_of;  // checks_family's members' modules
    bool any = false;                                     // the family has points
    std::int64_t lo = 0, hi = 0;                          // its steps
    ModulePageKey page_key;
    std::vector<std::vector<ModuleCell>> page;  // the last page's cells
};

namespace {

constexpr int kMaxLabel = 28;
constexpr int kLegendFrom = 8;
constexpr int kReadoutFrom = 9;
using Cell = ModuleCell;

ModulesCache& families_of(const ModulesState& state, const ViewModel& model) {
    if (!state.cache) state.cache = std::make_shared<ModulesCache>();
    ModulesCache& c = *state.cache;
    const auto& groups = model.groups();
    if (c.series_count == model.store().series_count() &&
        c.filter_changes == model.filter_changes() && c.groups == groups.size())
        return c;
    c.series_count = model.store().series_count();
    c.filter_changes = model.filter_changes();
    c.groups = groups.size();
    // Tags in the order the Store first saw them: a card's smallest id.
    std::vector<std::pair<SeriesId, std::size_t>> seen;
    for (std::size_t i = 0; i < groups.size(); ++i)
        if (!groups[i].series.empty())
            seen.emplace_back(*std::min_element(groups[i].series.begin(), groups[i].series.end()),
                              i);
    std::sort(seen.begin(), seen.end());
    std::vector<std::string_view> tags;
    tags.reserve(seen.size());
    for (const auto& [id, i] : seen) tags.push_back(groups[i].tag);
    c.families = module_families(tags);
    c.members.assign(c.families.size(), {});
    for (std::size_t f = 0; f < c.families.size(); ++f)
        for (const FamilyModule& m : c.families[f].modules) {
            std::vector<SeriesId>& ids = c.members[f].emplace_back();
            for (std::size_t t : m.tags) {
                const TagGroup& g = groups[seen[t].second];
                ids.insert(ids.end(), g.series.begin(), g.series.end());
            }
        }
    c.marks_family = -1;
    c.checks_family = -1;  // members moved: every member is looked at whole again
    return c;
}

int family_index(const ModulesState& state, const ModulesCache& c) {
    const auto& fs = c.families;
    auto find = [&](std::string_view task, std::optional<std::string_view> op) {
        for (std::size_t i = 0; i < fs.size(); ++i)
            if (fs[i].task == task && (!op || fs[i].op == *op)) return static_cast<int>(i);
        return -1;
    };
    if (fs.empty()) return -1;
    if (state.task) {
        if (int i = find(*state.task, state.op); i >= 0) return i;
        if (int i = find(*state.task, std::nullopt); i >= 0) return i;
    }
    if (int i = find("grad_unreduced", "norm"); i >= 0) return i;
    for (std::size_t i = 0; i < fs.size(); ++i)
        if (fs[i].op == "norm") return static_cast<int>(i);
    return 0;
}

// The family's steps and every member's marks, by step.
void refresh_marks(ModulesCache& c, int f, const ViewModel& model) {
    const auto& records = model.analyzer().log().records();
    // A key's frame keeps them; any other looks at every member (a point replaced at an equal
    // step changes no count), querying only the members that grew.
    if (c.marks_family == f && model.ingest.key_frame) return;
    c.marks_family = f;
    c.received = 0;
    const auto& members = c.members[f];
    c.marks.assign(members.size(), {});
    c.any = false;
    bool same_members = c.checks_family == f && c.checks.size() == members.size();
    for (std::size_t m = 0; same_members && m < members.size(); ++m)
        same_members = c.checks[m].size() == members[m].size();
    if (!same_members) {
        // Made once per family's members, not per frame (128 k members at 10,000 tags).
        c.checks_family = f;
        c.checks.assign(members.size(), {});
        c.module_of.clear();
        for (std::size_t m = 0; m < members.size(); ++m) {
            c.checks[m].resize(members[m].size());
            for (SeriesId id : members[m]) c.module_of.emplace(id, m);
        }
    }
    const auto& module_of = c.module_of;
    for (std::size_t m = 0; m < members.size(); ++m) {
        for (std::size_t j = 0; j < members[m].size(); ++j) {
            const SeriesId id = members[m][j];
            const Series& s = model.store().at(id);
            c.received += s.received() + s.restart_count();
            if (s.empty()) continue;
            c.lo = c.any ? std::min(c.lo, s.first_step()) : s.first_step();
            c.hi = c.any ? std::max(c.hi, s.last_step()) : s.last_step();
            c.any = true;
            // Only the points a member gained since it was last looked at are queried (a
            // restart, which may drop its NaN, has it looked at whole again).
            MemberCheck& k = c.checks[m][j];
            if (s.received() != k.received || s.restart_count() != k.restarts) {
                // Appended to: from the step last seen, which an equal step may have replaced.
                const bool grew = k.received > 0 && s.received() > k.received &&
                                  s.last_step() >= k.last_step && s.restart_count() == k.restarts;
                if (!grew) k.first_bad.reset();
                const std::int64_t from = grew ? k.last_step : s.first_step();
                if (!k.first_bad) {
                    ColumnSummary added;
                    s.query(from, s.last_step() + 1, {&added, 1});
                    if (non_finite(added))
                        k.first_bad =
                            narrow_to_step(s, from, s.last_step() + 1,
                                           [](const ColumnSummary& x) { return non_finite(x); });
                }
                k.received = s.received();
                k.last_step = s.last_step();
                k.restarts = s.restart_count();
            }
            if (k.first_bad) c.marks[m].push_back({*k.first_bad, Severity::kAlert, id});
        }
    }
    for (const AnomalyRecord& r : records) {
        SeriesId id = r.series;
        if (id == kNoSeries) {  // imported: msProbe's records name the tag, not runtop's series
            if (r.tag.empty()) continue;
            const TagGroup* g = model.group(r.tag);
            // A tag's series are all of one module: the first tells whether it is the family's.
            if (!g || g->series.empty() || !module_of.count(g->series.front())) continue;
            const RunRank rr{r.run, r.rank};
            for (SeriesId s : g->series)
                if (model.has_run_rank(s, rr)) {
                    id = s;
                    break;
                }
        }
        const auto it = module_of.find(id);
        if (it != module_of.end()) c.marks[it->second].push_back({r.step, r.severity, id});
    }
    for (auto& m : c.marks)
        std::stable_sort(m.begin(), m.end(),
                         [](const ModuleMark& a, const ModuleMark& b) { return a.step < b.step; });
}

struct RowDef {
    std::string label;
    std::vector<std::size_t> modules;  // indices into the family's modules
};

// Layers a row at `zoom` (0: a module a row).
std::int64_t layers_per_row(int zoom) {
    return zoom <= 0 ? 0 : std::int64_t{1} << std::min(zoom - 1, 40);
}

int max_zoom(const ModuleFamily& f) {
    std::int64_t top = -1;
    for (const FamilyModule& m : f.modules)
        if (m.layer) top = std::max(top, *m.layer);
    if (top < 0) return 0;
    int z = 1;
    while (layers_per_row(z) < top + 1) ++z;
    return z;
}

// The leading dotted parts every module name shares ("language_model.encoder."), so a row's
// label shows what tells it apart; "" when some name would be left with nothing.
std::string shared_module_prefix(const ModuleFamily& f) {
    if (f.modules.size() < 2) return {};
    std::string_view prefix = f.modules.front().name;
    for (const FamilyModule& m : f.modules) {
        std::size_t n = 0;
        while (n < prefix.size() && n < m.name.size() && prefix[n] == m.name[n]) ++n;
        prefix = prefix.substr(0, n);
    }
    const std::size_t dot = prefix.rfind('.');
    if (dot == std::string_view::npos) return {};
    prefix = prefix.substr(0, dot + 1);
    // "layers." before a layer's number stays with it: "layers.3.mlp", not "3.mlp".
    for (const FamilyModule& m : f.modules) {
        if (m.name.size() <= prefix.size()) return {};
        if (std::isdigit(static_cast<unsigned char>(m.name[prefix.size()]))) {
            const std::size_t before = prefix.substr(0, prefix.size() - 1).rfind('.');
            if (before == std::string_view::npos) return {};
            prefix = prefix.substr(0, before + 1);
        }
    }
    return std::string(prefix);
}

// A module's name in `columns`: whole when it fits; else through its layer's number, an
// ellipsis and as much of its end as fits ("layers.12…layernorm.weight"): the layer and the
// parameter are what tell rows apart. Without a number, fit_tag's cut.
std::string fit_module(const std::string& name, int columns, bool ascii) {
    if (display_width(name) <= columns) return name;
    std::size_t end = std::string::npos;
    for (std::size_t i = 1; i < name.size(); ++i)
        if (name[i - 1] == '.' && std::isdigit(static_cast<unsigned char>(name[i]))) {
            end = i;
            while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) ++end;
            break;
        }
    const bool plain = std::all_of(name.begin(), name.end(),
                                   [](unsigned char c) { return c >= 0x20 && c < 0x7f; });
    const int tail = columns - static_cast<int>(end) - 1;
    if (end == std::string::npos || !plain || tail < 4) return fit_tag(name, columns, ascii);
    return name.substr(0, end) + (ascii ? "~" : "…") +
           name.substr(name.size() - static_cast<std::size_t>(tail));
}

std::vector<RowDef> make_rows(const ModuleFamily& f, int zoom) {
    std::vector<RowDef> rows;
    const std::size_t shared = shared_module_prefix(f).size();
    const std::int64_t per = layers_per_row(zoom);
    bool grouping = false;                             // the last row is a group of layers, `last`
    std::pair<std::int64_t, std::int64_t> last{0, 0};  // (vpp, layer group)
    for (std::size_t i = 0; i < f.modules.size(); ++i) {
        const FamilyModule& m = f.modules[i];
        if (per == 0 || !m.layer) {
            rows.push_back({m.name.substr(shared), {i}});
            grouping = false;
            continue;
        }
        const std::pair<std::int64_t, std::int64_t> key{m.vpp, *m.layer / per};
        if (!grouping || last != key) {
            const std::int64_t a = key.second * per, b = a + per - 1;
            std::string label = m.vpp != 0 ? fmt::format("{}:", m.vpp) : std::string();
            label += per == 1 ? fmt::format("layer {}", a) : fmt::format("layers {}-{}", a, b);
            rows.push_back({std::move(label), {}});
            last = key;
            grouping = true;
        }
        rows.back().modules.push_back(i);
    }
    return rows;
}

struct Frame {
    ModulesCache* cache = nullptr;
    const ModuleFamily* family = nullptr;
    int family_index = -1;
    std::vector<RowDef> rows;
    int row = 0, column = 0, columns = 1;
    std::int64_t lo = 0, hi = 0;
    int label_w = 0, map_x = 0, body_y = 1, body_rows = 1, first = 0;
    int axis_y = -1, legend_y = -1, readout_y = -1;
    std::optional<RunRank> rank;           // kRank: the rank shown
    std::vector<std::vector<Cell>> cells;  // per page row
    bool log = false, any = false;
    double ramp_lo = 0, ramp_hi = 1;              // in scale
    std::vector<double> row_median;               // per page row (deviation colours)
    std::optional<std::pair<int, int>> earliest;  // (row, column) of the earliest worst mark
    Severity earliest_severity = Severity::kWarn;
    std::int64_t earliest_step = 0;

    std::int64_t bucket_start(int c) const {
        return column_start(lo, hi + 1, static_cast<unsigned>(std::max(1, columns)),
                            static_cast<unsigned>(c));
    }
    // The column holding `step` (in [lo, hi]): the arithmetic's guess, then the edges checked.
    int column_of(std::int64_t step) const {
        const auto span = static_cast<unsigned __int128>(static_cast<std::uint64_t>(hi) -
                                                         static_cast<std::uint64_t>(lo)) +
                          1;
        const auto off = static_cast<unsigned __int128>(static_cast<std::uint64_t>(step) -
                                                        static_cast<std::uint64_t>(lo));
        int c = static_cast<int>(
            std::min<unsigned __int128>(off * static_cast<unsigned>(columns) / span, columns - 1));
        while (c + 1 < columns && bucket_start(c + 1) <= step) ++c;
        while (c > 0 && bucket_start(c) > step) --c;
        return c;
    }
    double scale(double v) const { return log ? std::log10(v) : v; }
    double unscale(double s) const { return log ? std::pow(10.0, s) : s; }
};

bool counts(const Frame& f, const ViewModel& model, SeriesId id) {
    return !f.rank || model.has_run_rank(id, *f.rank);
}

int row_of_module(const std::vector<RowDef>& rows, std::size_t module) {
    for (std::size_t r = 0; r < rows.size(); ++r)
        if (std::find(rows[r].modules.begin(), rows[r].modules.end(), module) !=
            rows[r].modules.end())
            return static_cast<int>(r);
    return 0;
}

double percentile(std::vector<double>& v, double p) {
    const auto k = static_cast<std::size_t>(std::lround(p * static_cast<double>(v.size() - 1)));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

// One page row's cells: each member queried once over the family's steps.
std::vector<Cell> query_row(const Frame& f, const RowDef& row, ModuleAggregation aggregation,
                            const ViewModel& model) {
    std::vector<Cell> cells(f.columns);
    std::vector<ColumnSummary> cols(f.columns);
    std::vector<double> hi(f.columns), lo(f.columns);
    for (std::size_t m : row.modules) {
        std::fill(hi.begin(), hi.end(), kNan);
        std::fill(lo.begin(), lo.end(), kNan);
        for (SeriesId id : f.cache->members[f.family_index][m]) {
            if (!counts(f, model, id)) continue;
            const Series& s = model.store().at(id);
            if (s.empty()) continue;
            std::fill(cols.begin(), cols.end(), ColumnSummary{});
            s.query(f.lo, f.hi + 1, cols);
            for (int c = 0; c < f.columns; ++c) {
                const ColumnSummary& x = cols[c];
                if (x.empty()) continue;
                Cell& cell = cells[c];
                cell.empty = false;
                cell.nan = cell.nan || x.nan > 0;
                cell.inf = cell.inf || x.pos_inf + x.neg_inf > 0;
                if (!has_finite(x)) continue;
                hi[c] = std::isnan(hi[c]) ? x.mean : std::max(hi[c], x.mean);
                lo[c] = std::isnan(lo[c]) ? x.mean : std::min(lo[c], x.mean);
            }
        }
        for (int c = 0; c < f.columns; ++c) {
            if (std::isnan(hi[c])) continue;
            double v = hi[c];
            if (aggregation == ModuleAggregation::kSpread)
                v = lo[c] > 0 ? hi[c] / lo[c] : hi[c] - lo[c];
            cells[c].value = std::isnan(cells[c].value) ? v : std::max(cells[c].value, v);
        }
        for (const ModuleMark& k : f.cache->marks[m]) {
            if (k.step < f.lo || k.step > f.hi || !counts(f, model, k.series)) continue;
            Cell& cell = cells[f.column_of(k.step)];
            cell.mark = std::max(cell.mark, k.severity == Severity::kAlert ? 2 : 1);
        }
    }
    return cells;
}

Frame make_frame(const ModulesState& state, const ViewModel& model, int width, int height,
                 bool query) {
    Frame f;
    f.cache = &families_of(state, model);
    f.family_index = family_index(state, *f.cache);
    if (f.family_index < 0) return f;
    f.family = &f.cache->families[f.family_index];
    refresh_marks(*f.cache, f.family_index, model);
    f.rows = make_rows(*f.family, std::min(state.zoom, max_zoom(*f.family)));
    const int rows = static_cast<int>(f.rows.size());
    f.row = std::clamp(state.row, 0, std::max(0, rows - 1));
    if (state.aggregation == ModuleAggregation::kRank) {
        const std::vector<RunRank> ranks = model.run_ranks();
        if (!ranks.empty())
            f.rank = ranks[static_cast<std::size_t>(
                std::clamp(state.rank, 0, static_cast<int>(ranks.size()) - 1))];
    }
    f.lo = f.cache->lo;
    f.hi = f.cache->hi;

    int label_w = 4;  // "step"
    for (const RowDef& r : f.rows) label_w = std::max(label_w, display_width(r.label));
    f.label_w = std::min({label_w, kMaxLabel, std::max(4, width / 4)});
    f.map_x = f.label_w + 1;
    const auto span = static_cast<std::uint64_t>(f.hi) - static_cast<std::uint64_t>(f.lo) + 1;
    f.columns = static_cast<int>(
        std::max<std::uint64_t>(1, std::min<std::uint64_t>(span, std::max(1, width - f.map_x))));
    f.column = state.column < 0 ? f.columns - 1 : std::min(state.column, f.columns - 1);

    const bool legend = height >= kLegendFrom, readout = height >= kReadoutFrom;
    const int avail = std::max(1, height - 1 - f.body_y - 1 - legend - readout);
    f.body_rows = std::clamp(rows, 1, avail);
    int y = f.body_y + f.body_rows;
    f.axis_y = y++;
    if (legend) f.legend_y = y++;
    if (readout) f.readout_y = y;
    f.first = f.row / f.body_rows * f.body_rows;

    // The earliest mark of the worst severity over every module (the rank's, in kRank).
    std::optional<std::pair<Severity, std::int64_t>> best;
    std::size_t best_module = 0;
    for (std::size_t m = 0; m < f.cache->marks.size(); ++m)
        for (const ModuleMark& k : f.cache->marks[m]) {
            if (!counts(f, model, k.series)) continue;
            const bool better = !best || k.severity > best->first ||
                                (k.severity == best->first && k.step < best->second);
            if (better) {
                best = {k.severity, k.step};
                best_module = m;
            }
        }
    if (best && f.cache->any) {
        f.earliest = {row_of_module(f.rows, best_module), f.column_of(best->second)};
        f.earliest_severity = best->first;
        f.earliest_step = best->second;
    }
    if (!query || !f.cache->any) return f;

    // A key frame on the page last queried reuses its cells (the data frame after it queries).
    ModulePageKey key{f.family_index,
                      state.zoom,
                      static_cast<int>(state.aggregation),
                      state.rank,
                      f.first,
                      f.body_rows,
                      f.columns,
                      f.lo,
                      f.hi,
                      f.cache->received,
                      model.filter_changes(),
                      model.analyzer().log().size()};
    ModulePageKey old = f.cache->page_key;
    if (model.ingest.key_frame) {
        old.points = key.points;
        old.records = key.records;
    }
    if (old == key && !f.cache->page.empty()) {
        f.cells = f.cache->page;
    } else {
        for (int r = f.first; r < std::min(rows, f.first + f.body_rows); ++r)
            f.cells.push_back(query_row(f, f.rows[r], state.aggregation, model));
        f.cache->page_key = key;
        f.cache->page = f.cells;
    }
    std::vector<double> values;
    double top = -std::numeric_limits<double>::infinity();
    for (const auto& row : f.cells) {
        std::vector<double> mine;
        for (const Cell& c : row)
            if (std::isfinite(c.value)) {
                mine.push_back(c.value);
                top = std::max(top, c.value);
            }
        f.row_median.push_back(mine.empty() ? kNan : percentile(mine, 0.5));
    }
    if (!(top > -std::numeric_limits<double>::infinity())) return f;
    f.any = true;
    f.log = state.log.value_or(true) && top > 0;
    for (const auto& row : f.cells)
        for (const Cell& c : row)
            if (std::isfinite(c.value) && (!f.log || c.value > 0))
                values.push_back(f.scale(c.value));
    f.ramp_lo = percentile(values, 0.01);
    f.ramp_hi = percentile(values, 0.99);
    if (!(f.ramp_hi > f.ramp_lo)) {  // one level everywhere: it sits mid-ramp
        const double d = f.ramp_lo == 0 ? 1 : std::fabs(f.ramp_lo) / 10;
        f.ramp_lo -= d;
        f.ramp_hi += d;
    }
    return f;
}

// Level 0..9 of a value: on the page's ramp, or three levels a doubling away from the row's
// median (8x or 1/8 and beyond: the top).
int level(const Frame& f, const ModulesState& state, int page_row, double v) {
    if (state.colour == ModuleColour::kDeviation) {
        const double median = f.row_median[page_row];
        if (!std::isfinite(median)) return 0;
        double ratio;
        if (v > 0 && median > 0)
            ratio = std::max(v, median) / std::min(v, median);
        else
            ratio = 1 + std::fabs(v - median) / std::max(std::fabs(median), 1e-300);
        return std::clamp(static_cast<int>(3 * std::log2(ratio)), 0, kHeatRoles - 1);
    }
    if (f.log && !(v > 0)) return 0;
    const double t = (f.scale(v) - f.ramp_lo) / (f.ramp_hi - f.ramp_lo);
    if (!(t > 0)) return 0;
    return std::min(kHeatRoles - 1, static_cast<int>(t * kHeatRoles));
}

struct Glyphs {
    char32_t earliest, alert, warn, nan, inf, selected;
};
Glyphs glyphs(bool ascii) {
    return ascii ? Glyphs{U'E', U'A', U'W', U'!', U'I', U'O'}
                 : Glyphs{U'◉', U'▲', U'△', U'×', U'∞', U'◆'};
}

std::string aggregation_text(const Frame& f, const ModulesState& state, const ViewModel& model) {
    switch (state.aggregation) {
        case ModuleAggregation::kMax:
            return "max over ranks";
        case ModuleAggregation::kRank:
            if (!f.rank) return "rank: none";
            if (f.rank->rank == kNoRank) return model.run_label(f.rank->run);
            return model.runs() > 1
                       ? fmt::format("{}:r{}", model.run_label(f.rank->run), f.rank->rank)
                       : fmt::format("rank {}", f.rank->rank);
        case ModuleAggregation::kSpread:
            return "spread: max/min across ranks";
    }
    return {};
}

std::string family_name(const ModuleFamily& family) {
    std::string s = family.task.empty() ? std::string("(no task)") : family.task;
    if (!family.op.empty()) s += " " + family.op;
    return s;
}

void draw_title(Canvas& canvas, const Frame& f, const ModulesState& state, const ViewModel& model) {
    const bool ascii = model.ascii();
    const std::uint64_t span = static_cast<std::uint64_t>(f.hi - f.lo) + 1;
    const double per = static_cast<double>(span) / f.columns;
    const std::size_t modules = f.family->modules.size();
    const std::string under = shared_module_prefix(*f.family);
    std::vector<Piece> pieces = {
        {family_name(*f.family), {Role::kTitle, true}},
        {fmt::format("{} module{}{} {} steps {}{}{}", modules, modules == 1 ? "" : "s",
                     under.empty() || state.zoom > 0 ? "" : " of " + under + "*", ascii ? "x" : "×",
                     short_step(f.lo), ascii ? "-" : "–", short_step(f.hi)),
         {Role::kDim}},
        {per <= 1 ? std::string("1 step a column")
                  : fmt::format("{} steps a column", short_value(std::round(per * 10) / 10)),
         {Role::kDim}},
        {aggregation_text(f, state, model), {Role::kAccent, true}},
        {state.colour == ModuleColour::kDeviation ? std::string("vs row median")
                                                  : std::string(f.log ? "log" : "linear"),
         {Role::kText}},
    };
    const std::int64_t per_row = layers_per_row(std::min(state.zoom, max_zoom(*f.family)));
    if (per_row > 0)
        pieces.push_back(
            {fmt::format("{} layer{} a row", per_row, per_row == 1 ? "" : "s"), {Role::kText}});
    draw_pieces(canvas, 0, 0, canvas.width(), pieces, ascii);
}

void draw_map(Canvas& canvas, const Frame& f, const ModulesState& state, const ViewModel& model) {
    const bool ascii = model.ascii();
    const GlyphTier tier = model.glyphs();
    const Glyphs g = glyphs(ascii);
    for (std::size_t i = 0; i < f.cells.size(); ++i) {
        const int r = f.first + static_cast<int>(i);
        const int y = f.body_y + static_cast<int>(i);
        Style label{Role::kText};
        if (r == f.row) {
            label = {Role::kAccent, true, true};
            canvas.fill(0, y, f.label_w, 1, U' ', label);
        }
        canvas.text(0, y, fit_module(f.rows[r].label, f.label_w, ascii), label);
        for (int c = 0; c < f.columns; ++c) {
            const Cell& cell = f.cells[i][c];
            char32_t glyph = U' ';
            Style style{Role::kText};
            if (r == f.row && c == f.column) {
                glyph = g.selected;
                style = {Role::kAccent, true};
            } else if (f.earliest && f.earliest->first == r && f.earliest->second == c) {
                glyph = g.earliest;
                style = {f.earliest_severity == Severity::kAlert ? Role::kAlert : Role::kWarn,
                         true};
            } else if (cell.nan || cell.inf) {
                glyph = cell.nan ? g.nan : g.inf;
                style = {Role::kNan, true};
            } else if (cell.mark > 0) {
                glyph = cell.mark == 2 ? g.alert : g.warn;
                style = {cell.mark == 2 ? Role::kAlert : Role::kWarn, true};
            } else if (std::isfinite(cell.value)) {
                const int lv = level(f, state, static_cast<int>(i), cell.value);
                glyph = heat_glyph(lv, tier);
                style = {heat_role(lv)};
            }
            canvas.put(f.map_x + c, y, glyph, style);
        }
    }
}

void draw_legend(Canvas& canvas, const Frame& f, const ModulesState& state,
                 const ViewModel& model) {
    const bool ascii = model.ascii();
    const GlyphTier tier = model.glyphs();
    const int y = f.legend_y, w = canvas.width();
    if (!f.any) {
        canvas.text(0, y, "no finite values", {Role::kDim}, w);
        return;
    }
    const bool deviation = state.colour == ModuleColour::kDeviation;
    int x = draw_pieces(
        canvas, 0, y, w,
        {{deviation ? "off the row's median:" : "cell:", {Role::kDim}},
         {deviation ? std::string("1x") : short_value(f.unscale(f.ramp_lo)), {Role::kText}, 1}},
        ascii);
    if (x + 1 + kHeatRoles > w) return;
    ++x;
    for (int lv = 0; lv < kHeatRoles; ++lv)
        canvas.put(x++, y, heat_glyph(lv, tier), {heat_role(lv)});
    const Glyphs g = glyphs(ascii);
    auto glyph = [](char32_t c) {
        std::string s;
        append_utf8(s, c);
        return s;
    };
    std::vector<Piece> rest = {
        {deviation ? std::string("8x")
                   : short_value(f.unscale(f.ramp_hi)) + (f.log ? " (log)" : ""),
         {Role::kText},
         1},
        {glyph(g.earliest) + " earliest", {Role::kAlert, true}},
        {glyph(g.alert) + glyph(g.warn) + " alert/warn", {Role::kWarn, true}},
        {glyph(g.nan) + " nan " + glyph(g.inf) + " inf", {Role::kNan, true}},
    };
    draw_pieces(canvas, x + 1, y, w, rest, ascii);
}

void draw_readout(Canvas& canvas, const Frame& f, const ModulesState& state,
                  const ViewModel& model) {
    const int i = f.row - f.first;
    if (i < 0 || i >= static_cast<int>(f.cells.size())) return;
    const bool ascii = model.ascii();
    const Cell& c = f.cells[i][f.column];
    const std::int64_t a = f.bucket_start(f.column), b = f.bucket_start(f.column + 1) - 1;
    const std::string dash = ascii ? "-" : "–";
    // A module's row by its whole name (its label may leave out what every row shares).
    const RowDef& row = f.rows[f.row];
    const std::string name =
        row.modules.size() == 1 && row.label == f.family->modules[row.modules[0]].name.substr(
                                                    shared_module_prefix(*f.family).size())
            ? f.family->modules[row.modules[0]].name
            : row.label;
    std::vector<Piece> pieces = {{name +
                                      (a == b ? " step " + short_step(a)
                                              : " steps " + short_step(a) + dash + short_step(b)) +
                                      ":",
                                  {Role::kTitle, true}}};
    if (c.empty) {
        pieces.push_back({"no points", {Role::kDim}, 1});
    } else {
        if (std::isfinite(c.value)) {  // what it aggregates, the title says
            const std::string v = state.aggregation == ModuleAggregation::kSpread
                                      ? (ascii ? "x" : "×") + short_value(c.value)
                                      : short_value(c.value);
            pieces.push_back({v, {Role::kText, true}, 1});
        }
        if (c.nan || c.inf)
            pieces.push_back({c.nan && c.inf ? "nan and inf"
                              : c.nan        ? "nan"
                                             : "inf",
                              {Role::kNan, true}});
        if (c.mark > 0)
            pieces.push_back({c.mark == 2 ? "an alert recorded" : "a warning recorded",
                              {c.mark == 2 ? Role::kAlert : Role::kWarn, true}});
    }
    if (f.earliest)
        pieces.push_back({fmt::format("earliest {}: step {} (e)",
                                      f.earliest_severity == Severity::kAlert ? "alert" : "warn",
                                      short_step(f.earliest_step)),
                          {Role::kDim}});
    draw_pieces(canvas, 0, f.readout_y, canvas.width(), pieces, ascii);
}

void set_column(ModulesState& state, const Frame& f, int c) {
    state.column = c >= f.columns - 1 ? -1 : c;
}

}  // namespace

void draw_modules(Canvas& canvas, const ViewModel& model, const ModulesState& state) {
    canvas.clear();
    if (too_small(canvas)) {
        draw_too_small(canvas, "modules");
        return;
    }
    const Frame f = make_frame(state, model, canvas.width(), canvas.height(), true);
    if (!f.family || f.cells.empty()) {
        const std::string text =
            f.family ? family_name(*f.family) + ": no points yet"
            : model.groups().empty()
                ? std::string("no scalar series read yet")
                : std::string(
                      "no module family: no tags like grad_unreduced/<module>/norm "
                      "(msProbe) or grad_norm/model.layers.N... (numbered layers)");
        canvas.text(1, 1, fit(text, canvas.width() - 2, model.ascii()), {Role::kDim});
        draw_status(canvas, model, "modules");
        return;
    }
    draw_title(canvas, f, state, model);
    draw_map(canvas, f, state, model);
    draw_step_axis(canvas, {f.axis_y, f.label_w, f.map_x, f.columns, f.lo, f.hi, f.column},
                   model.ascii());
    if (f.legend_y >= 0) draw_legend(canvas, f, state, model);
    if (f.readout_y >= 0) draw_readout(canvas, f, state, model);
    const int rows = static_cast<int>(f.rows.size());
    std::string right;
    if (rows > f.body_rows)
        right = fmt::format("rows {}-{} of {}, ", f.first + 1,
                            std::min(rows, f.first + f.body_rows), rows);
    right += fmt::format("family {}/{}", f.family_index + 1, f.cache->families.size());
    draw_status(canvas, model, right);
}

bool modules_handle(ModulesState& state, Action action, const ViewModel& model, int width,
                    int height) {
    const Frame f = make_frame(state, model, width, height, false);
    if (!f.family) return false;
    const ModulesState before = state;
    const int rows = static_cast<int>(f.rows.size());
    if (action == Action::kNextSeries || action == Action::kPreviousSeries) {
        const int n = static_cast<int>(model.run_ranks().size());
        if (n == 0) return false;
        if (state.aggregation == ModuleAggregation::kRank)
            state.rank =
                (std::clamp(state.rank, 0, n - 1) + (action == Action::kNextSeries ? 1 : n - 1)) %
                n;
        state.aggregation = ModuleAggregation::kRank;
        return true;
    }
    if (action == Action::kZoomIn || action == Action::kZoomOut || action == Action::kResetZoom) {
        const int top = max_zoom(*f.family);
        const int zoom = std::min(state.zoom, top);
        state.zoom = action == Action::kResetZoom ? 0
                     : action == Action::kZoomIn  ? std::max(0, zoom - 1)
                                                  : std::min(top, zoom + 1);
        // The selection stays on the module it showed (a group's first).
        if (!f.rows.empty())
            state.row = row_of_module(make_rows(*f.family, state.zoom), f.rows[f.row].modules[0]);
        return state.zoom != zoom;
    }
    int row = f.row, column = f.column;
    if (!move_in_table(action, row, column, rows, f.body_rows)) return false;
    state.row = std::clamp(row, 0, std::max(0, rows - 1));
    set_column(state, f, std::clamp(column, 0, f.columns - 1));
    return state.row != before.row || state.column != before.column;
}

namespace {

// Families of the shown one's task (ops), or the first family of each task (tasks).
std::string switch_family(ModulesState& state, const ViewModel& model, bool task) {
    const ModulesCache& c = families_of(state, model);
    const int i = family_index(state, c);
    if (i < 0) return "no module family";
    const ModuleFamily& now = c.families[i];
    std::vector<int> choices;
    std::vector<std::string> seen;
    for (std::size_t k = 0; k < c.families.size(); ++k) {
        const ModuleFamily& x = c.families[k];
        if (task) {
            if (std::find(seen.begin(), seen.end(), x.task) != seen.end()) continue;
            seen.push_back(x.task);
            // The task's family with the shown op, else its first.
            int pick = static_cast<int>(k);
            for (std::size_t j = k; j < c.families.size(); ++j)
                if (c.families[j].task == x.task && c.families[j].op == now.op)
                    pick = static_cast<int>(j);
            choices.push_back(x.task == now.task ? i : pick);
        } else if (x.task == now.task) {
            choices.push_back(static_cast<int>(k));
        }
    }
    const auto at = std::find(choices.begin(), choices.end(), i);
    const std::size_t next =
        at == choices.end() ? 0
                            : (static_cast<std::size_t>(at - choices.begin()) + 1) % choices.size();
    const ModuleFamily& to = c.families[choices[next]];
    state.task = to.task;
    state.op = to.op;
    if (choices.size() == 1)
        return fmt::format("{} is the only {}",
                           task            ? to.task
                           : to.op.empty() ? "op"
                                           : to.op,
                           task ? "task" : "op of " + to.task);
    return fmt::format("{}: {} {}", task ? "task" : "op", family_name(to),
                       fmt::format("({} of {})", next + 1, choices.size()));
}

}  // namespace

std::string modules_cycle_task(ModulesState& state, const ViewModel& model) {
    return switch_family(state, model, true);
}

std::string modules_cycle_op(ModulesState& state, const ViewModel& model) {
    return switch_family(state, model, false);
}

std::string modules_cycle_aggregation(ModulesState& state, const ViewModel& model) {
    switch (state.aggregation) {
        case ModuleAggregation::kMax:
            state.aggregation = ModuleAggregation::kRank;
            break;
        case ModuleAggregation::kRank:
            state.aggregation = ModuleAggregation::kSpread;
            break;
        case ModuleAggregation::kSpread:
            state.aggregation = ModuleAggregation::kMax;
            break;
    }
    const std::vector<RunRank> ranks = model.run_ranks();
    if (state.aggregation == ModuleAggregation::kRank && !ranks.empty()) {
        const RunRank& rr = ranks[static_cast<std::size_t>(
            std::clamp(state.rank, 0, static_cast<int>(ranks.size()) - 1))];
        return fmt::format("cells: rank {} (Tab: the next rank)", rr.rank);
    }
    return state.aggregation == ModuleAggregation::kMax ? "cells: the max over ranks"
                                                        : "cells: the spread, max/min across ranks";
}

std::string modules_toggle_colour(ModulesState& state) {
    state.colour =
        state.colour == ModuleColour::kRamp ? ModuleColour::kDeviation : ModuleColour::kRamp;
    return state.colour == ModuleColour::kRamp
               ? "colours: the page's ramp"
               : "colours: distance from the row's own median (3 levels a doubling)";
}

std::string modules_toggle_log(ModulesState& state, const ViewModel& model, int width, int height) {
    const Frame f = make_frame(state, model, width, height, true);
    if (!f.any) return "no finite values to scale";
    if (!f.log) {
        ModulesState log = state;
        log.log = true;
        if (!make_frame(log, model, width, height, true).log)
            return "log scale needs positive values: linear kept";
    }
    state.log = !f.log;
    return f.log ? "linear colour ramp (l: log)" : "log colour ramp (l: linear)";
}

std::string modules_go_to_earliest(ModulesState& state, const ViewModel& model, int width,
                                   int height) {
    const Frame f = make_frame(state, model, width, height, false);
    if (!f.family) return "no module family";
    if (!f.earliest) return "no anomaly or nan/inf in " + family_name(*f.family);
    state.row = f.earliest->first;
    set_column(state, f, f.earliest->second);
    return fmt::format("earliest {}: step {}, {}",
                       f.earliest_severity == Severity::kAlert ? "alert" : "warning",
                       f.earliest_step, f.rows[f.earliest->first].label);
}

std::string modules_next_mark(ModulesState& state, int direction, const ViewModel& model, int width,
                              int height) {
    const Frame f = make_frame(state, model, width, height, false);
    if (!f.family) return "no module family";
    std::vector<int> row_of(f.cache->marks.size(), 0);  // per module
    for (std::size_t r = 0; r < f.rows.size(); ++r)
        for (std::size_t m : f.rows[r].modules) row_of[m] = static_cast<int>(r);
    std::vector<std::pair<int, int>> marked;  // (column, row)
    for (std::size_t m = 0; m < f.cache->marks.size(); ++m) {
        const int r = row_of[m];
        for (const ModuleMark& k : f.cache->marks[m])
            if (counts(f, model, k.series) && k.step >= f.lo && k.step <= f.hi)
                marked.emplace_back(f.column_of(k.step), r);
    }
    std::sort(marked.begin(), marked.end());
    marked.erase(std::unique(marked.begin(), marked.end()), marked.end());
    if (marked.empty()) return "no marked cell (anomaly, nan/inf) in this family";
    const std::pair<int, int> at{f.column, f.row};
    auto it = direction > 0 ? std::upper_bound(marked.begin(), marked.end(), at)
                            : std::lower_bound(marked.begin(), marked.end(), at);
    if (direction > 0 && it == marked.end())
        return fmt::format("no marked cell after this one ({} in this family)", marked.size());
    if (direction < 0 && it == marked.begin())
        return fmt::format("no marked cell before this one ({} in this family)", marked.size());
    if (direction < 0) --it;
    set_column(state, f, it->first);
    state.row = it->second;
    return fmt::format("marked cell {} of {}", static_cast<int>(it - marked.begin()) + 1,
                       marked.size());
}

std::string modules_go_to_step(ModulesState& state, std::int64_t step, const ViewModel& model,
                               int width, int height) {
    const Frame f = make_frame(state, model, width, height, false);
    if (!f.family || !f.cache->any) return "no module family to go to a step in";
    const std::string note = clamp_step(step, f.lo, f.hi, "the family's steps");
    const int c = f.column_of(step);
    set_column(state, f, c);
    const std::int64_t a = f.bucket_start(c), b = f.bucket_start(c + 1) - 1;
    return note + (a == b ? fmt::format("step {}", a)
                          : fmt::format("step {}: the column of steps {}-{}", step, a, b));
}

void modules_take_tag(ModulesState& state, const std::string& tag, const ViewModel& model) {
    const ModulesCache& c = families_of(state, model);
    const TagGroup* g = model.group(tag);
    if (!g || g->series.empty()) return;
    const SeriesId id = g->series.front();
    for (std::size_t f = 0; f < c.families.size(); ++f)
        for (std::size_t m = 0; m < c.members[f].size(); ++m) {
            const auto& ids = c.members[f][m];
            if (std::find(ids.begin(), ids.end(), id) == ids.end()) continue;
            state.task = c.families[f].task;
            state.op = c.families[f].op;
            state.row = row_of_module(
                make_rows(c.families[f], std::min(state.zoom, max_zoom(c.families[f]))), m);
            return;
        }
}

Pointer modules_mouse(ModulesState& state, const InputEvent& event, const ViewModel& model,
                      int width, int height) {
    if (event.button == MouseButton::kWheelUp || event.button == MouseButton::kWheelDown)
        return modules_handle(state,
                              event.button == MouseButton::kWheelUp ? Action::kUp : Action::kDown,
                              model, width, height)
                   ? Pointer::kChanged
                   : Pointer::kNothing;
    if (event.button != MouseButton::kLeft || width < kMinWidth || height < kMinHeight)
        return Pointer::kNothing;
    const Frame f = make_frame(state, model, width, height, false);
    if (!f.family) return Pointer::kNothing;
    const int r = f.first + event.y - f.body_y;
    if (event.y < f.body_y || event.y >= f.body_y + f.body_rows ||
        r >= static_cast<int>(f.rows.size()))
        return Pointer::kNothing;
    const ModulesState before = state;
    state.row = r;
    if (event.x >= f.map_x && event.x < f.map_x + f.columns)
        set_column(state, f, event.x - f.map_x);
    return state.row != before.row || state.column != before.column ? Pointer::kChanged
                                                                    : Pointer::kNothing;
}

ViewSelection modules_selected(const ModulesState& state, const ViewModel& model, int width,
                               int height) {
    const Frame f = make_frame(state, model, width, height, false);
    if (!f.family || f.rows.empty()) return {};
    const RowDef& row = f.rows[f.row];
    const std::int64_t a = f.bucket_start(f.column), b = f.bucket_start(f.column + 1);
    // The earliest mark in the cell: its series at its step.
    std::optional<ModuleMark> mark;
    for (std::size_t m : row.modules)
        for (const ModuleMark& k : f.cache->marks[m])
            if (k.step >= a && k.step < b && counts(f, model, k.series) &&
                (!mark || k.step < mark->step))
                mark = k;
    SeriesId id = kNoSeries;
    std::optional<std::int64_t> step;
    if (mark) {
        id = mark->series;
        step = mark->step;
    } else {
        // The member with the cell's value: NaN/Inf first, else the highest mean.
        double best = -std::numeric_limits<double>::infinity();
        bool best_nonfinite = false;
        for (std::size_t m : row.modules)
            for (SeriesId s : f.cache->members[f.family_index][m]) {
                if (!counts(f, model, s)) continue;
                ColumnSummary c;
                model.store().at(s).query(a, b, {&c, 1});
                if (c.empty()) continue;
                const bool nf = non_finite(c);
                const double v = has_finite(c) ? c.mean : -std::numeric_limits<double>::infinity();
                if (id == kNoSeries || (nf && !best_nonfinite) ||
                    (nf == best_nonfinite && v > best)) {
                    id = s;
                    best = v;
                    best_nonfinite = nf;
                    step = nf ? narrow_to_step(model.store().at(s), a, b,
                                               [](const ColumnSummary& x) { return non_finite(x); })
                                    .value_or(c.last_step)
                              : c.last_step;
                }
            }
    }
    if (id == kNoSeries) {  // an empty cell: the row's first member, where the column starts
        for (std::size_t m : row.modules)
            for (SeriesId s : f.cache->members[f.family_index][m])
                if (id == kNoSeries && counts(f, model, s)) id = s;
        if (id == kNoSeries) return {};
        step = a;
    }
    const std::string tag(model.store().at(id).key().tag);
    const TagGroup* group = model.group(tag);
    if (!group) return {};
    return {group, ChartTarget{tag, focus_of(model, id), step, std::nullopt}, {}};
}

}  // namespace runtop::ui
