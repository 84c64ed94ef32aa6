// `runtop ls`: the inventory, one row per series.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "app/commands.h"
#include "app/inputs.h"
#include "core/format.h"
#include "core/series_filter.h"
#include "core/store.h"

namespace runtop {

const std::vector<OptionSpec> kLsOptions = {
    {"format", "text|csv", "output format (default text)"},
    {"filter", "RE", "only tags matching the regex (RE2, case-insensitive)"},
    {"ranks", "SPEC", "only these ranks: 0-7, 0,2,5, !3, 0-15,!7"},
    {"help", "", "show this help"},
};

namespace {

struct Row {
    std::string cells[9];
};

constexpr const char* kHeads[] = {"RUN",  "RANK",       "TAG",    "POINTS",  "FIRST",
                                  "LAST", "LAST VALUE", "SOURCE", "RESTARTS"};

Row row_for(const Series& s) {
    const SeriesKey& k = s.key();
    Row r;
    r.cells[0] = visible(k.run);
    r.cells[1] = k.rank == kNoRank ? "-" : std::to_string(k.rank);
    r.cells[2] = visible(k.tag);
    r.cells[3] = std::to_string(s.size());
    r.cells[4] = s.empty() ? "-" : std::to_string(s.point(0).step);
    r.cells[5] = s.empty() ? "-" : std::to_string(s.back().step);
    r.cells[6] = s.empty() ? "-" : format_value(s.back().value);
    r.cells[7] = std::string(source_kind_name(s.kind()));
    r.cells[8] = std::to_string(s.restarts().size());
    return r;
}

void print_text(const std::vector<Row>& rows, std::string& out) {
    std::size_t width[9];
    for (int c = 0; c < 9; ++c) width[c] = std::string_view(kHeads[c]).size();
    for (const Row& r : rows)
        for (int c = 0; c < 9; ++c) width[c] = std::max(width[c], r.cells[c].size());
    std::size_t line_width = 0;
    for (std::size_t w : width) line_width += w + 2;
    out.reserve(out.size() + (rows.size() + 1) * line_width);
    auto line = [&](auto cell) {
        for (int c = 0; c < 9; ++c) {
            std::string_view text = cell(c);
            bool right = c == 1 || (c >= 3 && c <= 6) || c == 8;
            std::size_t pad = width[c] - std::min(width[c], text.size());
            if (right) out.append(pad, ' ');
            out += text;
            if (!right && c != 8) out.append(pad, ' ');
            if (c != 8) out += "  ";
        }
        out += '\n';
    };
    line([](int c) { return std::string_view(kHeads[c]); });
    for (const Row& r : rows) line([&](int c) { return std::string_view(r.cells[c]); });
}

}  // namespace

int cmd_ls(const Args& args) {
    std::string format = args.get("format", "text");
    if (format != "text" && format != "csv") {
        std::fprintf(stderr, "runtop ls: --format must be text or csv, not '%s'\n", format.c_str());
        return kExitError;
    }
    Result<Selection> selection = selection_from_args(args);
    if (!selection) {
        std::fprintf(stderr, "runtop ls: %s\n", selection.error().message.c_str());
        return kExitError;
    }
    Store store;
    SourceSet sources(store);
    std::size_t warnings = read_once(sources, selection->roots);

    std::vector<Row> rows;
    rows.reserve(store.series_count());
    std::uint64_t points = 0;
    for (SeriesId id : store.sorted_ids()) {
        const Series& s = store.at(id);
        if (!selection->filter.selects(s.key())) continue;
        points += s.size();
        rows.push_back(row_for(s));
    }
    std::string out;
    if (format == "csv") {
        out += "run,rank,tag,points,first_step,last_step,last_value,source\n";
        for (const Row& r : rows) {
            for (int c = 0; c < 8; ++c) {
                if (c) out += ',';
                append_csv_field(out, c == 1 && r.cells[1] == "-" ? "" : r.cells[c]);
            }
            out += '\n';
        }
    } else {
        print_text(rows, out);
    }
    flush_output(out, true);

    IngestTotals t = sources.totals();
    for (const std::string& p : sources.pending())
        std::fprintf(stderr, "runtop: waiting: %s\n", p.c_str());
    std::fprintf(stderr,
                 "runtop: %zu series, %llu points from %llu files (%.1f MB, %llu records); "
                 "%zu config entries kept, %llu non-scalar values skipped, %zu msProbe anomalies "
                 "imported; %llu bad records, %llu bad rows, %llu resyncs, %zu warnings\n",
                 rows.size(), static_cast<unsigned long long>(points),
                 static_cast<unsigned long long>(t.files), t.bytes / 1e6,
                 static_cast<unsigned long long>(t.records), store.config_texts().size(),
                 static_cast<unsigned long long>(t.non_scalar_values),
                 store.imported_anomalies().size(),
                 static_cast<unsigned long long>(t.bad_data_crc + t.undecodable),
                 static_cast<unsigned long long>(t.bad_rows),
                 static_cast<unsigned long long>(t.resyncs), warnings);
    return sources.readable_roots() == 0 ? kExitError : kExitOk;
}

}  // namespace runtop
