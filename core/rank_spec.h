// Rank selections from the command line and the `r` key: "0-7", "0,2,5", "!3", "0-15,!7".
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace runtop {

class RankSpec {
  public:
    // The empty spec selects everything.
    static Result<RankSpec> parse(std::string_view text);

    // Series without a rank are selected only when the spec names no rank to include.
    bool selects(int rank) const;
    bool empty() const { return include_.empty() && exclude_.empty(); }

  private:
    std::vector<std::pair<int, int>> include_;  // inclusive ranges
    std::vector<std::pair<int, int>> exclude_;
};

}  // namespace runtop
