#include "core/series_filter.h"

#include <re2/re2.h>

namespace runtop {

SeriesFilter::SeriesFilter() = default;
SeriesFilter::~SeriesFilter() = default;
SeriesFilter::SeriesFilter(SeriesFilter&&) noexcept = default;
SeriesFilter& SeriesFilter::operator=(SeriesFilter&&) noexcept = default;

Result<SeriesFilter> SeriesFilter::make(std::string_view tag_regex, std::string_view rank_spec,
                                        std::string_view run_patterns, int ranks_per_node) {
    SeriesFilter filter;
    if (!tag_regex.empty()) {
        RE2::Options options;
        options.set_case_sensitive(false);
        options.set_log_errors(false);
        auto re =
            std::make_unique<RE2>(re2::StringPiece(tag_regex.data(), tag_regex.size()), options);
        if (!re->ok())
            return Error{"bad --filter regex '" + std::string(tag_regex) + "': " + re->error()};
        filter.tag_re_ = std::move(re);
    }
    Result<RankSpec> ranks = RankSpec::parse(rank_spec, ranks_per_node);
    if (!ranks) return ranks.error();
    filter.ranks_ = std::move(*ranks);
    Result<RunPatterns> runs = RunPatterns::parse(run_patterns);
    if (!runs) return runs.error();
    filter.runs_ = std::move(*runs);
    return filter;
}

bool SeriesFilter::selects(const SeriesKeyRef& key) const {
    if (!ranks_.selects(key.rank) || !runs_.selects(key.run)) return false;
    return !tag_re_ ||
           RE2::PartialMatch(re2::StringPiece(key.tag.data(), key.tag.size()), *tag_re_);
}

}  // namespace runtop
