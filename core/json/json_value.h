// A small JSON reader for the files training tools rewrite whole (msProbe's anomaly.json,
// Hugging Face's trainer_state.json, Oumi's telemetry): one pass over the text into a flat
// node array, no allocation per value but for strings with escapes.
//
// What it accepts is what Python's json module writes and reads: RFC 8259 plus the bare
// literals NaN, Infinity and -Infinity (json.dump writes them for non-finite floats). Numbers
// keep their exact text beside the double; \uXXXX escapes (surrogate pairs included) become
// UTF-8, a lone surrogate becomes U+FFFD. Object members keep their order.
//
// A failure says whether the text ended early (a file caught half-written: read it again
// later) or is wrong at some byte. Nesting depth, input size and value count are limited, so
// no input can exhaust the stack or memory.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace runtop {

enum class JsonType : std::uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

class JsonDocument;
class JsonValue;
struct JsonMember;

namespace json_detail {
template <class Item>
class ChildIterator;
}  // namespace json_detail

// A handle to one value of a JsonDocument: two words, copied freely, valid while the document
// and the text it was parsed from live. A default-constructed handle stands for "absent".
class JsonValue {
  public:
    JsonValue() = default;

    bool exists() const { return doc_ != nullptr; }
    explicit operator bool() const { return exists(); }

    JsonType type() const;  // kNull for an absent value too (is_null() tells them apart)
    bool is_null() const { return exists() && type() == JsonType::kNull; }
    bool is_bool() const { return exists() && type() == JsonType::kBool; }
    bool is_number() const { return exists() && type() == JsonType::kNumber; }
    bool is_string() const { return exists() && type() == JsonType::kString; }
    bool is_array() const { return exists() && type() == JsonType::kArray; }
    bool is_object() const { return exists() && type() == JsonType::kObject; }

    bool boolean() const;   // false unless `true`
    double number() const;  // NaN unless a number
    // A number with an integral value that fits (from its text, so large integers are exact).
    bool integer(std::int64_t& out) const;
    // A number written as an integer (no fraction, no exponent: "8", not "8.0" or "1e3"), for
    // settings that take whole numbers; beyond 64 bits it saturates (a range check refuses it).
    bool whole_number(std::int64_t& out) const;
    std::string_view string() const;  // the decoded text of a string, else ""
    // The value's exact text in the input: "1e-05", "\"a\\n\"", "[1, 2]".
    std::string_view raw() const;

    std::size_t size() const;  // elements of an array, members of an object, else 0
    // The member named `key`; the last one if there are several (as Python's json keeps).
    JsonValue get(std::string_view key) const;

    class Elements;
    class Members;
    Elements elements() const;  // empty unless an array
    Members members() const;    // empty unless an object
    // Each key once, at its first place, with its last value: the dict Python's json.loads
    // makes. What runtop's own files (config, themes, rules) are read as.
    std::vector<JsonMember> unique_members() const;

  private:
    friend class JsonDocument;
    template <class Item>
    friend class json_detail::ChildIterator;
    JsonValue(const JsonDocument* doc, std::uint32_t index) : doc_(doc), index_(index) {}

    const JsonDocument* doc_ = nullptr;
    std::uint32_t index_ = 0;
};

struct JsonMember {
    std::string_view key;  // decoded
    JsonValue value;
};

namespace json_detail {

// Walks a container's children through their sibling links; 0 ends the list (the root is
// node 0 and never anyone's sibling).
template <class Item>
class ChildIterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Item;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Item;

    ChildIterator() = default;
    ChildIterator(const JsonDocument* doc, std::uint32_t index) : doc_(doc), index_(index) {}
    Item operator*() const;
    ChildIterator& operator++();
    ChildIterator operator++(int) {
        ChildIterator old = *this;
        ++*this;
        return old;
    }
    bool operator==(const ChildIterator& other) const { return index_ == other.index_; }

  private:
    const JsonDocument* doc_ = nullptr;
    std::uint32_t index_ = 0;
};

}  // namespace json_detail

class JsonValue::Elements {
  public:
    using iterator = json_detail::ChildIterator<JsonValue>;
    Elements(const JsonDocument* doc, std::uint32_t first) : doc_(doc), first_(first) {}
    iterator begin() const { return {doc_, first_}; }
    iterator end() const { return {doc_, 0}; }

  private:
    const JsonDocument* doc_;
    std::uint32_t first_;
};

class JsonValue::Members {
  public:
    using iterator = json_detail::ChildIterator<JsonMember>;
    Members(const JsonDocument* doc, std::uint32_t first) : doc_(doc), first_(first) {}
    iterator begin() const { return {doc_, first_}; }
    iterator end() const { return {doc_, 0}; }

  private:
    const JsonDocument* doc_;
    std::uint32_t first_;
};

// A parsed document. It refers to the text it was parsed from (numbers' and strings' text are
// views into it), so that text must outlive it. Not copyable; do not move it once handles to
// its values exist.
class JsonDocument {
  public:
    JsonDocument() = default;
    JsonDocument(JsonDocument&&) = default;
    JsonDocument& operator=(JsonDocument&&) = default;
    JsonDocument(const JsonDocument&) = delete;
    JsonDocument& operator=(const JsonDocument&) = delete;

    JsonValue root() const { return nodes_.empty() ? JsonValue() : JsonValue(this, 0); }
    std::size_t value_count() const { return nodes_.size(); }

  private:
    friend class JsonValue;
    template <bool kComments>
    friend class JsonParser;
    template <class Item>
    friend class json_detail::ChildIterator;

    // Strings without escapes point into the input; the others into `decoded_`.
    static constexpr std::uint32_t kDecoded = 0x80000000u;

    struct Node {
        std::uint32_t begin = 0, end = 0;        // raw text, offsets into the input
        std::uint32_t next = 0;                  // next sibling; 0: none
        std::uint32_t count = 0;                 // children of a container
        std::uint32_t key_off = 0, key_len = 0;  // the member's key, for children of objects
        union {
            double number;
            struct {
                std::uint32_t off, len;
            } str;
            bool boolean;
        };
        JsonType type = JsonType::kNull;
        Node() : number(0) {}
    };

    std::string_view text_of(std::uint32_t off, std::uint32_t len) const {
        return (off & kDecoded) ? std::string_view(decoded_).substr(off & ~kDecoded, len)
                                : text_.substr(off, len);
    }

    std::string_view text_;
    std::vector<Node> nodes_;
    std::string decoded_;
};

struct JsonLimits {
    std::uint32_t max_depth = 256;  // nested arrays and objects
    std::size_t max_bytes = std::size_t{1} << 30;
    std::size_t max_values = std::size_t{1} << 25;  // ~40 bytes each
    // runtop's own files (config.json, themes, rules files) may carry // and /* */ comments
    // wherever whitespace may be; files that tools write never do.
    bool comments = false;
};

struct JsonError {
    enum class Kind : std::uint8_t {
        kIncomplete,  // the text ends before the document does (caught half-written)
        kInvalid,     // a byte that no JSON document can have there
    };
    Kind kind = Kind::kInvalid;
    std::size_t offset = 0;  // the offending byte; the text's size when incomplete
    std::size_t line = 1;    // of `offset`, 1-based
    std::size_t column = 1;  // of `offset` in its line, 1-based, in bytes
    std::string reason;      // e.g. "expected ':' after an object key"

    bool incomplete() const { return kind == Kind::kIncomplete; }
    // One line: "not valid JSON at byte 123 (line 4): expected ...", or
    // "JSON ends early at byte 80 (line 3): inside an object".
    std::string describe() const;
    // For files people edit: "not valid JSON (line 2, column 11: expected a value, found '#')".
    std::string describe_position() const;
};

class JsonParse {
  public:
    JsonParse(JsonDocument doc) : v_(std::move(doc)) {}  // NOLINT: implicit, like Result
    JsonParse(JsonError error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    const JsonDocument& document() const { return std::get<0>(v_); }
    const JsonError& error() const { return std::get<1>(v_); }
    bool incomplete() const { return !ok() && error().incomplete(); }

  private:
    std::variant<JsonDocument, JsonError> v_;
};

// Parses one JSON document, surrounded by optional whitespace (and a UTF-8 byte-order mark).
// The returned document refers to `text`.
JsonParse parse_json(std::string_view text, const JsonLimits& limits = {});

// `raw` (a value's raw() text) without the whitespace between tokens: "[1,2]" for "[1, 2]".
std::string compact_json(std::string_view raw);
// `raw` with one space after each ',' and ':' between tokens, and no other whitespace:
// "[0.9, 0.999]", how Python's json.dumps writes by default.
std::string spaced_json(std::string_view raw);
// A 64-bit hash of compact_json(raw), computed without building it: the same value written
// with other indentation hashes the same.
std::uint64_t json_hash(std::string_view raw);

// --- inline definitions ---

namespace json_detail {

template <class Item>
Item ChildIterator<Item>::operator*() const {
    if constexpr (std::is_same_v<Item, JsonValue>) {
        return JsonValue(doc_, index_);
    } else {
        const auto& node = doc_->nodes_[index_];
        return JsonMember{doc_->text_of(node.key_off, node.key_len), JsonValue(doc_, index_)};
    }
}

template <class Item>
ChildIterator<Item>& ChildIterator<Item>::operator++() {
    index_ = doc_->nodes_[index_].next;
    return *this;
}

}  // namespace json_detail

}  // namespace runtop
