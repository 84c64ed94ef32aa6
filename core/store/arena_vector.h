// A vector of trivially copyable values in a PointArena, for the Series' summaries and chunk
// headers. Unlike std::vector it grows in place where it can: a long series' summary vector
// (megabytes) lives in a mapping of its own that mremap extends without copying, so growing
// by a quarter at a time (the slack counts against the memory budget) costs no more than
// doubling would.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

#include "core/store/point_arena.h"

namespace runtop {

template <class T>
class ArenaVector {
    static_assert(std::is_trivially_copyable_v<T>);

  public:
    explicit ArenaVector(PointArena& arena) : arena_(&arena) {}
    ArenaVector(ArenaVector&& o) noexcept
        : arena_(o.arena_),
          data_(std::exchange(o.data_, nullptr)),
          size_(std::exchange(o.size_, 0u)),
          capacity_(std::exchange(o.capacity_, 0u)) {}
    ArenaVector& operator=(ArenaVector&& o) noexcept {
        std::swap(arena_, o.arena_);
        std::swap(data_, o.data_);
        std::swap(size_, o.size_);
        std::swap(capacity_, o.capacity_);
        return *this;
    }
    ArenaVector(const ArenaVector&) = delete;
    ArenaVector& operator=(const ArenaVector&) = delete;
    ~ArenaVector() { arena_->release(data_, capacity_ * sizeof(T)); }

    std::size_t size() const { return size_; }
    std::size_t capacity() const { return capacity_; }
    bool empty() const { return size_ == 0; }
    T* data() { return data_; }
    const T* data() const { return data_; }
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    T* begin() { return data_; }
    T* end() { return data_ + size_; }
    const T* begin() const { return data_; }
    const T* end() const { return data_ + size_; }
    T& front() { return data_[0]; }
    const T& front() const { return data_[0]; }
    T& back() { return data_[size_ - 1]; }
    const T& back() const { return data_[size_ - 1]; }
    operator std::span<const T>() const { return {data_, size_}; }  // NOLINT: like a vector

    // Grows by a quarter when full.
    void push_back(const T& value) {
        if (size_ == capacity_) reallocate(std::size_t{capacity_} + capacity_ / 4 + 4);
        data_[size_++] = value;
    }
    void pop_back() { --size_; }
    void truncate(std::size_t n) {
        if (n < size_) size_ = static_cast<std::uint32_t>(n);
    }
    // Removes [from, to), moving what follows down.
    void erase(std::size_t from, std::size_t to) {
        std::memmove(static_cast<void*>(data_ + from), data_ + to, (size_ - to) * sizeof(T));
        size_ -= static_cast<std::uint32_t>(to - from);
    }
    void clear() { size_ = 0; }
    void shrink_to_fit() {
        if (size_ < capacity_) reallocate(size_);
    }

  private:
    void reallocate(std::size_t capacity) {
        if (capacity > UINT32_MAX) throw std::bad_alloc();  // as std::vector's length_error
        data_ = static_cast<T*>(arena_->reallocate(data_, capacity_ * sizeof(T), size_ * sizeof(T),
                                                   capacity * sizeof(T)));
        capacity_ = static_cast<std::uint32_t>(capacity);
    }

    PointArena* arena_;
    T* data_ = nullptr;
    // 32 bits: a series has millions of these vectors' elements at most, and millions of series
    // have two such vectors each (core/store/series.h).
    std::uint32_t size_ = 0;
    std::uint32_t capacity_ = 0;
};

}  // namespace runtop
