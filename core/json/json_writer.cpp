#include "core/json/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/format.h"

namespace runtop {

namespace {

// Containers nest at most this deep: runtop's outputs use three levels.
constexpr int kMaxDepth = 64;

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

void JsonWriter::separate() {
    if (separated_) {
        separated_ = false;
        return;
    }
    if (depth_ == 0) return;
    const std::uint64_t bit = std::uint64_t{1} << (depth_ - 1);
    if (has_items_ & bit) out_ += ',';
    has_items_ |= bit;
}

JsonWriter& JsonWriter::open(char bracket) {
    separate();
    out_ += bracket;
    if (depth_ >= kMaxDepth) std::abort();  // an invariant: no output nests this deep
    ++depth_;
    has_items_ &= ~(std::uint64_t{1} << (depth_ - 1));
    return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
    if (depth_ == 0) std::abort();  // an invariant: every close has its open
    --depth_;
    out_ += bracket;
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    separate();
    append_json_string(out_, name);
    out_ += ':';
    separated_ = true;
    return *this;
}

JsonWriter& JsonWriter::string(std::string_view s) {
    separate();
    append_json_string(out_, s);
    return *this;
}

JsonWriter& JsonWriter::number(double v) {
    separate();
    append_json_number(out_, v, false);
    return *this;
}

JsonWriter& JsonWriter::number_shortest(double v) {
    separate();
    append_json_number(out_, v, true);
    return *this;
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
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
    out_.append(buf, end);
    return *this;
}

JsonWriter& JsonWriter::unsigned_integer(std::uint64_t v) {
    separate();
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
    out_.append(buf, end);
    return *this;
}

JsonWriter& JsonWriter::boolean(bool b) {
    separate();
    out_ += b ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null() {
    separate();
    out_ += "null";
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
