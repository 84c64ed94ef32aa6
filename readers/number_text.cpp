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

}  // namespace

bool parse_value_slow(std::string_view text, double& out) {
    const char* first = text.data();
    const char* last = first + text.size();
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
