// runtop_benchgen --msprobe-scale RxPxSxK DIR: msProbe full weight-gradient monitoring at the
// size of a real job (issue 17): R ranks, P parameters, S steps, K steps a file
// (step_count_per_record 1 or 5). One task (grad_unreduced), ops min, max, mean, norm, nans, so
// R x P x 5 series of S points. Each rank draws its own values; one rank-local spike is
// injected (rank R/3, the middle parameter, at two thirds of the steps: its norm x1000) so a
// run can be checked for it. Seeded: the same bytes every time.
#pragma once

#include <string>

namespace runtop::bench {

struct ScaleShape {
    int ranks = 256;
    int params = 400;
    long long steps = 100;
    long long per_file = 5;
    // The injected spike: rank and step (-1: R/3 and two thirds of the steps); none when false.
    bool spike = true;
    int spike_rank = -1;
    long long spike_step = -1;
};

// "256x400x100x5" (ranks x params x steps x steps a file); false when it does not parse.
bool parse_scale_shape(const std::string& text, ScaleShape& shape);

// Writes the tree and prints one line: files, bytes, series, points, the spike.
int write_msprobe_scale(const std::string& dir, const ScaleShape& shape);

}  // namespace runtop::bench
