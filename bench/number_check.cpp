// runtop_number_check [COUNT]: parse_value against std::strtod on COUNT (default 1 000 000)
// random decimal strings, bit for bit (the sign of zero included). parse_value has its own
// fast path for short decimals (readers/number_text.cpp); strtod, like Python's float(), is
// correctly rounded, so any difference is a bug. The strings: what round(6) then repr()
// prints ("-0.001234", "4637.987048", "1e-06"), full 17-digit reprs, and random digit strings
// with and without fraction and exponent around the edges of the fast path (15..20
// significant digits, exponents near +-22, leading zeros, "-0", "1.", ".5").
// Exits 1 on the first few mismatches, printed.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "readers/number_text.h"
#include "writers/msprobe_writer.h"

namespace {

std::string random_decimal(std::mt19937_64& rng) {
    std::uniform_int_distribution<int> shape(0, 9);
    std::uniform_int_distribution<int> digit(0, 9);
    std::string s;
    switch (shape(rng)) {
        case 0:
        case 1: {  // round(6) then repr, of values of every magnitude
            std::uniform_real_distribution<double> mant(-10.0, 10.0);
            std::uniform_int_distribution<int> exp(-9, 9);
            runtop::msprobe::append_python_float(s, mant(rng) * std::pow(10.0, exp(rng)));
            return s;
        }
        case 2: {  // the shortest repr of a random double (up to 17 digits)
            double v;
            do {
                std::uint64_t bits = rng();
                std::memcpy(&v, &bits, 8);
            } while (!std::isfinite(v));
            runtop::msprobe::append_python_float(s, v, -1);
            return s;
        }
        case 3: {  // a random double's shortest repr, within the fast path's exponent range
            std::uniform_real_distribution<double> mant(-1.0, 1.0);
            std::uniform_int_distribution<int> exp(-25, 25);
            runtop::msprobe::append_python_float(s, mant(rng) * std::pow(10.0, exp(rng)), -1);
            return s;
        }
        default: {  // digits: [-]int[.frac][e[+-]exp]
            if (rng() & 1) s += '-';
            int int_digits = std::uniform_int_distribution<int>(0, 12)(rng);
            int frac_digits = std::uniform_int_distribution<int>(0, 12)(rng);
            bool dot = frac_digits > 0 || (rng() % 8 == 0);
            if (int_digits == 0 && !dot) int_digits = 1;
            bool zeros = rng() % 4 == 0;  // leading zeros
            for (int i = 0; i < int_digits; ++i)
                s += static_cast<char>('0' + (zeros && i < 3 ? 0 : digit(rng)));
            if (dot) s += '.';
            for (int i = 0; i < frac_digits; ++i)
                s += static_cast<char>('0' + (zeros && i < 4 ? 0 : digit(rng)));
            if (int_digits + frac_digits == 0) s += '0';
            if (rng() % 3 == 0) {
                s += (rng() & 1) ? 'e' : 'E';
                int r = static_cast<int>(rng() % 3);
                if (r == 1) s += '-';
                if (r == 2) s += '+';
                int e = std::uniform_int_distribution<int>(0, 40)(rng);
                if (rng() % 4 == 0) s += '0';
                s += std::to_string(e);
            }
            return s;
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    const long count = argc > 1 ? std::atol(argv[1]) : 1000000;
    std::mt19937_64 rng(2024);
    long mismatches = 0, checked = 0;
    for (long i = 0; i < count; ++i) {
        std::string s = random_decimal(rng);
        char* end = nullptr;
        double want = std::strtod(s.c_str(), &end);
        if (end != s.c_str() + s.size()) continue;  // not a whole number token for strtod
        if (std::isinf(want) || (want == 0 && std::strpbrk(s.c_str(), "123456789")))
            continue;  // overflow and underflow: parse_value follows Python there, not strtod
        ++checked;
        double got = 0;
        bool ok = runtop::parse_value(s, got);
        if (!ok || std::memcmp(&got, &want, sizeof got) != 0) {
            if (++mismatches <= 10)
                std::printf("MISMATCH %s: parse_value %s %.17g, strtod %.17g\n", s.c_str(),
                            ok ? "gave" : "refused", got, want);
        }
    }
    std::printf(
        "runtop_number_check: parse_value == strtod (bit for bit) on %ld of %ld random "
        "decimal strings: %s\n",
        checked - mismatches, checked, mismatches ? "FAIL" : "ok");
    return mismatches ? 1 : 0;
}
