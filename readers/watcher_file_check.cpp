// One file's stat against what the Watcher remembers of it: created, grew, truncated, replaced,
// modified in place, or removed.
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "readers/watcher_state.h"

namespace runtop {
namespace {

// How a file differs from what was recorded of it (a FileRec or a CompleteRec); nullopt: not.
template <class Rec>
std::optional<FileChange> change_since(const Rec& f, const struct stat& s) {
    if (f.dev != s.st_dev || f.ino != s.st_ino) return FileChange::kReplaced;
    if (s.st_size > f.size) return FileChange::kGrew;
    if (s.st_size < f.size) return FileChange::kTruncated;
    if (!watcher_detail::same_time(f.mtime, s.st_mtim)) return FileChange::kModified;
    return std::nullopt;
}

std::int64_t realtime_ms() {
    struct timespec ts;
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return std::int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

std::int64_t ms_of(const struct timespec& ts) {
    return std::int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

}  // namespace

using watcher_detail::CompleteRec;
using watcher_detail::FileRec;
using watcher_detail::join;
using watcher_detail::Root;
using watcher_detail::same_time;

// Stats one file and reports how it differs from what is remembered.
void Watcher::State::check_file(std::size_t ri, const std::string& rel, const std::string& name,
                                const std::string& path) {
    Root& r = roots[ri];
    struct stat s;
    bool is_file = stat_path(path, &s) && S_ISREG(s.st_mode);
    auto it = r.files.find(path);
    if (it == r.files.end() && !r.single_file && check_complete(ri, rel, name, path, is_file, s))
        return;
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
        if (opt.step_range && !r.single_file) complete_superseded(ri, rel, name);
        return;
    }
    FileRec& f = it->second;
    const std::optional<FileChange> change = change_since(f, s);
    if (!change) return;
    f.dev = s.st_dev;
    f.ino = s.st_ino;
    f.size = s.st_size;
    f.mtime = s.st_mtim;
    f.changed_ms = t;
    emit(ri, path, rel, *change);
}

bool Watcher::State::check_complete(std::size_t ri, const std::string& rel, const std::string& name,
                                    const std::string& path, bool is_file, const struct stat& s) {
    Root& r = roots[ri];
    auto d = r.dirs.find(rel);
    if (d == r.dirs.end()) return false;
    auto c = d->second.complete.find(name);
    if (c == d->second.complete.end()) return false;
    if (!is_file) {
        d->second.complete.erase(c);
        emit(ri, path, rel, FileChange::kRemoved);
        return true;
    }
    CompleteRec& f = c->second;
    const std::optional<FileChange> change = change_since(f, s);
    if (!change) return true;
    f = CompleteRec{s.st_dev, s.st_ino, s.st_size, s.st_mtim};
    // Still superseded by its newer sibling: read what changed, then complete again.
    emit(ri, path, rel, *change);
    emit(ri, path, rel, FileChange::kCompleted);
    return true;
}

void Watcher::State::complete_superseded(std::size_t ri, const std::string& rel,
                                         const std::string& name) {
    std::optional<StepRange> mine = opt.step_range(name);
    if (!mine) return;
    auto d = roots[ri].dirs.find(rel);
    if (d == roots[ri].dirs.end()) return;
    // Once this has run for every file, a series has one followed file per directory, so this
    // loop sees few names.
    std::vector<std::string> older;
    bool superseded = false;
    for (const std::string& other : d->second.files) {
        if (other == name) continue;
        std::optional<StepRange> theirs = opt.step_range(other);
        if (!theirs || theirs->series != mine->series) continue;
        if (theirs->last < mine->last)
            older.push_back(other);
        else if (theirs->last > mine->last)
            superseded = true;
    }
    for (const std::string& other : older) complete_file(ri, rel, other);
    if (superseded) complete_file(ri, rel, name);
}

// One last stat (a write that landed before the newer file appeared is reported as kGrew), then
// the file moves from the followed files to the complete ones.
void Watcher::State::complete_file(std::size_t ri, const std::string& rel,
                                   const std::string& name) {
    Root& r = roots[ri];
    auto d = r.dirs.find(rel);
    if (d == r.dirs.end()) return;
    std::string path = join(d->second.path, name);
    check_file(ri, rel, name, path);
    auto it = r.files.find(path);
    if (it == r.files.end()) return;  // gone meanwhile
    const FileRec& f = it->second;
    d->second.complete[name] = CompleteRec{f.dev, f.ino, f.size, f.mtime};
    d->second.files.erase(name);
    r.files.erase(it);
    emit(ri, path, rel, FileChange::kCompleted);
}

}  // namespace runtop
