// The Watcher's tree: each root (a directory or a single file) and the directories below it,
// read and reconciled with what is remembered. Files found are handed to check_file()
// (watcher_file_check.cpp), which says how each one changed.
#include <dirent.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "readers/fs_kind.h"
#include "readers/watcher_state.h"

namespace runtop {
namespace {

// A directory read is trusted once its mtime has been seen unchanged this long after the read
// that saw it change: an entry added in the same timestamp tick as a read (1-2 s ticks on some
// network servers and FAT) leaves the mtime as it was, and a second read this much later finds it.
constexpr std::int64_t kSettleMs = 3000;

std::string parent_of(const std::string& rel) {
    std::size_t slash = rel.rfind('/');
    return slash == std::string::npos ? std::string() : rel.substr(0, slash);
}

}  // namespace

using watcher_detail::base_of;
using watcher_detail::DirRec;
using watcher_detail::DirRef;
using watcher_detail::join;
using watcher_detail::Root;
using watcher_detail::same_time;

void Watcher::State::setup_root(std::size_t ri) {
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
void Watcher::State::drop_root(std::size_t ri) {
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

void Watcher::State::check_missing_root(std::size_t ri) {
    Root& r = roots[ri];
    setup_root(ri);
    if (r.present) {
        say(fmt::format("{}: root appeared", r.path));
        r.said_missing = false;
    }
}

// Reads one directory and reconciles it with what is known. `full` also re-checks the entries
// that kept their name (initial walk, overflow, a replaced directory); otherwise only entries
// that appeared, disappeared or changed inode are looked at.
void Watcher::State::rescan_dir(std::size_t ri, const std::string& rel, bool full,
                                const struct stat* known) {
    Root& r = roots[ri];
    auto it = r.dirs.find(rel);
    if (it == r.dirs.end() || stopping()) return;
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
    for (const auto& entry : d.complete)
        if (!listed.count(entry.first)) lost_files.push_back(entry.first);
    for (const std::string& name : d.subdirs)
        if (!listed.count(name)) lost_dirs.push_back(name);
    for (const std::string& name : lost_files) check_file(ri, rel, name, join(d.path, name));
    for (const std::string& name : lost_dirs) remove_below(ri, join(rel, name), false);

    for (const Entry& e : entries) {
        if (stopping()) return;
        std::string path = join(d.path, e.name);
        if (auto c = d.complete.find(e.name); c != d.complete.end()) {
            // Complete: stat'ed on a full read, or when its entry now leads to another inode.
            if (full || c->second.ino != e.ino) check_file(ri, rel, e.name, path);
            if (d.complete.count(e.name) || d.files.count(e.name)) continue;
            // No longer a regular file: look at it afresh below.
        } else if (d.files.count(e.name)) {
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
void Watcher::State::verify_subdir(std::size_t ri, const std::string& sub,
                                   const std::string& path) {
    struct stat s;
    if (!stat_path(path, &s) || !S_ISDIR(s.st_mode)) {
        remove_below(ri, sub, false);
        return;
    }
    const DirRec& d = roots[ri].dirs.at(sub);
    if (s.st_dev != d.dev || s.st_ino != d.ino) rescan_dir(ri, sub, false, &s);
}

void Watcher::State::add_subdir(std::size_t ri, const std::string& rel, DirRec& parent,
                                const std::string& name, const struct stat& s) {
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
void Watcher::State::gone(std::size_t ri, const std::string& rel) {
    if (rel.empty())
        drop_root(ri);
    else
        remove_below(ri, rel, false);
}

// kRemoved for every file at or below `rel`, in path order; forgets the directories below it,
// and `rel` itself unless keep_self.
void Watcher::State::remove_below(std::size_t ri, const std::string& rel, bool keep_self) {
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
        for (const auto& entry : d.complete)
            emit(ri, join(d.path, entry.first), dr, FileChange::kRemoved);
        d.complete.clear();
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

}  // namespace runtop
