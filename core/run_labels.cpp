#include "core/run_labels.h"

#include <map>
#include <optional>

namespace runtop {
namespace {

std::vector<std::string_view> components(std::string_view path) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t slash = path.find('/', start);
        out.push_back(path.substr(start, slash == std::string_view::npos ? slash : slash - start));
        if (slash == std::string_view::npos) return out;
        start = slash + 1;
    }
}

// Whether `slice` appears in a row in `path`.
bool holds(const std::vector<std::string_view>& path, const std::vector<std::string_view>& slice) {
    if (slice.size() > path.size()) return false;
    for (std::size_t at = 0; at + slice.size() <= path.size(); ++at) {
        bool all = true;
        for (std::size_t k = 0; k < slice.size() && all; ++k) all = path[at + k] == slice[k];
        if (all) return true;
    }
    return false;
}

// The shortest run of `mine`'s components none of `others` holds, nearest the end first.
std::optional<std::string> distinguishing_part(
    const std::vector<std::string_view>& mine,
    const std::vector<const std::vector<std::string_view>*>& others) {
    for (std::size_t length = 1; length <= mine.size(); ++length) {
        for (std::size_t end = mine.size(); end >= length; --end) {
            const std::vector<std::string_view> slice(mine.begin() + (end - length),
                                                      mine.begin() + end);
            bool shared = false;
            for (const auto* other : others) shared = shared || holds(*other, slice);
            if (shared) continue;
            std::string part;
            for (std::string_view c : slice) {
                if (!part.empty()) part += '/';
                part += c;
            }
            return part;
        }
    }
    return std::nullopt;
}

}  // namespace

std::string_view run_base_name(std::string_view run) {
    const std::size_t slash = run.rfind('/');
    return slash == std::string_view::npos ? run : run.substr(slash + 1);
}

std::vector<RunLabel> run_labels(const std::vector<std::string>& runs) {
    std::vector<RunLabel> labels(runs.size());
    std::map<std::string_view, std::vector<std::size_t>> by_base;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        labels[i].base = std::string(run_base_name(runs[i]));
        by_base[run_base_name(runs[i])].push_back(i);
    }
    for (const auto& [base, members] : by_base) {
        if (members.size() < 2) continue;
        // Each member's directories: its components but the last.
        std::vector<std::vector<std::string_view>> dirs;
        for (std::size_t i : members) {
            dirs.push_back(components(runs[i]));
            dirs.back().pop_back();
        }
        for (std::size_t m = 0; m < members.size(); ++m) {
            std::vector<const std::vector<std::string_view>*> others;
            for (std::size_t o = 0; o < members.size(); ++o)
                if (o != m) others.push_back(&dirs[o]);
            RunLabel& label = labels[members[m]];
            if (std::optional<std::string> part = distinguishing_part(dirs[m], others))
                label.part = std::move(*part);
            else
                label.base = runs[members[m]];
        }
    }
    return labels;
}

}  // namespace runtop
