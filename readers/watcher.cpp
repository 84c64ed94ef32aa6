#include "readers/watcher.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <inotifytools/inotifytools.h>
#include <sys/inotify.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <ctime>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "core/result.h"
#include "readers/fs_kind.h"

namespace runtop {
namespace {

// IN_CLOSE_WRITE adds nothing to IN_MODIFY for growth, but it is the one event a writer that
// rewrites a file in place through a buffered stream is sure to produce after its last byte.
constexpr std::uint32_t kWatchMask = IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_MODIFY |
                                     IN_CLOSE_WRITE | IN_DELETE | IN_DELETE_SELF | IN_ATTRIB |
                                     IN_MOVE_SELF;

// A directory read is trusted once its mtime has been seen unchanged this long after the read
// that saw it change: an entry added in the same timestamp tick as a read (1-2 s ticks on some
// network servers and FAT) leaves the mtime as it was, and a second read this much later finds it.
constexpr std::int64_t kSettleMs = 3000;

std::int64_t steady_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

std::int64_t realtime_ms() {
    struct timespec ts;
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return std::int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

std::int64_t ms_of(const struct timespec& ts) {
    return std::int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

bool same_time(const struct timespec& a, const struct timespec& b) {
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

std::string join(std::string_view dir, std::string_view name) {
    if (dir.empty()) return std::string(name);
    std::string out(dir);
    if (out.back() != '/') out += '/';
    out += name;
    return out;
}

// Collapses "//" and drops trailing slashes, so every path built from the root has none.
std::string normalise(std::string_view path) {
    std::string out;
    for (char c : path) {
        if (c == '/' && !out.empty() && out.back() == '/') continue;
        out += c;
    }
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    return out.empty() ? std::string(".") : out;
}

std::string parent_of(const std::string& rel) {
    std::size_t slash = rel.rfind('/');
    return slash == std::string::npos ? std::string() : rel.substr(0, slash);
}

std::string_view base_of(std::string_view path) {
    std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// libinotifytools keeps its descriptor and its tables in globals: one owner per process.
std::atomic<bool> g_inotifytools_taken{false};

// The process-wide libinotifytools session, owned by one Watcher.
class InotifySession {
public:
    // Error: why inotify cannot be used (the caller polls instead).
    static Result<std::unique_ptr<InotifySession>> open() {
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

    ~InotifySession() {
        inotifytools_cleanup();
        g_inotifytools_taken.store(false);
    }
    InotifySession(const InotifySession&) = delete;
    InotifySession& operator=(const InotifySession&) = delete;

    int fd() const { return fd_; }

    // inotify_add_watch on the library's descriptor: the watch descriptor, or -errno. The kernel
    // names the watch: adding one on an inode already watched (through a symlink, or from another
    // root) returns the existing descriptor. Only a new one may then be registered, as
    // libinotifytools' tables cannot hold two entries for one descriptor.
    int add(const std::string& path) {
        int wd = ::inotify_add_watch(fd_, path.c_str(), kWatchMask);
        return wd < 0 ? -errno : wd;
    }

    // Hands a new watch to libinotifytools (which adds it again: same inode, same descriptor).
    // On failure the watch is undone and -errno returned.
    int register_new(const std::string& path, int wd) {
        if (inotifytools_watch_file(path.c_str(), kWatchMask)) return 0;
        int err = inotifytools_error();
        ::inotify_rm_watch(fd_, wd);
        return -(err ? err : EINVAL);
    }

    // Undoes a new watch that will not be used (budget reached), before it is registered.
    void undo_new(int wd) { ::inotify_rm_watch(fd_, wd); }

    // A watch this process no longer wants. Not through inotifytools_remove_watch_by_wd(): when
    // the kernel has dropped the watch already (a deleted directory whose IN_IGNORED is not read
    // yet, or was lost in a queue overflow) it prints to stderr, which is the user's terminal.
    // The library's entry for the descriptor stays until inotifytools_cleanup(): a few bytes per
    // removed directory; the kernel does not hand out that descriptor again.
    void remove(int wd) { ::inotify_rm_watch(fd_, wd); }

    // The next queued event, without waiting; nullptr when the queue is empty. The event lives in
    // libinotifytools' buffer until the next call.
    inotify_event* next() { return inotifytools_next_events(0, 1); }

private:
    explicit InotifySession(int fd) : fd_(fd) {}
    static Error fail(std::string why) {
        g_inotifytools_taken.store(false);
        return Error{std::move(why)};
    }
    int fd_;
};

struct FileRec {
    std::string rel_dir;
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = 0;
    struct timespec mtime {};
    std::int64_t changed_ms = 0;  // on the Watcher's clock: when it last changed
    std::uint32_t phase = 0;      // spreads backed-off stats over the passes of a stride
};

struct DirRec {
    std::string path;
    dev_t dev = 0;
    ino_t ino = 0;
    struct timespec mtime {};  // at the last read (or failed read)
    struct timespec ctime {};  // a chmod changes ctime only: what revives an unreadable directory
    bool read_once = false;
    bool readable = false;
    bool said_unreadable = false;
    bool settle = false;  // polling: read once more at settle_at
    std::int64_t settle_at = 0;
    int wd = -1;
    std::set<std::string> files;    // wanted regular files, by name
    std::set<std::string> subdirs;  // directories followed, by name
};

struct Root {
    std::string path;  // normalised
    bool present = false;
    bool polling = false;
    bool single_file = false;     // the root is a regular file
    bool said_missing = false;    // one message until it appears
    int file_parent_wd = -1;      // single file under inotify: its directory's watch
    std::int64_t next_check = 0;  // missing root, or inotify root that cannot be read: re-check
    std::int64_t next_pass = 0;   // polling
    std::uint64_t pass = 0;
    std::map<std::string, DirRec> dirs;                      // by rel dir ("" = root)
    std::map<std::string, FileRec> files;                    // by path
    std::map<std::pair<dev_t, ino_t>, std::string> dir_ids;  // followed once: cuts symlink loops
};

struct DirRef {
    std::size_t root;
    std::string rel;
    bool operator==(const DirRef&) const = default;
};

struct FileKey {
    std::size_t root;
    std::string rel;
    std::string name;
    auto operator<=>(const FileKey&) const = default;
};

}  // namespace

int poll_stride(std::int64_t quiet_ms, int poll_interval_ms) {
    int stride = quiet_ms > 3'600'000   ? 32
                 : quiet_ms > 1'800'000 ? 16
                 : quiet_ms > 300'000   ? 8
                 : quiet_ms > 60'000    ? 4
                 : quiet_ms > 10'000    ? 2
                                        : 1;
    int cap = std::max(1, 10'000 / std::max(1, poll_interval_ms));
    return std::min(stride, cap);
}

struct Watcher::State {
    WatchOptions opt;
    std::vector<Root> roots;
    std::unique_ptr<InotifySession> inotify;
    std::unordered_map<int, std::vector<DirRef>> watches;  // wd -> the directories it stands for
    std::vector<int> retired;  // wds left without a directory: removed after the next drain
    std::vector<FileEvent> events;
    std::vector<std::string> messages;
    WatcherStats st;
    std::uint32_t next_phase = 0;

    // Collected while draining inotify, handled after it (one stat per file however many events).
    std::set<std::pair<std::size_t, std::string>> dirty_dirs;
    std::set<FileKey> dirty_files;
    bool overflow = false;

    std::int64_t now() const { return opt.now_ms ? opt.now_ms() : steady_ms(); }
    bool wanted(std::string_view rel, std::string_view name) const {
        return !opt.wanted || opt.wanted(rel, name);
    }
    bool stat_path(const std::string& path, struct stat* out) {
        ++st.stat_calls;
        return ::stat(path.c_str(), out) == 0;
    }
    void say(std::string line) { messages.push_back(std::move(line)); }
    void emit(std::size_t ri, std::string path, std::string rel, FileChange change) {
        events.push_back(FileEvent{ri, std::move(path), std::move(rel), change});
    }
    // Events of one scan come in path order, like the initial walk.
    void sort_events_from(std::size_t first) {
        // Stable: a path removed then created again (a replaced directory) keeps that order.
        std::stable_sort(events.begin() + static_cast<std::ptrdiff_t>(first), events.end(),
                         [](const FileEvent& a, const FileEvent& b) {
                             return std::tie(a.root, a.path) < std::tie(b.root, b.path);
                         });
    }

    // --- roots ---

    void setup_root(std::size_t ri) {
        Root& r = roots[ri];
        struct stat s;
        bool ok = stat_path(r.path, &s);
        if (!ok || !(S_ISDIR(s.st_mode) || S_ISREG(s.st_mode))) {
            std::string why = ok ? "not a directory or regular file" : std::strerror(errno);
            if (!r.said_missing)
                say(fmt::format("{}: root not found ({}); checking every {} ms until it appears",
                                r.path, why, opt.poll_interval_ms));
            r.said_missing = true;
            r.present = false;
            r.next_check = now() + opt.poll_interval_ms;
            return;
        }
        r.present = true;
        r.polling = opt.mode == WatchMode::kPoll || !inotify;
        std::string fs;
        if (!r.polling && opt.mode == WatchMode::kAuto && is_network_filesystem(r.path, &fs)) {
            r.polling = true;
            say(fmt::format("{}: on {} (a network filesystem): polling every {} ms", r.path, fs,
                            opt.poll_interval_ms));
        }
        r.pass = 0;
        r.next_pass = now() + opt.poll_interval_ms;
        std::size_t first = events.size();
        if (S_ISREG(s.st_mode)) {
            r.single_file = true;
            if (!r.polling) watch_file_parent(ri);
            check_file(ri, "", std::string(base_of(r.path)), r.path);
        } else {
            r.single_file = false;
            DirRec d;
            d.path = r.path;
            d.dev = s.st_dev;
            d.ino = s.st_ino;
            r.dirs.emplace("", std::move(d));
            r.dir_ids[{s.st_dev, s.st_ino}] = "";
            rescan_dir(ri, "", true, &s);
        }
        sort_events_from(first);
    }

    // Everything known under the root is gone; the root is re-stat'ed until it comes back.
    void drop_root(std::size_t ri) {
        Root& r = roots[ri];
        if (r.single_file) {
            if (r.files.count(r.path)) emit(ri, r.path, "", FileChange::kRemoved);
            r.files.clear();
            if (r.file_parent_wd >= 0) drop_alias(r.file_parent_wd, DirRef{ri, ""});
            r.file_parent_wd = -1;
        } else {
            remove_below(ri, "", false);
        }
        r.dirs.clear();
        r.dir_ids.clear();
        r.present = false;
        r.said_missing = true;
        r.next_check = now() + opt.poll_interval_ms;
        say(fmt::format("{}: root removed; checking every {} ms until it reappears", r.path,
                        opt.poll_interval_ms));
    }

    void check_missing_root(std::size_t ri) {
        Root& r = roots[ri];
        setup_root(ri);
        if (r.present) {
            say(fmt::format("{}: root appeared", r.path));
            r.said_missing = false;
        }
    }

    // The root stops using inotify; its directories are polled from now on.
    void fall_back_to_polling(std::size_t ri, const std::string& why) {
        Root& r = roots[ri];
        if (r.polling) return;
        r.polling = true;
        say(fmt::format("{}: {}: polling this root every {} ms", r.path, why,
                        opt.poll_interval_ms));
        std::int64_t t = now();
        for (auto& [rel, d] : r.dirs) {
            if (d.wd >= 0) drop_alias(d.wd, DirRef{ri, rel});
            d.wd = -1;
            // Events queued before this point are dropped: read everything once more.
            d.settle = true;
            d.settle_at = t;
        }
        if (r.file_parent_wd >= 0) drop_alias(r.file_parent_wd, DirRef{ri, ""});
        r.file_parent_wd = -1;
        r.next_pass = t;
    }

    // --- inotify watches ---

    // Watches a directory before it is read, so nothing created after the read is missed.
    void ensure_watch(std::size_t ri, const std::string& rel, DirRec& d) {
        if (d.wd >= 0 || roots[ri].polling || !inotify) return;
        int wd = add_watch(ri, d.path);
        if (wd < 0) return;
        d.wd = wd;
        watches[wd].push_back(DirRef{ri, rel});
    }

    void watch_file_parent(std::size_t ri) {
        Root& r = roots[ri];
        std::string parent(r.path.substr(0, r.path.size() - base_of(r.path).size()));
        int wd = add_watch(ri, parent.empty() ? std::string(".") : normalise(parent));
        if (wd < 0) return;
        r.file_parent_wd = wd;
        watches[wd].push_back(DirRef{ri, ""});
    }

    // Returns the wd, or -1: not watchable now (the read that follows says why), or the root fell
    // back to polling.
    int add_watch(std::size_t ri, const std::string& path) {
        int wd = inotify->add(path);
        if (wd < 0) {
            int err = -wd;
            if (err == ENOSPC)
                fall_back_to_polling(
                    ri,
                    fmt::format("inotify watch limit reached (fs.inotify.max_user_watches = {})",
                                inotifytools_get_max_user_watches()));
            else if (err != EACCES && err != ENOENT && err != ENOTDIR)
                fall_back_to_polling(ri,
                                     fmt::format("cannot watch {}: {}", path, std::strerror(err)));
            return -1;
        }
        if (watches.count(wd)) return wd;  // already watched, maybe retired: taken again
        if (opt.max_inotify_watches && watches.size() >= opt.max_inotify_watches) {
            inotify->undo_new(wd);
            fall_back_to_polling(
                ri, fmt::format("inotify watch budget of {} reached", opt.max_inotify_watches));
            return -1;
        }
        if (int err = inotify->register_new(path, wd); err < 0) {
            fall_back_to_polling(ri, fmt::format("cannot watch {}: {}", path, std::strerror(-err)));
            return -1;
        }
        watches[wd];
        return wd;
    }

    void drop_alias(int wd, const DirRef& ref) {
        auto it = watches.find(wd);
        if (it == watches.end()) return;
        auto& refs = it->second;
        refs.erase(std::remove(refs.begin(), refs.end(), ref), refs.end());
        if (refs.empty()) retired.push_back(wd);
    }

    // Called after a drain, so a watch the kernel dropped meanwhile has had its IN_IGNORED read.
    void remove_retired() {
        for (int wd : retired) {
            auto it = watches.find(wd);
            if (it == watches.end() || !it->second.empty()) continue;  // gone, or taken again
            inotify->remove(wd);
            watches.erase(it);
        }
        retired.clear();
    }

    // --- directories ---

    // Reads one directory and reconciles it with what is known. `full` also re-checks the entries
    // that kept their name (initial walk, overflow, a replaced directory); otherwise only entries
    // that appeared, disappeared or changed inode are looked at.
    void rescan_dir(std::size_t ri, const std::string& rel, bool full, const struct stat* known) {
        Root& r = roots[ri];
        auto it = r.dirs.find(rel);
        if (it == r.dirs.end()) return;
        DirRec& d = it->second;
        struct stat s;
        if (known) {
            s = *known;
        } else if (!stat_path(d.path, &s) || !S_ISDIR(s.st_mode)) {
            gone(ri, rel);
            return;
        }
        if (d.dev != s.st_dev || d.ino != s.st_ino) {  // replaced: everything below is new
            remove_below(ri, rel, true);
            r.dir_ids.erase({d.dev, d.ino});
            if (!r.dir_ids.emplace(std::make_pair(s.st_dev, s.st_ino), rel).second) {
                gone(ri, rel);  // now a second path to a directory followed elsewhere
                return;
            }
            d.dev = s.st_dev;
            d.ino = s.st_ino;
            if (d.wd >= 0) drop_alias(d.wd, DirRef{ri, rel});  // it watches the old inode
            d.wd = -1;
            full = true;
        }
        ensure_watch(ri, rel, d);

        ++st.dir_scans;
        DIR* dp = ::opendir(d.path.c_str());
        if (!dp) {
            if (errno == ENOENT || errno == ENOTDIR) {
                gone(ri, rel);
                return;
            }
            d.readable = false;
            d.mtime = s.st_mtim;
            d.ctime = s.st_ctim;
            if (!d.said_unreadable)
                say(fmt::format("{}: cannot read directory: {}", d.path, std::strerror(errno)));
            d.said_unreadable = true;
            if (rel.empty() && !r.polling) r.next_check = now() + opt.poll_interval_ms;
            return;
        }
        struct Entry {
            std::string name;
            ino_t ino;
            unsigned char type;
        };
        std::vector<Entry> entries;
        while (dirent* e = ::readdir(dp)) {
            std::string_view name = e->d_name;
            if (name == "." || name == "..") continue;
            entries.push_back(Entry{std::string(name), e->d_ino, e->d_type});
        }
        ::closedir(dp);

        bool mtime_moved = !d.read_once || !same_time(d.mtime, s.st_mtim);
        d.read_once = true;
        d.readable = true;
        d.said_unreadable = false;
        d.mtime = s.st_mtim;
        d.ctime = s.st_ctim;
        d.settle = r.polling && mtime_moved;
        d.settle_at = now() + kSettleMs;

        // What disappeared goes first, so that a directory renamed within this one is seen
        // under its new name instead of as a second path to a directory already followed.
        std::set<std::string_view> listed;
        for (const Entry& e : entries) listed.insert(e.name);
        std::vector<std::string> lost_files, lost_dirs;
        for (const std::string& name : d.files)
            if (!listed.count(name)) lost_files.push_back(name);
        for (const std::string& name : d.subdirs)
            if (!listed.count(name)) lost_dirs.push_back(name);
        for (const std::string& name : lost_files) check_file(ri, rel, name, join(d.path, name));
        for (const std::string& name : lost_dirs) remove_below(ri, join(rel, name), false);

        for (const Entry& e : entries) {
            std::string path = join(d.path, e.name);
            if (d.files.count(e.name)) {
                auto f = r.files.find(path);
                if (full || f == r.files.end() || f->second.ino != e.ino)
                    check_file(ri, rel, e.name, path);
                if (d.files.count(e.name)) continue;
                // No longer a regular file: look at it afresh below.
            } else if (d.subdirs.count(e.name)) {
                std::string sub = join(rel, e.name);
                if (full)
                    rescan_dir(ri, sub, true, nullptr);
                else if (e.type != DT_DIR || e.ino != r.dirs.at(sub).ino)
                    verify_subdir(ri, sub, path);  // a symlink retargeted, or renamed over
                if (d.subdirs.count(e.name)) continue;
                // No longer a directory: look at it afresh below.
            }
            unsigned char type = e.type;
            struct stat es;
            bool have_stat = false;
            if (type == DT_UNKNOWN || type == DT_LNK) {  // a symlink may lead to a directory
                if (!stat_path(path, &es)) continue;
                have_stat = true;
                type = S_ISDIR(es.st_mode) ? DT_DIR : S_ISREG(es.st_mode) ? DT_REG : DT_UNKNOWN;
            }
            if (type == DT_REG) {
                if (wanted(rel, e.name)) check_file(ri, rel, e.name, path);
            } else if (type == DT_DIR) {
                if (have_stat || stat_path(path, &es)) add_subdir(ri, rel, d, e.name, es);
            }
        }
    }

    // A known subdirectory whose entry may now lead elsewhere: re-read it if it does.
    void verify_subdir(std::size_t ri, const std::string& sub, const std::string& path) {
        struct stat s;
        if (!stat_path(path, &s) || !S_ISDIR(s.st_mode)) {
            remove_below(ri, sub, false);
            return;
        }
        const DirRec& d = roots[ri].dirs.at(sub);
        if (s.st_dev != d.dev || s.st_ino != d.ino) rescan_dir(ri, sub, false, &s);
    }

    void add_subdir(std::size_t ri, const std::string& rel, DirRec& parent, const std::string& name,
                    const struct stat& s) {
        Root& r = roots[ri];
        std::string sub = join(rel, name);
        if (!r.dir_ids.emplace(std::make_pair(s.st_dev, s.st_ino), sub).second)
            return;  // a symlink loop, or a second path to a directory already followed
        DirRec d;
        d.path = join(parent.path, name);
        d.dev = s.st_dev;
        d.ino = s.st_ino;
        // A mount point or a symlink into a network filesystem: inotify would miss its writers.
        std::string fs;
        if (!r.polling && opt.mode == WatchMode::kAuto && s.st_dev != parent.dev &&
            is_network_filesystem(d.path, &fs))
            fall_back_to_polling(ri, fmt::format("{} is on {} (a network filesystem)", d.path, fs));
        r.dirs.emplace(sub, std::move(d));
        parent.subdirs.insert(name);
        rescan_dir(ri, sub, true, &s);
    }

    // A directory that no longer exists (or is no longer followed).
    void gone(std::size_t ri, const std::string& rel) {
        if (rel.empty())
            drop_root(ri);
        else
            remove_below(ri, rel, false);
    }

    // kRemoved for every file at or below `rel`, in path order; forgets the directories below it,
    // and `rel` itself unless keep_self.
    void remove_below(std::size_t ri, const std::string& rel, bool keep_self) {
        Root& r = roots[ri];
        std::vector<std::string> doomed;
        if (r.dirs.count(rel)) doomed.push_back(rel);
        std::string prefix = rel.empty() ? std::string() : rel + "/";
        for (auto it = r.dirs.lower_bound(prefix);
             it != r.dirs.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it)
            if (it->first != rel) doomed.push_back(it->first);
        std::size_t first = events.size();
        for (const std::string& dr : doomed) {
            DirRec& d = r.dirs.at(dr);
            for (const std::string& name : d.files) {
                std::string path = join(d.path, name);
                r.files.erase(path);
                emit(ri, std::move(path), dr, FileChange::kRemoved);
            }
            d.files.clear();
            if (keep_self && dr == rel) {
                d.subdirs.clear();
                continue;
            }
            if (d.wd >= 0) drop_alias(d.wd, DirRef{ri, dr});
            r.dir_ids.erase({d.dev, d.ino});
            r.dirs.erase(dr);
        }
        if (!keep_self && !rel.empty()) {
            auto parent = r.dirs.find(parent_of(rel));
            if (parent != r.dirs.end()) parent->second.subdirs.erase(std::string(base_of(rel)));
        }
        sort_events_from(first);
    }

    // --- files ---

    // Stats one file and reports how it differs from what is remembered.
    void check_file(std::size_t ri, const std::string& rel, const std::string& name,
                    const std::string& path) {
        Root& r = roots[ri];
        struct stat s;
        bool is_file = stat_path(path, &s) && S_ISREG(s.st_mode);
        auto it = r.files.find(path);
        if (!is_file) {
            if (r.single_file) {
                drop_root(ri);
                return;
            }
            if (it == r.files.end()) return;
            r.files.erase(it);
            if (auto d = r.dirs.find(rel); d != r.dirs.end()) d->second.files.erase(name);
            emit(ri, path, rel, FileChange::kRemoved);
            return;
        }
        std::int64_t t = now();
        if (it == r.files.end()) {
            if (!r.single_file) {
                auto d = r.dirs.find(rel);
                if (d == r.dirs.end()) return;
                d->second.files.insert(name);
            }
            FileRec f;
            f.rel_dir = rel;
            f.dev = s.st_dev;
            f.ino = s.st_ino;
            f.size = s.st_size;
            f.mtime = s.st_mtim;
            // An old file backs off from the start (clock skew only shifts when that starts).
            f.changed_ms = t - std::max<std::int64_t>(0, realtime_ms() - ms_of(s.st_mtim));
            f.phase = next_phase++;
            r.files.emplace(path, std::move(f));
            emit(ri, path, rel, FileChange::kCreated);
            return;
        }
        FileRec& f = it->second;
        FileChange change;
        if (f.dev != s.st_dev || f.ino != s.st_ino)
            change = FileChange::kReplaced;
        else if (s.st_size > f.size)
            change = FileChange::kGrew;
        else if (s.st_size < f.size)
            change = FileChange::kTruncated;
        else if (!same_time(f.mtime, s.st_mtim))
            change = FileChange::kModified;
        else
            return;
        f.dev = s.st_dev;
        f.ino = s.st_ino;
        f.size = s.st_size;
        f.mtime = s.st_mtim;
        f.changed_ms = t;
        emit(ri, path, rel, change);
    }

    // --- inotify events ---

    void drain() {
        while (inotify_event* ev = inotify->next()) {
            ++st.inotify_events;
            note(*ev);
        }
    }

    // Turns one event into work for after the drain.
    void note(const struct inotify_event& ev) {
        if (ev.mask & IN_Q_OVERFLOW) {
            overflow = true;
            return;
        }
        auto it = watches.find(ev.wd);
        if (it == watches.end()) return;
        std::string name = ev.len ? std::string(ev.name) : std::string();
        if (ev.mask & IN_IGNORED) {  // the kernel dropped the watch: deleted, or unmounted
            for (const DirRef& ref : it->second) {
                Root& r = roots[ref.root];
                if (r.single_file) {
                    r.file_parent_wd = -1;
                    dirty_files.insert(FileKey{ref.root, "", std::string(base_of(r.path))});
                } else if (auto d = r.dirs.find(ref.rel); d != r.dirs.end()) {
                    d->second.wd = -1;
                    dirty_dirs.insert({ref.root, ref.rel});  // re-watched if it still exists
                }
            }
            watches.erase(it);
            return;
        }
        for (const DirRef& ref : it->second) {
            Root& r = roots[ref.root];
            if (r.polling || !r.present) continue;
            if (r.single_file) {
                if (name == base_of(r.path) || (name.empty() && (ev.mask & IN_DELETE_SELF)))
                    dirty_files.insert(FileKey{ref.root, "", std::string(base_of(r.path))});
                continue;
            }
            auto d = r.dirs.find(ref.rel);
            if (d == r.dirs.end()) continue;
            if (name.empty()) {
                // The directory itself: replaced or gone (the root only; a subdirectory's parent
                // reports it), or its permissions changed.
                if ((ev.mask & (IN_DELETE_SELF | IN_MOVE_SELF)) && ref.rel.empty())
                    dirty_dirs.insert({ref.root, ""});
                if (ev.mask & IN_ATTRIB) dirty_dirs.insert({ref.root, ref.rel});
                continue;
            }
            if (ev.mask & IN_ISDIR) {
                std::string sub = join(ref.rel, name);
                bool attrib_of_known = (ev.mask & IN_ATTRIB) && r.dirs.count(sub);
                dirty_dirs.insert({ref.root, attrib_of_known ? sub : ref.rel});
                continue;
            }
            if (wanted(ref.rel, name)) {
                dirty_files.insert(FileKey{ref.root, ref.rel, name});
                continue;
            }
            // Not a wanted file, but a symlink to a directory comes and goes like one.
            if (!(ev.mask & (IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM))) continue;
            struct stat s;
            if (d->second.subdirs.count(name) ||
                ((ev.mask & (IN_CREATE | IN_MOVED_TO)) &&
                 stat_path(join(d->second.path, name), &s) && S_ISDIR(s.st_mode)))
                dirty_dirs.insert({ref.root, ref.rel});
        }
    }

    // After a drain: directories first (parents before children, in set order), so a file in a
    // new directory is reported by its directory's scan; then each file once.
    void process_dirty() {
        if (overflow) {
            overflow = false;
            say("inotify queue overflowed (fs.inotify.max_queued_events): rescanning every inotify "
                "root");
            for (std::size_t ri = 0; ri < roots.size(); ++ri) {
                Root& r = roots[ri];
                if (!r.present || r.polling) continue;
                std::size_t first = events.size();
                if (r.single_file)
                    check_file(ri, "", std::string(base_of(r.path)), r.path);
                else
                    rescan_dir(ri, "", true, nullptr);
                sort_events_from(first);
            }
        }
        auto dirs = std::move(dirty_dirs);
        auto files = std::move(dirty_files);
        dirty_dirs.clear();
        dirty_files.clear();
        for (const auto& [ri, rel] : dirs) {
            Root& r = roots[ri];
            if (!r.present || r.polling || !r.dirs.count(rel)) continue;
            std::size_t first = events.size();
            rescan_dir(ri, rel, false, nullptr);
            sort_events_from(first);
        }
        for (const FileKey& k : files) {
            Root& r = roots[k.root];
            if (!r.present || r.polling) continue;
            if (r.single_file) {
                if (r.file_parent_wd < 0) watch_file_parent(k.root);
                check_file(k.root, "", k.name, r.path);
                continue;
            }
            auto d = r.dirs.find(k.rel);
            if (d == r.dirs.end()) continue;
            check_file(k.root, k.rel, k.name, join(d->second.path, k.name));
        }
    }

    // --- polling ---

    void poll_pass(std::size_t ri) {
        Root& r = roots[ri];
        ++r.pass;
        std::int64_t t = now();
        if (!r.single_file) {
            std::vector<std::string> rels;
            rels.reserve(r.dirs.size());
            for (const auto& entry : r.dirs) rels.push_back(entry.first);
            for (const std::string& rel : rels) {
                auto it = r.dirs.find(rel);
                if (it == r.dirs.end()) continue;  // removed with its parent
                DirRec& d = it->second;
                struct stat s;
                if (!stat_path(d.path, &s) || !S_ISDIR(s.st_mode)) {
                    gone(ri, rel);
                    if (!r.present) return;
                    continue;
                }
                bool changed = s.st_dev != d.dev || s.st_ino != d.ino ||
                               !same_time(s.st_mtim, d.mtime) ||
                               (!d.readable && !same_time(s.st_ctim, d.ctime));
                if (changed || (d.settle && t >= d.settle_at)) {
                    std::size_t first = events.size();
                    rescan_dir(ri, rel, false, &s);
                    sort_events_from(first);
                    if (!r.present) return;
                }
            }
        }
        for (auto it = r.files.begin(); it != r.files.end();) {
            auto next = std::next(it);  // check_file may erase this one, never another
            const FileRec& f = it->second;
            int stride = poll_stride(t - f.changed_ms, opt.poll_interval_ms);
            if ((r.pass + f.phase) % static_cast<std::uint64_t>(stride) == 0) {
                std::string path = it->first, rel = f.rel_dir;
                check_file(ri, rel, std::string(base_of(path)), path);
                if (!r.present) return;
            }
            it = next;
        }
    }
};

Watcher::Watcher(std::unique_ptr<State> state) : s_(std::move(state)) {}
Watcher::~Watcher() = default;

std::unique_ptr<Watcher> Watcher::create(std::vector<std::string> roots, WatchOptions options) {
    auto s = std::make_unique<State>();
    options.poll_interval_ms = std::max(1, options.poll_interval_ms);
    s->opt = std::move(options);
    for (const std::string& path : roots) {
        Root r;
        r.path = normalise(path);
        s->roots.push_back(std::move(r));
    }
    if (s->opt.mode != WatchMode::kPoll) {
        auto session = InotifySession::open();
        if (session)
            s->inotify = std::move(*session);
        else
            s->say(fmt::format("{}: polling every root every {} ms", session.error().message,
                               s->opt.poll_interval_ms));
    }
    for (std::size_t ri = 0; ri < s->roots.size(); ++ri) s->setup_root(ri);
    // Every root polled (network filesystems) and none waiting to appear: no descriptor to offer.
    bool inotify_used = std::any_of(s->roots.begin(), s->roots.end(),
                                    [](const Root& r) { return !r.present || !r.polling; });
    if (s->inotify && !inotify_used) s->inotify.reset();
    return std::unique_ptr<Watcher>(new Watcher(std::move(s)));
}

int Watcher::fd() const {
    return s_->inotify ? s_->inotify->fd() : -1;
}

int Watcher::next_timeout_ms() const {
    if (!s_->events.empty()) return 0;  // the initial walk waits to be taken
    std::int64_t due = INT64_MAX;
    for (const Root& r : s_->roots) {
        if (!r.present)
            due = std::min(due, r.next_check);
        else if (r.polling)
            due = std::min(due, r.next_pass);
        else if (!r.single_file && r.dirs.count("") && !r.dirs.at("").readable)
            due = std::min(due, r.next_check);
    }
    if (due == INT64_MAX) return -1;
    return static_cast<int>(std::clamp<std::int64_t>(due - s_->now(), 0, INT_MAX));
}

std::vector<FileEvent> Watcher::take_events() {
    State& s = *s_;
    if (s.inotify) {
        s.drain();
        s.remove_retired();
        s.process_dirty();
    }
    for (std::size_t ri = 0; ri < s.roots.size(); ++ri) {
        Root& r = s.roots[ri];
        std::int64_t t = s.now();
        if (!r.present) {
            if (t >= r.next_check) s.check_missing_root(ri);
        } else if (r.polling) {
            if (t < r.next_pass) continue;
            s.poll_pass(ri);
            // From now, not from when it was due: a late pass does not cause a burst of them.
            r.next_pass = s.now() + s.opt.poll_interval_ms;
        } else if (!r.single_file && r.dirs.count("") && !r.dirs.at("").readable &&
                   t >= r.next_check) {
            // Without read permission there is no watch on the root: try again on a timer.
            r.next_check = t + s.opt.poll_interval_ms;
            std::size_t first = s.events.size();
            s.rescan_dir(ri, "", false, nullptr);
            s.sort_events_from(first);
        }
    }
    return std::exchange(s.events, {});
}

std::vector<std::string> Watcher::take_messages() {
    return std::exchange(s_->messages, {});
}

bool Watcher::polling(std::size_t root) const {
    const Root& r = s_->roots.at(root);
    if (r.present) return r.polling;
    return s_->opt.mode == WatchMode::kPoll || !s_->inotify;
}

WatcherStats Watcher::stats() const {
    WatcherStats out = s_->st;
    out.inotify_watches = s_->watches.size();
    out.files = 0;
    out.dirs = 0;
    for (const Root& r : s_->roots) {
        out.files += r.files.size();
        out.dirs += r.dirs.size();
    }
    return out;
}

}  // namespace runtop
