#include "app/resident_memory.h"

#include <fcntl.h>
#include <unistd.h>

#include <charconv>

namespace runtop {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RUNTOP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RUNTOP_SANITIZED 1
#endif
#endif

std::uint64_t resident_bytes() {
#ifdef RUNTOP_SANITIZED
    return 0;
#else
    // open/read, not stdio: called at budget checks, in the middle of ingesting, and a FILE is a
    // heap allocation each time.
    const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[128];
    const ssize_t n = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (n <= 0) return 0;
    // "size resident shared text lib data dt", in pages.
    const char* end = text + n;
    const char* p = text;
    while (p < end && *p != ' ') ++p;
    std::uint64_t pages = 0;
    if (p == end || std::from_chars(p + 1, end, pages).ec != std::errc()) return 0;
    const long page = ::sysconf(_SC_PAGESIZE);
    return page > 0 ? pages * static_cast<std::uint64_t>(page) : 0;
#endif
}

}  // namespace runtop
