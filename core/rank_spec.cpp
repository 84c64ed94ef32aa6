#include "core/rank_spec.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string>

#include "core/series_key.h"

namespace runtop {
namespace {

bool parse_int(std::string_view s, int& out) {
    if (s.empty()) return false;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size() && out >= 0;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

}  // namespace

Result<RankSpec> RankSpec::parse(std::string_view text, int ranks_per_node) {
    RankSpec spec;
    std::string_view rest = trim(text);
    while (!rest.empty()) {
        size_t comma = rest.find(',');
        std::string_view item = trim(rest.substr(0, comma));
        const std::string whole(item);  // as typed, for the error
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        auto bad = [&] {
            return Error{"bad rank spec '" + std::string(text) + "' at '" + whole +
                         "': expected N, A-B or !N (e.g. 0-15,!7), or nodes nN, nA-B (e.g. n3)"};
        };
        bool negate = !item.empty() && item.front() == '!';
        if (negate) item = trim(item.substr(1));
        // "n3", "node3", "n0-1": whole nodes.
        bool nodes = false;
        for (std::string_view word : {"node", "n"})
            if (item.starts_with(word)) {
                item = trim(item.substr(word.size()));
                nodes = true;
                break;
            }
        size_t dash = item.find('-');
        int lo = 0, hi = 0;
        if (dash == std::string_view::npos) {
            if (!parse_int(item, lo)) return bad();
            hi = lo;
        } else if (!parse_int(trim(item.substr(0, dash)), lo) ||
                   !parse_int(trim(item.substr(dash + 1)), hi) || hi < lo) {
            return bad();
        }
        if (nodes) {
            const long long per = std::max(1, ranks_per_node);
            if ((static_cast<long long>(hi) + 1) * per - 1 > std::numeric_limits<int>::max())
                return bad();
            lo = static_cast<int>(lo * per);
            hi = static_cast<int>((static_cast<long long>(hi) + 1) * per - 1);
        }
        (negate ? spec.exclude_ : spec.include_).emplace_back(lo, hi);
    }
    return spec;
}

bool RankSpec::selects(int rank) const {
    auto in = [rank](const std::vector<std::pair<int, int>>& ranges) {
        for (auto [lo, hi] : ranges)
            if (rank >= lo && rank <= hi) return true;
        return false;
    };
    if (rank == kNoRank) return include_.empty();
    if (!include_.empty() && !in(include_)) return false;
    return !in(exclude_);
}

}  // namespace runtop
