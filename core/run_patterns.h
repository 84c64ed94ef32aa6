// Run selections from `--runs` and the `R` key: "PATTERN[,PATTERN...]". A pattern is a glob
// (`*` any characters, `/` included; `?` one character), case-insensitive, matched against a
// run's whole name or any part of it that starts after a '/': `ds_pipe_job` selects
// "deepspeed/csv_monitor/ds_pipe_job", `csv_monitor/*` every run below a csv_monitor directory,
// `*seed*` every run with "seed" in its name. `!PATTERN` leaves out what it matches
// (`!tensorboard/*`). Selected: the runs a pattern without `!` matches (every run when there is
// none), but those a `!` pattern matches.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace runtop {

class RunPatterns {
  public:
    // The empty text selects every run.
    static Result<RunPatterns> parse(std::string_view text);

    bool selects(std::string_view run) const;
    bool empty() const { return include_.empty() && exclude_.empty(); }

  private:
    std::vector<std::string> include_;  // lower case
    std::vector<std::string> exclude_;
};

// Whether glob `pattern` (lower case) matches all of `text`, ignoring ASCII case in `text`.
bool glob_matches(std::string_view pattern, std::string_view text);

}  // namespace runtop
