#include "views/terminal/terminfo_fallback.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace runtop::ui {

namespace {

// ncurses files an entry under its first letter ("x/", Debian and most Linux builds) or that
// letter's hex code ("78/", builds for case-insensitive filesystems): both are written.
constexpr const char* kSubdirs[] = {"x", "78"};

bool write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

void remove_tree(const std::string& dir) {
    for (const char* sub : kSubdirs) {
        ::unlink(fmt::format("{}/{}/{}", dir, sub, FallbackTerminfo::kName).c_str());
        ::rmdir(fmt::format("{}/{}", dir, sub).c_str());
    }
    ::rmdir(dir.c_str());
}

}  // namespace

Result<FallbackTerminfo> FallbackTerminfo::create() {
    // $TMPDIR, else (or when it cannot be written) /tmp.
    const char* tmp = std::getenv("TMPDIR");
    std::string templ;
    std::string failed;
    for (const char* dir : {tmp && *tmp ? tmp : "/tmp", "/tmp"}) {
        templ = fmt::format("{}/runtop-terminfo-XXXXXX", dir);
        if (::mkdtemp(templ.data()) != nullptr) break;
        failed = fmt::format("cannot make a directory in {}: {}", dir, std::strerror(errno));
        templ.clear();
    }
    if (templ.empty()) return Error{failed};
    FallbackTerminfo made(templ);
    for (const char* sub : kSubdirs) {
        const std::string subdir = fmt::format("{}/{}", templ, sub);
        const std::string file = fmt::format("{}/{}", subdir, kName);
        if (::mkdir(subdir.c_str(), 0700) != 0)
            return Error{fmt::format("cannot make {}: {}", subdir, std::strerror(errno))};
        int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0) return Error{fmt::format("cannot write {}: {}", file, std::strerror(errno))};
        const bool written = write_all(fd, builtin_xterm_256color());
        const int saved = errno;
        ::close(fd);
        if (!written) return Error{fmt::format("cannot write {}: {}", file, std::strerror(saved))};
    }
    return made;
}

FallbackTerminfo::FallbackTerminfo(FallbackTerminfo&& other) noexcept
    : dir_(std::move(other.dir_)) {
    other.dir_.clear();
}

FallbackTerminfo::~FallbackTerminfo() {
    if (!dir_.empty()) remove_tree(dir_);
}

}  // namespace runtop::ui
