// pread() until `len` bytes or the end of the file, over short reads and EINTR: what every
// reader of a regular file needs (a network filesystem may return less than asked).
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace runtop {

// The number of bytes read (fewer than `len` only at the end of the file), or -errno.
inline ssize_t pread_full(int fd, char* out, std::size_t len, std::uint64_t at) {
    std::size_t got = 0;
    while (got < len) {
        ssize_t n = ::pread(fd, out + got, len - got, static_cast<off_t>(at + got));
        if (n < 0) {
            if (errno == EINTR) continue;
            return -errno;
        }
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    return static_cast<ssize_t>(got);
}

}  // namespace runtop
