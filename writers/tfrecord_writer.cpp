#include "writers/tfrecord_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "readers/crc32c.h"

namespace runtop {

std::string frame_record(std::string_view payload) {
    std::string out;
    out.resize(12 + payload.size() + 4);
    std::uint64_t n = payload.size();
    std::memcpy(out.data(), &n, 8);
    std::uint32_t length_crc = masked_crc32c(out.data(), 8);
    std::memcpy(out.data() + 8, &length_crc, 4);
    std::memcpy(out.data() + 12, payload.data(), payload.size());
    std::uint32_t data_crc = masked_crc32c(payload.data(), payload.size());
    std::memcpy(out.data() + 12 + payload.size(), &data_crc, 4);
    return out;
}

RecordFile::~RecordFile() {
    if (fd_ >= 0) {
        flush();
        ::close(fd_);
    }
}

RecordFile::RecordFile(RecordFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      path_(std::move(other.path_)),
      pending_(std::move(other.pending_)) {}

RecordFile& RecordFile::operator=(RecordFile&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
        path_ = std::move(other.path_);
        pending_ = std::move(other.pending_);
    }
    return *this;
}

Result<RecordFile> RecordFile::open(const std::string& path) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return Error{path + ": cannot create: " + std::strerror(errno)};
    RecordFile file;
    file.fd_ = fd;
    file.path_ = path;
    return file;
}

Status RecordFile::flush() {
    std::size_t done = 0;
    while (done < pending_.size()) {
        ssize_t n = ::write(fd_, pending_.data() + done, pending_.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return Error{path_ + ": write failed: " + std::strerror(errno)};
        }
        done += static_cast<std::size_t>(n);
    }
    pending_.clear();
    return ok_status();
}

}  // namespace runtop
