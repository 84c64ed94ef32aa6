#include "core/store/store_limits.h"

#include <charconv>
#include <cmath>
#include <string>

namespace runtop {
namespace {

Error bad(std::string_view text, std::string_view why) {
    return Error{"memory size '" + std::string(text) + "' " + std::string(why) +
                 " (a number of bytes with an optional K, M, G or T suffix, e.g. 512M or 2G)"};
}

char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

Result<std::uint64_t> parse_memory_size(std::string_view text) {
    std::size_t digits = 0;
    while (digits < text.size() &&
           ((text[digits] >= '0' && text[digits] <= '9') || text[digits] == '.'))
        ++digits;
    if (digits == 0) {
        if (!text.empty() && text[0] == '-') return bad(text, "is negative");
        return bad(text, "is not a size");
    }
    std::string_view number = text.substr(0, digits);
    std::string_view unit = text.substr(digits);

    int power = 0;
    if (!unit.empty()) {
        switch (lower(unit[0])) {
            case 'k':
                power = 1;
                break;
            case 'm':
                power = 2;
                break;
            case 'g':
                power = 3;
                break;
            case 't':
                power = 4;
                break;
            case 'b':
                break;
            default:
                return bad(text, "has an unknown unit");
        }
        std::string_view rest = unit.substr(power == 0 ? 0 : 1);
        if (power != 0 && !rest.empty() && lower(rest[0]) == 'i') rest.remove_prefix(1);
        if (!rest.empty() && lower(rest[0]) == 'b') rest.remove_prefix(1);
        if (!rest.empty()) return bad(text, "has an unknown unit");
    }
    const std::uint64_t scale = std::uint64_t{1} << (10 * power);

    std::uint64_t bytes = 0;
    if (number.find('.') == std::string_view::npos) {
        // Whole numbers exactly, up to 2^64 - 1.
        std::uint64_t n = 0;
        auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
        if (ec == std::errc::result_out_of_range || (ec == std::errc() && n > UINT64_MAX / scale))
            return bad(text, "is too large");
        if (ec != std::errc() || end != number.data() + number.size())
            return bad(text, "is not a size");
        bytes = n * scale;
    } else {
        double n = 0;
        auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), n,
                                         std::chars_format::fixed);
        if (ec != std::errc() || end != number.data() + number.size() || !std::isfinite(n))
            return bad(text, "is not a size");
        const double b = n * static_cast<double>(scale);
        if (b >= 18446744073709551616.0) return bad(text, "is too large");
        if (b != std::floor(b)) return bad(text, "is not a whole number of bytes");
        bytes = static_cast<std::uint64_t>(b);
    }
    if (bytes == 0) return bad(text, "is zero");
    return bytes;
}

}  // namespace runtop
