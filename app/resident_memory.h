// What this process holds in memory now (its resident set), for the Store's whole-process
// budget (Store::set_resident_probe).
#pragma once

#include <cstdint>

namespace runtop {

// Resident bytes from /proc/self/statm; 0 when unknown (no /proc, or a sanitizer build, whose
// shadow memory and quarantine are not the product's and would fold points no release build
// folds).
std::uint64_t resident_bytes();

}  // namespace runtop
