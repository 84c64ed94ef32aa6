// JSON output, written as it goes: objects, arrays, keys and values into a string, compact (no
// whitespace), commas placed by the writer. Every JSON runtop prints (check, dump, diff,
// --print-config) is written through it, so every string is escaped by one function
// (core/format.h append_json_string: C0, DEL and C1 controls as \u00XX, bytes that are not
// UTF-8 as \udcXX) and every number formatted one of the ways below.
//
//   JsonWriter w(out);
//   w.begin_object().key("tag").string(tag).key("value").number(v).end_object();
#pragma once

#include <concepts>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace runtop {

class JsonWriter {
  public:
    explicit JsonWriter(std::string& out) : out_(out) {}

    JsonWriter& begin_object() { return open('{'); }
    JsonWriter& end_object() { return close('}'); }
    JsonWriter& begin_array() { return open('['); }
    JsonWriter& end_array() { return close(']'); }

    // An object member's name; the next value is its value. Inline with a fast path for
    // printable ASCII (every key runtop writes): dump writes six a point.
    JsonWriter& key(std::string_view name) {
        separate();
        char quoted[kShortKey + 3];  // "name": in one append
        if (name.size() <= kShortKey && plain(name)) {
            quoted[0] = '"';
            std::memcpy(quoted + 1, name.data(), name.size());
            quoted[name.size() + 1] = '"';
            quoted[name.size() + 2] = ':';
            out_.append(quoted, name.size() + 3);
        } else {
            escaped_key(name);
        }
        separated_ = true;
        return *this;
    }

    JsonWriter& string(std::string_view s) {
        separate();
        write_string(s);
        return *this;
    }
    // %.9g (float32 values round-trip); NaN and ±Inf, which JSON lacks, as "nan", "inf", "-inf".
    JsonWriter& number(double v) {
        separate();
        write_number(v, false);
        return *this;
    }
    // The shortest text that reads back to the same double (wall times, tolerances); non-finite
    // values as number() writes them.
    JsonWriter& number_shortest(double v) {
        separate();
        write_number(v, true);
        return *this;
    }
    // A float as config files have always been printed: the shortest round trip, always with a
    // '.' or an exponent (0.0, 0.6, 1e-05, 1e+16), so it reads back as a float.
    JsonWriter& real(double v);
    template <std::integral T>
    JsonWriter& integer(T v) {
        if constexpr (std::is_same_v<T, bool>) {
            return boolean(v);
        } else if constexpr (std::is_signed_v<T>) {
            return signed_integer(static_cast<std::int64_t>(v));
        } else {
            return unsigned_integer(static_cast<std::uint64_t>(v));
        }
    }
    JsonWriter& boolean(bool b) {
        separate();
        out_ += b ? "true" : "false";
        return *this;
    }
    JsonWriter& null() {
        separate();
        out_ += "null";
        return *this;
    }

    // Whitespace for readers of the text: next_line() starts the next value on a new line
    // (after its comma), newline() writes a line break where it is (before a closing bracket).
    JsonWriter& next_line();
    JsonWriter& newline();

  private:
    static constexpr int kMaxDepth = 64;  // runtop's outputs nest three levels
    static constexpr std::size_t kShortKey = 29;

    // Printable ASCII without '"' or '\\': written as it is. Anything else, UTF-8 included,
    // goes through append_json_string.
    static bool plain(std::string_view s) {
        for (char ch : s) {
            const auto c = static_cast<unsigned char>(ch);
            if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') return false;
        }
        return true;
    }
    JsonWriter& open(char bracket) {
        separate();
        out_ += bracket;
        if (depth_ >= kMaxDepth) depth_overflow();
        ++depth_;
        has_items_ &= ~(std::uint64_t{1} << (depth_ - 1));
        return *this;
    }
    JsonWriter& close(char bracket) {
        if (depth_ == 0) depth_overflow();
        --depth_;
        out_ += bracket;
        return *this;
    }
    // The ',' before every value but a container's first, and none after a key (or next_line).
    void separate() {
        if (separated_) {
            separated_ = false;
            return;
        }
        if (depth_ == 0) return;
        const std::uint64_t bit = std::uint64_t{1} << (depth_ - 1);
        if (has_items_ & bit) out_ += ',';
        has_items_ |= bit;
    }
    [[noreturn]] static void depth_overflow();  // an invariant broken: aborts
    void escaped_key(std::string_view name);
    void write_string(std::string_view s);
    void write_number(double v, bool shortest);
    JsonWriter& signed_integer(std::int64_t v);
    JsonWriter& unsigned_integer(std::uint64_t v);

    std::string& out_;
    std::uint64_t has_items_ = 0;  // bit d: the container at depth d holds a value already
    int depth_ = 0;
    bool separated_ = false;  // the next value's separator is written already
};

}  // namespace runtop
