#include "app/args.h"

#include <unistd.h>

#include <charconv>
#include <cmath>

#include "core/identity.h"

namespace runtop {

std::string Args::get(std::string_view name, std::string_view fallback) const {
    auto it = values.find(name);
    return it == values.end() ? std::string(fallback) : it->second;
}

Result<Args> parse_args(const std::vector<std::string>& argv,
                        const std::vector<OptionSpec>& specs) {
    Args args;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a == "--") {
            args.positional.insert(args.positional.end(), argv.begin() + i + 1, argv.end());
            break;
        }
        if (a.size() < 2 || a[0] != '-' || a == "-") {
            args.positional.push_back(a);
            continue;
        }
        std::string_view body = std::string_view(a).substr(a[1] == '-' ? 2 : 1);
        std::string_view name = body.substr(0, body.find('='));
        const OptionSpec* spec = nullptr;
        for (const OptionSpec& s : specs)
            if (s.name == name) spec = &s;
        if (!spec) return Error{"unknown option '" + a + "' (see --help)"};
        if (spec->value.empty()) {
            if (body.size() != name.size())
                return Error{"option --" + std::string(name) + " takes no value"};
            args.values[std::string(name)] = "";
        } else if (body.size() != name.size()) {
            args.values[std::string(name)] = std::string(body.substr(name.size() + 1));
        } else if (spec->value_optional) {
            // "--poll 2000": the 2000 would be a root to wait for. A number that is not a path
            // here was meant as the value, which only follows an '='.
            if (i + 1 < argv.size() && all_digits(argv[i + 1]) &&
                ::access(argv[i + 1].c_str(), F_OK) != 0)
                return Error{"option --" + std::string(name) + " takes its value after '=' (--" +
                             std::string(name) + "=" + argv[i + 1] + "); '" + argv[i + 1] +
                             "' would be a path, and there is none"};
            args.values[std::string(name)] = "";
        } else if (i + 1 < argv.size()) {
            args.values[std::string(name)] = argv[++i];
        } else {
            return Error{"option --" + std::string(name) + " needs a value (" +
                         std::string(spec->value) + ")"};
        }
    }
    return args;
}

std::string option_usage(const OptionSpec& spec) {
    std::string out = "--" + std::string(spec.name);
    if (!spec.value.empty())
        out += spec.value_optional ? "[=" + std::string(spec.value) + "]"
                                   : " " + std::string(spec.value);
    return out;
}

std::string options_help(const std::vector<OptionSpec>& specs) {
    std::size_t width = 0;
    std::vector<std::string> heads;
    for (const OptionSpec& s : specs) {
        std::string head = "  " + option_usage(s);
        width = std::max(width, head.size());
        heads.push_back(std::move(head));
    }
    std::string out;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        out += heads[i] + std::string(width + 2 - heads[i].size(), ' ');
        out += std::string(specs[i].help) + "\n";
    }
    return out;
}

Result<long long> parse_integer(std::string_view option, std::string_view text, long long min,
                                long long max) {
    long long v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || v < min || v > max)
        return Error{"--" + std::string(option) + " needs a whole number from " +
                     std::to_string(min) + " to " + std::to_string(max) + ", not '" +
                     std::string(text) + "'"};
    return v;
}

Result<double> parse_number(std::string_view option, std::string_view text, double min,
                            double max) {
    double v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v) || v < min ||
        v > max)
        return Error{"--" + std::string(option) + " needs a number from " + std::to_string(min) +
                     " to " + std::to_string(max) + ", not '" + std::string(text) + "'"};
    return v;
}

}  // namespace runtop
