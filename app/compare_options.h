// The options that choose how two runs are compared (issue 6), shared by the dashboard,
// `snapshot` and `diff`: --tolerance X (relative, finite, >= 0 and below 2, the most a relative
// difference can be; default 1e-6), --align step|wall and --by rank|mean. Each command lists
// the specs in its option table and reads them back with compare_options_from_args().
//
// --smooth W is `diff`'s alone (issue 19): the dashboard's compare chart, sparklines and Δ strip
// draw and mark raw points from any window of a series, and a table of smoothed divergences
// beside charts of raw ones would contradict itself. compare_options_from_args() reads it only
// when the command's table lists it.
#pragma once

#include <array>
#include <string_view>

#include "app/args.h"
#include "core/compare/run_compare.h"
#include "core/result.h"

namespace runtop {

// constexpr, so the option tables of other translation units can include them during static
// initialisation without depending on its order.
inline constexpr OptionSpec kToleranceOption = {
    "tolerance", "X",
    "compare: relative difference above which two values diverge (finite, >= 0; default 1e-6)"};
inline constexpr OptionSpec kAlignOption = {
    "align", "step|wall",
    "compare: pair points by step, or by wall time since each run's start (default step)"};
inline constexpr OptionSpec kByOption = {
    "by", "rank|mean",
    "compare: rank N against rank N, or the mean over ranks per tag (default rank)"};
inline constexpr OptionSpec kSmoothOption = {
    "smooth", "W",
    "compare: smooth both runs first with TensorBoard's smoothing weight W, in [0, 1) (a "
    "debiased EMA; default 0, raw values)"};
// All three, in the order they appear in --help.
inline constexpr std::array<OptionSpec, 3> kCompareOptionSpecs = {kToleranceOption, kAlignOption,
                                                                  kByOption};

// The defaults for the options not given. Errors name the option and the bad value
// ("--align needs step or wall, not 'time'").
Result<CompareOptions> compare_options_from_args(const Args& args);

// The pieces, for callers that hold the text elsewhere (a config file, a key binding).
// A tolerance that can never fire on numbers (kMaxRelativeDifference or more) is an error that
// says so.
Result<double> parse_tolerance(std::string_view text);
Result<double> parse_smoothing(std::string_view text);
Result<CompareAlign> parse_compare_align(std::string_view text);
Result<CompareRanks> parse_compare_ranks(std::string_view text);

}  // namespace runtop
