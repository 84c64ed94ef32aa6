// The Watcher facade: creates the state, offers the inotify descriptor and the next timeout, and
// on take_events() drains inotify and runs the poll passes that are due. The work is done in
// watcher_tree.cpp, watcher_file_check.cpp, watcher_inotify.cpp and watcher_polling.cpp, on the
// state of watcher_state.h.
#include "readers/watcher.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "readers/inotify_session.h"
#include "readers/watcher_state.h"

namespace runtop {

using watcher_detail::normalise;
using watcher_detail::Root;

Watcher::Watcher(std::unique_ptr<State> state) : s_(std::move(state)) {}
Watcher::~Watcher() = default;

std::unique_ptr<Watcher> Watcher::create(std::vector<std::string> roots, WatchOptions options) {
    auto s = std::make_unique<State>();
    options.poll_interval_ms = std::max(1, options.poll_interval_ms);
    s->opt = std::move(options);
    for (const std::string& path : roots) {
        Root r;
        r.path = normalise(path);
        s->roots.push_back(std::move(r));
    }
    if (s->opt.mode != WatchMode::kPoll) {
        auto session = InotifySession::open();
        if (session)
            s->inotify = std::move(*session);
        else
            s->say(fmt::format("{}: polling every root every {} ms", session.error().message,
                               s->opt.poll_interval_ms));
    }
    for (std::size_t ri = 0; ri < s->roots.size(); ++ri) s->setup_root(ri);
    // Every root polled (network filesystems) and none waiting to appear: no descriptor to offer.
    bool inotify_used = std::any_of(s->roots.begin(), s->roots.end(),
                                    [](const Root& r) { return !r.present || !r.polling; });
    if (s->inotify && !inotify_used) s->inotify.reset();
    return std::unique_ptr<Watcher>(new Watcher(std::move(s)));
}

int Watcher::fd() const {
    return s_->inotify ? s_->inotify->fd() : -1;
}

int Watcher::next_timeout_ms() const {
    if (!s_->events.empty()) return 0;  // the initial walk waits to be taken
    std::int64_t due = INT64_MAX;
    for (const Root& r : s_->roots) {
        if (!r.present)
            due = std::min(due, r.next_check);
        else if (r.polling)
            due = std::min(due, r.next_pass);
        else if (!r.single_file && r.dirs.count("") && !r.dirs.at("").readable)
            due = std::min(due, r.next_check);
    }
    if (due == INT64_MAX) return -1;
    return static_cast<int>(std::clamp<std::int64_t>(due - s_->now(), 0, INT_MAX));
}

std::vector<FileEvent> Watcher::take_events() {
    State& s = *s_;
    if (s.inotify) {
        s.drain();
        s.remove_retired();
        s.process_dirty();
    }
    for (std::size_t ri = 0; ri < s.roots.size(); ++ri) {
        Root& r = s.roots[ri];
        std::int64_t t = s.now();
        if (!r.present) {
            if (t >= r.next_check) s.check_missing_root(ri);
        } else if (r.polling) {
            if (t < r.next_pass) continue;
            s.poll_pass(ri);
            // From now, not from when it was due: a late pass does not cause a burst of them.
            r.next_pass = s.now() + s.opt.poll_interval_ms;
        } else if (!r.single_file && r.dirs.count("") && !r.dirs.at("").readable &&
                   t >= r.next_check) {
            // Without read permission there is no watch on the root: try again on a timer.
            r.next_check = t + s.opt.poll_interval_ms;
            std::size_t first = s.events.size();
            s.rescan_dir(ri, "", false, nullptr);
            s.sort_events_from(first);
        }
    }
    return std::exchange(s.events, {});
}

std::vector<std::string> Watcher::take_messages() {
    return std::exchange(s_->messages, {});
}

bool Watcher::polling(std::size_t root) const {
    const Root& r = s_->roots.at(root);
    if (r.present) return r.polling;
    return s_->opt.mode == WatchMode::kPoll || !s_->inotify;
}

std::vector<std::string> Watcher::describe() const {
    std::size_t polled = 0, watched = 0, missing = 0;
    for (const Root& r : s_->roots) {
        if (!r.present)
            ++missing;
        else if (r.polling)
            ++polled;
        else
            ++watched;
    }
    const std::size_t watches = s_->watches.size();
    // The kernel's limit is read once: it is a /proc file, and this is asked every turn.
    static const int limit = InotifySession::max_user_watches();
    auto roots = [](std::size_t n) { return fmt::format("{} root{}", n, n == 1 ? "" : "s"); };
    std::vector<std::string> out;
    if (watched > 0) {
        out.push_back(fmt::format("{} inotify watch{} for {}, one per directory", watches,
                                  watches == 1 ? "" : "es", roots(watched)));
        out.push_back(fmt::format("of this user's fs.inotify.max_user_watches = {}", limit));
    }
    if (polled > 0)
        out.push_back(
            fmt::format("{} polled every {} ms", roots(polled), s_->opt.poll_interval_ms));
    if (missing > 0) out.push_back(fmt::format("{} not there yet", roots(missing)));
    return out;
}

WatcherStats Watcher::stats() const {
    WatcherStats out = s_->st;
    out.inotify_watches = s_->watches.size();
    out.files = 0;
    out.dirs = 0;
    out.completed_files = 0;
    for (const Root& r : s_->roots) {
        out.files += r.files.size();
        out.dirs += r.dirs.size();
        for (const auto& entry : r.dirs) out.completed_files += entry.second.complete.size();
    }
    return out;
}

}  // namespace runtop
