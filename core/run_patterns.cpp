#include "core/run_patterns.h"

namespace runtop {
namespace {

char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

// The whole name, or a part of it after a '/'.
bool matches_run(const std::string& pattern, std::string_view run) {
    if (glob_matches(pattern, run)) return true;
    for (std::size_t slash = run.find('/'); slash != std::string_view::npos;
         slash = run.find('/', slash + 1))
        if (glob_matches(pattern, run.substr(slash + 1))) return true;
    return false;
}

}  // namespace

bool glob_matches(std::string_view pattern, std::string_view text) {
    // The classic walk: on a mismatch, the last '*' takes one more character.
    std::size_t p = 0, t = 0;
    std::size_t star = std::string_view::npos, star_t = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == lower(text[t]))) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            star_t = t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++star_t;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

Result<RunPatterns> RunPatterns::parse(std::string_view text) {
    RunPatterns patterns;
    if (trim(text).empty()) return patterns;
    std::string_view rest = text;
    while (true) {
        const std::size_t comma = rest.find(',');
        std::string_view item = trim(rest.substr(0, comma));
        const bool negate = !item.empty() && item.front() == '!';
        if (negate) item = trim(item.substr(1));
        if (item.empty())
            return Error{"bad --runs patterns '" + std::string(text) +
                         "': an empty pattern (expected PATTERN[,PATTERN], e.g. "
                         "csv_monitor/*,!*tmp*)"};
        std::string pattern;
        for (char c : item) pattern += lower(c);
        (negate ? patterns.exclude_ : patterns.include_).push_back(std::move(pattern));
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
    }
    return patterns;
}

bool RunPatterns::selects(std::string_view run) const {
    bool in = include_.empty();
    for (const std::string& p : include_)
        if (!in && matches_run(p, run)) in = true;
    if (!in) return false;
    for (const std::string& p : exclude_)
        if (matches_run(p, run)) return false;
    return true;
}

}  // namespace runtop
