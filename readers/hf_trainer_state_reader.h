// Hugging Face Trainer's trainer_state.json (FORMATS.md §5): rewritten whole at every save,
// into every `checkpoint-<N>/` and, by save_state(), into the output dir. `log_history` is a
// list of dicts; each numeric key of an entry is a point of the series of that name at the
// entry's "step" (the file has no timestamps: wall time = the file's mtime). The other
// top-level scalars (global_step, epoch, best_metric, max_steps...) become config texts
// `trainer_state/<key>` holding the value's JSON text.
//
// Every copy of the file repeats the run's history up to its step, and discovery gives all
// copies of a run the same run name. A ledger per run (shared by the readers of one
// SourceSet) lists a hash of each history entry delivered so far, in order: an entry that
// matches the ledger at its position was delivered already and is skipped; at the first
// mismatch the ledger is cut there and everything from it on is delivered (a rewritten
// history: the store treats the step going back as a restart). So checkpoint-500 then
// checkpoint-1000 deliver each point once, and checkpoint-1000 then checkpoint-500 deliver
// nothing the second time.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "readers/whole_file_reader.h"

namespace runtop {

// What one run's trainer_state.json readers have delivered.
struct HfRunLedger {
    std::vector<std::uint64_t> entries;  // json_hash() of each log_history entry, in order
    // The highest global_step of a file whose config texts were sent: an older checkpoint
    // read later must not overwrite the newer values.
    std::int64_t max_global_step = std::numeric_limits<std::int64_t>::min();
};

// The ledgers of one SourceSet, by run name.
class HfLedgers {
  public:
    HfRunLedger& of(std::string_view run);

  private:
    std::map<std::string, HfRunLedger, std::less<>> runs_;  // node-based: references stay valid
};

class HfTrainerStateReader final : public WholeFileReader {
  public:
    HfTrainerStateReader(SourceFile file, PointSink& sink, HfLedgers& ledgers);

  private:
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };
    ParseOutcome parse(std::string_view text, bool settled) override;
    SeriesId series_of(std::string_view tag);

    HfRunLedger& ledger_;
    std::unordered_map<std::string, SeriesId, StringHash, std::equal_to<>> series_;
    bool warned_bad_entry_ = false;
};

}  // namespace runtop
