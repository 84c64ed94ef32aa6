// Which files under a root hold data, what format each is in, and where it sits in the
// identity scheme. Decided from names alone (plain CSVs are settled later by their header),
// so the watcher can filter directory entries without opening them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/identity.h"
#include "readers/source_reader.h"
#include "readers/step_range.h"

namespace runtop {

// TensorBoard's rule (basename contains "tfevents", not "*.profile-empty"), plus MindSpore's
// "events.out.events.summary.*" files, which TensorBoard never finds.
bool is_event_file_name(std::string_view basename);

// The format of a file by its name and directory (relative to its root); nullopt for files
// that hold no metrics (msProbe's stack_info.csv, module_struct, checkpoints, logs...).
std::optional<SourceFormat> classify_file(std::string_view rel_dir, std::string_view basename);

// The format of a file named on the command line: as classify_file(), and otherwise by the
// end of its name ("run1__metrics.csv", "x_trainer_state.json", "a.hparams.yaml"); anything
// else is tried as an event file, whose reader reports it if it is not one.
SourceFormat file_format_of_named_file(std::string_view basename);

// The step range in a data file's name, for the formats whose writers start a new file for each
// range and never go back to an older one: msProbe's monitor CSVs (v1 and v2). nullopt for
// every other name (event files, DeepSpeed and Lightning CSVs grow one file for the whole run).
std::optional<StepRange> step_range_of_name(std::string_view basename);

// The file's run and rank (DESIGN.md §2): rank components and msProbe run dirs leave the run
// name; so do `anomaly_detected` (msProbe's anomalies belong to the monitor_output run) and
// Hugging Face `checkpoint-<N>` dirs (every checkpoint repeats the run's log history).
SourceFile source_file(const RootSpec& root, std::string path, std::string_view rel_dir,
                       SourceFormat format);

// Orders a run's files for the first read, so restarts replay in the order they happened:
// path order, except that numbers compare by value ("grad_5-9.csv" before
// "grad_10-14.csv", "checkpoint-500" before "checkpoint-1000") and msProbe's month names
// by month. Event files keep plain path order, as TensorBoard reads them, except that a name
// that extends another (`events...0.old` beside `events...0`: a rotated copy) comes first.
std::string read_order_key(const SourceFile& file);

}  // namespace runtop
