// The Watcher's polling side, for network filesystems, `--poll` and fallbacks: each pass stats
// the known directories (re-reading one only when its identity or mtime changed, or to settle)
// and the known files that are due under the backoff of poll_stride().
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "readers/watcher_state.h"

namespace runtop {

using watcher_detail::base_of;
using watcher_detail::DirRec;
using watcher_detail::FileRec;
using watcher_detail::Root;
using watcher_detail::same_time;

int poll_stride(std::int64_t quiet_ms, int poll_interval_ms) {
    int stride = quiet_ms > 3'600'000   ? 32
                 : quiet_ms > 1'800'000 ? 16
                 : quiet_ms > 300'000   ? 8
                 : quiet_ms > 60'000    ? 4
                 : quiet_ms > 10'000    ? 2
                                        : 1;
    int cap = std::max(1, 10'000 / std::max(1, poll_interval_ms));
    return std::min(stride, cap);
}

void Watcher::State::poll_pass(std::size_t ri) {
    Root& r = roots[ri];
    ++r.pass;
    std::int64_t t = now();
    if (!r.single_file) {
        std::vector<std::string> rels;
        rels.reserve(r.dirs.size());
        for (const auto& entry : r.dirs) rels.push_back(entry.first);
        for (const std::string& rel : rels) {
            auto it = r.dirs.find(rel);
            if (it == r.dirs.end()) continue;  // removed with its parent
            DirRec& d = it->second;
            struct stat s;
            if (!stat_path(d.path, &s) || !S_ISDIR(s.st_mode)) {
                gone(ri, rel);
                if (!r.present) return;
                continue;
            }
            bool changed = s.st_dev != d.dev || s.st_ino != d.ino ||
                           !same_time(s.st_mtim, d.mtime) ||
                           (!d.readable && !same_time(s.st_ctim, d.ctime));
            if (changed || (d.settle && t >= d.settle_at)) {
                std::size_t first = events.size();
                rescan_dir(ri, rel, false, &s);
                sort_events_from(first);
                if (!r.present) return;
            }
        }
    }
    for (auto it = r.files.begin(); it != r.files.end();) {
        auto next = std::next(it);  // check_file may erase this one, never another
        const FileRec& f = it->second;
        int stride = poll_stride(t - f.changed_ms, opt.poll_interval_ms);
        if ((r.pass + f.phase) % static_cast<std::uint64_t>(stride) == 0) {
            std::string path = it->first, rel = f.rel_dir;
            check_file(ri, rel, std::string(base_of(path)), path);
            if (!r.present) return;
        }
        it = next;
    }
}

}  // namespace runtop
