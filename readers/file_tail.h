// Incremental reading of a text file that grows by appends, and sometimes does not.
//
// Each poll() stats the file and hands the bytes after the current offset to a consumer, which
// says how many it consumed (complete lines); the rest is offered again next time, so a partial
// last line is simply re-read once the writer finishes it. Nothing is cached between polls but
// 64 bytes on either side of what was consumed, which is how a rewrite is noticed:
// - the file was replaced (rename over, delete and recreate: another device/inode),
// - it shrank (truncated, or rewritten shorter),
// - its modification time changed while its size did not, and its edges (below) changed,
// - its first bytes changed, or the bytes just before the offset changed (rewritten in place
//   and already longer than before: Lightning rewrites metrics.csv when a new key appears).
// Any of these restarts the consumer from offset 0, after telling it why.
// The file is opened read-only and read with pread(): no locks, no mmap.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "core/result.h"

namespace runtop {

class TailConsumer {
  public:
    virtual ~TailConsumer() = default;
    // The file changed under us; the next consume() starts again from offset 0.
    virtual void on_rewrite(const std::string& why) = 0;
    // `data` holds the bytes from the current offset to (at most) the end of the file;
    // `at_eof` says whether it reaches the end seen by this poll's stat. Returns how many bytes
    // were consumed; 0 with !at_eof asks for a larger buffer (a record longer than it).
    virtual std::size_t consume(const char* data, std::size_t len, bool at_eof) = 0;
};

class FileTail {
  public:
    explicit FileTail(std::string path) : path_(std::move(path)) {}
    ~FileTail();
    FileTail(const FileTail&) = delete;
    FileTail& operator=(const FileTail&) = delete;

    Status poll(TailConsumer& consumer);

    const std::string& path() const { return path_; }
    std::uint64_t offset() const { return offset_; }
    std::uint64_t size() const { return size_; }
    // Modification time of the file at the last poll, in seconds since the epoch.
    double mtime() const { return mtime_; }
    bool removed() const { return removed_; }
    std::uint64_t rewrites() const { return rewrites_; }

  private:
    static constexpr std::size_t kEdge = 64;

    void close_file();
    void restart(TailConsumer& consumer, const std::string& why);
    Status read_new(TailConsumer& consumer);
    void remember(const char* consumed, std::size_t n);

    std::string path_;
    int fd_ = -1;
    dev_t dev_ = 0;
    ino_t ino_ = 0;
    std::uint64_t offset_ = 0;
    std::uint64_t size_ = 0;
    double mtime_ = 0;
    bool removed_ = false;
    std::uint64_t rewrites_ = 0;
    std::string head_;  // the file's first bytes (up to kEdge) as consumed
    std::string tail_;  // the kEdge bytes before offset_
};

}  // namespace runtop
