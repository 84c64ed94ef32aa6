// A vector that grows a page at a time and never moves what it holds: a million Series grow
// without the copy (and the moment of holding old and new arrays, twice the memory) of a
// std::vector reallocating, and without its up-to-half unused capacity.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace runtop {

template <class T, std::size_t kPage = 64>
class PagedVector {
  public:
    PagedVector() = default;
    PagedVector(const PagedVector&) = delete;
    PagedVector& operator=(const PagedVector&) = delete;
    ~PagedVector() { clear(); }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](std::size_t i) { return page(i)[i % kPage]; }
    const T& operator[](std::size_t i) const { return page(i)[i % kPage]; }

    template <class... Args>
    T& emplace_back(Args&&... args) {
        if (size_ == pages_.size() * kPage) pages_.push_back(std::make_unique<Slot[]>(kPage));
        T* at = page(size_) + size_ % kPage;
        new (at) T(std::forward<Args>(args)...);
        ++size_;
        return *at;
    }
    void clear() {
        for (std::size_t i = size_; i-- > 0;) (*this)[i].~T();
        size_ = 0;
        pages_.clear();
    }
    void swap(PagedVector& other) noexcept {
        pages_.swap(other.pages_);
        std::swap(size_, other.size_);
    }
    // Every byte it holds, unused slots of the last page included.
    std::size_t bytes() const {
        return pages_.size() * kPage * sizeof(T) + pages_.capacity() * sizeof(pages_[0]);
    }

    template <class F>
    void for_each(F&& f) const {
        for (std::size_t i = 0; i < size_; ++i) f((*this)[i]);
    }

  private:
    struct alignas(T) Slot {
        std::byte bytes[sizeof(T)];
    };
    T* page(std::size_t i) const {
        return std::launder(reinterpret_cast<T*>(pages_[i / kPage].get()));
    }

    std::vector<std::unique_ptr<Slot[]>> pages_;
    std::size_t size_ = 0;
};

}  // namespace runtop
