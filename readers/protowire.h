// Protobuf wire-format primitives for the hand-written event decoder. The decoder is
// zero-copy over the record buffer; libprotobuf (used by the writer and by tests as an oracle)
// would allocate a message tree per record and cap ingest far below 1 GB/s.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace runtop::wire {

enum WireType : std::uint32_t {
    kVarint = 0,
    kFixed64 = 1,
    kLengthDelimited = 2,
    kStartGroup = 3,
    kEndGroup = 4,
    kFixed32 = 5,
};

// Reads a varint at p (at most 10 bytes; bits past 64 dropped) and advances p; false when
// the bytes end first or the varint is longer. The one varint decoder: Cursor and the
// decoder's fast path both use it.
inline bool read_varint(const unsigned char*& p, const unsigned char* end, std::uint64_t& out) {
    std::uint64_t result = 0;
    for (int shift = 0; shift < 64 && p < end; shift += 7) {
        unsigned char b = *p++;
        result |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            out = result;
            return true;
        }
    }
    return false;
}

// A cursor over one message's bytes. Every read checks bounds; on malformed input `ok()`
// turns false and stays false, and reads return zeros.
class Cursor {
  public:
    explicit Cursor(std::string_view bytes)
        : p_(reinterpret_cast<const unsigned char*>(bytes.data())), end_(p_ + bytes.size()) {}

    bool ok() const { return ok_; }
    bool done() const { return p_ >= end_ || !ok_; }

    std::uint64_t varint() {
        std::uint64_t v;
        return read_varint(p_, end_, v) ? v : fail();
    }
    std::uint32_t fixed32() {
        if (end_ - p_ < 4) return static_cast<std::uint32_t>(fail());
        std::uint32_t v;
        std::memcpy(&v, p_, 4);
        p_ += 4;
        return v;
    }
    std::uint64_t fixed64() {
        if (end_ - p_ < 8) return fail();
        std::uint64_t v;
        std::memcpy(&v, p_, 8);
        p_ += 8;
        return v;
    }
    std::string_view bytes() {
        std::uint64_t n = varint();
        if (!ok_ || n > static_cast<std::uint64_t>(end_ - p_)) {
            fail();
            return {};
        }
        std::string_view v(reinterpret_cast<const char*>(p_), n);
        p_ += n;
        return v;
    }
    // Reads a tag; returns false at the end of the message or on error.
    bool next(std::uint32_t& field, WireType& type) {
        if (done()) return false;
        std::uint64_t key = varint();
        if (!ok_) return false;
        field = static_cast<std::uint32_t>(key >> 3);
        type = static_cast<WireType>(key & 7);
        if (field == 0) {
            fail();
            return false;
        }
        return true;
    }
    void skip(WireType type) {
        switch (type) {
            case kVarint:
                varint();
                break;
            case kFixed64:
                fixed64();
                break;
            case kLengthDelimited:
                bytes();
                break;
            case kFixed32:
                fixed32();
                break;
            default:  // groups are not used by any TensorBoard message
                fail();
        }
    }

  private:
    std::uint64_t fail() {
        ok_ = false;
        p_ = end_;
        return 0;
    }
    const unsigned char* p_;
    const unsigned char* end_;
    bool ok_ = true;
};

inline float as_float(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}
inline double as_double(std::uint64_t bits) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
}

}  // namespace runtop::wire
