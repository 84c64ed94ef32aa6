// The buffer incremental readers read into: one per thread, shared by every reader (event files
// and text tails alike). Readers are polled one after the other, and 10 000 files must not hold
// 10 000 buffers.
#pragma once

#include <cstddef>
#include <vector>

namespace runtop {

inline constexpr std::size_t kReadChunk = std::size_t{1} << 20;

inline std::vector<char>& read_scratch() {
    thread_local std::vector<char> buffer(kReadChunk);
    return buffer;
}

// After a record or line longer than kReadChunk grew the buffer: do not keep it that large.
inline void shrink_read_scratch() {
    std::vector<char>& buffer = read_scratch();
    if (buffer.size() > kReadChunk) {
        buffer.resize(kReadChunk);
        buffer.shrink_to_fit();
    }
}

}  // namespace runtop
