// `runtop ls`: the inventory, one row per series.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>

#include "app/commands.h"
#include "app/inputs.h"
#include "app/ordered_blocks.h"
#include "app/read_summary.h"
#include "app/thread_stores.h"
#include "core/format.h"
#include "readers/reader_pool.h"

namespace runtop {

const std::vector<OptionSpec> kLsOptions = {
    {"format", "text|csv", "output format (default text)"},
    {"filter", "RE", "only tags matching the regex (RE2, case-insensitive)"},
    kRanksOption,
    kRanksPerNodeOption,
    kRunsOption,
    kMemoryOption,
    kLogFormatOption,
    {"help", "", "show this help"},
};

namespace {

constexpr const char* kHeads[] = {"RUN",  "RANK",       "TAG",    "POINTS",  "FIRST",
                                  "LAST", "LAST VALUE", "SOURCE", "RESTARTS"};
constexpr int kColumns = 9;

// Digits of n, as fmt prints it.
std::size_t digits(std::uint64_t n) {
    std::size_t d = 1;
    for (; n >= 10; n /= 10) ++d;
    return d;
}
std::size_t digits(std::int64_t n) {
    const auto magnitude =
        n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
    return digits(magnitude) + (n < 0);
}

// One row's cells, formatted into one reused buffer. Rows are never kept: a listing of half a
// million series costs no memory per row, and its text goes out a megabyte at a time. The
// column widths come first, from a pass that formats only the last value (widths(): a tenth
// of an ls of 512k series went to formatting every row twice).
class Row {
  public:
    // The size of each cell format() makes, into w.
    void widths(const Series& s, std::size_t* w) {
        const SeriesKeyRef k = s.key();
        w[0] = visible_size(k.run);
        w[1] = k.rank == kNoRank ? 1 : digits(std::int64_t{k.rank});
        w[2] = visible_size(k.tag);
        w[3] = digits(std::uint64_t{s.count()});
        if (s.empty()) {
            w[4] = w[5] = w[6] = 1;
        } else {
            w[4] = digits(std::int64_t{s.first_step()});
            w[5] = digits(std::int64_t{s.last_step()});
            text_.clear();
            append_value(text_, s.back().value);
            w[6] = text_.size();
        }
        w[7] = std::string_view(s.source().format).size();
        w[8] = digits(std::uint64_t{s.restart_count()});
    }
    void format(const Series& s) {
        text_.clear();
        ends_.clear();
        const SeriesKeyRef k = s.key();
        append_visible(text_, k.run);
        end();
        if (k.rank == kNoRank)
            text_ += '-';
        else
            fmt::format_to(std::back_inserter(text_), "{}", k.rank);
        end();
        append_visible(text_, k.tag);
        end();
        fmt::format_to(std::back_inserter(text_), "{}", s.count());
        end();
        if (s.empty()) {
            for (int c = 4; c <= 6; ++c) {  // FIRST, LAST and LAST VALUE
                text_ += '-';
                end();
            }
        } else {
            fmt::format_to(std::back_inserter(text_), "{}", s.first_step());
            end();
            fmt::format_to(std::back_inserter(text_), "{}", s.last_step());
            end();
            append_value(text_, s.back().value);
            end();
        }
        text_ += s.source().format;
        end();
        fmt::format_to(std::back_inserter(text_), "{}", s.restart_count());
        end();
    }
    std::string_view cell(int c) const {
        const std::size_t begin = c == 0 ? 0 : ends_[static_cast<std::size_t>(c) - 1];
        return std::string_view(text_).substr(begin, ends_[static_cast<std::size_t>(c)] - begin);
    }

  private:
    void end() { ends_.push_back(text_.size()); }
    std::string text_;
    std::vector<std::size_t> ends_;  // where each cell ends
};

// Rows a block: formatted together on one thread, written together.
constexpr std::size_t kBlockRows = 4096;

// Rows in blocks of kBlockRows, `row(id, text)` appending one: on `threads` threads, in order.
void print_rows(const std::vector<const Series*>& series, std::size_t threads, std::string& out,
                const std::function<void(Row& row, const Series& s, std::string& text)>& row) {
    make_in_order((series.size() + kBlockRows - 1) / kBlockRows, threads,
                  [&](std::size_t b, std::string& text) {
                      Row r;
                      const std::size_t end = std::min(series.size(), (b + 1) * kBlockRows);
                      for (std::size_t i = b * kBlockRows; i < end; ++i) row(r, *series[i], text);
                  },
                  [&](std::string& text) { write_block(out, text); });
}

void print_text(const std::vector<const Series*>& series, std::size_t threads, std::string& out) {
    std::size_t width[kColumns];
    for (int c = 0; c < kColumns; ++c) width[c] = std::string_view(kHeads[c]).size();
    std::vector<std::array<std::size_t, kColumns>> part_widths(std::max<std::size_t>(1, threads));
    in_parts(series.size(), threads, [&](std::size_t k, std::size_t begin, std::size_t end) {
        std::array<std::size_t, kColumns>& pw = part_widths[k];
        pw.fill(0);
        Row row;
        for (std::size_t i = begin; i < end; ++i) {
            std::size_t w[kColumns];
            row.widths(*series[i], w);
            for (int c = 0; c < kColumns; ++c) pw[c] = std::max(pw[c], w[c]);
        }
    });
    for (const auto& pw : part_widths)
        for (int c = 0; c < kColumns; ++c) width[c] = std::max(width[c], pw[c]);
    auto line = [&](std::string& text, auto cell) {
        for (int c = 0; c < kColumns; ++c) {
            std::string_view cell_text = cell(c);
            bool right = c == 1 || (c >= 3 && c <= 6) || c == 8;
            std::size_t pad = width[c] - std::min(width[c], cell_text.size());
            if (right) text.append(pad, ' ');
            text += cell_text;
            if (!right && c != kColumns - 1) text.append(pad, ' ');
            if (c != kColumns - 1) text += "  ";
        }
        text += '\n';
    };
    line(out, [](int c) { return std::string_view(kHeads[c]); });
    print_rows(series, threads, out, [&](Row& row, const Series& s, std::string& text) {
        row.format(s);
        line(text, [&](int c) { return row.cell(c); });
    });
}

void print_csv(const std::vector<const Series*>& series, std::size_t threads, std::string& out) {
    out += "run,rank,tag,points,first_step,last_step,last_value,source\n";
    print_rows(series, threads, out, [&](Row& row, const Series& s, std::string& text) {
        row.format(s);
        for (int c = 0; c < kColumns - 1; ++c) {  // no RESTARTS column in the csv contract
            if (c) text += ',';
            std::string_view cell = row.cell(c);
            if (cell == "-" && (c == 1 || (c >= 4 && c <= 6))) cell = {};  // unknown: empty
            append_csv_field(text, cell);
        }
        text += '\n';
    });
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
    Result<StoreLimits> limits = store_limits_from_args(args);
    if (!limits) {
        std::fprintf(stderr, "runtop ls: %s\n", limits.error().message.c_str());
        return kExitError;
    }
    // Only the selected series are stored: a one-tag listing costs what that tag costs. Each
    // reader thread stores its files' series, merged in key order when printed.
    ThreadStores stores(selection->filter, *limits);
    // (store_limits_from_args checked --memory already.)
    std::size_t warnings = stores.read(selection->roots, *process_memory_from_args(args));
    const SourceSet& sources = stores.sources();

    const std::vector<const Series*> series = stores.sorted();
    // Rows are formatted on the cores the readers used.
    const std::size_t threads = default_reader_threads();
    std::string out;
    if (format == "csv")
        print_csv(series, threads, out);
    else
        print_text(series, threads, out);
    flush_output(out, true);

    const IngestTotals t = sources.totals();
    const PointCounts counts = store_point_counts(stores.stores());
    std::fprintf(stderr,
                 "runtop: %s (%.1f MB, %llu records), %s; %zu distributions (histogram tags, 9 "
                 "quantile series each, from %llu histograms); %zu config entries kept, %llu "
                 "other non-scalar values skipped, %zu msProbe anomalies imported; %llu bad "
                 "records, %llu bad rows, %llu resyncs; %s\n",
                 read_text(counts.series, counts.read, t).c_str(), t.bytes / 1e6,
                 static_cast<unsigned long long>(t.records), kept_text(counts).c_str(),
                 counts.distributions, static_cast<unsigned long long>(t.distributions),
                 stores.config_texts(), static_cast<unsigned long long>(t.non_scalar_values),
                 stores.imported_anomalies(),
                 static_cast<unsigned long long>(t.bad_data_crc + t.undecodable),
                 static_cast<unsigned long long>(t.bad_rows),
                 static_cast<unsigned long long>(t.resyncs), problems_text(t, warnings).c_str());
    if (std::string over = over_budget_text(stores.stores(), memory_budget_text(args));
        !over.empty())
        std::fprintf(stderr, "runtop: %s\n", over.c_str());
    if (sources.readable_roots() == 0 || say_incomplete("ls", t)) return kExitError;
    return kExitOk;
}

}  // namespace runtop
