// The Watcher finds the files under the roots and reports how each one changes: created, grew,
// truncated, replaced (new inode at the same path), modified in place, removed. It only stats and
// reads directories: it never opens a monitored file, so it cannot lock, write or mmap one.
//
// Two ways of learning about changes, chosen per root:
//  - inotify, through libinotifytools: one watch per directory. Events only say "look here"; the
//    Watcher stats the file and compares it with what it remembers, so any number of events for a
//    file in one drain gives one FileEvent. A new directory is watched before it is read, so files
//    created in it before the watch landed are found by that read. A queue overflow rescans every
//    inotify root. When the kernel refuses a watch (max_user_watches), that root is polled.
//  - polling, for network filesystems (where writes from other nodes never reach local inotify),
//    `--poll`, or a fallback. Built to be kind to a metadata server: each pass stats the known
//    directories and the known files that are due; a directory is read again only when its
//    identity or mtime changed (plus one settling read 3 s after a read that saw a new mtime: an
//    entry added in the same timestamp tick as a read leaves the mtime as it was); quiet files are
//    stat'ed less and less often (see poll_stride()).
//
// libinotifytools keeps its state in globals, so only one Watcher per process can use inotify at a
// time; a second one polls every root (and says so in take_messages()).
// A Watcher is used from one thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "readers/step_range.h"

namespace runtop {

enum class WatchMode {
    kAuto,     // inotify, unless the root is on a network filesystem (statfs): then poll
    kInotify,  // inotify even on a network filesystem (only changes made on this node are seen)
    kPoll,     // `--poll[=MS]`
};

struct WatchOptions {
    WatchMode mode = WatchMode::kAuto;
    int poll_interval_ms = 500;  // `--poll[=MS]`; also how often a missing root is re-stat'ed
    // Which regular files are interesting, by the directory path relative to the root ("" = the
    // root) and the basename. Empty: every regular file. A root that is a single file is always
    // watched: the user named it.
    std::function<bool(std::string_view rel_dir, std::string_view basename)> wanted;
    // The clock behind poll passes, backoff and settling, in milliseconds (steady). Empty: the
    // steady clock. Tests inject one to simulate hours of quiet without sleeping.
    std::function<std::int64_t()> now_ms;
    // 0: as many inotify watches as the kernel grants. Otherwise a budget for this Watcher, after
    // which a root falls back to polling exactly as on ENOSPC; leaves watches for other programs,
    // and lets tests exercise the fallback.
    std::size_t max_inotify_watches = 0;
    // When `stop()` turns true, walks end early (the Watcher is about to go): a quit during the
    // first walk of a million files is not kept waiting. Empty: never.
    std::function<bool()> stop;
    // The step range a file name carries, for formats that start a new file per range (see
    // step_range.h). Among the files of one series in one directory only the one with the
    // highest range is followed; each other one is stat'ed once more, reported as kCompleted and
    // then looked at only when its directory says its entry changed (see kCompleted). Empty:
    // every file is followed.
    std::function<std::optional<StepRange>(std::string_view basename)> step_range;
};

enum class FileChange {
    kCreated,    // first sight; the initial walk reports every existing wanted file so
    kGrew,       // size increased
    kTruncated,  // size decreased
    kReplaced,   // same path, different (st_dev, st_ino): renamed over, or deleted and recreated
    kModified,   // same size, different mtime: rewritten in place
    kRemoved,    // gone (the file, or a directory above it)
    // A file of the same series with a higher step range is in its directory (step_range): read
    // it to its end once more, then it is complete: no longer stat'ed by polling passes. It is
    // looked at again (and reported with its change, then kCompleted again) when inotify names
    // it, when a directory read finds its entry at another inode (renamed over, deleted and
    // recreated), or when a full read (initial walk, queue overflow, replaced directory) stats
    // it. Not seen while polling: rewritten in place at the same inode, which msProbe never does.
    kCompleted,
};

struct FileEvent {
    std::size_t root;     // index into the roots given to create()
    std::string path;     // root path + "/" + rel_dir + "/" + name, without "//"
    std::string rel_dir;  // directory relative to the root ("" for the root itself)
    FileChange change;
};

struct WatcherStats {
    std::uint64_t stat_calls = 0;       // stat(2) calls on files, directories and roots
    std::uint64_t dir_scans = 0;        // directory reads (opendir + readdir)
    std::uint64_t inotify_watches = 0;  // watches held now
    std::uint64_t inotify_events = 0;   // events read from the inotify queue
    std::uint64_t files = 0;            // wanted files followed now (not complete)
    std::uint64_t completed_files = 0;  // complete files (kCompleted) known now
    std::uint64_t dirs = 0;             // directories known now
};

// Polling backoff: a file unchanged for longer than
//      10 s is stat'ed every 2nd pass,  60 s every 4th,  5 min every 8th,
//      30 min every 16th,  1 h every 32nd,
// but never less often than every 10 s: the stride is capped at 10000 / poll_interval_ms (at least
// 1). With the default 500 ms that is 1, 2, 4, 8, 16, 20. A file that changes goes back to every
// pass. A file's first "change" is its mtime, so an old file backs off from the start. Files are
// spread over the passes of a stride, so a stride-8 population costs 1/8 of it on every pass
// instead of all of it every 8th pass.
int poll_stride(std::int64_t quiet_ms, int poll_interval_ms);

class Watcher {
  public:
    // Roots are directories or single regular files. A missing root is not fatal: it is named in
    // take_messages() and re-stat'ed every poll interval until it appears (a job that has not
    // created its output directory yet). The initial walk happens here; the first take_events()
    // returns every existing wanted file as kCreated, in (root, path) order.
    static std::unique_ptr<Watcher> create(std::vector<std::string> roots, WatchOptions options);
    ~Watcher();
    Watcher(const Watcher&) = delete;
    Watcher& operator=(const Watcher&) = delete;

    // The inotify descriptor to include in poll(2), or -1 if every root is polled. Fixed from
    // create() on. Readable means take_events() has work; a readable descriptor may still yield no
    // FileEvent (an unwanted file changed).
    int fd() const;
    // Milliseconds until take_events() should run again even if fd() stays quiet (a poll pass, a
    // missing root's re-stat, a settling read); 0 when overdue; -1 when only fd() matters.
    int next_timeout_ms() const;
    // Non-blocking: drains inotify, then runs a poll pass if one is due.
    std::vector<FileEvent> take_events();
    // One line each, naming the path and the reason: root missing / appeared / removed,
    // unreadable directory, watch limit reached (polling that root), polling a network fs.
    std::vector<std::string> take_messages();
    // Whether a root is polled (forced, network filesystem, fallback). For a root that has not
    // appeared yet: whether polling is already certain (forced, or inotify unavailable).
    bool polling(std::size_t root) const;
    WatcherStats stats() const;
    // How the roots are watched, for the user, in short lines: "12 inotify watches for 2 roots,
    // one per directory", "of this user's fs.inotify.max_user_watches = 524288", "1 root polled
    // every 500 ms", "1 root not there yet".
    std::vector<std::string> describe() const;

  private:
    struct State;
    explicit Watcher(std::unique_ptr<State> state);
    std::unique_ptr<State> s_;
};

}  // namespace runtop
