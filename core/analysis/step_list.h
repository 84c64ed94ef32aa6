// Ascending steps, held as an arithmetic progression (first, stride, count) while they are one,
// which is how nearly every writer logs (every step, or every N): reading the i-th costs no
// memory access, where a vector of millions of steps would miss the cache on every look-up.
// The first step off the progression turns it into a plain vector.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace runtop {

class StepList {
  public:
    std::size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    std::int64_t operator[](std::size_t i) const {
        return listed_.empty() ? progression(i) : listed_[i];
    }
    std::int64_t back() const { return (*this)[count_ - 1]; }
    // `step` must be above back(); returns whether it was (the list is unchanged when not).
    bool push_back(std::int64_t step);
    std::size_t heap_bytes() const { return listed_.capacity() * sizeof(std::int64_t); }

  private:
    std::int64_t progression(std::size_t i) const {
        // Unsigned: exact modulo 2^64, so any step an int64 holds comes back whole.
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(first_) +
                                         static_cast<std::uint64_t>(i) * stride_);
    }
    std::int64_t first_ = 0;
    std::uint64_t stride_ = 0;
    std::size_t count_ = 0;
    std::vector<std::int64_t> listed_;  // every step, once they left the progression
};

}  // namespace runtop
