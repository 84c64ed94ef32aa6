// Result<T>: an expected failure is a value, not an exception. Invariants use checks instead.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace runtop {

struct Error {
    std::string message;  // one line, already naming the file or input it is about
};

template <class T>
class Result {
  public:
    Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit on purpose, like std::expected
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() {
        assert(ok());
        return std::get<0>(v_);
    }
    const T& value() const {
        assert(ok());
        return std::get<0>(v_);
    }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const {
        assert(!ok());
        return std::get<1>(v_);
    }

  private:
    std::variant<T, Error> v_;
};

struct Unit {};
using Status = Result<Unit>;
inline Status ok_status() {
    return Unit{};
}

}  // namespace runtop
