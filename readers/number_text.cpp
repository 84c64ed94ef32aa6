#include "readers/number_text.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace runtop {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// Powers of ten that a double holds exactly.
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                             1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                             1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// What monitor writers print most: a short decimal ("-0.001234", "4637.987048", "1.2e-05").
// Clinger's fast path: a significand below 2^53 and a power of ten up to 1e22 are both exact
// doubles, so one IEEE multiplication or division rounds the exact quotient correctly, which
// is what strtod, from_chars and Python's float() return. Anything else (more than 15 or so
// significant digits, larger exponents, nan, inf, text) is left to from_chars: false.
inline bool parse_short_decimal(const char* p, const char* end, double& out) {
    const bool neg = p != end && *p == '-';
    p += neg;
    // Digits, with at most one '.' among them; more than 19 digits could overflow m and
    // go to from_chars (so do leading zeros beyond that: rare, and still right there).
    const char* const digits = p;
    const char* dot = nullptr;
    std::uint64_t m = 0;
    for (; p != end; ++p) {
        const unsigned d = static_cast<unsigned char>(*p) - unsigned{'0'};
        if (d < 10) {
            m = m * 10 + d;
        } else if (*p == '.' && !dot) {
            dot = p;
        } else {
            break;
        }
    }
    const std::ptrdiff_t count = (p - digits) - (dot != nullptr);
    if (count == 0 || count > 19) return false;
    int exp10 = dot ? -static_cast<int>(p - dot - 1) : 0;
    if (p != end) {
        if ((*p | 0x20) != 'e') return false;
        ++p;
        const bool eneg = p != end && *p == '-';
        if (p != end && (*p == '-' || *p == '+')) ++p;
        if (p == end || end - p > 3) return false;  // no digits, or an exponent beyond 999
        int e = 0;
        for (; p != end; ++p) {
            const unsigned d = static_cast<unsigned char>(*p) - unsigned{'0'};
            if (d >= 10) return false;
            e = e * 10 + static_cast<int>(d);
        }
        exp10 += eneg ? -e : e;
    }
    if (m == 0) {
        out = neg ? -0.0 : 0.0;
        return true;
    }
    if (m > (std::uint64_t{1} << 53) || exp10 < -22 || exp10 > 22) return false;
    double v = static_cast<double>(m);
    if (exp10 < 0)
        v /= kPow10[-exp10];
    else
        v *= kPow10[exp10];  // exact for 10^0
    out = neg ? -v : v;
    return true;
}

}  // namespace

bool parse_value(std::string_view text, double& out) {
    const char* first = text.data();
    const char* last = first + text.size();
    if (parse_short_decimal(first, last, out)) return true;
    // A plain number with nothing around it, in full generality.
    auto [ptr, ec] = std::from_chars(first, last, out);
    if (ec == std::errc() && ptr == last && first != last) return true;
    std::string_view s = trim(text);
    bool plus = !s.empty() && s.front() == '+';
    if (plus) s.remove_prefix(1);
    if (s.empty() || s.front() == '+' || s.front() == ' ') return false;
    auto [p2, ec2] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (p2 != s.data() + s.size()) return false;
    if (ec2 == std::errc::result_out_of_range) {
        // from_chars leaves `out` alone on overflow; Python's float() gives +-inf or 0.
        bool neg = s.front() == '-';
        bool tiny = s.find_first_of("eE") != std::string_view::npos &&
                    s.find("e-") != std::string_view::npos;
        out = tiny ? (neg ? -0.0 : 0.0)
                   : (neg ? -std::numeric_limits<double>::infinity()
                          : std::numeric_limits<double>::infinity());
        return true;
    }
    if (ec2 != std::errc()) return false;
    if (plus && std::isnan(out) && std::signbit(out)) out = -out;
    return true;
}

bool parse_step(std::string_view text, std::int64_t& out) {
    const char* first = text.data();
    const char* last = first + text.size();
    auto [ptr, ec] = std::from_chars(first, last, out);
    if (ec == std::errc() && ptr == last && first != last) return true;
    double v;
    if (!parse_value(text, v) || !std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 9.0e18)
        return false;
    out = static_cast<std::int64_t>(v);
    return true;
}

}  // namespace runtop
