#include "writers/file_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace runtop {
namespace {

Status write_all(const std::string& path, int flags, std::string_view bytes) {
    int fd = ::open(path.c_str(), flags | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) return Error{path + ": cannot open for writing: " + std::strerror(errno)};
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            int err = errno;
            ::close(fd);
            return Error{path + ": write failed: " + std::strerror(err)};
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) return Error{path + ": close failed: " + std::strerror(errno)};
    return ok_status();
}

}  // namespace

Status make_dirs(const std::string& path) {
    std::string partial;
    for (std::size_t i = 0; i <= path.size(); ++i) {
        if (i == path.size() || path[i] == '/') {
            if (!partial.empty() && ::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST)
                return Error{partial + ": cannot create directory: " + std::strerror(errno)};
        }
        if (i < path.size()) partial += path[i];
    }
    return ok_status();
}

Status append_to_file(const std::string& path, std::string_view bytes) {
    return write_all(path, O_CREAT | O_APPEND, bytes);
}

Status rewrite_file(const std::string& path, std::string_view bytes) {
    return write_all(path, O_CREAT | O_TRUNC, bytes);
}

}  // namespace runtop
