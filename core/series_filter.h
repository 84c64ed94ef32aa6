// Which series a command or view shows: a tag regex (RE2, case-insensitive, matched anywhere in
// the tag) and a rank selection.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/rank_spec.h"
#include "core/result.h"
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
    static Result<SeriesFilter> make(std::string_view tag_regex, std::string_view rank_spec);
    bool selects(const SeriesKeyRef& key) const;

  private:
    std::unique_ptr<re2::RE2> tag_re_;
    RankSpec ranks_;
};

}  // namespace runtop
