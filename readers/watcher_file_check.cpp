// One file's stat against what the Watcher remembers of it: created, grew, truncated, replaced,
// modified in place, or removed.
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <string>
#include <utility>

#include "readers/watcher_state.h"

namespace runtop {
namespace {

std::int64_t realtime_ms() {
    struct timespec ts;
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return std::int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

std::int64_t ms_of(const struct timespec& ts) {
    return std::int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

}  // namespace

using watcher_detail::FileRec;
using watcher_detail::Root;
using watcher_detail::same_time;

// Stats one file and reports how it differs from what is remembered.
void Watcher::State::check_file(std::size_t ri, const std::string& rel, const std::string& name,
                                const std::string& path) {
    Root& r = roots[ri];
    struct stat s;
    bool is_file = stat_path(path, &s) && S_ISREG(s.st_mode);
    auto it = r.files.find(path);
    if (!is_file) {
        if (r.single_file) {
            drop_root(ri);
            return;
        }
        if (it == r.files.end()) return;
        r.files.erase(it);
        if (auto d = r.dirs.find(rel); d != r.dirs.end()) d->second.files.erase(name);
        emit(ri, path, rel, FileChange::kRemoved);
        return;
    }
    std::int64_t t = now();
    if (it == r.files.end()) {
        if (!r.single_file) {
            auto d = r.dirs.find(rel);
            if (d == r.dirs.end()) return;
            d->second.files.insert(name);
        }
        FileRec f;
        f.rel_dir = rel;
        f.dev = s.st_dev;
        f.ino = s.st_ino;
        f.size = s.st_size;
        f.mtime = s.st_mtim;
        // An old file backs off from the start (clock skew only shifts when that starts).
        f.changed_ms = t - std::max<std::int64_t>(0, realtime_ms() - ms_of(s.st_mtim));
        f.phase = next_phase++;
        r.files.emplace(path, std::move(f));
        emit(ri, path, rel, FileChange::kCreated);
        return;
    }
    FileRec& f = it->second;
    FileChange change;
    if (f.dev != s.st_dev || f.ino != s.st_ino)
        change = FileChange::kReplaced;
    else if (s.st_size > f.size)
        change = FileChange::kGrew;
    else if (s.st_size < f.size)
        change = FileChange::kTruncated;
    else if (!same_time(f.mtime, s.st_mtim))
        change = FileChange::kModified;
    else
        return;
    f.dev = s.st_dev;
    f.ino = s.st_ino;
    f.size = s.st_size;
    f.mtime = s.st_mtim;
    f.changed_ms = t;
    emit(ri, path, rel, change);
}

}  // namespace runtop
