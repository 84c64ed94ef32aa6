// A SourceSet watching one root, turned as the dashboard's ingest thread turns it (the watcher's
// fd or timeout, then on_watch_ready()): what the live-tailing tests drive. Messages are kept;
// with fail_on_messages(), each one fails the test unless expect_messages() said otherwise.
#pragma once

#include <gtest/gtest.h>
#include <poll.h>

#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "readers/source_set.h"

namespace runtop::testing {

template <class Sink>
class LiveSources {
  public:
    LiveSources(const std::string& root, WatchMode mode) : sources_(sink_) {
        sources_.add_root(RootSpec{"r", root});
        WatchOptions options;
        options.mode = mode;
        options.poll_interval_ms = 20;
        sources_.watch(std::move(options));
    }
    void fail_on_messages() { fail_on_messages_ = true; }
    void expect_messages() { fail_on_messages_ = false; }

    // Turns the watcher until `done` holds (true) or 10 s pass (false).
    bool until(const std::function<bool()>& done) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (true) {
            turn();
            if (done()) return true;
            if (std::chrono::steady_clock::now() >= deadline) return false;
            int timeout = sources_.watch_timeout_ms();
            if (timeout < 0 || timeout > 20) timeout = 20;
            pollfd p{sources_.watch_fd(), POLLIN, 0};
            ::poll(&p, p.fd >= 0 ? 1 : 0, timeout);
        }
    }
    // A few more turns: whatever would arrive twice has arrived.
    void settle() {
        for (int i = 0; i < 10; ++i) {
            turn();
            ::poll(nullptr, 0, 25);
        }
    }

    Sink& sink() { return sink_; }
    const Sink& sink() const { return sink_; }
    SourceSet& sources() { return sources_; }
    const std::vector<std::string>& messages() const { return messages_; }
    WatcherStats watcher() const { return sources_.watcher()->stats(); }

  private:
    void turn() {
        sources_.on_watch_ready();
        for (std::string& m : sources_.take_messages()) {
            if (fail_on_messages_) ADD_FAILURE() << m;
            messages_.push_back(std::move(m));
        }
    }

    Sink sink_;  // before sources_, which holds it
    SourceSet sources_;
    bool fail_on_messages_ = false;
    std::vector<std::string> messages_;
};

}  // namespace runtop::testing
