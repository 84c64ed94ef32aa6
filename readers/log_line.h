// One line of a training job's text log, made ready for the log formats: what a terminal would
// show of it, and the rank its launcher labelled it with (/work/shared reference LOGS.md §0,
// §10, from the launchers' source).
//
// - A trailing '\r' (CRLF) goes.
// - tqdm redraws its bar with '\r' and no '\n': of such a line, what follows the last '\r'
//   that is not empty is what was left on screen.
// - ANSI escape sequences (colours, cursor moves: ESC '[' params final) are removed.
// - Launcher prefixes, stacked in any order, are removed; the rank is the innermost one's:
//   srun --label's "3: " (" 3: " padded, "P0 3: " for heterogeneous jobs), torchrun's
//   "[default3]:" or "[rank3]:", Open MPI's "[1,3]<stdout>:" and "[1,3]:". (torchrun's number
//   is the local rank: on several nodes, ranks of different nodes share it.)
#pragma once

#include <string>
#include <string_view>

namespace runtop {

struct LogLine {
    std::string_view text;  // into the raw line, or into the scratch string
    int rank = -1;          // from a launcher prefix; -1 when it had none
};

// `raw` without its '\n'. `scratch` holds the text when escapes had to be cut out of it.
LogLine clean_log_line(std::string_view raw, std::string& scratch);

// The launcher prefixes at the start of `text`, removed; `rank` set from the innermost one.
// Returns what follows them (`text` itself when it has none).
std::string_view strip_launcher_prefixes(std::string_view text, int& rank);

}  // namespace runtop
