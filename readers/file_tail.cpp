#include "readers/file_tail.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "readers/pread_full.h"
#include "readers/read_scratch.h"

namespace runtop {

FileTail::~FileTail() {
    close_file();
}

void FileTail::close_file() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void FileTail::restart(TailConsumer& consumer, const std::string& why) {
    offset_ = 0;
    head_.clear();
    tail_.clear();
    ++rewrites_;
    consumer.on_rewrite(why);
}

void FileTail::remember(const char* consumed, std::size_t n) {
    if (head_.size() < kEdge && offset_ == head_.size())
        head_.append(consumed, std::min(n, kEdge - head_.size()));
    if (n >= kEdge) {
        tail_.assign(consumed + n - kEdge, kEdge);
    } else {
        tail_.append(consumed, n);
        if (tail_.size() > kEdge) tail_.erase(0, tail_.size() - kEdge);
    }
    offset_ += n;
}

Status FileTail::poll(TailConsumer& consumer) {
    struct stat st;
    if (::stat(path_.c_str(), &st) != 0) {
        int err = errno;
        if (err == ENOENT && (fd_ >= 0 || offset_ > 0)) {  // deleted: what was read stays
            removed_ = true;
            close_file();
            return ok_status();
        }
        return Error{path_ + ": " + std::strerror(err)};
    }
    if (!S_ISREG(st.st_mode)) return Error{path_ + ": not a regular file"};
    bool was_removed = removed_;
    removed_ = false;
    if ((fd_ >= 0 || was_removed) && (st.st_dev != dev_ || st.st_ino != ino_)) {
        close_file();
        if (offset_ > 0) restart(consumer, "was replaced by a new file");
    }
    if (fd_ < 0) {
        int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) return Error{path_ + ": cannot open: " + std::strerror(errno)};
        fd_ = fd;
        dev_ = st.st_dev;
        ino_ = st.st_ino;
    }
    const double previous_mtime = mtime_;
    mtime_ = static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec * 1e-9;
    size_ = static_cast<std::uint64_t>(st.st_size);
    if (size_ < offset_)
        restart(consumer, fmt::format("shrank from {} to {} bytes", offset_, size_));
    // Same size but written since: rewritten in place to the same length, maybe. read_new()
    // compares the edges and reads nothing if they are unchanged.
    if (size_ == offset_ && (offset_ == 0 || mtime_ == previous_mtime)) return ok_status();
    return read_new(consumer);
}

Status FileTail::read_new(TailConsumer& consumer) {
    std::vector<char>& buf = read_scratch();
    // The first bytes: a rewrite that is already longer than what was read shows here.
    if (!head_.empty() && offset_ > tail_.size()) {
        char head[kEdge];
        ssize_t n = pread_full(fd_, head, head_.size(), 0);
        if (n < 0) return Error{path_ + ": read failed: " + std::strerror(static_cast<int>(-n))};
        if (static_cast<std::size_t>(n) != head_.size() ||
            std::memcmp(head, head_.data(), head_.size()) != 0)
            restart(consumer, "was rewritten (its first bytes changed)");
    }
    bool first = true;
    while (true) {
        // Re-read the bytes just before the offset with the new ones: if they differ, the
        // file was rewritten and the offset means nothing any more.
        std::size_t overlap = first ? tail_.size() : 0;
        std::uint64_t start = offset_ - overlap;
        std::uint64_t want = size_ - start;
        if (want > buf.size()) want = buf.size();
        ssize_t n = pread_full(fd_, buf.data(), want, start);
        if (n < 0) return Error{path_ + ": read failed: " + std::strerror(static_cast<int>(-n))};
        auto got = static_cast<std::size_t>(n);
        if (overlap && (got < overlap || std::memcmp(buf.data(), tail_.data(), overlap) != 0)) {
            restart(consumer, "was rewritten (the bytes before the read position changed)");
            continue;  // offset_ is 0 now, with nothing to overlap
        }
        first = false;
        const bool at_eof = start + got >= size_;
        const char* data = buf.data() + overlap;
        const std::size_t len = got - overlap;
        std::size_t used = consumer.consume(data, len, at_eof);
        remember(data, used);
        if (at_eof || got == 0) break;
        if (used == 0) {
            if (buf.size() >= (std::size_t{1} << 30)) {
                return Error{path_ + ": a line longer than 1 GiB; giving up on this file"};
            }
            buf.resize(buf.size() * 2);  // one record longer than the buffer
        }
    }
    shrink_read_scratch();
    return ok_status();
}

}  // namespace runtop
