// `runtop dump`'s text of every point the Store holds, as CSV or JSON lines, series by series
// in key order. Made in blocks on the cores the readers used and written in order
// (app/ordered_blocks.h): a dump of 51 M points was a minute of formatting on one core.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/store/series.h"

namespace runtop {

enum class DumpFormat { kCsv, kJsonl };

// The header line (CSV) or nothing (JSON lines).
std::string dump_header(DumpFormat format);
// One point's line, as dump_points() writes it (--follow prints points one at a time).
void append_dump_line(std::string& out, DumpFormat format, const SeriesKeyRef& key, const Point& p);
// Every full-resolution point of `series`, in that order, to stdout.
void dump_points(const std::vector<const Series*>& series, DumpFormat format, std::size_t threads);

}  // namespace runtop
