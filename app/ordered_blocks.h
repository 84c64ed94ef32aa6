// Text made in blocks on a few threads and written in block order: `ls` of half a million
// series spent a second formatting rows on one core while the other had nothing left to do.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace runtop {

// Makes the text of blocks 0 .. count - 1 on `threads` threads (the calling one included) and
// hands each to `emit`, on the calling thread, in block order. At most 2 * threads blocks are
// made ahead of the one emitted, so memory stays a few blocks' text. `make` must be safe to
// call from several threads at once (it only reads shared data) and appends to `text`, which
// comes empty.
void make_in_order(std::size_t count, std::size_t threads,
                   const std::function<void(std::size_t block, std::string& text)>& make,
                   const std::function<void(std::string& text)>& emit);

// Calls `part(k, begin, end)` for `threads` contiguous parts of [0, count), part 0 on the
// calling thread, and returns once every part is done.
void in_parts(std::size_t count, std::size_t threads,
              const std::function<void(std::size_t k, std::size_t begin, std::size_t end)>& part);

}  // namespace runtop
