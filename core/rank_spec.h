// Rank selections from the command line and the `r` key: "0-7", "0,2,5", "!3", "0-15,!7", and
// by node: "n3" (node 3: ranks 24-31 at 8 ranks a node), "n0-1", "!n2", "node3".
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace runtop {

// Ranks a node holds unless told otherwise (--ranks-per-node): 8 accelerators a server.
inline constexpr int kDefaultRanksPerNode = 8;

class RankSpec {
  public:
    // The empty spec selects everything. A node N is ranks [N * per_node, (N + 1) * per_node).
    static Result<RankSpec> parse(std::string_view text, int ranks_per_node = kDefaultRanksPerNode);

    // Series without a rank are selected only when the spec names no rank to include.
    bool selects(int rank) const;
    bool empty() const { return include_.empty() && exclude_.empty(); }

  private:
    std::vector<std::pair<int, int>> include_;  // inclusive ranges
    std::vector<std::pair<int, int>> exclude_;
};

}  // namespace runtop
