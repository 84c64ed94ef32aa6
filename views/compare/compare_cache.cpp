#include "views/compare/compare_cache.h"

namespace runtop::ui {

CompareMemo::CompareMemo() : cache_(std::make_unique<CompareCache>()) {}
CompareMemo::~CompareMemo() = default;
// A copy computes again what it shows: a comparer walks one Store and is not copied.
CompareMemo::CompareMemo(const CompareMemo&) : CompareMemo() {}
CompareMemo& CompareMemo::operator=(const CompareMemo& other) {
    if (this != &other) cache_ = std::make_unique<CompareCache>();
    return *this;
}

}  // namespace runtop::ui
