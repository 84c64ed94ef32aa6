// Identity rules of DESIGN.md §2: roots from [NAME=]PATH, runs and ranks from directory names,
// ranks from msProbe-style tags. Pure string functions, so every reader shares them.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace runtop {

// True for a non-empty run of ASCII digits.
bool all_digits(std::string_view s);

// The last component of a path ("a/b/c.csv" -> "c.csv"; a path without '/' is itself).
std::string_view base_name(std::string_view path);

// Whether a run is one of a root's: its name is the root's name, or the root's name then '/'
// (run names are "<root name>[/<path below the root>]").
bool run_in_root(std::string_view run, std::string_view root_name);
// A root's run's path below the root ("new/seed1/tb" under "new" -> "seed1/tb"; the root's own
// run -> ""): what pairs a run of one root with its partner in another.
std::string_view path_below_root(std::string_view run, std::string_view root_name);

struct RootSpec {
    std::string name;  // display name: NAME, or the last component of PATH
    std::string path;  // as given
};

// "NAME=PATH" or "PATH". An argument that exists as a path is a PATH even if it holds '='
// (directories like "lr=0.1" are common), so `exists` decides; it is injected for tests.
Result<RootSpec> parse_root_spec(std::string_view arg, bool (*exists)(const std::string&));

// The rank a single directory name stands for: "rank_3", "rank3", "rank-3", or an msProbe run
// dir "<ts>-rank3-<uuid>". Returns kNoRank when the name is not a rank component.
int rank_of_dir_component(std::string_view component);

// An msProbe run dir of a job without torch.distributed, as named before 2025-02:
// "<%b%d_%H-%M-%S>-<8 hex>". Like rank dirs, it is not part of the run's name.
bool is_msprobe_unranked_run_dir(std::string_view component);

struct DirIdentity {
    std::string run_rel;  // the relative directory with rank and msProbe run dirs removed
    int rank;             // the last rank component met, or kNoRank
};
// `rel_dir` is the directory holding the data file, relative to its root ("" for the root).
DirIdentity identity_of_dir(std::string_view rel_dir);

// The run's display name: the root's name, then the relative path below it.
std::string run_name(std::string_view root_name, std::string_view run_rel);

struct TagIdentity {
    std::string tag;  // the tag with its "/rankN/" segment removed
    int rank;         // kNoRank when the tag has no such segment
};
// msProbe writes tags like "0:fc1.input:0/rank0/actv_norm": the middle "rankN" segment is
// the rank. Only an inner segment counts; a trailing "rank0" is an ordinary tag name.
TagIdentity identity_of_tag(std::string_view tag);

}  // namespace runtop
