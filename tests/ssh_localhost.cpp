#include "tests/ssh_localhost.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "tests/tmux_session.h"

namespace runtop::testing {

namespace {

std::string last_lines(const std::string& text, std::size_t max_chars = 600) {
    return text.size() <= max_chars ? text : "..." + text.substr(text.size() - max_chars);
}

// A port nobody listens on now: bind port 0 and read what the kernel chose.
int free_port() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    int port = -1;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

// True when something on 127.0.0.1:port accepts and greets with "SSH-".
bool ssh_banner(int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    bool ok = false;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
        timeval tv{2, 0};
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        char buf[8] = {};
        ssize_t n = ::recv(fd, buf, 4, MSG_WAITALL);
        ok = n == 4 && std::memcmp(buf, "SSH-", 4) == 0;
    }
    ::close(fd);
    return ok;
}

}  // namespace

SshLocalhost::SshLocalhost() {
    ready_ = start();
}

bool SshLocalhost::start() {
    if (::geteuid() != 0) {
        reason_ = "ssh e2e needs root to start sshd";
        return false;
    }
    skippable_ = false;  // from here on, a failure is a real one
    // Installed by `make deps`, never here: apt-get in one test raced the others (an sshd
    // unpacked but not yet configured has no privilege separation user).
    for (const char* tool : {"/usr/sbin/sshd", "ssh", "ssh-keygen"}) {
        reason_ = missing_tool(tool);
        if (!reason_.empty()) return false;
    }
    if (::getpwnam("sshd") == nullptr) {
        reason_ =
            "openssh-server is not fully installed: no user 'sshd' (its privilege separation "
            "user, which the package makes when it is configured): run `make deps`";
        return false;
    }

    const std::string host_key = tmp_ / "host_ed25519";
    client_key_ = tmp_ / "client_ed25519";
    for (const std::string& key : {host_key, client_key_}) {
        ProcessOutput r = run_process(
            {"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "runtop-e2e", "-f", key});
        if (r.exit_code != 0) {
            reason_ = "ssh-keygen failed: " + last_lines(r.err);
            return false;
        }
    }
    const std::string authorized = tmp_ / "authorized_keys";
    write_file(authorized, read_file(client_key_ + ".pub"));
    ::chmod(authorized.c_str(), 0600);

    port_ = free_port();
    if (port_ <= 0) {
        reason_ = "could not find a free port on 127.0.0.1";
        return false;
    }
    const std::string config = tmp_ / "sshd_config";
    write_file(config, "Port " + std::to_string(port_) +
                           "\n"
                           "ListenAddress 127.0.0.1\n"
                           "HostKey " +
                           host_key +
                           "\n"
                           "AuthorizedKeysFile " +
                           authorized +
                           "\n"
                           "PidFile " +
                           (tmp_ / "sshd.pid") +
                           "\n"
                           "PermitRootLogin prohibit-password\n"
                           "PubkeyAuthentication yes\n"
                           "PasswordAuthentication no\n"
                           "KbdInteractiveAuthentication no\n"
                           "UsePAM no\n"
                           "StrictModes no\n"
                           "UseDNS no\n"
                           "PrintMotd no\n"
                           "PrintLastLog no\n"
                           "X11Forwarding no\n"
                           "LogLevel VERBOSE\n");
    ::mkdir("/run/sshd", 0755);  // privilege separation directory; EEXIST is fine

    const std::string log_path = tmp_ / "sshd.log";
    sshd_pid_ = ::fork();
    if (sshd_pid_ < 0) {
        reason_ = std::string("fork failed: ") + std::strerror(errno);
        return false;
    }
    if (sshd_pid_ == 0) {
        int devnull = ::open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            ::dup2(devnull, 0);
            ::dup2(devnull, 1);
        }
        // sshd re-executes itself, so it needs its absolute path.
        ::execl("/usr/sbin/sshd", "/usr/sbin/sshd", "-D", "-f", config.c_str(), "-E",
                log_path.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (;;) {
        int status = 0;
        if (::waitpid(sshd_pid_, &status, WNOHANG) == sshd_pid_) {
            sshd_pid_ = -1;
            reason_ =
                "sshd exited at once (status " +
                std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)) +
                "): " + last_lines(log());
            return false;
        }
        if (ssh_banner(port_)) return true;
        if (std::chrono::steady_clock::now() > deadline) {
            reason_ = "sshd did not accept on port " + std::to_string(port_) +
                      " within 10 s: " + last_lines(log());
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

SshLocalhost::~SshLocalhost() {
    if (sshd_pid_ > 0) {
        ::kill(sshd_pid_, SIGTERM);
        int status = 0;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (::waitpid(sshd_pid_, &status, WNOHANG) == 0) {
            if (std::chrono::steady_clock::now() > deadline) {
                ::kill(sshd_pid_, SIGKILL);
                ::waitpid(sshd_pid_, &status, 0);
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
}

std::vector<std::string> SshLocalhost::ssh_argv() const {
    return {"ssh",
            "-p",
            std::to_string(port_),
            "-i",
            client_key_,
            "-F",
            "/dev/null",
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "BatchMode=yes",
            "-o",
            "ConnectTimeout=10",
            "-o",
            "LogLevel=ERROR",
            "-tt",
            "root@127.0.0.1"};
}

std::string SshLocalhost::command_line(const std::string& dir,
                                       const std::vector<std::pair<std::string, std::string>>& env,
                                       const std::string& command) const {
    std::string remote = "cd " + shell_quote(dir) + " &&";
    for (const auto& [name, value] : env) remote += " " + name + "=" + shell_quote(value);
    remote += " " + command;
    std::string line;
    for (const std::string& arg : ssh_argv()) line += shell_quote(arg) + " ";
    return line + shell_quote(remote);
}

std::string SshLocalhost::log() const {
    return read_file(tmp_ / "sshd.log");
}

void SshLocalhostTest::SetUp() {
    ssh_ = std::make_unique<SshLocalhost>();
    if (ssh_->ready()) return;
    if (ssh_->skippable()) GTEST_SKIP() << ssh_->skip_reason();
    FAIL() << "could not start a private sshd: " << ssh_->skip_reason();
}

}  // namespace runtop::testing
