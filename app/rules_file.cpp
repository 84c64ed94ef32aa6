#include "app/rules_file.h"

#include <sys/stat.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/config_home.h"

namespace runtop {
namespace {

std::string user_rules_path() {
    return user_config_path("rules.json");
}

Result<std::string> read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot read rules file: " + std::strerror(errno)};
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return Error{path + ": cannot read rules file"};
    return text.str();
}

}  // namespace

Result<LoadedRules> load_rules(const std::string& path) {
    std::string file = path;
    if (file.empty()) {
        file = user_rules_path();
        struct stat st;
        if (file.empty() || ::stat(file.c_str(), &st) != 0)
            return LoadedRules{default_rules(), "built-in"};
    }
    Result<std::string> text = read_text(file);
    if (!text) return text.error();
    Result<RuleSet> rules = parse_rules(*text, file);
    if (!rules) return rules.error();
    return LoadedRules{std::move(*rules), file};
}

}  // namespace runtop
