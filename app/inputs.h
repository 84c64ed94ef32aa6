// What every reading command shares: roots from the positional arguments, one full read,
// and warnings printed to stderr as one line each.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "core/identity.h"
#include "core/result.h"
#include "readers/source_set.h"

namespace runtop {

Result<std::vector<RootSpec>> roots_from_args(const std::vector<std::string>& positional);

// Prints the source set's warnings and errors, "runtop: " first, to `err`.
std::size_t print_messages(SourceSet& sources, std::FILE* err);

// Writes the buffer to stdout when it is large (or always with `force`).
void flush_output(std::string& out, bool force);

}  // namespace runtop
