// What runtop_benchgen's generators share to lay out their trees (bench/benchgen.cpp,
// bench/msprobe_scale.cpp).
#pragma once

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace runtop::bench {

// mkdir 0755; an existing directory is fine. False, with a line on stderr, when it fails.
inline bool make_dir(const std::string& path) {
    if (::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST) return true;
    std::fprintf(stderr, "runtop_benchgen: %s: %s\n", path.c_str(), std::strerror(errno));
    return false;
}

// The file's size, 0 when it cannot be stat'ed.
inline std::uint64_t file_size(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
}

}  // namespace runtop::bench
