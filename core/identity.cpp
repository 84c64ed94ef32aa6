#include "core/identity.h"

#include <charconv>
#include <vector>

#include "core/series_key.h"

namespace runtop {
namespace {

// Parses a small non-negative decimal; kNoRank when it is not one (or is absurdly large).
int parse_rank_number(std::string_view digits) {
    if (!all_digits(digits) || digits.size() > 7) return kNoRank;
    int value = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return value;
}

bool is_word_or_dash(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    size_t start = 0;
    while (true) {
        size_t pos = s.find(sep, start);
        parts.push_back(s.substr(start, pos == std::string_view::npos ? s.npos : pos - start));
        if (pos == std::string_view::npos) break;
        start = pos + 1;
    }
    return parts;
}

}  // namespace

bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

std::string_view base_name(std::string_view path) {
    std::size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool run_in_root(std::string_view run, std::string_view root_name) {
    return run.starts_with(root_name) &&
           (run.size() == root_name.size() || run[root_name.size()] == '/');
}

std::string_view path_below_root(std::string_view run, std::string_view root_name) {
    return run.size() > root_name.size() ? run.substr(root_name.size() + 1) : std::string_view();
}

Result<RootSpec> parse_root_spec(std::string_view arg, bool (*exists)(const std::string&)) {
    if (arg.empty()) return Error{"empty path argument"};
    std::string path(arg);
    std::string name;
    size_t eq = arg.find('=');
    if (eq != std::string_view::npos && !exists(path)) {
        name = std::string(arg.substr(0, eq));
        path = std::string(arg.substr(eq + 1));
        if (name.empty()) return Error{std::string(arg) + ": empty NAME before '='"};
        if (path.empty()) return Error{std::string(arg) + ": empty PATH after '='"};
    }
    if (name.empty()) {
        std::string_view trimmed = path;
        while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.remove_suffix(1);
        size_t slash = trimmed.rfind('/');
        name = std::string(slash == std::string_view::npos ? trimmed : trimmed.substr(slash + 1));
        if (name.empty() || name == "." || name == "..") name = std::string(trimmed);
    }
    return RootSpec{name, path};
}

int rank_of_dir_component(std::string_view c) {
    // rank_3, rank3, rank-3
    if (c.size() > 4 && c.substr(0, 4) == "rank") {
        std::string_view rest = c.substr(4);
        if (!rest.empty() && (rest[0] == '_' || rest[0] == '-')) rest.remove_prefix(1);
        int rank = parse_rank_number(rest);
        if (rank != kNoRank) return rank;
    }
    // msProbe run dir: MonitorConst.OUTPUT_DIR_PATTERN = r"([\w-]{0,20})-rank(\d{1,5})-" (re.match)
    for (size_t pos = c.find("-rank"); pos != std::string_view::npos && pos <= 20;
         pos = c.find("-rank", pos + 1)) {
        bool prefix_ok = true;
        for (size_t i = 0; i < pos; ++i) prefix_ok = prefix_ok && is_word_or_dash(c[i]);
        if (!prefix_ok) break;
        size_t digits_begin = pos + 5;
        size_t digits_end = digits_begin;
        while (digits_end < c.size() && c[digits_end] >= '0' && c[digits_end] <= '9') ++digits_end;
        size_t n = digits_end - digits_begin;
        if (n >= 1 && n <= 5 && digits_end < c.size() && c[digits_end] == '-')
            return parse_rank_number(c.substr(digits_begin, n));
    }
    return kNoRank;
}

bool is_msprobe_unranked_run_dir(std::string_view c) {
    // f"{cur_time}-{uuid[:8]}", cur_time = "%b%d_%H-%M-%S": "Nov21_14-35-29-ad82d4e3"
    static constexpr std::string_view shape = "Aaa00_00-00-00-hhhhhhhh";
    if (c.size() != shape.size()) return false;
    for (std::size_t i = 0; i < c.size(); ++i) {
        char x = c[i];
        switch (shape[i]) {
            case 'A':
                if (x < 'A' || x > 'Z') return false;
                break;
            case 'a':
                if (x < 'a' || x > 'z') return false;
                break;
            case '0':
                if (x < '0' || x > '9') return false;
                break;
            case 'h':
                if (!((x >= '0' && x <= '9') || (x >= 'a' && x <= 'f'))) return false;
                break;
            default:
                if (x != shape[i]) return false;
        }
    }
    return true;
}

DirIdentity identity_of_dir(std::string_view rel_dir) {
    DirIdentity id{"", kNoRank};
    if (rel_dir.empty() || rel_dir == ".") return id;
    for (std::string_view part : split(rel_dir, '/')) {
        if (part.empty() || part == ".") continue;
        int rank = rank_of_dir_component(part);
        if (rank != kNoRank) {
            id.rank = rank;
            continue;
        }
        if (is_msprobe_unranked_run_dir(part)) continue;  // one run with its restarts
        if (!id.run_rel.empty()) id.run_rel += '/';
        id.run_rel += part;
    }
    return id;
}

std::string run_name(std::string_view root_name, std::string_view run_rel) {
    std::string name(root_name);
    if (!run_rel.empty()) {
        name += '/';
        name += run_rel;
    }
    return name;
}

TagIdentity identity_of_tag(std::string_view tag) {
    // Look for "/rankN/" anywhere; the segment is removed along with one of its slashes.
    for (size_t pos = tag.find("/rank"); pos != std::string_view::npos;
         pos = tag.find("/rank", pos + 1)) {
        size_t digits_begin = pos + 5;
        size_t end = tag.find('/', digits_begin);
        if (end == std::string_view::npos) break;
        int rank = parse_rank_number(tag.substr(digits_begin, end - digits_begin));
        if (rank == kNoRank) continue;
        std::string stripped(tag.substr(0, pos));
        stripped += tag.substr(end);
        return {stripped, rank};
    }
    return {std::string(tag), kNoRank};
}

}  // namespace runtop
