// The Watcher's private state (readers/watcher.h is the public side), shared by the files that
// implement it:
//  - watcher.cpp: the facade (create, take_events, timeouts, stats);
//  - watcher_tree.cpp: roots and the directories below them, read and reconciled;
//  - watcher_file_check.cpp: one file's stat against what is remembered (what changed);
//  - watcher_inotify.cpp: inotify watches and events, and the fall back to polling;
//  - watcher_polling.cpp: poll passes and their backoff.
// Not for use outside readers/watcher*.cpp.
#pragma once

#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "readers/inotify_session.h"
#include "readers/watcher.h"

namespace runtop {
namespace watcher_detail {

inline std::int64_t steady_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

inline bool same_time(const struct timespec& a, const struct timespec& b) {
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

inline std::string join(std::string_view dir, std::string_view name) {
    if (dir.empty()) return std::string(name);
    std::string out(dir);
    if (out.back() != '/') out += '/';
    out += name;
    return out;
}

// Collapses "//" and drops trailing slashes, so every path built from the root has none.
inline std::string normalise(std::string_view path) {
    std::string out;
    for (char c : path) {
        if (c == '/' && !out.empty() && out.back() == '/') continue;
        out += c;
    }
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    return out.empty() ? std::string(".") : out;
}

inline std::string_view base_of(std::string_view path) {
    std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

struct FileRec {
    std::string rel_dir;
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = 0;
    struct timespec mtime {};
    std::int64_t changed_ms = 0;  // on the Watcher's clock: when it last changed
    std::uint32_t phase = 0;      // spreads backed-off stats over the passes of a stride
};

// A file complete by its name (WatchOptions::step_range): what tells a later change apart.
struct CompleteRec {
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = 0;
    struct timespec mtime {};
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
    std::set<std::string> files;                  // wanted regular files followed, by name
    std::map<std::string, CompleteRec> complete;  // wanted regular files complete, by name
    std::set<std::string> subdirs;                // directories followed, by name
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

}  // namespace watcher_detail

struct Watcher::State {
    WatchOptions opt;
    std::vector<watcher_detail::Root> roots;
    std::unique_ptr<InotifySession> inotify;
    // wd -> the directories it stands for
    std::unordered_map<int, std::vector<watcher_detail::DirRef>> watches;
    std::vector<int> retired;  // wds left without a directory: removed after the next drain
    std::vector<FileEvent> events;
    std::vector<std::string> messages;
    WatcherStats st;
    std::uint32_t next_phase = 0;

    // Collected while draining inotify, handled after it (one stat per file however many events).
    std::set<std::pair<std::size_t, std::string>> dirty_dirs;
    std::set<watcher_detail::FileKey> dirty_files;
    bool overflow = false;

    std::int64_t now() const { return opt.now_ms ? opt.now_ms() : watcher_detail::steady_ms(); }
    bool stopping() const { return opt.stop && opt.stop(); }
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

    // --- roots (watcher_tree.cpp) ---
    void setup_root(std::size_t ri);
    void drop_root(std::size_t ri);
    void check_missing_root(std::size_t ri);

    // --- directories (watcher_tree.cpp) ---
    void rescan_dir(std::size_t ri, const std::string& rel, bool full, const struct stat* known);
    void verify_subdir(std::size_t ri, const std::string& sub, const std::string& path);
    void add_subdir(std::size_t ri, const std::string& rel, watcher_detail::DirRec& parent,
                    const std::string& name, const struct stat& s);
    void gone(std::size_t ri, const std::string& rel);
    void remove_below(std::size_t ri, const std::string& rel, bool keep_self);

    // --- files (watcher_file_check.cpp) ---
    void check_file(std::size_t ri, const std::string& rel, const std::string& name,
                    const std::string& path);
    // A complete file's stat against its record; false when `name` is not complete in `rel`.
    bool check_complete(std::size_t ri, const std::string& rel, const std::string& name,
                        const std::string& path, bool is_file, const struct stat& s);
    // After a followed file appeared: completes the files of its series with a lower range in
    // its directory, or the new file itself when one with a higher range is there.
    void complete_superseded(std::size_t ri, const std::string& rel, const std::string& name);
    void complete_file(std::size_t ri, const std::string& rel, const std::string& name);

    // --- inotify watches and events (watcher_inotify.cpp) ---
    void fall_back_to_polling(std::size_t ri, const std::string& why);
    void ensure_watch(std::size_t ri, const std::string& rel, watcher_detail::DirRec& d);
    void watch_file_parent(std::size_t ri);
    int add_watch(std::size_t ri, const std::string& path);
    void drop_alias(int wd, const watcher_detail::DirRef& ref);
    void remove_retired();
    void drain();
    void note(const struct inotify_event& ev);
    void process_dirty();

    // --- polling (watcher_polling.cpp) ---
    void poll_pass(std::size_t ri);
};

}  // namespace runtop
