#include "app/read_summary.h"

#include <cstdio>

#include <fmt/format.h>

#include "core/distribution.h"

namespace runtop {

PointCounts store_point_counts(const Store& store) {
    return store_point_counts({&store});
}

PointCounts store_point_counts(const std::vector<const Store*>& stores) {
    PointCounts c;
    for (const Store* store : stores) {
        for (SeriesId id = 0; id < store->series_count(); ++id) {
            const Series& s = store->at(id);
            ++c.series;
            c.read += s.received();
            c.kept += s.count();
            c.distributions += s.source().quantile == kMedianQuantile;
        }
    }
    return c;
}

std::string read_text(std::size_t series, std::uint64_t read, const IngestTotals& t) {
    return fmt::format("{} series, {} points read from {} file{}", series, read, t.files,
                       t.files == 1 ? "" : "s");
}

std::string kept_text(const PointCounts& c) {
    return fmt::format("{} kept, {} superseded by restarts and repeated steps", c.kept,
                       c.read > c.kept ? c.read - c.kept : 0);
}

std::string over_budget_text(const Store& store, const std::string& budget) {
    return over_budget_text(std::vector<const Store*>{&store}, budget);
}

std::string over_budget_text(const std::vector<const Store*>& stores, const std::string& budget) {
    std::uint64_t held = 0, limit = 0;
    std::size_t series = 0;
    for (const Store* store : stores) {
        held += store->memory_bytes() + store->outside_bytes() + store->unaccounted_bytes();
        limit += store->limits().memory_bytes;
        series += store->series_count();
    }
    if (held <= limit) return {};
    return fmt::format(
        "{} series need more than the memory budget ({}): {:.1f} MB that no budget folds (each "
        "series' key and last bucket, the rules' state, what the process holds beside them); "
        "older points are folded as far as they go",
        series, budget, static_cast<double>(held) / 1e6);
}

std::string problems_text(const IngestTotals& t, std::size_t warnings) {
    return fmt::format("{} unreadable, {} waiting, {} warning{}", unreadable_count(t),
                       t.pending_files, warnings, warnings == 1 ? "" : "s");
}

std::string unreadable_text(const IngestTotals& t) {
    std::string files =
        fmt::format("{} data file{}", t.unreadable_files, t.unreadable_files == 1 ? "" : "s");
    std::string dirs =
        fmt::format("{} director{}", t.unreadable_dirs, t.unreadable_dirs == 1 ? "y" : "ies");
    if (t.unreadable_dirs == 0) return files;
    if (t.unreadable_files == 0) return dirs;
    return files + " and " + dirs;
}

bool say_incomplete(const char* command, const IngestTotals& totals) {
    if (unreadable_count(totals) == 0) return false;
    std::fprintf(stderr, "runtop %s: %s could not be read: the output is incomplete\n", command,
                 unreadable_text(totals).c_str());
    return true;
}

}  // namespace runtop
