// A tree of many files of several formats, corrupt ones among them, for tests that read it on
// one thread and on several and compare (reader_pool_test.cpp, thread_stores_test.cpp).
#pragma once

#include <string>

namespace runtop::testing {

// Event records of `tag` at steps [from, to), value + step, wall + step.
std::string scalar_records(const std::string& tag, int from, int to, float value, int wall = 1000);

// msProbe in both layouts (nine ranks; a corrupt row and a torn last line in one CSV), event
// files of three ranks, a restart across two event files with a text, a corrupt event file,
// Lightning and plain CSVs; with `trainer_states`, Hugging Face trainer states too (their readers
// share each run's history: read on the calling thread). Every file gets the same mtime: CSV
// and JSON readers give their points the file's.
void write_mixed_tree(const std::string& root, bool trainer_states);

}  // namespace runtop::testing
