#include "app/diff_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "core/format.h"
#include "core/json/json_writer.h"

namespace runtop {
namespace {

// Text output cuts configuration values to this many characters (csv and json keep them whole).
constexpr std::size_t kTextValueWidth = 60;

// Columns on a terminal: UTF-8 continuation bytes take none (visible() leaves no controls).
std::size_t columns(std::string_view s) {
    std::size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

std::string cut(std::string text, std::size_t width) {
    if (columns(text) <= width) return text;
    std::size_t n = 0, i = 0;
    for (; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && ++n == width) break;
    }
    text.resize(i);
    return text + "…";
}

std::string text_value(double v, int digits) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return fmt::format("{:.{}g}", v, digits);
}

// "0-3,7", "-" for the series without a rank.
std::string rank_list(const std::vector<int>& ranks) {
    std::string out;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1 && ranks[j] != kNoRank) ++j;
        if (!out.empty()) out += ',';
        out += ranks[i] == kNoRank ? "-" : std::to_string(ranks[i]);
        if (j > i) out += (j == i + 1 ? "," : "-") + std::to_string(ranks[j]);
        i = j + 1;
    }
    return out;
}

// (tag, rank) pairs only one run has, grouped by tag in tag order.
std::map<std::string, std::vector<int>> by_tag(
    const std::vector<std::pair<std::string, int>>& only) {
    std::map<std::string, std::vector<int>> out;
    for (const auto& [tag, rank] : only) out[tag].push_back(rank);
    for (auto& [tag, ranks] : out) std::sort(ranks.begin(), ranks.end());
    return out;
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

bool pair_header_needed(const DiffReport& r) {
    return r.pairs.size() > 1 ||
           (r.pairs.size() == 1 && (r.pairs[0].run_a != r.name_a || r.pairs[0].run_b != r.name_b));
}

// --- text ---

void text_table(const DiffPair& pair, bool mean, std::string& out) {
    std::vector<std::vector<std::string>> rows;
    rows.push_back(
        {"TAG", "RANKS", "COMMON", "LAST A", "LAST B", "Δ", "RATIO", "FIRST DIVERGENCE"});
    for (const TagComparison& t : pair.tags) {
        if (t.only_a() || t.only_b()) continue;
        const SeriesComparison& h = t.head;
        std::string ranks = t.ranks_a == t.ranks_b ? std::to_string(t.ranks_a)
                                                   : fmt::format("{}/{}", t.ranks_a, t.ranks_b);
        if (mean)
            ranks = "mean " + ranks;
        else if (t.compared != std::min(t.ranks_a, t.ranks_b))
            ranks = fmt::format("{} of {}", t.compared, ranks);
        const bool compared = t.compared > 0;
        const bool common = t.has_common();
        std::string first = "-";
        if (compared && h.first_divergence) {
            first = std::to_string(*h.first_divergence);
            if (!mean && h.rank != kNoRank) first += fmt::format(" @ rank {}", h.rank);
            if (h.first_divergence_time)
                first += fmt::format(" at +{} s", text_value(*h.first_divergence_time, 6));
            if (t.compared > 1) first += fmt::format(" ({} of {})", t.diverging, t.compared);
        }
        rows.push_back(
            {visible(t.tag), ranks, compared ? std::to_string(h.common_steps) : "-",
             compared ? text_value(h.last_a, 9) : "-", compared ? text_value(h.last_b, 9) : "-",
             common ? text_value(h.delta, 6) : "-", common ? text_value(h.ratio, 6) : "-", first});
    }
    if (rows.size() == 1) {
        out += "no tag is in both runs\n";
        return;
    }
    std::vector<std::size_t> width(rows[0].size(), 0);
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], columns(row[c]));
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::size_t pad = width[c] - columns(row[c]);
            const bool right = c >= 1 && c <= 6;  // numbers
            if (right) line.append(pad, ' ');
            line += row[c];
            if (!right && c + 1 < row.size()) line.append(pad, ' ');
            if (c + 1 < row.size()) line += "  ";
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line;
        out += '\n';
    }
}

void text_only(const std::vector<std::pair<std::string, int>>& only, std::string_view side,
               std::string_view name, std::string& out) {
    if (only.empty()) return;
    const auto tags = by_tag(only);
    out += fmt::format("\nonly in {} ({}): {}\n", side, visible(name),
                       plural(tags.size(), "tag", "tags"));
    std::size_t width = 0;
    for (const auto& [tag, ranks] : tags) width = std::max(width, columns(visible(tag)));
    for (const auto& [tag, ranks] : tags) {
        const std::string shown = visible(tag);
        out += "  " + shown + std::string(width - columns(shown), ' ');
        out +=
            ranks.size() == 1 && ranks[0] == kNoRank ? "\n" : "  ranks " + rank_list(ranks) + "\n";
    }
}

void text_config(const DiffPair& pair, std::string& out) {
    const ConfigChangeCounts counts = count_changes(pair.config);
    if (counts.total() == 0) {
        out += "\nconfig: no changes\n";
        return;
    }
    out += fmt::format("\nconfig: {} added, {} removed, {} changed\n", counts.added, counts.removed,
                       counts.changed);
    std::vector<std::string> names;
    std::size_t width = 0;
    for (const ConfigChange& c : pair.config) {
        names.push_back(visible(config_entry_name(c.key, c.rank)));
        width = std::max(width, columns(names.back()));
    }
    for (std::size_t i = 0; i < pair.config.size(); ++i) {
        const ConfigChange& c = pair.config[i];
        const char mark = c.kind == ConfigChangeKind::kAdded     ? '+'
                          : c.kind == ConfigChangeKind::kRemoved ? '-'
                                                                 : '~';
        out +=
            fmt::format("  {} {}{}  ", mark, names[i], std::string(width - columns(names[i]), ' '));
        const std::string a = cut(visible(c.value_a), kTextValueWidth);
        const std::string b = cut(visible(c.value_b), kTextValueWidth);
        if (c.kind == ConfigChangeKind::kAdded)
            out += b;
        else if (c.kind == ConfigChangeKind::kRemoved)
            out += a;
        else
            out += a + " → " + b;
        out += '\n';
    }
}

std::string text_summary(const DiffReport& r) {
    std::size_t tags = 0, series = 0, only_a = 0, only_b = 0, config = 0;
    std::uint64_t folded = 0;
    // The earliest first divergence over every pair, and where.
    const TagComparison* first = nullptr;
    const DiffPair* first_pair = nullptr;
    for (const DiffPair& p : r.pairs) {
        series += p.comparison.pairs.size();
        for (const SeriesComparison& s : p.comparison.pairs) folded += s.folded;
        config += p.config.size();
        for (const TagComparison& t : p.tags) {
            if (t.only_a()) {
                ++only_a;
                continue;
            }
            if (t.only_b()) {
                ++only_b;
                continue;
            }
            ++tags;
            if (t.diverges() &&
                (!first || *t.head.first_divergence < *first->head.first_divergence)) {
                first = &t;
                first_pair = &p;
            }
        }
    }
    std::string out;
    const std::size_t diverging = r.diverging_tags();
    if (diverging == 0) {
        out = fmt::format("no divergence: {} ({}) agree within {}", plural(tags, "tag", "tags"),
                          plural(series, "series", "series"), text_value(r.options.tolerance, 6));
        // A gate's log often keeps only this line: it says what was compared.
        if (r.options.smoothing > 0)
            out += fmt::format(" smoothed at {}", text_value(r.options.smoothing, 6));
    } else {
        out = fmt::format("{} of {} diverge ({} of {} series)", diverging,
                          plural(tags, "tag", "tags"), r.diverging_series(), series);
        if (r.options.smoothing > 0)
            out += fmt::format(" smoothed at {}", text_value(r.options.smoothing, 6));
        if (first) {
            out += fmt::format(", first at step {} in {}", *first->head.first_divergence,
                               visible(first->tag));
            if (r.options.ranks == CompareRanks::kPerRank && first->head.rank != kNoRank)
                out += fmt::format(" rank {}", first->head.rank);
            if (r.pairs.size() > 1) out += " of " + visible(first_pair->run_a);
        }
    }
    out += fmt::format("; only in A: {}, only in B: {}; config: {}", plural(only_a, "tag", "tags"),
                       plural(only_b, "tag", "tags"), plural(config, "change", "changes"));
    if (!r.runs_only_a.empty() || !r.runs_only_b.empty())
        out += fmt::format("; runs without a partner: {} in A, {} in B", r.runs_only_a.size(),
                           r.runs_only_b.size());
    if (folded > 0)
        out += fmt::format("; {} points kept only as summaries were not compared (raise --memory)",
                           folded);
    return out + "\n";
}

// --- csv ---

constexpr std::string_view kCsvHeader =
    "kind,run_a,run_b,tag,rank,common_steps,last_a,last_b,last_common_step,delta,ratio,"
    "first_divergence,first_divergence_time,max_relative_difference,key,value_a,value_b,"
    "smoothing\n";

struct CsvRow {
    std::string kind, run_a, run_b, tag, rank;
    std::string common_steps, last_a, last_b, last_common_step, delta, ratio, first_divergence,
        first_divergence_time, max_relative_difference;
    std::string key, value_a, value_b;
    std::string smoothing;  // the weight the series row's values were smoothed with (0: raw)
};

CsvRow csv_row_of(std::string kind, std::string run_a, std::string run_b, std::string tag = {},
                  std::string rank = {}) {
    CsvRow row;
    row.kind = std::move(kind);
    row.run_a = std::move(run_a);
    row.run_b = std::move(run_b);
    row.tag = std::move(tag);
    row.rank = std::move(rank);
    return row;
}

std::string csv_value(double v) {
    std::string out;
    append_value(out, v);
    return out;
}

std::string csv_rank(int rank) {
    return rank == kNoRank ? std::string() : std::to_string(rank);
}

// A configuration entry's rank: empty (JSON null) is the run's value, so the entry of texts
// that carry no rank, when they disagree with the run's value, is "unranked" (config_diff.h).
std::string config_rank(int rank) {
    return rank == kNoRank ? std::string("unranked") : std::to_string(rank);
}

void csv_row(const CsvRow& r, std::string& out) {
    const std::string* cells[] = {&r.kind,
                                  &r.run_a,
                                  &r.run_b,
                                  &r.tag,
                                  &r.rank,
                                  &r.common_steps,
                                  &r.last_a,
                                  &r.last_b,
                                  &r.last_common_step,
                                  &r.delta,
                                  &r.ratio,
                                  &r.first_divergence,
                                  &r.first_divergence_time,
                                  &r.max_relative_difference,
                                  &r.key,
                                  &r.value_a,
                                  &r.value_b,
                                  &r.smoothing};
    bool first = true;
    for (const std::string* cell : cells) {
        if (!first) out += ',';
        first = false;
        append_csv_field(out, *cell);
    }
    out += '\n';
}

// --- json ---

JsonWriter& json_rank(JsonWriter& w, int rank) {
    return rank == kNoRank ? w.null() : w.integer(rank);
}

template <class T>
JsonWriter& json_optional_step(JsonWriter& w, const std::optional<T>& step) {
    return step ? w.integer(*step) : w.null();
}

void json_series_fields(JsonWriter& w, const SeriesComparison& s) {
    w.key("common_steps").integer(s.common_steps);
    w.key("last_a").number(s.last_a);
    w.key("last_step_a").integer(s.last_step_a);
    w.key("last_b").number(s.last_b);
    w.key("last_step_b").integer(s.last_step_b);
    json_optional_step(w.key("last_common_step"), s.last_common_step);
    for (auto [name, v] :
         {std::pair{"a", s.a}, {"b", s.b}, {"delta", s.delta}, {"ratio", s.ratio}}) {
        w.key(name);
        s.last_common_step ? w.number(v) : w.null();
    }
    json_optional_step(w.key("first_divergence"), s.first_divergence);
    w.key("first_divergence_time");
    s.first_divergence_time ? w.number(*s.first_divergence_time) : w.null();
    w.key("max_relative_difference").number(s.max_relative_difference);
    w.key("folded").integer(s.folded);
}

void json_runs(JsonWriter& w, const DiffPair& p) {
    w.key("run_a").string(p.run_a).key("run_b").string(p.run_b);
}

// The tags only one side has, one entry per (pair, tag) with its ranks.
void json_only(JsonWriter& w, const DiffReport& r, bool side_a) {
    w.begin_array();
    for (const DiffPair& p : r.pairs) {
        for (const auto& [tag, ranks] :
             by_tag(side_a ? p.comparison.only_a : p.comparison.only_b)) {
            w.begin_object();
            json_runs(w, p);
            w.key("tag").string(tag).key("ranks").begin_array();
            for (int rank : ranks) json_rank(w, rank);
            w.end_array().end_object();
        }
    }
    w.end_array();
}

void json_name_list(JsonWriter& w, const std::vector<std::string>& names) {
    w.begin_array();
    for (const std::string& name : names) w.string(name);
    w.end_array();
}

// The tags both sides have: the head comparison's fields, then each series'.
void json_tags(JsonWriter& w, const DiffReport& r) {
    w.begin_array();
    for (const DiffPair& p : r.pairs) {
        // Each tag's series, found by a pass over the pairs (in tag, then rank order).
        std::map<std::string_view, std::vector<const SeriesComparison*>> series;
        for (const SeriesComparison& s : p.comparison.pairs) series[s.tag].push_back(&s);
        for (const TagComparison& t : p.tags) {
            if (t.only_a() || t.only_b()) continue;
            w.begin_object();
            json_runs(w, p);
            w.key("tag").string(t.tag);
            w.key("ranks_a").integer(t.ranks_a).key("ranks_b").integer(t.ranks_b);
            w.key("compared").integer(t.compared).key("diverging").integer(t.diverging);
            if (t.compared > 0) {
                json_series_fields(w, t.head);
                w.key("first_divergence_rank");
                t.head.first_divergence ? json_rank(w, t.head.rank) : w.null();
            } else {
                w.key("common_steps").integer(0).key("first_divergence").null();
            }
            w.key("series").begin_array();
            if (const auto it = series.find(t.tag); it != series.end()) {
                for (const SeriesComparison* s : it->second) {
                    json_rank(w.begin_object().key("rank"), s->rank);
                    json_series_fields(w, *s);
                    w.end_object();
                }
            }
            w.end_array().end_object();
        }
    }
    w.end_array();
}

void json_config(JsonWriter& w, const DiffReport& r) {
    w.begin_array();
    for (const DiffPair& p : r.pairs) {
        for (const ConfigChange& c : p.config) {
            w.begin_object();
            json_runs(w, p);
            w.key("change").string(config_change_name(c.kind));
            w.key("key").string(c.key);
            w.key("rank");
            if (!c.rank)
                w.null();
            else if (*c.rank == kNoRank)
                w.string(config_rank(*c.rank));
            else
                json_rank(w, *c.rank);
            w.key("a");
            c.kind == ConfigChangeKind::kAdded ? w.null() : w.string(c.value_a);
            w.key("b");
            c.kind == ConfigChangeKind::kRemoved ? w.null() : w.string(c.value_b);
            w.end_object();
        }
    }
    w.end_array();
}

}  // namespace

std::size_t DiffPair::diverging_tags() const {
    std::size_t n = 0;
    for (const TagComparison& t : tags) n += t.diverging > 0;
    return n;
}

std::size_t DiffReport::diverging_tags() const {
    std::size_t n = 0;
    for (const DiffPair& p : pairs) n += p.diverging_tags();
    return n;
}

std::size_t DiffReport::diverging_series() const {
    std::size_t n = 0;
    for (const DiffPair& p : pairs) n += p.comparison.diverging();
    return n;
}

void print_diff_text(const DiffReport& r, std::string& out) {
    const std::size_t name_width = std::max(columns(visible(r.name_a)), columns(visible(r.name_b)));
    auto root_line = [&](char side, const std::string& name, const std::string& path) {
        const std::string shown = visible(name);
        out += fmt::format("{}: {}{}  {}\n", side, shown,
                           std::string(name_width - columns(shown), ' '), visible(path));
    };
    root_line('A', r.name_a, r.path_a);
    root_line('B', r.name_b, r.path_b);
    out += fmt::format("tolerance {}, align {}, by {}", text_value(r.options.tolerance, 6),
                       compare_align_name(r.options.align), compare_ranks_name(r.options.ranks));
    if (r.options.smoothing > 0)
        out += fmt::format(", smooth {} (TensorBoard's EMA)", text_value(r.options.smoothing, 6));
    out += '\n';
    const bool headers = pair_header_needed(r);
    const bool mean = r.options.ranks == CompareRanks::kMean;
    for (const DiffPair& p : r.pairs) {
        out += '\n';
        if (headers) out += fmt::format("== {} vs {} ==\n", visible(p.run_a), visible(p.run_b));
        text_table(p, mean, out);
        text_only(p.comparison.only_a, "A", p.run_a, out);
        text_only(p.comparison.only_b, "B", p.run_b, out);
        text_config(p, out);
    }
    for (const auto& [side, runs] : {std::pair{'A', &r.runs_only_a}, {'B', &r.runs_only_b}}) {
        if (runs->empty()) continue;
        out += fmt::format("\nruns only in {} (no run of the same path below the other root):\n",
                           side);
        for (const std::string& run : *runs) out += "  " + visible(run) + "\n";
    }
    out += '\n';
    out += text_summary(r);
}

void print_diff_csv(const DiffReport& r, std::string& out) {
    out += kCsvHeader;
    for (const DiffPair& p : r.pairs) {
        const std::string run_a = visible(p.run_a), run_b = visible(p.run_b);
        for (const SeriesComparison& s : p.comparison.pairs) {
            CsvRow row = csv_row_of("series", run_a, run_b, visible(s.tag), csv_rank(s.rank));
            row.common_steps = std::to_string(s.common_steps);
            row.last_a = csv_value(s.last_a);
            row.last_b = csv_value(s.last_b);
            if (s.last_common_step) {
                row.last_common_step = std::to_string(*s.last_common_step);
                row.delta = csv_value(s.delta);
                row.ratio = csv_value(s.ratio);
            }
            if (s.first_divergence) row.first_divergence = std::to_string(*s.first_divergence);
            if (s.first_divergence_time)
                row.first_divergence_time = csv_value(*s.first_divergence_time);
            row.max_relative_difference = csv_value(s.max_relative_difference);
            row.smoothing = csv_value(r.options.smoothing);
            csv_row(row, out);
        }
        for (const auto& [kind, only] :
             {std::pair{"only_a", &p.comparison.only_a}, {"only_b", &p.comparison.only_b}}) {
            for (const auto& [tag, rank] : *only)
                csv_row(csv_row_of(kind, run_a, run_b, visible(tag), csv_rank(rank)), out);
        }
        for (const ConfigChange& c : p.config) {
            CsvRow row =
                csv_row_of("config_" + std::string(config_change_name(c.kind)), run_a, run_b);
            row.rank = c.rank ? config_rank(*c.rank) : std::string();
            row.key = visible(c.key);
            row.value_a = visible(c.value_a);
            row.value_b = visible(c.value_b);
            csv_row(row, out);
        }
    }
    for (const std::string& run : r.runs_only_a)
        csv_row(csv_row_of("run_only_a", visible(run), {}), out);
    for (const std::string& run : r.runs_only_b)
        csv_row(csv_row_of("run_only_b", {}, visible(run)), out);
}

void print_diff_json(const DiffReport& r, std::string& out) {
    JsonWriter w(out);
    w.begin_object();
    w.key("run_a").string(r.name_a).key("run_b").string(r.name_b);
    w.key("path_a").string(r.path_a).key("path_b").string(r.path_b);
    w.key("options").begin_object();
    w.key("tolerance").number_shortest(r.options.tolerance);
    w.key("align").string(compare_align_name(r.options.align));
    w.key("by").string(compare_ranks_name(r.options.ranks));
    w.key("smoothing").number_shortest(r.options.smoothing);
    w.end_object();
    json_tags(w.key("tags"), r);
    json_only(w.key("only_a"), r, true);
    json_only(w.key("only_b"), r, false);
    json_config(w.key("config"), r);
    json_name_list(w.key("runs_only_a"), r.runs_only_a);
    json_name_list(w.key("runs_only_b"), r.runs_only_b);
    w.key("diverging").integer(r.diverging_tags());
    w.key("diverging_series").integer(r.diverging_series());
    w.end_object();
    out += '\n';
}

}  // namespace runtop
