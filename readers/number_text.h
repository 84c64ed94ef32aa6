// Numbers as monitor writers print them: Python's repr and str() of floats and ints
// ("2.5", "1e-06", "-0.0", "nan", "inf", "-inf", "12"), with std::from_chars (no locale, no
// allocation). Case-insensitive nan/inf and a leading '+' are accepted to be safe.
#pragma once

#include <cstdint>
#include <string_view>

namespace runtop {

// A value cell. False for anything that is not a whole number token (empty, text, "1.5x").
bool parse_value(std::string_view text, double& out);

// A step cell: an integer, or a float with an integral value ("12.0": pandas may print an
// integer column as floats once a NaN appears in it).
bool parse_step(std::string_view text, std::int64_t& out);

}  // namespace runtop
