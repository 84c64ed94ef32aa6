// Which series a command or view shows: a tag regex (RE2, case-insensitive, matched anywhere in
// the tag), a rank selection and a run selection (core/run_patterns.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/rank_spec.h"
#include "core/result.h"
#include "core/run_patterns.h"
#include "core/series_key.h"

namespace re2 {
class RE2;
}

namespace runtop {

class SeriesFilter {
  public:
    SeriesFilter();
    ~SeriesFilter();
    SeriesFilter(SeriesFilter&&) noexcept;
    SeriesFilter& operator=(SeriesFilter&&) noexcept;

    // Empty strings select everything.
    static Result<SeriesFilter> make(std::string_view tag_regex, std::string_view rank_spec,
                                     std::string_view run_patterns = {},
                                     int ranks_per_node = kDefaultRanksPerNode);
    bool selects(const SeriesKeyRef& key) const;
    // What is about a whole run (its configuration, restarts, stalls): only the run counts.
    bool selects_run(std::string_view run) const { return runs_.selects(run); }

  private:
    std::unique_ptr<re2::RE2> tag_re_;
    RankSpec ranks_;
    RunPatterns runs_;
};

}  // namespace runtop
