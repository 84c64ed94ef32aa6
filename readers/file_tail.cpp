#include "readers/file_tail.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include "readers/pread_full.h"
#include "readers/read_scratch.h"

namespace runtop {
namespace {

double seconds_of(const struct timespec& ts) {
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

Error read_error(const std::string& path, ssize_t n) {
    return Error{path + ": read failed: " + std::strerror(static_cast<int>(-n))};
}

std::uint64_t fnv1a(const std::string& bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    return h;
}

// A mark keeps 8 bytes of the two edges, not 128: half a digest each, so a resume tells which
// changed as a followed tail does.
std::uint64_t edges_digest(const std::string& head, const std::string& tail) {
    return (fnv1a(head) & 0xffffffff00000000ull) | (fnv1a(tail) >> 32);
}
constexpr std::uint64_t kHeadHalf = 0xffffffff00000000ull;

}  // namespace

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
    more_ = false;
    budget_left_ = kPollBudget;
    if (draining_) {
        Result<bool> done = drain(consumer);
        if (!done) return done.error();
        if (!*done) return ok_status();
    }
    struct stat st;
    const bool first = !file_.has_id();
    if (first) {
        // Its first read: the path is opened and the descriptor stat'ed, one path lookup
        // rather than two (msProbe's one file a step makes millions of files read once each).
        Status opened = file_.open_new(path_, &st);
        if (!opened) return opened;
    } else if (::stat(path_.c_str(), &st) != 0) {
        int err = errno;
        if (err == ENOENT) {
            // Renamed away or deleted: what was read stays, and what the writer added before
            // that can still be read through a descriptor held on it.
            if (file_.is_open()) {
                Result<bool> done = drain(consumer);
                if (!done) return done.error();
                if (!*done) return ok_status();
            }
            removed_ = true;
            return ok_status();
        }
        return Error{path_ + ": " + std::strerror(err)};
    }
    if (!S_ISREG(st.st_mode)) {
        if (first) file_.reset();  // nothing followed yet: a file put there later is read anew
        return Error{path_ + ": not a regular file"};
    }
    removed_ = false;
    if (!first && !(FileId::of(st) == file_.id())) {
        // Another file took the path. The followed one is read to its end first.
        if (file_.is_open()) {
            Result<bool> done = drain(consumer);
            if (!done) return done.error();
            if (!*done) return ok_status();
        }
        Status opened = file_.open_new(path_);
        if (!opened) return opened;
        Result<bool> same = same_content(file_.held_fd(), static_cast<std::uint64_t>(st.st_size));
        if (!same) return same.error();
        // A copy renamed over the file (rsync, cp then mv) holds what was read: go on in it.
        if (!*same) restart(consumer, "was replaced by a new file");
    }
    // Closed since (the descriptor budget) and opened again: the same inode number may now be
    // another file (a freed one is soon given out again).
    const bool reopening = !file_.is_open();
    Result<int> fd = file_.fd(path_);
    if (!fd) return fd.error();
    if (reopening) {
        Result<bool> same = same_content(*fd, static_cast<std::uint64_t>(st.st_size));
        if (!same) return same.error();
        if (!*same) restart(consumer, "was replaced by a new file");
    }
    const double previous_mtime = mtime_;
    mtime_ = seconds_of(st.st_mtim);
    size_ = static_cast<std::uint64_t>(st.st_size);
    if (resume_) {
        Status resumed = resume(consumer, *fd);
        if (!resumed) return resumed;
    }
    if (size_ < offset_)
        restart(consumer, fmt::format("shrank from {} to {} bytes", offset_, size_));
    // Same size but written since: rewritten in place to the same length, maybe. read_new()
    // compares the edges and reads nothing if they are unchanged.
    if (size_ == offset_ && (offset_ == 0 || mtime_ == previous_mtime)) return ok_status();
    return read_new(consumer, *fd, size_);
}

Result<bool> FileTail::drain(TailConsumer& consumer) {
    draining_ = true;
    const int fd = file_.held_fd();
    struct stat st;
    if (::fstat(fd, &st) != 0) return Error{path_ + ": " + std::strerror(errno)};
    const auto end = static_cast<std::uint64_t>(st.st_size);
    if (end > offset_) {
        mtime_ = seconds_of(st.st_mtim);
        Status read = read_new(consumer, fd, end);
        if (!read) return read.error();
        if (more_) return false;
    }
    draining_ = false;
    file_.close();  // a deleted file's space is the user's again
    return true;
}

TailMark FileTail::mark(std::uint64_t context_at) const {
    return TailMark{file_.id(), offset_, edges_digest(head_, tail_), context_at};
}

Status FileTail::resume(TailConsumer& consumer, int fd) {
    const TailMark mark = *std::exchange(resume_, std::nullopt);
    const bool same_file = file_.id() == mark.id;
    if (same_file && size_ < mark.offset) {
        restart(consumer, fmt::format("shrank from {} to {} bytes", mark.offset, size_));
        return ok_status();
    }
    if (size_ < mark.offset) {  // as poll() finds a replaced file: it holds less than was read
        restart(consumer, "was replaced by a new file");
        return ok_status();
    }
    // The edges as remember() would hold them at the mark's offset.
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kEdge, mark.offset));
    std::string head(n, '\0'), tail(n, '\0');
    ssize_t got = pread_full(fd, head.data(), n, 0);
    if (got < 0) return read_error(path_, got);
    if (static_cast<std::size_t>(got) != n) head.clear();
    got = pread_full(fd, tail.data(), n, mark.offset - n);
    if (got < 0) return read_error(path_, got);
    if (static_cast<std::size_t>(got) != n) tail.clear();
    const std::uint64_t digest = edges_digest(head, tail);
    if (digest == mark.edges) {
        head_ = std::move(head);
        tail_ = std::move(tail);
        offset_ = mark.offset;
        return offer_context(consumer, fd, mark.context_at);
    }
    // The reasons poll() and read_new() give a followed file (read_new() looks at the head
    // apart only when it is not the tail too).
    if (!same_file)
        restart(consumer, "was replaced by a new file");
    else if (mark.offset > n && ((digest ^ mark.edges) & kHeadHalf))
        restart(consumer, "was rewritten (its first bytes changed)");
    else
        restart(consumer, "was rewritten (the bytes before the read position changed)");
    return ok_status();
}

Status FileTail::offer_context(TailConsumer& consumer, int fd, std::uint64_t from) {
    if (from >= offset_) return ok_status();
    // A header is a line or two: start small, grow while the consumer asks for more.
    std::uint64_t want = std::min<std::uint64_t>(offset_ - from, 4096);
    std::vector<char> buf;
    while (true) {
        buf.resize(want);
        ssize_t n = pread_full(fd, buf.data(), want, from);
        if (n < 0) return read_error(path_, n);
        const auto got = static_cast<std::size_t>(n);
        if (consumer.take_context(buf.data(), got) || got < want || from + want >= offset_)
            return ok_status();
        want = std::min<std::uint64_t>(offset_ - from, want * 2);
    }
}

bool FileTail::holds_what_was_read(const std::string& path) const {
    if (offset_ == 0) return true;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return false;
    struct stat st;
    Result<bool> same = ::fstat(fd, &st) == 0
                            ? same_content(fd, static_cast<std::uint64_t>(st.st_size))
                            : Result<bool>(false);
    ::close(fd);
    return same && *same;
}

Result<bool> FileTail::same_content(int fd, std::uint64_t size) const {
    if (size < offset_) return false;
    char edge[kEdge];
    if (!head_.empty()) {
        ssize_t n = pread_full(fd, edge, head_.size(), 0);
        if (n < 0) return read_error(path_, n);
        if (static_cast<std::size_t>(n) != head_.size() ||
            std::memcmp(edge, head_.data(), head_.size()) != 0)
            return false;
    }
    if (!tail_.empty()) {
        ssize_t n = pread_full(fd, edge, tail_.size(), offset_ - tail_.size());
        if (n < 0) return read_error(path_, n);
        if (static_cast<std::size_t>(n) != tail_.size() ||
            std::memcmp(edge, tail_.data(), tail_.size()) != 0)
            return false;
    }
    return true;
}

Status FileTail::read_new(TailConsumer& consumer, int fd, std::uint64_t end) {
    std::vector<char>& buf = read_scratch();
    // The first bytes: a rewrite that is already longer than what was read shows here.
    if (!head_.empty() && offset_ > tail_.size()) {
        char head[kEdge];
        ssize_t n = pread_full(fd, head, head_.size(), 0);
        if (n < 0) return read_error(path_, n);
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
        std::uint64_t want = end > start ? end - start : 0;
        if (want > buf.size()) want = buf.size();
        ssize_t n = pread_full(fd, buf.data(), want, start);
        if (n < 0) return read_error(path_, n);
        auto got = static_cast<std::size_t>(n);
        if (overlap && (got < overlap || std::memcmp(buf.data(), tail_.data(), overlap) != 0)) {
            restart(consumer, "was rewritten (the bytes before the read position changed)");
            continue;  // offset_ is 0 now, with nothing to overlap
        }
        first = false;
        const bool at_eof = start + got >= end;
        const char* data = buf.data() + overlap;
        const std::size_t len = got - overlap;
        std::size_t used = consumer.consume(data, len, at_eof);
        remember(data, used);
        budget_left_ -= std::min<std::uint64_t>(budget_left_, used);
        if (at_eof || got == 0 || !consumer.wants_more()) break;
        if (used == 0) {
            if (buf.size() >= (std::size_t{1} << 30)) {
                return Error{path_ + ": a record longer than 1 GiB; giving up on this file"};
            }
            buf.resize(buf.size() * 2);  // one record longer than the buffer
        } else if (budget_left_ == 0) {
            more_ = true;
            break;
        }
    }
    shrink_read_scratch();
    return ok_status();
}

}  // namespace runtop
