// Text forms shared by every output: numbers the way DESIGN.md §4 fixes them, CSV and JSON
// quoting. Untrusted strings (tags come from files) are escaped, never written raw.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace runtop {

// %.9g, with "nan", "inf" and "-inf" (float32 values round-trip exactly).
void append_value(std::string& out, double value);
std::string format_value(double value);
// The shortest text that reads back to the same double (wall times keep their microseconds).
void append_shortest(std::string& out, double value);
// A JSON number: %.9g (or the shortest round trip); NaN and ±Inf, which JSON lacks, as the
// strings "nan", "inf", "-inf".
void append_json_number(std::string& out, double value, bool shortest = false);
// RFC 4180: quoted only when it holds a comma, quote, CR or LF.
void append_csv_field(std::string& out, std::string_view field);
// For text meant for a terminal: control characters, DEL and invalid UTF-8 become visible
// \xNN escapes, so a tag can never move the cursor or change colours.
void append_visible(std::string& out, std::string_view s);
std::string visible(std::string_view s);
// visible(s).size(), without making it when s is printable ASCII (nearly every tag).
std::size_t visible_size(std::string_view s);
// A JSON string literal with no control byte in it: every C0 control, DEL and C1 control
// (U+0080..U+009F: U+009B is a one-byte CSI to some terminals) as \u00XX (\n, \r, \t as
// such). A byte that is not UTF-8 becomes the lone low surrogate \udcXX, as Python's
// "surrogateescape" does, so distinct raw tags stay distinct and the bytes come back
// (json.loads, then .encode("utf-8", "surrogateescape")). Valid UTF-8 never yields a lone
// surrogate, so nothing else reads back as one. The cost: JSON allows lone surrogates but
// strict parsers refuse them (Perl's JSON::PP, serde_json into a String) and jq and Go read
// them as U+FFFD; only names that are not UTF-8 carry them.
void append_json_string(std::string& out, std::string_view s);
// A code point as UTF-8; surrogates and values beyond U+10FFFF become U+FFFD.
void append_utf8(std::string& out, std::uint32_t code_point);

}  // namespace runtop
