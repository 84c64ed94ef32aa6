// End-to-end helper: a private sshd on 127.0.0.1 so a test can run a program through a real
// `ssh localhost` (a remote pty, TERM forwarded by ssh, the network in between).
//
// Needs root (sshd must run as root to log a user in) and openssh-server and -client, which
// `make deps` installs (a test never installs anything). Everything else lives in a temp dir: a
// throwaway host key, a client key pair, authorized_keys, sshd_config, the pid file and the log.
// The system's own sshd config and host keys are never read or changed. The sshd is a child (-D) on
// a free port, stopped by the destructor.
//
//   class MyTest : public SshLocalhostTest {};   // SetUp skips when not possible
//   TEST_F(MyTest, Works) {
//       TmuxSession s(ssh().command_line(dir, {{"LANG", "C.UTF-8"}}, "runtop ."));
//       ...
//   }
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tests/test_support.h"

namespace runtop::testing {

class SshLocalhost {
  public:
    // Starts sshd; ready() says whether it worked, skip_reason() why not.
    SshLocalhost();
    ~SshLocalhost();
    SshLocalhost(const SshLocalhost&) = delete;
    SshLocalhost& operator=(const SshLocalhost&) = delete;

    bool ready() const { return ready_; }
    // Why it is not ready.
    const std::string& skip_reason() const { return reason_; }
    // True when the reason is not being root: the test should be skipped; false for a real
    // failure (openssh missing: run `make deps`; sshd would not start).
    bool skippable() const { return skippable_; }
    int port() const { return port_; }
    const std::string& client_key() const { return client_key_; }
    const std::string& dir() const { return tmp_.path(); }

    // The ssh argv (without the remote command): ssh -p PORT -i KEY -F /dev/null
    // -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes
    // -o ConnectTimeout=10 -o LogLevel=ERROR -tt root@127.0.0.1
    std::vector<std::string> ssh_argv() const;

    // A /bin/sh command line running `command` remotely in `dir` with `env` set:
    //   ssh ... -tt root@127.0.0.1 'cd DIR && NAME=value ... COMMAND'
    // `command` is remote shell text (quote its words with shell_quote); dir and the values are
    // quoted here. ssh exits with the remote command's status.
    std::string command_line(const std::string& dir,
                             const std::vector<std::pair<std::string, std::string>>& env,
                             const std::string& command) const;

    // sshd's log (-E), for failure messages.
    std::string log() const;

  private:
    bool start();

    TempDir tmp_;
    bool ready_ = false;
    bool skippable_ = true;
    std::string reason_;
    int port_ = 0;
    pid_t sshd_pid_ = -1;
    std::string client_key_;
};

// A fixture whose SetUp starts an SshLocalhost, or skips the test when not root ("ssh e2e needs
// root to start sshd"), or fails it when openssh is missing (the message names `make deps`) or
// sshd would not start.
class SshLocalhostTest : public ::testing::Test {
  protected:
    void SetUp() override;
    void TearDown() override { ssh_.reset(); }
    SshLocalhost& ssh() { return *ssh_; }

  private:
    std::unique_ptr<SshLocalhost> ssh_;
};

}  // namespace runtop::testing
