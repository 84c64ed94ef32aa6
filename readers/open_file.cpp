#include "readers/open_file.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace runtop {

// The descriptors of one thread's readers, least recently used first.
class DescriptorBudget {
  public:
    DescriptorBudget() : limit_(default_limit()) {}

    static std::size_t default_limit() {
        struct rlimit rl;
        std::size_t soft = 1024;
        if (::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
            soft = static_cast<std::size_t>(rl.rlim_cur);
        // The rest is left for the terminal, pipes, inotify, directory reads and the user's
        // other needs; a few hundred open files is plenty for the files still growing.
        return std::clamp<std::size_t>(soft / 4, 16, 256);
    }

    // `f` just got a descriptor: count it and make room under the limit.
    void add(OpenFile* f) {
        std::lock_guard lock(mutex_);
        link_newest(f);
        ++open_;
        while (open_ > limit_ && oldest_ != f) evict_oldest();
    }
    void remove(OpenFile* f) {
        std::lock_guard lock(mutex_);
        unlink(f);
        --open_;
    }
    void touch(OpenFile* f) {
        std::lock_guard lock(mutex_);
        if (newest_ == f) return;
        unlink(f);
        link_newest(f);
    }
    // The process ran out of descriptors: give one back. False when none is held but `keep`.
    bool evict_one(const OpenFile* keep) {
        std::lock_guard lock(mutex_);
        if (!oldest_ || oldest_ == keep) return false;
        evict_oldest();
        return true;
    }
    std::size_t limit() const { return limit_; }
    std::size_t open() const {
        std::lock_guard lock(mutex_);
        return open_;
    }
    void set_limit(std::size_t n) {
        std::lock_guard lock(mutex_);
        limit_ = n ? n : default_limit();
        while (open_ > limit_ && oldest_) evict_oldest();
    }

  private:
    void link_newest(OpenFile* f) {
        f->prev_ = newest_;
        f->next_ = nullptr;
        if (newest_) newest_->next_ = f;
        newest_ = f;
        if (!oldest_) oldest_ = f;
    }
    void unlink(OpenFile* f) {
        if (f->prev_) f->prev_->next_ = f->next_;
        if (f->next_) f->next_->prev_ = f->prev_;
        if (oldest_ == f) oldest_ = f->next_;
        if (newest_ == f) newest_ = f->prev_;
        f->prev_ = f->next_ = nullptr;
    }
    void evict_oldest() {
        OpenFile* victim = oldest_;
        unlink(victim);
        --open_;
        ::close(victim->fd_);
        victim->fd_ = -1;
    }

    mutable std::mutex mutex_;
    std::size_t limit_;
    std::size_t open_ = 0;
    OpenFile* oldest_ = nullptr;
    OpenFile* newest_ = nullptr;
};

namespace {

const std::shared_ptr<DescriptorBudget>& thread_budget() {
    thread_local std::shared_ptr<DescriptorBudget> budget = std::make_shared<DescriptorBudget>();
    return budget;
}

}  // namespace

OpenFile::~OpenFile() {
    close();
}

void OpenFile::close() {
    if (fd_ < 0) return;
    budget_->remove(this);
    ::close(fd_);
    fd_ = -1;
}

void OpenFile::reset() {
    close();
    has_id_ = false;
    id_ = {};
}

Result<int> OpenFile::open_path(const std::string& path) {
    if (!budget_) budget_ = thread_budget();
    while (true) {
        // O_NONBLOCK: a FIFO put where a data file was must not block the open (a regular
        // file's reads ignore it).
        int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd >= 0) return fd;
        int err = errno;
        // Out of descriptors (a small ulimit -n, or other code holding many): give back the
        // least recently read file's and try again.
        if ((err == EMFILE || err == ENFILE) && budget_->evict_one(this)) continue;
        return Error{path + ": cannot open: " + std::strerror(err)};
    }
}

Status OpenFile::open_new(const std::string& path, struct stat* out) {
    reset();
    Result<int> fd = open_path(path);
    if (!fd) return fd.error();
    struct stat own;
    struct stat& st = out ? *out : own;
    if (::fstat(*fd, &st) != 0) {
        int err = errno;
        ::close(*fd);
        return Error{path + ": cannot stat: " + std::strerror(err)};
    }
    fd_ = *fd;
    id_ = FileId::of(st);
    has_id_ = true;
    budget_->add(this);
    return ok_status();
}

Result<int> OpenFile::fd(const std::string& path) {
    if (fd_ >= 0) {
        budget_->touch(this);
        return fd_;
    }
    if (!has_id_) {
        Status opened = open_new(path);
        if (!opened) return opened.error();
        return fd_;
    }
    Result<int> fd = open_path(path);
    if (!fd) return fd.error();
    struct stat st;
    if (::fstat(*fd, &st) != 0 || !(FileId::of(st) == id_)) {
        ::close(*fd);
        return Error{path + ": replaced while closed"};
    }
    fd_ = *fd;
    budget_->add(this);
    return fd_;
}

std::size_t OpenFile::budget() {
    return thread_budget()->limit();
}

std::size_t OpenFile::open_count() {
    return thread_budget()->open();
}

void OpenFile::set_thread_budget(std::size_t n) {
    thread_budget()->set_limit(n);
}

}  // namespace runtop
