#include "core/json/json_value.h"

#include "core/format.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace runtop {

// --- JsonValue ---

JsonType JsonValue::type() const {
    return exists() ? doc_->nodes_[index_].type : JsonType::kNull;
}

bool JsonValue::boolean() const {
    return is_bool() && doc_->nodes_[index_].boolean;
}

double JsonValue::number() const {
    return is_number() ? doc_->nodes_[index_].number : std::numeric_limits<double>::quiet_NaN();
}

bool JsonValue::integer(std::int64_t& out) const {
    if (!is_number()) return false;
    std::string_view text = raw();
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (ec == std::errc() && ptr == text.data() + text.size()) return true;
    // "12.0" or "1e3": integral, written as a float. 2^63 itself does not fit.
    double v = number();
    if (!std::isfinite(v) || v != std::floor(v) || v < -9.2233720368547758e18 ||
        v >= 9.2233720368547758e18)
        return false;
    out = static_cast<std::int64_t>(v);
    return true;
}

bool JsonValue::whole_number(std::int64_t& out) const {
    if (!is_number()) return false;
    const std::string_view text = raw();
    if (text.find_first_not_of("-0123456789") != std::string_view::npos) return false;
    // Through integer(): one from_chars call site, which the compiler keeps inline there (a
    // second one made it an outlined call on the readers' path, 2% of anomaly.json ingest).
    if (!integer(out))
        out = text.starts_with('-') ? std::numeric_limits<std::int64_t>::min()
                                    : std::numeric_limits<std::int64_t>::max();
    return true;
}

std::string_view JsonValue::string() const {
    if (!is_string()) return {};
    const auto& node = doc_->nodes_[index_];
    return doc_->text_of(node.str.off, node.str.len);
}

std::string_view JsonValue::raw() const {
    if (!exists()) return {};
    const auto& node = doc_->nodes_[index_];
    return doc_->text_.substr(node.begin, node.end - node.begin);
}

std::size_t JsonValue::size() const {
    if (!exists()) return 0;
    const auto& node = doc_->nodes_[index_];
    return node.type == JsonType::kArray || node.type == JsonType::kObject ? node.count : 0;
}

JsonValue JsonValue::get(std::string_view key) const {
    JsonValue found;
    for (const JsonMember& m : members())
        if (m.key == key) found = m.value;
    return found;
}

JsonValue::Elements JsonValue::elements() const {
    // In pre-order a container's first child is the node right after it.
    return Elements(doc_, is_array() && size() > 0 ? index_ + 1 : 0);
}

JsonValue::Members JsonValue::members() const {
    return Members(doc_, is_object() && size() > 0 ? index_ + 1 : 0);
}

std::vector<JsonMember> JsonValue::unique_members() const {
    std::vector<JsonMember> out;
    out.reserve(size());
    for (const JsonMember& m : members()) {
        auto same = std::find_if(out.begin(), out.end(),
                                 [&](const JsonMember& o) { return o.key == m.key; });
        if (same == out.end())
            out.push_back(m);
        else
            same->value = m.value;
    }
    return out;
}

// --- JsonError ---

std::string JsonError::describe() const {
    if (incomplete())
        return fmt::format("JSON ends early at byte {} (line {}): {}", offset, line, reason);
    return fmt::format("not valid JSON at byte {} (line {}): {}", offset, line, reason);
}

std::string JsonError::describe_position() const {
    return fmt::format("not valid JSON (line {}, column {}: {})", line, column, reason);
}

// --- the parser ---

// Recursive descent over [p_, end_). Every function returns false after recording the first
// failure; a failure at the end of the input is "incomplete", anywhere else "invalid".
// kComments: a template parameter, so the readers' path (no comments) pays nothing for them.
template <bool kComments>
class JsonParser {
  public:
    JsonParser(std::string_view text, const JsonLimits& limits, JsonDocument& doc)
        : begin_(text.data()),
          p_(text.data()),
          end_(text.data() + text.size()),
          limits_(limits),
          doc_(doc) {
        doc_.text_ = text;
        // Pretty-printed files hold a value every 10 to 30 bytes.
        doc_.nodes_.reserve(std::min(text.size() / 16 + 1, limits.max_values));
    }

    bool parse_document() {
        constexpr std::string_view kBom = "\xEF\xBB\xBF";
        const std::string_view all(p_, static_cast<std::size_t>(end_ - p_));
        if (all.starts_with(kBom)) {
            p_ += kBom.size();
        } else if (!all.empty() && kBom.starts_with(all)) {
            return fail(end_, "the text ends inside a byte-order mark");
        }
        skip_ws();
        if (p_ == end_) return fail(p_, "the text is empty");
        if (!parse_value(0)) return false;
        skip_ws();
        if (p_ != end_) return fail(p_, "unexpected text after the JSON value");
        return true;
    }

    JsonError take_error() {
        std::size_t offset = static_cast<std::size_t>(error_at_ - begin_);
        error_.offset = offset;
        error_.line = 1 + static_cast<std::size_t>(std::count(begin_, error_at_, '\n'));
        const char* line_start = error_at_;
        while (line_start > begin_ && line_start[-1] != '\n') --line_start;
        error_.column = 1 + static_cast<std::size_t>(error_at_ - line_start);
        return std::move(error_);
    }

  private:
    using Node = JsonDocument::Node;

    bool fail(const char* at, std::string_view reason) {
        error_.kind = at >= end_ ? JsonError::Kind::kIncomplete : JsonError::Kind::kInvalid;
        error_at_ = std::min(at, end_);
        error_.reason.assign(reason);
        return false;
    }
    // A byte that is not what must come next: invalid there, or incomplete at the end.
    bool unexpected(std::string_view expected) {
        if (p_ >= end_) return fail(p_, fmt::format("the text ends where {} should be", expected));
        return fail(p_, fmt::format("expected {}, found {}", expected, describe_byte(*p_)));
    }
    static std::string describe_byte(char c) {
        auto u = static_cast<unsigned char>(c);
        if (u >= 0x21 && u < 0x7f) return fmt::format("'{}'", c);
        return fmt::format("byte 0x{:02x}", u);
    }

    std::uint32_t offset(const char* at) const { return static_cast<std::uint32_t>(at - begin_); }

    void skip_ws() {
        while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
        if (kComments && p_ < end_ && *p_ == '/') skip_comments();
    }

    // Comments and the whitespace after them. A '/' that starts no comment stays for the caller
    // to report; a block comment that never closes leaves p_ at the end (the text ends early).
    void skip_comments() {
        while (end_ - p_ >= 2 && p_[0] == '/') {
            if (p_[1] == '/') {
                while (p_ < end_ && *p_ != '\n' && *p_ != '\r') ++p_;
            } else if (p_[1] == '*') {
                const std::string_view rest(p_ + 2, static_cast<std::size_t>(end_ - p_ - 2));
                const std::size_t close = rest.find("*/");
                p_ = close == std::string_view::npos ? end_ : p_ + 2 + close + 2;
            } else {
                return;
            }
            while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
        }
    }

    bool new_node(JsonType type, std::uint32_t& index) {
        if (doc_.nodes_.size() >= limits_.max_values)
            return fail(p_, fmt::format("more than {} values", limits_.max_values));
        index = static_cast<std::uint32_t>(doc_.nodes_.size());
        Node& node = doc_.nodes_.emplace_back();
        node.type = type;
        node.begin = offset(p_);
        return true;
    }

    bool parse_value(std::uint32_t depth) {
        if (p_ >= end_) return unexpected("a value");
        switch (*p_) {
            case '{':
                return parse_object(depth);
            case '[':
                return parse_array(depth);
            case '"': {
                std::uint32_t index;
                if (!new_node(JsonType::kString, index)) return false;
                std::uint32_t off, len;
                if (!parse_string(off, len)) return false;
                Node& node = doc_.nodes_[index];
                node.str.off = off;
                node.str.len = len;
                node.end = offset(p_);
                return true;
            }
            case 't':
                return parse_literal("true", JsonType::kBool, true);
            case 'f':
                return parse_literal("false", JsonType::kBool, false);
            case 'n':
                return parse_literal("null", JsonType::kNull, false);
            default:
                return parse_number();
        }
    }

    // true, false, null: matched byte by byte, so a literal cut short is incomplete.
    bool parse_literal(std::string_view word, JsonType type, bool value) {
        std::uint32_t index;
        if (!new_node(type, index)) return false;
        if (!match_word(word)) return false;
        Node& node = doc_.nodes_[index];
        node.boolean = value;
        node.end = offset(p_);
        return true;
    }

    bool match_word(std::string_view word) {
        for (char c : word) {
            if (p_ >= end_) return fail(p_, fmt::format("the text ends inside '{}'", word));
            if (*p_ != c) return fail(p_, fmt::format("expected '{}'", word));
            ++p_;
        }
        return true;
    }

    static bool is_digit(char c) { return c >= '0' && c <= '9'; }

    bool digits(std::string_view where) {
        if (p_ >= end_ || !is_digit(*p_)) return unexpected(fmt::format("a digit {}", where));
        while (p_ < end_ && is_digit(*p_)) ++p_;
        return true;
    }

    // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, NaN, Infinity, -Infinity.
    bool parse_number() {
        std::uint32_t index;
        if (!new_node(JsonType::kNumber, index)) return false;
        const char* start = p_;
        double value;
        if (*p_ == 'N') {
            if (!match_word("NaN")) return false;
            value = std::numeric_limits<double>::quiet_NaN();
        } else {
            bool negative = *p_ == '-';
            if (negative) ++p_;
            if (p_ < end_ && *p_ == 'I') {
                if (!match_word("Infinity")) return false;
                value = negative ? -std::numeric_limits<double>::infinity()
                                 : std::numeric_limits<double>::infinity();
            } else {
                if (p_ >= end_) return unexpected("a digit");
                if (*p_ == '0') {
                    ++p_;
                } else if (is_digit(*p_)) {
                    while (p_ < end_ && is_digit(*p_)) ++p_;
                } else {
                    return negative ? unexpected("a digit or 'Infinity' after '-'")
                                    : unexpected("a value");
                }
                if (p_ < end_ && *p_ == '.') {
                    ++p_;
                    if (!digits("after the decimal point")) return false;
                }
                if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
                    ++p_;
                    if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
                    if (!digits("in the exponent")) return false;
                }
                value = to_double(start, p_);
            }
        }
        Node& node = doc_.nodes_[index];
        node.number = value;
        node.end = offset(p_);
        return true;
    }

    // The text is a well-formed JSON number. from_chars reports values beyond double's range
    // without a result; Python's float() gives +-inf or +-0 for them.
    static double to_double(const char* first, const char* last) {
        double value = 0;
        auto [ptr, ec] = std::from_chars(first, last, value);
        if (ec == std::errc()) return value;
        const bool negative = *first == '-';
        return magnitude_order(first, last) > 0
                   ? (negative ? -std::numeric_limits<double>::infinity()
                               : std::numeric_limits<double>::infinity())
                   : (negative ? -0.0 : 0.0);
    }

    // Roughly log10 of a well-formed number's magnitude: > 0 for huge, <= 0 for tiny.
    static long magnitude_order(const char* p, const char* last) {
        if (*p == '-') ++p;
        long order = 0;
        bool seen_nonzero = false;
        for (; p < last && is_digit(*p); ++p) {
            if (*p != '0') seen_nonzero = true;
            if (seen_nonzero) ++order;
        }
        if (p < last && *p == '.') {
            for (++p; p < last && is_digit(*p); ++p) {
                if (seen_nonzero) continue;
                if (*p != '0')
                    seen_nonzero = true;
                else
                    --order;
            }
        }
        long exponent = 0;
        if (p < last && (*p == 'e' || *p == 'E')) {
            ++p;
            bool negative = p < last && *p == '-';
            if (p < last && (*p == '+' || *p == '-')) ++p;
            for (; p < last; ++p) exponent = std::min(exponent * 10 + (*p - '0'), 1L << 40);
            if (negative) exponent = -exponent;
        }
        return order + exponent;
    }

    static int hex_value(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    // Reads the four hex digits after "\u".
    bool hex4(unsigned& out) {
        out = 0;
        for (int i = 0; i < 4; ++i) {
            if (p_ >= end_) return fail(p_, "the text ends inside a \\u escape");
            int h = hex_value(*p_);
            if (h < 0) return fail(p_, "expected four hex digits after \\u");
            out = out * 16 + static_cast<unsigned>(h);
            ++p_;
        }
        return true;
    }

    void append_utf8(unsigned cp) { runtop::append_utf8(doc_.decoded_, cp); }

    // "\uXXXX" with p_ just after the 'u'. A high surrogate pairs with a low one escaped right
    // after it; a lone surrogate (Python's json accepts them) becomes U+FFFD, as UTF-8 cannot
    // hold it. Text that ends after a high surrogate is left to the caller's "ends inside a
    // string" (whether a low one follows is unknown yet).
    bool unicode_escape() {
        unsigned cp;
        if (!hex4(cp)) return false;
        const bool high = cp >= 0xD800 && cp < 0xDC00;
        if (high && end_ - p_ >= 2 && p_[0] == '\\' && p_[1] == 'u') {
            p_ += 2;
            unsigned low;
            if (!hex4(low)) return false;
            if (low >= 0xDC00 && low < 0xE000) {
                append_utf8(0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00));
                return true;
            }
            p_ -= 6;  // not a pair: the second escape is decoded on its own, next
        }
        append_utf8(cp >= 0xD800 && cp < 0xE000 ? 0xFFFD : cp);
        return true;
    }

    // p_ on the opening quote. Leaves p_ after the closing quote; (off, len) name the decoded
    // text: a view into the input when there is no escape, else into the document's buffer.
    bool parse_string(std::uint32_t& off, std::uint32_t& len) {
        ++p_;
        const char* start = p_;
        while (p_ < end_) {
            auto c = static_cast<unsigned char>(*p_);
            if (c == '"') {
                off = offset(start);
                len = static_cast<std::uint32_t>(p_ - start);
                ++p_;
                return true;
            }
            if (c == '\\') break;
            if (c < 0x20) return fail(p_, "a control character inside a string");
            ++p_;
        }
        if (p_ >= end_) return fail(p_, "the text ends inside a string");
        // Escapes: decode into the document's buffer.
        std::string& out = doc_.decoded_;
        // Decoded text is never longer than its source, so with the input under 2 GiB its
        // offsets stay below the kDecoded bit.
        const std::size_t out_start = out.size();
        out.append(start, p_);
        while (true) {
            if (p_ >= end_) return fail(p_, "the text ends inside a string");
            auto c = static_cast<unsigned char>(*p_);
            if (c == '"') break;
            if (c < 0x20) return fail(p_, "a control character inside a string");
            if (c != '\\') {
                const char* run = p_;
                while (p_ < end_ && *p_ != '"' && *p_ != '\\' &&
                       static_cast<unsigned char>(*p_) >= 0x20)
                    ++p_;
                out.append(run, p_);
                continue;
            }
            ++p_;
            if (p_ >= end_) return fail(p_, "the text ends inside an escape");
            char e = *p_++;
            switch (e) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u':
                    if (!unicode_escape()) return false;
                    break;
                default:
                    return fail(p_ - 1, fmt::format("an invalid escape \\{}", describe_byte(e)));
            }
        }
        off = static_cast<std::uint32_t>(out_start) | JsonDocument::kDecoded;
        len = static_cast<std::uint32_t>(out.size() - out_start);
        ++p_;
        return true;
    }

    bool open_container(std::uint32_t depth, JsonType type, std::uint32_t& index) {
        if (depth >= limits_.max_depth)
            return fail(p_, fmt::format("nested deeper than {} levels", limits_.max_depth));
        if (!new_node(type, index)) return false;
        ++p_;
        skip_ws();
        return true;
    }

    // Links the child `child` after `prev` (or as the first child: the node after the parent).
    void link(std::uint32_t parent, std::uint32_t& prev, std::uint32_t child) {
        if (prev) doc_.nodes_[prev].next = child;
        prev = child;
        ++doc_.nodes_[parent].count;
    }

    bool parse_array(std::uint32_t depth) {
        std::uint32_t index;
        if (!open_container(depth, JsonType::kArray, index)) return false;
        if (p_ < end_ && *p_ == ']') {
            ++p_;
            doc_.nodes_[index].end = offset(p_);
            return true;
        }
        std::uint32_t prev = 0;
        while (true) {
            const auto child = static_cast<std::uint32_t>(doc_.nodes_.size());
            if (!parse_value(depth + 1)) return false;
            link(index, prev, child);
            skip_ws();
            if (p_ < end_ && *p_ == ',') {
                ++p_;
                skip_ws();
                continue;
            }
            if (p_ < end_ && *p_ == ']') break;
            return unexpected("',' or ']' in an array");
        }
        ++p_;
        doc_.nodes_[index].end = offset(p_);
        return true;
    }

    bool parse_object(std::uint32_t depth) {
        std::uint32_t index;
        if (!open_container(depth, JsonType::kObject, index)) return false;
        if (p_ < end_ && *p_ == '}') {
            ++p_;
            doc_.nodes_[index].end = offset(p_);
            return true;
        }
        std::uint32_t prev = 0;
        while (true) {
            if (p_ >= end_ || *p_ != '"') return unexpected("a string key in an object");
            std::uint32_t key_off, key_len;
            if (!parse_string(key_off, key_len)) return false;
            skip_ws();
            if (p_ >= end_ || *p_ != ':') return unexpected("':' after an object key");
            ++p_;
            skip_ws();
            const auto child = static_cast<std::uint32_t>(doc_.nodes_.size());
            if (!parse_value(depth + 1)) return false;
            doc_.nodes_[child].key_off = key_off;
            doc_.nodes_[child].key_len = key_len;
            link(index, prev, child);
            skip_ws();
            if (p_ < end_ && *p_ == ',') {
                ++p_;
                skip_ws();
                continue;
            }
            if (p_ < end_ && *p_ == '}') break;
            return unexpected("',' or '}' in an object");
        }
        ++p_;
        doc_.nodes_[index].end = offset(p_);
        return true;
    }

    const char* begin_;
    const char* p_;
    const char* end_;
    const JsonLimits& limits_;
    JsonDocument& doc_;
    JsonError error_;
    const char* error_at_ = nullptr;
};

JsonParse parse_json(std::string_view text, const JsonLimits& limits) {
    // Offsets are 32-bit, and the top bit marks decoded strings.
    const std::size_t max_bytes = std::min<std::size_t>(limits.max_bytes, 0x7fffffffu);
    if (text.size() > max_bytes) {
        JsonError error;
        error.offset = max_bytes;
        error.reason = fmt::format("the text is larger than {} bytes", max_bytes);
        return error;
    }
    JsonDocument doc;
    if (limits.comments) {
        JsonParser<true> parser(text, limits, doc);
        if (!parser.parse_document()) return parser.take_error();
    } else {
        JsonParser<false> parser(text, limits, doc);
        if (!parser.parse_document()) return parser.take_error();
    }
    return doc;
}

// --- whitespace-free forms ---

namespace {

// Calls `emit(c, in_string)` with each byte of `raw` that is not whitespace between tokens;
// `in_string` is true inside a string (for its quotes, whatever: they are neither ',' nor ':').
template <class Emit>
void for_each_significant(std::string_view raw, Emit&& emit) {
    bool in_string = false;
    bool escaped = false;
    for (char c : raw) {
        if (in_string) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            continue;
        }
        emit(c, in_string);
    }
}

}  // namespace

std::string compact_json(std::string_view raw) {
    std::string out;
    out.reserve(raw.size());
    for_each_significant(raw, [&out](char c, bool) { out += c; });
    return out;
}

std::string spaced_json(std::string_view raw) {
    std::string out;
    out.reserve(raw.size());
    for_each_significant(raw, [&out](char c, bool in_string) {
        out += c;
        if (!in_string && (c == ',' || c == ':')) out += ' ';
    });
    return out;
}

std::uint64_t json_hash(std::string_view raw) {
    // FNV-1a: enough to tell log entries apart, and cheap next to parsing them.
    std::uint64_t h = 0xcbf29ce484222325ull;
    for_each_significant(raw, [&h](char c, bool) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ull;
    });
    return h;
}

}  // namespace runtop
