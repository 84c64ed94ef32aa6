// Command-line parsing shared by the subcommands: "--opt VALUE", "--opt=VALUE", flags, "--" and
// positional arguments. One table of options per command drives parsing and --help.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace runtop {

struct OptionSpec {
    std::string_view name;   // without the dashes
    std::string_view value;  // placeholder ("FILE"), empty for a flag
    std::string_view help;
    // The value may be left out ("--poll" or "--poll=MS"); given, it must follow an '='.
    bool value_optional = false;
};

struct Args {
    std::map<std::string, std::string, std::less<>> values;  // flags map to ""
    std::vector<std::string> positional;

    bool has(std::string_view name) const { return values.count(name) > 0; }
    std::string get(std::string_view name, std::string_view fallback = "") const;
};

Result<Args> parse_args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs);

// How an option is written: "--ascii", "--format text|csv", "--poll[=MS]".
std::string option_usage(const OptionSpec& spec);

// "--format csv" style option help, aligned.
std::string options_help(const std::vector<OptionSpec>& specs);

// Whole numbers and rates with range checks; the error names the option.
Result<long long> parse_integer(std::string_view option, std::string_view text, long long min,
                                long long max);
Result<double> parse_number(std::string_view option, std::string_view text, double min, double max);

}  // namespace runtop
