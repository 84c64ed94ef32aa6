// Vectors of trivially copyable values in a PointArena, for the Series' summaries and chunk
// headers. Unlike std::vector they grow in place where they can: a long series' summary vector
// (megabytes) lives in a mapping of its own that mremap extends without copying, so growing
// by a quarter at a time (the slack counts against the memory budget) costs no more than
// doubling would.
//
// ArenaBuffer is 16 bytes and is given the arena by whatever allocates: a Series has two, and
// millions of series paid 8 bytes each for an arena pointer the Series already holds.
// ArenaVector keeps its arena and gives its block back when it goes (the rarer vectors).
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

// Its block goes back with release(), or with the whole arena (a Series' do: Store::~Store).
template <class T>
class ArenaBuffer {
    static_assert(std::is_trivially_copyable_v<T>);

  public:
    ArenaBuffer() = default;
    ArenaBuffer(ArenaBuffer&& o) noexcept
        : data_(std::exchange(o.data_, nullptr)),
          size_(std::exchange(o.size_, 0u)),
          capacity_(std::exchange(o.capacity_, 0u)) {}
    ArenaBuffer& operator=(ArenaBuffer&& o) noexcept {
        std::swap(data_, o.data_);
        std::swap(size_, o.size_);
        std::swap(capacity_, o.capacity_);
        return *this;
    }
    ArenaBuffer(const ArenaBuffer&) = delete;
    ArenaBuffer& operator=(const ArenaBuffer&) = delete;

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
    void push_back(PointArena& arena, const T& value) {
        if (size_ == capacity_) reallocate(arena, std::size_t{capacity_} + capacity_ / 4 + 4);
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
    void shrink_to_fit(PointArena& arena) {
        if (size_ < capacity_) reallocate(arena, size_);
    }
    // The block goes back to the arena; the buffer is empty.
    void release(PointArena& arena) {
        arena.release(data_, capacity_ * sizeof(T));
        data_ = nullptr;
        size_ = capacity_ = 0;
    }

  private:
    void reallocate(PointArena& arena, std::size_t capacity) {
        if (capacity > UINT32_MAX) throw std::bad_alloc();  // as std::vector's length_error
        data_ = static_cast<T*>(arena.reallocate(data_, capacity_ * sizeof(T), size_ * sizeof(T),
                                                 capacity * sizeof(T)));
        capacity_ = static_cast<std::uint32_t>(capacity);
    }

    T* data_ = nullptr;
    // 32 bits: a series has millions of these vectors' elements at most, and millions of series
    // have two such vectors each (core/store/series.h).
    std::uint32_t size_ = 0;
    std::uint32_t capacity_ = 0;
};

template <class T>
class ArenaVector : public ArenaBuffer<T> {
  public:
    explicit ArenaVector(PointArena& arena) : arena_(&arena) {}
    ArenaVector(ArenaVector&& o) noexcept = default;
    ArenaVector& operator=(ArenaVector&& o) noexcept {
        std::swap(arena_, o.arena_);
        ArenaBuffer<T>::operator=(std::move(o));
        return *this;
    }
    ~ArenaVector() { this->release(*arena_); }

    void push_back(const T& value) { ArenaBuffer<T>::push_back(*arena_, value); }
    void shrink_to_fit() { ArenaBuffer<T>::shrink_to_fit(*arena_); }

  private:
    PointArena* arena_;
};

}  // namespace runtop
