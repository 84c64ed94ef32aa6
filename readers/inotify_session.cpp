#include "readers/inotify_session.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <inotifytools/inotifytools.h>
#include <sys/select.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

namespace runtop {
namespace {

// IN_CLOSE_WRITE adds nothing to IN_MODIFY for growth, but it is the one event a writer that
// rewrites a file in place through a buffered stream is sure to produce after its last byte.
constexpr std::uint32_t kWatchMask = IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_MODIFY |
                                     IN_CLOSE_WRITE | IN_DELETE | IN_DELETE_SELF | IN_ATTRIB |
                                     IN_MOVE_SELF;

// libinotifytools keeps its descriptor and its tables in globals: one owner per process.
std::atomic<bool> g_inotifytools_taken{false};

}  // namespace

Result<std::unique_ptr<InotifySession>> InotifySession::open() {
    if (g_inotifytools_taken.exchange(true))
        return Error{"another Watcher in this process holds libinotifytools (one per process)"};
    // libinotifytools does not expose its descriptor, which poll(2) needs. inotify_init()
    // takes the lowest free descriptor, so the number just probed is the one it gets; /proc
    // confirms it when mounted (another thread may have taken that number in between).
    int probe = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (probe < 0) return fail(fmt::format("cannot open /dev/null: {}", std::strerror(errno)));
    ::close(probe);
    if (!inotifytools_initialize())
        return fail(fmt::format("inotify: {}", std::strerror(inotifytools_error())));
    char link[64];
    ssize_t n = ::readlink(fmt::format("/proc/self/fd/{}", probe).c_str(), link, sizeof link);
    if (n >= 0 && std::string_view(link, static_cast<std::size_t>(n)) != "anon_inode:inotify") {
        inotifytools_cleanup();
        return fail("cannot find libinotifytools' descriptor");
    }
    if (probe >= FD_SETSIZE) {  // libinotifytools waits with select()
        inotifytools_cleanup();
        return fail(fmt::format("inotify descriptor {} is beyond FD_SETSIZE", probe));
    }
    ::fcntl(probe, F_SETFD, FD_CLOEXEC);  // children of the app need not inherit it
    return std::unique_ptr<InotifySession>(new InotifySession(probe));
}

InotifySession::~InotifySession() {
    inotifytools_cleanup();
    g_inotifytools_taken.store(false);
}

int InotifySession::add(const std::string& path) {
    int wd = ::inotify_add_watch(fd_, path.c_str(), kWatchMask);
    return wd < 0 ? -errno : wd;
}

int InotifySession::register_new(const std::string& path, int wd) {
    if (inotifytools_watch_file(path.c_str(), kWatchMask)) return 0;
    int err = inotifytools_error();
    ::inotify_rm_watch(fd_, wd);
    return -(err ? err : EINVAL);
}

void InotifySession::undo_new(int wd) {
    ::inotify_rm_watch(fd_, wd);
}

void InotifySession::remove(int wd) {
    ::inotify_rm_watch(fd_, wd);
}

inotify_event* InotifySession::next() {
    return inotifytools_next_events(0, 1);
}

int InotifySession::max_user_watches() {
    return inotifytools_get_max_user_watches();
}

Error InotifySession::fail(std::string why) {
    g_inotifytools_taken.store(false);
    return Error{std::move(why)};
}

}  // namespace runtop
