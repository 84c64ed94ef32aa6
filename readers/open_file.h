// A monitored file's read-only descriptor, drawn from a bounded budget of descriptors.
//
// A job can leave millions of files (msProbe writes one CSV per step per rank), and a process
// may hold ~1024: so a reader does not own its descriptor, it asks for it when it reads. The
// budget (one per thread: readers are polled by one thread, and a descriptor is only ever closed
// by the thread that reads through it) keeps the most recently read files open (those still
// growing) and closes the least recently read one when another file needs a descriptor; that file
// is opened again from its path when it is next read, and only if the path still leads to the same
// file (device and inode): otherwise the reader sees the file as replaced.
//
// Why keep any open at all: a file that is renamed away or deleted can still be read to its
// end through an open descriptor, so a writer's last records before a rotation are not lost.
// The file is opened O_RDONLY, never locked, never mapped.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/result.h"

namespace runtop {

// A file's identity across renames: what stat() calls st_dev and st_ino.
struct FileId {
    dev_t dev = 0;
    ino_t ino = 0;
    bool operator==(const FileId&) const = default;
    static FileId of(const struct stat& st) { return FileId{st.st_dev, st.st_ino}; }
};

struct FileIdHash {
    std::size_t operator()(const FileId& id) const {
        return std::hash<std::uint64_t>()(static_cast<std::uint64_t>(id.ino) *
                                              0x9e3779b97f4a7c15ull ^
                                          static_cast<std::uint64_t>(id.dev));
    }
};

class DescriptorBudget;

class OpenFile {
  public:
    OpenFile() = default;
    ~OpenFile();
    OpenFile(const OpenFile&) = delete;
    OpenFile& operator=(const OpenFile&) = delete;

    // Opens `path` read-only and makes what it finds the file this handle follows; `st`, if
    // given, gets what fstat() said of it.
    Status open_new(const std::string& path, struct stat* st = nullptr);
    // The descriptor of the file this handle follows (open_new() first), opened again from
    // `path` if the budget closed it. Error: the path cannot be opened, or it leads to another
    // file now (`replaced()` then says so, and the caller treats it as replaced).
    Result<int> fd(const std::string& path);
    // Whether a descriptor is held now (the followed file can be read even if renamed away).
    bool is_open() const { return fd_ >= 0; }
    // The descriptor held now, or -1; does not reopen.
    int held_fd() const { return fd_; }
    // The followed file's identity (valid once open_new() succeeded).
    const FileId& id() const { return id_; }
    bool has_id() const { return has_id_; }
    // Gives the descriptor back and forgets the file.
    void reset();
    // Gives the descriptor back but keeps following the file (reopened by path when needed).
    void close();

    // How many descriptors this thread's budget allows (from RLIMIT_NOFILE: a quarter of the
    // soft limit, between 16 and 256) and how many it holds now.
    static std::size_t budget();
    static std::size_t open_count();
    // A smaller budget for this thread (0 restores the default): the reader pool's threads
    // share the process' descriptors.
    static void set_thread_budget(std::size_t n);
    static void set_budget_for_tests(std::size_t n) { set_thread_budget(n); }

  private:
    friend class DescriptorBudget;
    Result<int> open_path(const std::string& path);

    int fd_ = -1;
    FileId id_;
    bool has_id_ = false;
    // The budget this descriptor counts against, and its place in that budget's
    // least-recently-used list (guarded by the budget's mutex).
    std::shared_ptr<DescriptorBudget> budget_;
    OpenFile* prev_ = nullptr;
    OpenFile* next_ = nullptr;
};

}  // namespace runtop
