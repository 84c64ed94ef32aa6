// What the views call each run: its name is "<root>/<path below the root>", too long for a
// legend, so a run is shown by its last path component ("job/seed1" → "seed1"). Runs whose last
// components are equal (DeepSpeed's csv_monitor/ds_pipe_job and tensorboard/ds_pipe_job) get,
// in parentheses, the shortest part of their path that none of the others has:
// "ds_pipe_job (csv_monitor)", "ds_pipe_job (tensorboard)".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace runtop {

struct RunLabel {
    std::string base;  // the run's last path component (its whole name when nothing tells it apart)
    std::string part;  // what tells it from the runs with the same base; empty when none do
    std::string text() const { return part.empty() ? base : base + " (" + part + ")"; }
    bool operator==(const RunLabel&) const = default;
};

// The label of each of `runs` (distinct run names), in their order. For runs sharing a last
// component, the part is the fewest path components in a row (nearest the end first) that no
// other of them has in a row; a run with no such part (its path is inside another's: "a/job"
// and "b/a/job") is shown by its whole name. So runs sharing a last component get distinct
// labels (only a directory named like a label, "job (x)", could look like another's). A run's
// label depends only on the runs sharing its last component: a caller may make again only
// the labels of those when a run is added.
std::vector<RunLabel> run_labels(const std::vector<std::string>& runs);

// The last path component of a run's name ("a/b" → "b").
std::string_view run_base_name(std::string_view run);

}  // namespace runtop
