// What `runtop diff` found, and its three printed forms (docs/diff.md): text for people, csv
// (one row per (tag, rank) pair, series only in one run, configuration change and run without
// a partner; a `kind` column tells them apart) and json (one object) for scripts.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/compare/run_compare.h"
#include "core/config/config_diff.h"

namespace runtop {

// One run of root A against its partner in root B.
struct DiffPair {
    std::string run_a, run_b;
    RunComparison comparison;
    std::vector<TagComparison> tags;  // tag_rows(comparison)
    std::vector<ConfigChange> config;
    std::size_t diverging_tags() const;
};

struct DiffReport {
    std::string name_a, name_b;  // the roots' names (NAME=, else the path's last component)
    std::string path_a, path_b;
    CompareOptions options;
    std::vector<DiffPair> pairs;
    std::vector<std::string> runs_only_a, runs_only_b;  // runs without a partner
    std::size_t diverging_tags() const;
    std::size_t diverging_series() const;
};

void print_diff_text(const DiffReport& report, std::string& out);
void print_diff_csv(const DiffReport& report, std::string& out);
void print_diff_json(const DiffReport& report, std::string& out);

}  // namespace runtop
