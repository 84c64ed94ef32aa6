// Small file writes for runtop's own writers (demo, benchmarks, tests): never used on
// monitored files by the readers.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace runtop {

// Creates the directory and its parents as needed.
Status make_dirs(const std::string& path);
// Appends bytes to a file, creating it; one write() per call, as Python's to_csv(mode="a").
Status append_to_file(const std::string& path, std::string_view bytes);
// Truncates and rewrites a file in place, as msProbe and Lightning do: a reader may see it
// empty or half written.
Status rewrite_file(const std::string& path, std::string_view bytes);

}  // namespace runtop
