// What a std::string holds on the heap beyond itself: nothing while it fits the string's own
// inline buffer, else its capacity and terminator. For the running memory counts that
// `--memory` charges (recorded batches, msProbe's key tables).
#pragma once

#include <cstddef>
#include <string>

namespace runtop {

inline std::size_t string_heap_bytes(const std::string& s) {
    static const std::size_t kInline = std::string().capacity();
    return s.capacity() > kInline ? s.capacity() + 1 : 0;
}

}  // namespace runtop
