// Numbers as monitor writers print them: Python's repr and str() of floats and ints
// ("2.5", "1e-06", "-0.0", "nan", "inf", "-inf", "12"), with std::from_chars (no locale, no
// allocation). Case-insensitive nan/inf and a leading '+' are accepted to be safe.
#pragma once

#include <cstdint>
#include <string_view>

namespace runtop {

namespace number_detail {

// Powers of ten that a double holds exactly.
inline constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
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

}  // namespace number_detail

// Everything parse_value() does not settle on its fast path.
bool parse_value_slow(std::string_view text, double& out);

// A value cell. False for anything that is not a whole number token (empty, text, "1.5x").
// Inline: the readers call it for every cell.
inline bool parse_value(std::string_view text, double& out) {
    if (number_detail::parse_short_decimal(text.data(), text.data() + text.size(), out))
        return true;
    return parse_value_slow(text, out);
}

// A step cell: an integer, or a float with an integral value ("12.0": pandas may print an
// integer column as floats once a NaN appears in it).
bool parse_step(std::string_view text, std::int64_t& out);

}  // namespace runtop
