#include "core/format.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace runtop {
namespace {

bool append_non_finite(std::string& out, double value) {
    if (std::isnan(value)) {
        out += "nan";
        return true;
    }
    if (std::isinf(value)) {
        out += value > 0 ? "inf" : "-inf";
        return true;
    }
    return false;
}

// Length of the valid UTF-8 sequence at s[i], or 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = byte(i);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((byte(i + k) & 0xc0) != 0x80) return 0;
    if (n == 2 && c < 0xc2) return 0;                          // overlong
    if (n == 3 && c == 0xe0 && byte(i + 1) < 0xa0) return 0;   // overlong
    if (n == 3 && c == 0xed && byte(i + 1) >= 0xa0) return 0;  // surrogate
    if (n == 4 &&
        (c > 0xf4 || (c == 0xf0 && byte(i + 1) < 0x90) || (c == 0xf4 && byte(i + 1) >= 0x90)))
        return 0;
    return n;
}

}  // namespace

void append_value(std::string& out, double value) {
    if (append_non_finite(out, value)) return;
    // to_chars with a precision is specified as printf's %.9g, without its locale and format
    // string parsing: several times faster, and dump prints every point.
    char buf[40];
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::general, 9);
    out.append(buf, end);
}

std::string format_value(double value) {
    std::string s;
    append_value(s, value);
    return s;
}

void append_shortest(std::string& out, double value) {
    if (append_non_finite(out, value)) return;
    char buf[40];
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);
    out.append(buf, end);
}

void append_csv_field(std::string& out, std::string_view field) {
    if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
        out += field;
        return;
    }
    out += '"';
    for (char c : field) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

namespace {

// Printable ASCII only, as nearly every tag is: then it goes out as it is.
bool printable_ascii(std::string_view s) {
    bool plain = true;
    for (char ch : s) {
        auto c = static_cast<unsigned char>(ch);
        plain &= c >= 0x20 && c < 0x7f;
    }
    return plain;
}

}  // namespace

void append_visible(std::string& out, std::string_view s) {
    static const char* hex = "0123456789abcdef";
    if (printable_ascii(s)) {
        out += s;
        return;
    }
    for (std::size_t i = 0; i < s.size();) {
        auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = c >= 0x80 ? utf8_length(s, i) : 1;
        // C1 controls (U+0080..U+009F, e.g. the one-byte CSI) are escaped byte by byte too.
        bool c1 = n == 2 && c == 0xc2 && static_cast<unsigned char>(s[i + 1]) < 0xa0;
        if (c < 0x20 || c == 0x7f || n == 0 || c1) {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
            ++i;
            continue;
        }
        out.append(s.substr(i, n));
        i += n;
    }
}

std::string visible(std::string_view s) {
    std::string out;
    append_visible(out, s);
    return out;
}

std::size_t visible_size(std::string_view s) {
    return printable_ascii(s) ? s.size() : visible(s).size();
}

void append_json_string(std::string& out, std::string_view s) {
    static const char* hex = "0123456789abcdef";
    auto escape = [&](const char* prefix, unsigned char c) {
        out += prefix;
        out += hex[c >> 4];
        out += hex[c & 15];
    };
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            // Printable ASCII, nearly every tag: copied a run at a time.
            std::size_t end = i + 1;
            while (end < s.size()) {
                auto d = static_cast<unsigned char>(s[end]);
                if (d < 0x20 || d >= 0x7f || d == '"' || d == '\\') break;
                ++end;
            }
            out.append(s.substr(i, end - i));
            i = end;
            continue;
        }
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c < 0x80) {
            escape("\\u00", c);  // the other C0 controls and DEL
        } else {
            const std::size_t n = utf8_length(s, i);
            if (n == 0) {
                escape("\\udc", c);  // a byte that is not UTF-8: surrogateescape
            } else if (n == 2 && c == 0xc2 && static_cast<unsigned char>(s[i + 1]) < 0xa0) {
                escape("\\u00", static_cast<unsigned char>(s[i + 1]));  // C1: U+0080..U+009F
                i += 2;
                continue;
            } else {
                out.append(s.substr(i, n));
                i += n;
                continue;
            }
        }
        ++i;
    }
    out += '"';
}

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000)) cp = 0xFFFD;
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

void append_json_number(std::string& out, double v, bool shortest) {
    const bool finite = v == v && v - v == 0;
    if (!finite) out += '"';
    shortest ? append_shortest(out, v) : append_value(out, v);
    if (!finite) out += '"';
}

}  // namespace runtop
