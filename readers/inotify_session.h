// The process-wide libinotifytools session, owned by one Watcher (readers/watcher.h). Private to
// the Watcher's implementation: libinotifytools keeps its descriptor and its tables in globals,
// so there is one owner per process.
#pragma once

#include <sys/inotify.h>

#include <memory>
#include <string>

#include "core/result.h"

namespace runtop {

class InotifySession {
  public:
    // Error: why inotify cannot be used (the caller polls instead).
    static Result<std::unique_ptr<InotifySession>> open();

    ~InotifySession();
    InotifySession(const InotifySession&) = delete;
    InotifySession& operator=(const InotifySession&) = delete;

    int fd() const { return fd_; }

    // inotify_add_watch on the library's descriptor: the watch descriptor, or -errno. The kernel
    // names the watch: adding one on an inode already watched (through a symlink, or from another
    // root) returns the existing descriptor. Only a new one may then be registered, as
    // libinotifytools' tables cannot hold two entries for one descriptor.
    int add(const std::string& path);

    // Hands a new watch to libinotifytools (which adds it again: same inode, same descriptor).
    // On failure the watch is undone and -errno returned.
    int register_new(const std::string& path, int wd);

    // Undoes a new watch that will not be used (budget reached), before it is registered.
    void undo_new(int wd);

    // A watch this process no longer wants. Not through inotifytools_remove_watch_by_wd(): when
    // the kernel has dropped the watch already (a deleted directory whose IN_IGNORED is not read
    // yet, or was lost in a queue overflow) it prints to stderr, which is the user's terminal.
    // The library's entry for the descriptor stays until inotifytools_cleanup(): a few bytes per
    // removed directory; the kernel does not hand out that descriptor again.
    void remove(int wd);

    // The next queued event, without waiting; nullptr when the queue is empty. The event lives in
    // libinotifytools' buffer until the next call.
    inotify_event* next();

    // fs.inotify.max_user_watches, for the message when the kernel refuses a watch.
    static int max_user_watches();

  private:
    explicit InotifySession(int fd) : fd_(fd) {}
    static Error fail(std::string why);
    int fd_;
};

}  // namespace runtop
