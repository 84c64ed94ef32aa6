#include "core/series_source.h"

#include <array>
#include <atomic>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace runtop {
namespace {

// Entries are written once, under the lock, before their id is handed out, and never move: a
// reader of an id it was given sees a finished entry without taking the lock.
struct SourceTable {
    static constexpr std::size_t kCapacity = std::size_t{1} << (8 * sizeof(SourceId));
    struct Entry {
        std::string format;  // owns the text SeriesSource::format views
        SeriesSource source;
    };
    std::mutex mutex;
    std::atomic<std::size_t> size{0};
    std::array<Entry, kCapacity> entries;
};

SourceTable& table() {
    static SourceTable instance;
    return instance;
}

}  // namespace

std::string_view step_axis_name(StepAxis axis) {
    return axis == StepAxis::kSamples ? "samples" : "steps";
}

SourceId source_id(const SeriesSource& source) {
    SourceTable& t = table();
    std::lock_guard lock(t.mutex);
    const std::size_t size = t.size.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < size; ++i)
        if (t.entries[i].source == source) return static_cast<SourceId>(i);
    // Readers register a fixed handful of descriptors; running out is a programming error.
    if (size == SourceTable::kCapacity) {
        std::fputs("runtop: more series sources than a SourceId holds\n", stderr);
        std::abort();
    }
    SourceTable::Entry& entry = t.entries[size];
    entry.format = source.format;
    entry.source = source;
    entry.source.format = entry.format;
    t.size.store(size + 1, std::memory_order_release);
    return static_cast<SourceId>(size);
}

const SeriesSource& series_source(SourceId id) {
    SourceTable& t = table();
    assert(id < t.size.load(std::memory_order_acquire));
    return t.entries[id].source;
}

}  // namespace runtop
