#include "core/json/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/format.h"

#include <fmt/format.h>

namespace runtop {

namespace {

// real()'s layout of shortest digits: fixed for decimal-point positions -4 < n <= 15, else an
// exponent of at least two digits. These are nlohmann's dump() rules, which config values
// were printed with before runtop had its own writer.
void append_real_digits(std::string& out, std::string_view digits, int n) {
    const int k = static_cast<int>(digits.size());
    constexpr int kMinExp = -4, kMaxExp = 15;
    if (k <= n && n <= kMaxExp) {
        out += digits;
        out.append(static_cast<std::size_t>(n - k), '0');
        out += ".0";
    } else if (0 < n && n <= kMaxExp) {
        out += digits.substr(0, static_cast<std::size_t>(n));
        out += '.';
        out += digits.substr(static_cast<std::size_t>(n));
    } else if (kMinExp < n && n <= 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-n), '0');
        out += digits;
    } else {
        out += digits[0];
        if (k > 1) {
            out += '.';
            out += digits.substr(1);
        }
        const int e = n - 1;
        out += e < 0 ? "e-" : "e+";
        const int magnitude = std::abs(e);
        if (magnitude < 10) out += '0';
        out += std::to_string(magnitude);
    }
}

}  // namespace

void JsonWriter::depth_overflow() {
    std::abort();  // nested past kMaxDepth, or a close without its open: a bug in the caller
}

void JsonWriter::escaped_key(std::string_view name) {
    append_json_string(out_, name);
    out_ += ':';
}

void JsonWriter::write_string(std::string_view s) {
    append_json_string(out_, s);
}

void JsonWriter::write_number(double v, bool shortest) {
    append_json_number(out_, v, shortest);
}

JsonWriter& JsonWriter::real(double v) {
    separate();
    if (!std::isfinite(v)) {
        out_ += "null";
        return *this;
    }
    if (std::signbit(v)) out_ += '-';
    v = std::fabs(v);
    if (v == 0) {
        out_ += "0.0";
        return *this;
    }
    // The shortest round trip in scientific form, "d.ddde±x", taken apart into its digits and
    // the position of the decimal point.
    char buf[40];
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
    const std::string_view text(buf, static_cast<std::size_t>(end - buf));
    const std::size_t e_at = text.find('e');
    std::string digits;
    for (char c : text.substr(0, e_at))
        if (c != '.') digits += c;
    int exponent = 0;
    std::string_view exp_text = text.substr(e_at + 1);
    if (exp_text.starts_with('+')) exp_text.remove_prefix(1);
    std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
    append_real_digits(out_, digits, exponent + 1);
    return *this;
}

JsonWriter& JsonWriter::signed_integer(std::int64_t v) {
    separate();
    const fmt::format_int text(v);  // fmt converts two digits at a time, on the stack
    out_.append(text.data(), text.size());
    return *this;
}

JsonWriter& JsonWriter::unsigned_integer(std::uint64_t v) {
    separate();
    const fmt::format_int text(v);
    out_.append(text.data(), text.size());
    return *this;
}

JsonWriter& JsonWriter::next_line() {
    separate();
    out_ += '\n';
    separated_ = true;
    return *this;
}

JsonWriter& JsonWriter::newline() {
    out_ += '\n';
    return *this;
}

}  // namespace runtop
