// Finds the data files under a root and gives each its identity (run, rank).
// The watcher of the next issue reports changes; this is the full walk it starts from.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/identity.h"
#include "readers/source_reader.h"

namespace runtop {

struct Discovered {
    std::vector<SourceFile> files;    // in read order (read_order_key): restarts replay in order
    std::vector<std::string> errors;  // one line each: unreadable directories, missing roots
    std::size_t unreadable_dirs = 0;  // directories that could not be listed, the root included
    bool root_ok = false;             // the root itself exists and could be read
};

// Walks the root (a directory, or a single file). Symlinked directories are followed once:
// a loop is cut where a directory is met again.
Discovered discover(const RootSpec& root);

}  // namespace runtop
