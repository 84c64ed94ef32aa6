// What runtop_benchgen's generators share to lay out their trees and read their shapes
// (bench/benchgen.cpp, bench/msprobe_scale.cpp, bench/events_scale.cpp).
#pragma once

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

// A shape "AxBx...": exactly `count` positive integers joined by 'x' into dims[0..count).
inline bool parse_dims(const std::string& text, long long* dims, int count) {
    const char* p = text.c_str();
    for (int i = 0; i < count; ++i) {
        if (i > 0 && *p++ != 'x') return false;
        if (*p < '0' || *p > '9') return false;  // strtoll would take a sign or spaces
        char* end = nullptr;
        errno = 0;
        dims[i] = std::strtoll(p, &end, 10);
        if (errno != 0 || dims[i] < 1) return false;
        p = end;
    }
    return *p == '\0';
}

}  // namespace runtop::bench
