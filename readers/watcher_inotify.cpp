// The Watcher's inotify side: one watch per directory (a single-file root watches its parent),
// events turned into directories and files to look at after each drain, a queue overflow into a
// rescan of every inotify root, and a refused watch (max_user_watches, or the budget) into
// polling that root.
#include <fmt/format.h>
#include <sys/inotify.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "readers/watcher_state.h"

namespace runtop {

using watcher_detail::base_of;
using watcher_detail::DirRec;
using watcher_detail::DirRef;
using watcher_detail::FileKey;
using watcher_detail::join;
using watcher_detail::normalise;
using watcher_detail::Root;

// The root stops using inotify; its directories are polled from now on.
void Watcher::State::fall_back_to_polling(std::size_t ri, const std::string& why) {
    Root& r = roots[ri];
    if (r.polling) return;
    r.polling = true;
    say(fmt::format("{}: {}: polling this root every {} ms", r.path, why, opt.poll_interval_ms));
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

// Watches a directory before it is read, so nothing created after the read is missed.
void Watcher::State::ensure_watch(std::size_t ri, const std::string& rel, DirRec& d) {
    if (d.wd >= 0 || roots[ri].polling || !inotify) return;
    int wd = add_watch(ri, d.path);
    if (wd < 0) return;
    d.wd = wd;
    watches[wd].push_back(DirRef{ri, rel});
}

void Watcher::State::watch_file_parent(std::size_t ri) {
    Root& r = roots[ri];
    std::string parent(r.path.substr(0, r.path.size() - base_of(r.path).size()));
    int wd = add_watch(ri, parent.empty() ? std::string(".") : normalise(parent));
    if (wd < 0) return;
    r.file_parent_wd = wd;
    watches[wd].push_back(DirRef{ri, ""});
}

// Returns the wd, or -1: not watchable now (the read that follows says why), or the root fell
// back to polling.
int Watcher::State::add_watch(std::size_t ri, const std::string& path) {
    int wd = inotify->add(path);
    if (wd < 0) {
        int err = -wd;
        if (err == ENOSPC)
            fall_back_to_polling(
                ri, fmt::format("inotify watch limit reached (fs.inotify.max_user_watches = {})",
                                InotifySession::max_user_watches()));
        else if (err != EACCES && err != ENOENT && err != ENOTDIR)
            fall_back_to_polling(ri, fmt::format("cannot watch {}: {}", path, std::strerror(err)));
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

void Watcher::State::drop_alias(int wd, const DirRef& ref) {
    auto it = watches.find(wd);
    if (it == watches.end()) return;
    auto& refs = it->second;
    refs.erase(std::remove(refs.begin(), refs.end(), ref), refs.end());
    if (refs.empty()) retired.push_back(wd);
}

// Called after a drain, so a watch the kernel dropped meanwhile has had its IN_IGNORED read.
void Watcher::State::remove_retired() {
    for (int wd : retired) {
        auto it = watches.find(wd);
        if (it == watches.end() || !it->second.empty()) continue;  // gone, or taken again
        inotify->remove(wd);
        watches.erase(it);
    }
    retired.clear();
}

void Watcher::State::drain() {
    while (inotify_event* ev = inotify->next()) {
        ++st.inotify_events;
        note(*ev);
    }
}

// Turns one event into work for after the drain.
void Watcher::State::note(const struct inotify_event& ev) {
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
            ((ev.mask & (IN_CREATE | IN_MOVED_TO)) && stat_path(join(d->second.path, name), &s) &&
             S_ISDIR(s.st_mode)))
            dirty_dirs.insert({ref.root, ref.rel});
    }
}

// After a drain: directories first (parents before children, in set order), so a file in a
// new directory is reported by its directory's scan; then each file once.
void Watcher::State::process_dirty() {
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

}  // namespace runtop
