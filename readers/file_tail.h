// Incremental reading of a file that grows by appends, and sometimes does not: what the event
// file and CSV readers share.
//
// Each poll() stats the path and hands the bytes after the current offset to a consumer, which
// says how many it consumed (whole records); the rest is offered again next time, so a record
// the writer is still appending is simply read again once it is whole. Nothing is cached
// between polls but 64 bytes on either side of what was consumed, which is how a rewrite is
// noticed. What can happen to a followed file, and what the tail does:
// - it grows: the new bytes are read, at most kPollBudget of them per poll (more() then says
//   so), so one huge file never holds up a quit or the other files for long;
// - it is renamed away or deleted: what is left in it is read to its end through the open
//   descriptor first (a writer's last records before a rotation), then the path is followed
//   again: a new file there is read from its start;
// - a new file took its path (renamed over, deleted and recreated): the same, unless the new
//   file holds what was read (a copy renamed over it, as rsync does), which is then followed on;
// - it shrank (truncated, or rewritten shorter), or its first bytes or the bytes just before
//   the offset changed (truncated and at once written past the old size; rewritten in place,
//   as Lightning rewrites metrics.csv when a new key appears): read again from offset 0.
// A restart from 0 tells the consumer first, with the reason.
// A FileTail can also go on where another one let go of a file (mark(), resume_from()): the
// same checks then compare the file with a digest of what the first one read, and what the
// consumer needs from before that point (a CSV's header) is offered to it, not delivered.
// Descriptors come from a bounded budget (open_file.h); the file is opened read-only and read
// with pread(): no locks, no mmap.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"
#include "readers/open_file.h"

namespace runtop {

// Where a FileTail let go of a file, small enough to keep for each of a million files.
struct TailMark {
    FileId id;                     // the file read
    std::uint64_t offset = 0;      // bytes consumed from it
    std::uint64_t edges = 0;       // digest of its first bytes and those just before `offset`
    std::uint64_t context_at = 0;  // where what the consumer needs again starts (take_context)
};

class TailConsumer {
  public:
    virtual ~TailConsumer() = default;
    // The file changed under us; the next consume() starts again from offset 0.
    virtual void on_rewrite(const std::string& why) = 0;
    // `data` holds the bytes from the current offset to (at most) the end of the file;
    // `at_eof` says whether it reaches the end seen by this poll's stat. Returns how many bytes
    // were consumed; 0 with !at_eof asks for a larger buffer (a record longer than it).
    virtual std::size_t consume(const char* data, std::size_t len, bool at_eof) = 0;
    // False once the consumer wants nothing more of the file for now (a text file it sampled
    // and found no log): the poll stops there, at what consume() took.
    virtual bool wants_more() const { return true; }
    // Going on from a mark (FileTail::resume_from): the bytes from its `context_at` on, for what
    // the consumer must know before the offset (a CSV's header in effect there); none of them
    // is delivered. Returns false to be offered more of them (they end at the offset).
    virtual bool take_context(const char* data, std::size_t len) {
        (void)data;
        (void)len;
        return true;
    }
};

class FileTail {
  public:
    // Bytes one poll() consumes at most before it returns with more() set.
    static constexpr std::uint64_t kPollBudget = std::uint64_t{8} << 20;

    explicit FileTail(std::string path) : path_(std::move(path)) {}
    FileTail(const FileTail&) = delete;
    FileTail& operator=(const FileTail&) = delete;

    Status poll(TailConsumer& consumer);
    // The last poll stopped at its budget with bytes left to read: poll again.
    bool more() const { return more_; }

    const std::string& path() const { return path_; }
    // The file was renamed to `path` (within what is watched): keep reading it there.
    void moved_to(std::string path) { path_ = std::move(path); }
    // The identity of the file being read, while it is at its path.
    const FileId* id() const { return file_.has_id() && !removed_ ? &file_.id() : nullptr; }
    // Whether the file at `path` holds, at its head and just before the offset, what was read
    // here: a file renamed, not another one that got a freed inode number.
    bool holds_what_was_read(const std::string& path) const;
    // Where this tail is in the file it reads (which it must have opened): what a later tail
    // needs to go on from here. `context_at` is the consumer's (TailConsumer::take_context).
    TailMark mark(std::uint64_t context_at) const;
    // Before the first poll: go on from `mark`, made by another tail on this path, when the
    // file there holds, at its head and before the offset, what that tail read (the same file
    // grown, or a copy of it renamed over). Otherwise it is read from the start, as a followed
    // file that was replaced, shrank or was rewritten is, telling the consumer why.
    void resume_from(const TailMark& mark) { resume_ = mark; }
    std::uint64_t offset() const { return offset_; }
    std::uint64_t size() const { return size_; }
    // Modification time of the file at the last poll, in seconds since the epoch.
    double mtime() const { return mtime_; }
    bool removed() const { return removed_; }
    std::uint64_t rewrites() const { return rewrites_; }

  private:
    static constexpr std::size_t kEdge = 64;

    void restart(TailConsumer& consumer, const std::string& why);
    // Reads from the offset to `end` (or the budget) through `fd`.
    Status read_new(TailConsumer& consumer, int fd, std::uint64_t end);
    // Reads what is left in the followed file through the descriptor still held, after it left
    // its path. True once it is read to its end.
    Result<bool> drain(TailConsumer& consumer);
    // Whether the file open on `fd` holds, at the head and just before the offset, the bytes
    // that were consumed there (size is its size).
    Result<bool> same_content(int fd, std::uint64_t size) const;
    void remember(const char* consumed, std::size_t n);
    // The first poll after resume_from(): offset and edges from the mark, or a restart.
    Status resume(TailConsumer& consumer, int fd);
    // Offers the consumer the bytes from `from` to the offset until it has what it needs.
    Status offer_context(TailConsumer& consumer, int fd, std::uint64_t from);

    std::string path_;
    OpenFile file_;
    bool draining_ = false;  // the followed file left its path; reading it to its end
    std::uint64_t offset_ = 0;
    std::uint64_t size_ = 0;
    double mtime_ = 0;
    bool removed_ = false;
    bool more_ = false;
    std::uint64_t budget_left_ = 0;
    std::uint64_t rewrites_ = 0;
    std::string head_;  // the file's first bytes (up to kEdge) as consumed
    std::string tail_;  // the kEdge bytes before offset_
    std::optional<TailMark> resume_;
};

}  // namespace runtop
