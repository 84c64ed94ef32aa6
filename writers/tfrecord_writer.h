// TFRecord framing and an append-only event file, for tests, fixtures, benchmarks and the demo.
// (runtop never writes inside monitored directories it did not create itself.)
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace runtop {

// length (u64 LE) | masked CRC of length | payload | masked CRC of payload
std::string frame_record(std::string_view payload);

class RecordFile {
  public:
    RecordFile() = default;
    ~RecordFile();
    RecordFile(RecordFile&& other) noexcept;
    RecordFile& operator=(RecordFile&& other) noexcept;

    // Creates (or appends to) the file.
    static Result<RecordFile> open(const std::string& path);

    // Records are buffered and written with one write() per flush, so a tailing reader sees
    // whole steps at a time, the way real writers flush.
    void add(std::string_view payload) { pending_ += frame_record(payload); }
    void add_raw(std::string_view bytes) { pending_ += bytes; }
    Status flush();
    const std::string& path() const { return path_; }

  private:
    int fd_ = -1;
    std::string path_;
    std::string pending_;
};

}  // namespace runtop
