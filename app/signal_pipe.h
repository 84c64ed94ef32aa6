// Signals into the event loop: a handler only writes the signal number into a pipe, and the
// loop's poll() wakes on its read end. So SIGWINCH, SIGINT, SIGTERM, SIGHUP and SIGCONT are
// handled between frames, in ordinary code, never inside curses.
#pragma once

#include <initializer_list>
#include <vector>

namespace runtop {

class SignalPipe {
  public:
    explicit SignalPipe(std::initializer_list<int> signals);
    ~SignalPipe();  // the old handlers back
    SignalPipe(const SignalPipe&) = delete;
    SignalPipe& operator=(const SignalPipe&) = delete;

    int fd() const;
    // The signals that arrived since the last call, in order.
    std::vector<int> take();

  private:
    std::vector<int> signals_;
};

}  // namespace runtop
