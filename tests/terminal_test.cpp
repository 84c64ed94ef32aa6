// The terminal layer: key decoding without curses, open() without a tty, and the real thing on
// a pseudo-terminal: runtop_terminal_probe (tests/terminal_probe.cpp) opens a Terminal on the
// pty's slave side while this test plays the terminal on the master side, reading every byte
// curses writes and typing keys. No tty is needed from whoever runs the tests.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <utmp.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "views/terminal/key_decode.h"
#include "views/terminal/terminal.h"

namespace runtop::ui {
namespace {

// --- decoding, no terminal -------------------------------------------------------------------

std::string key_of(const std::optional<InputEvent>& e) {
    if (!e) return "(none)";
    if (e->kind == InputEvent::Kind::kMouse)
        return "mouse " + std::to_string(e->x) + "," + std::to_string(e->y) + " " +
               std::to_string(static_cast<int>(e->button));
    return e->key + (e->text ? " (text)" : "");
}

TEST(TerminalKeyDecode, ControlCharactersAndText) {
    EXPECT_EQ(key_of(decode_char(3)), "Ctrl-C");
    EXPECT_EQ(key_of(decode_char(12)), "Ctrl-L");
    EXPECT_EQ(key_of(decode_char(1)), "Ctrl-A");
    EXPECT_EQ(key_of(decode_char(26)), "Ctrl-Z");
    EXPECT_EQ(key_of(decode_char(13)), "Enter");
    EXPECT_EQ(key_of(decode_char(10)), "Enter");
    EXPECT_EQ(key_of(decode_char(9)), "Tab");
    EXPECT_EQ(key_of(decode_char(8)), "Backspace");
    EXPECT_EQ(key_of(decode_char(127)), "Backspace");
    EXPECT_EQ(key_of(decode_char(U' ')), "Space (text)");
    EXPECT_EQ(key_of(decode_char(U'q')), "q (text)");
    EXPECT_EQ(key_of(decode_char(U'é')), "é (text)");
    EXPECT_EQ(key_of(decode_char(U'漢')), "漢 (text)");
    EXPECT_EQ(key_of(decode_char(0x85)), "(none)");    // C1 control
    EXPECT_EQ(key_of(decode_char(0xd800)), "(none)");  // surrogate
}

TEST(TerminalKeyDecode, EscapeSequences) {
    EXPECT_EQ(key_of(decode_escape("[A")), "Up");
    EXPECT_EQ(key_of(decode_escape("OA")), "Up");
    EXPECT_EQ(key_of(decode_escape("[1;2D")), "Shift-Left");
    EXPECT_EQ(key_of(decode_escape("[1;2C")), "Shift-Right");
    EXPECT_EQ(key_of(decode_escape("[1;5A")), "Ctrl-Up");
    EXPECT_EQ(key_of(decode_escape("[5~")), "PgUp");
    EXPECT_EQ(key_of(decode_escape("[6~")), "PgDn");
    EXPECT_EQ(key_of(decode_escape("[5;5~")), "Ctrl-PgUp");
    EXPECT_EQ(key_of(decode_escape("[H")), "Home");
    EXPECT_EQ(key_of(decode_escape("[4~")), "End");
    EXPECT_EQ(key_of(decode_escape("[Z")), "BackTab");
    EXPECT_EQ(key_of(decode_escape("OP")), "F1");
    EXPECT_EQ(key_of(decode_escape("[15~")), "F5");
    EXPECT_EQ(key_of(decode_escape("[24~")), "F12");
    EXPECT_EQ(key_of(decode_escape("OM")), "Enter");
    // Sequences with no key behind them are dropped whole.
    EXPECT_EQ(key_of(decode_escape("[I")), "(none)");  // focus in
    EXPECT_EQ(key_of(decode_escape("[?1;2c")), "(none)");
    EXPECT_EQ(key_of(decode_escape("[99~")), "(none)");
}

TEST(TerminalKeyDecode, MouseReports) {
    int left = static_cast<int>(MouseButton::kLeft);
    EXPECT_EQ(key_of(decode_escape("[<0;5;3M")), "mouse 4,2 " + std::to_string(left));
    EXPECT_EQ(key_of(decode_escape("[<0;5;3m")), "(none)");   // release
    EXPECT_EQ(key_of(decode_escape("[<32;5;3M")), "(none)");  // motion
    std::optional<InputEvent> up = decode_escape("[<64;1;1M");
    ASSERT_TRUE(up);
    EXPECT_EQ(up->button, MouseButton::kWheelUp);
    std::optional<InputEvent> down = decode_escape("[<65;10;20M");
    ASSERT_TRUE(down);
    EXPECT_EQ(down->button, MouseButton::kWheelDown);
    EXPECT_EQ(down->x, 9);
    EXPECT_EQ(down->y, 19);
    std::optional<InputEvent> x10 =
        decode_escape(std::string("[M") + char(32 + 2) + char(32 + 3) + char(32 + 4));
    ASSERT_TRUE(x10);
    EXPECT_EQ(x10->button, MouseButton::kRight);
    EXPECT_EQ(x10->x, 2);
    EXPECT_EQ(x10->y, 3);
}

TEST(TerminalKeyDecode, TerminfoExtendedNames) {
    EXPECT_EQ(decode_extended_key_name("kUP5").value_or("-"), "Ctrl-Up");
    EXPECT_EQ(decode_extended_key_name("kUP").value_or("-"), "Shift-Up");
    EXPECT_EQ(decode_extended_key_name("kLFT3").value_or("-"), "Alt-Left");
    EXPECT_EQ(decode_extended_key_name("kNXT6").value_or("-"), "Ctrl-Shift-PgDn");
    EXPECT_FALSE(decode_extended_key_name("kxIN"));
    EXPECT_FALSE(decode_extended_key_name("KEY_F(1)"));
}

// --- open() without a terminal ---------------------------------------------------------------

// Points descriptor `fd` at /dev/null for the scope.
class Redirect {
  public:
    explicit Redirect(int fd) : fd_(fd), saved_(::dup(fd)) {
        std::fflush(stdout);
        int null = ::open("/dev/null", O_RDWR);
        ::dup2(null, fd_);
        ::close(null);
    }
    ~Redirect() {
        std::fflush(stdout);
        ::dup2(saved_, fd_);
        ::close(saved_);
    }

  private:
    int fd_, saved_;
};

TEST(TerminalOpen, FailsCleanlyWhenStdinIsNotATty) {
    Result<std::unique_ptr<Terminal>> t = [] {
        Redirect in(STDIN_FILENO);
        return Terminal::open(TerminalOptions{});
    }();
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.error().message.find("tty"), std::string::npos) << t.error().message;
}

TEST(TerminalOpen, FailsCleanlyWhenStdoutIsNotATty) {
    Result<std::unique_ptr<Terminal>> t = [] {
        Redirect out(STDOUT_FILENO);
        return Terminal::open(TerminalOptions{});
    }();
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.error().message.find("tty"), std::string::npos) << t.error().message;
}

TEST(TerminalOpen, RestoreWithoutATerminalDoesNothing) {
    restore_terminal_now();  // no Terminal open: must neither crash nor write
}

// --- the probe on a pseudo-terminal ----------------------------------------------------------

using Clock = std::chrono::steady_clock;

class PtyProbe {
  public:
    PtyProbe(const std::string& mode, std::vector<std::string> env = {}) {
        winsize size{24, 80, 0, 0};
        int slave = -1;
        if (::openpty(&master_, &slave, nullptr, nullptr, &size) != 0) return;
        int report[2];
        if (::pipe(report) != 0) return;
        // A clean, fixed environment: what the probe sees must not depend on who runs the
        // tests (no COLORTERM, NO_COLOR or user themes from $HOME).
        bool has_term = false;
        for (const std::string& e : env) has_term |= e.rfind("TERM=", 0) == 0;
        if (!has_term) env.push_back("TERM=xterm-256color");
        env.push_back("LANG=C.UTF-8");
        env.push_back("PATH=/usr/bin:/bin");
        for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"})
            if (const char* v = std::getenv(name)) env.push_back(std::string(name) + "=" + v);
        std::vector<char*> envp;
        for (std::string& e : env) envp.push_back(e.data());
        envp.push_back(nullptr);
        std::string fd = std::to_string(report[1]);
        std::string probe = RUNTOP_TERMINAL_PROBE;
        std::vector<char*> argv = {probe.data(), const_cast<char*>(mode.c_str()), fd.data(),
                                   nullptr};
        pid_ = ::fork();
        if (pid_ == 0) {
            ::close(master_);
            ::close(report[0]);
            if (::login_tty(slave) != 0) ::_exit(126);
            ::execve(argv[0], argv.data(), envp.data());
            ::_exit(127);
        }
        // The slave stays open here: its modes can be read after the child is gone, and the
        // master never reads EIO while the child starts or after it exits.
        slave_ = slave;
        ::close(report[1]);
        report_ = report[0];
        ::fcntl(master_, F_SETFL, O_NONBLOCK);
        ::fcntl(report_, F_SETFL, O_NONBLOCK);
    }
    ~PtyProbe() {
        if (pid_ > 0 && !exited_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        for (int fd : {master_, slave_, report_})
            if (fd >= 0) ::close(fd);
    }
    bool started() const { return pid_ > 0; }

    // Reads the screen bytes and the reports until `done` or `timeout_ms`.
    bool pump(const std::function<bool()>& done, int timeout_ms) {
        auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
        while (!done()) {
            auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
            if (left.count() <= 0) return false;
            read_once(static_cast<int>(std::min<long>(left.count(), 50)));
        }
        return true;
    }
    bool wait_report(const std::string& prefix, int timeout_ms = 10000) {
        return pump([&] { return find_report(prefix) >= 0; }, timeout_ms);
    }
    int find_report(const std::string& prefix) const {
        for (std::size_t i = 0; i < reports.size(); ++i)
            if (reports[i].rfind(prefix, 0) == 0) return static_cast<int>(i);
        return -1;
    }
    // Reads until the screen side has been quiet for `quiet_ms`: the pty hands bytes over
    // asynchronously, a little after the child's write returned.
    void settle(int quiet_ms = 150) {
        auto deadline = Clock::now() + std::chrono::seconds(5);
        auto last = Clock::now();
        std::size_t seen = out.size();
        while (Clock::now() < deadline &&
               Clock::now() - last < std::chrono::milliseconds(quiet_ms)) {
            read_once(20);
            if (out.size() != seen) {
                seen = out.size();
                last = Clock::now();
            }
        }
    }
    void send(std::string_view bytes) {
        while (!bytes.empty()) {
            ssize_t w = ::write(master_, bytes.data(), bytes.size());
            if (w <= 0) return;
            bytes.remove_prefix(static_cast<std::size_t>(w));
        }
    }
    // The child's wait status, reading its output meanwhile; false on timeout.
    bool wait_exit(int& status, int timeout_ms = 10000) {
        bool ok = pump(
            [&] {
                if (exited_) return true;
                if (::waitpid(pid_, &status_, WNOHANG) == pid_) exited_ = true;
                return exited_;
            },
            timeout_ms);
        settle();
        status = status_;
        return ok;
    }
    termios modes() const {
        termios t{};
        ::tcgetattr(slave_, &t);
        return t;
    }

    std::string out;                   // everything the probe wrote to its terminal
    std::vector<std::string> reports;  // its report lines

  private:
    void read_once(int timeout_ms) {
        pollfd fds[2] = {{master_, POLLIN, 0}, {report_, POLLIN, 0}};
        if (::poll(fds, 2, timeout_ms) <= 0) return;
        char buf[4096];
        if (fds[0].revents & POLLIN) {
            ssize_t n;
            while ((n = ::read(master_, buf, sizeof buf)) > 0) out.append(buf, n);
        }
        if (fds[1].revents & (POLLIN | POLLHUP)) {
            ssize_t n;
            while ((n = ::read(report_, buf, sizeof buf)) > 0) partial_.append(buf, n);
            std::size_t nl;
            while ((nl = partial_.find('\n')) != std::string::npos) {
                reports.push_back(partial_.substr(0, nl));
                partial_.erase(0, nl + 1);
            }
        }
    }

    pid_t pid_ = -1;
    int master_ = -1, slave_ = -1, report_ = -1;
    bool exited_ = false;
    int status_ = 0;
    std::string partial_;
};

std::string printable(std::string_view s) {
    std::string out;
    for (unsigned char c : s) {
        if (c == 0x1b)
            out += "\\e";
        else if (c < 0x20 || c == 0x7f)
            out += "\\x" + std::to_string(c);
        else
            out += static_cast<char>(c);
    }
    return out;
}

bool cooked(const termios& t) {
    return (t.c_lflag & ICANON) && (t.c_lflag & ECHO);
}

// The terminal after the probe ended, however it ended: the output after the first frame
// leaves the alternate screen (last) and shows the cursor; the modes are cooked again.
void expect_restored(const PtyProbe& p, std::size_t frame_end) {
    std::string tail = p.out.substr(std::min(frame_end, p.out.size()));
    std::size_t rmcup = tail.rfind("\x1b[?1049l");
    EXPECT_NE(rmcup, std::string::npos) << printable(tail);
    EXPECT_NE(tail.find("\x1b[?25h"), std::string::npos) << printable(tail);
    EXPECT_TRUE(cooked(p.modes()));
}

TEST(TerminalPty, PresentsDiffsDecodesKeysAndRestores) {
    PtyProbe p("keys");
    ASSERT_TRUE(p.started());
    ASSERT_TRUE(p.wait_report("frame1")) << printable(p.out);
    p.settle();
    EXPECT_EQ(p.reports.front(), "opened 256 braille 80x24");
    // The first frame: the alternate screen, text with wide glyphs, 256-colour SGRs, bold.
    EXPECT_NE(p.out.find("\x1b[?1049h"), std::string::npos);
    EXPECT_NE(p.out.find("runtop probe"), std::string::npos) << printable(p.out);
    EXPECT_NE(p.out.find("漢字"), std::string::npos) << printable(p.out);
    EXPECT_NE(p.out.find("⣿⡇"), std::string::npos) << printable(p.out);
    EXPECT_NE(p.out.find("é"), std::string::npos);
    EXPECT_NE(p.out.find("┌─"), std::string::npos);
    EXPECT_NE(p.out.find("38;5;"), std::string::npos) << printable(p.out);
    EXPECT_NE(p.out.find("\x1b[?1000h\x1b[?1006h"), std::string::npos);  // SGR mouse reports
    // Raw while open: no line editing, no echo, no SIGINT from Ctrl-C.
    termios raw = p.modes();
    EXPECT_FALSE(raw.c_lflag & ICANON);
    EXPECT_FALSE(raw.c_lflag & ECHO);
    EXPECT_FALSE(raw.c_lflag & ISIG);
    std::size_t frame1_end = p.out.size();

    p.send(
        "\x1b[A"  // Up, normal mode (terminfo knows only \eOA): decoded by runtop
        "\x1bOB"  // Down, application mode: curses' own
        "q"
        "\x1b[1;2D"  // Shift-Left
        "\x1b[1;2C"  // Shift-Right
        "\x1b[1;5A"  // Ctrl-Up (terminfo's extended kUP5)
        "\x1b[Z"     // BackTab
        "\r"         // Enter
        "\x03"       // Ctrl-C
        "\x0c"       // Ctrl-L
        " "          // Space
        "é"
        "\x1b[5~"         // PgUp
        "\x1b[6~"         // PgDn
        "\x1bOP"          // F1
        "\x7f"            // Backspace
        "\x1b[I"          // focus in: dropped whole
        "\x1b[?1;2c"      // a device attributes answer: dropped whole
        "\x1b[<0;5;3M"    // left press at column 5, row 3 (1-based)
        "\x1b[<0;5;3m"    // its release: nothing
        "\x1b[<64;7;2M"   // wheel up
        "\x1b[<65;7;2M"   // wheel down
        "\x1b[<2;1;1M");  // right press
    ASSERT_TRUE(p.wait_report("mouse 0 0 right")) << testing::PrintToString(p.reports);
    p.send("\x1b");  // Esc alone: reported after ESCDELAY
    ASSERT_TRUE(p.wait_report("key Esc")) << testing::PrintToString(p.reports);
    p.send("!");
    ASSERT_TRUE(p.wait_report("frame2")) << testing::PrintToString(p.reports);
    p.settle();
    std::vector<std::string> expected = {
        "key Up 0",
        "key Down 0",
        "key q 1",
        "key Shift-Left 0",
        "key Shift-Right 0",
        "key Ctrl-Up 0",
        "key BackTab 0",
        "key Enter 0",
        "key Ctrl-C 0",
        "key Ctrl-L 0",
        "key Space 1",
        "key é 1",
        "key PgUp 0",
        "key PgDn 0",
        "key F1 0",
        "key Backspace 0",
        "mouse 4 2 left",
        "mouse 6 1 wheel-up",
        "mouse 6 1 wheel-down",
        "mouse 0 0 right",
        "key Esc 0",
        "key ! 1",
    };
    int first = p.find_report("frame1") + 1;
    int last = p.find_report("frame2");
    std::vector<std::string> got(p.reports.begin() + first, p.reports.begin() + last);
    EXPECT_EQ(got, expected);

    // The second frame changed one cell: a cursor move and a character, not a repaint.
    std::string frame2 = p.out.substr(frame1_end);
    std::cout << "[ bytes    ] one-cell frame: " << frame2.size() << " bytes: " << printable(frame2)
              << "\n";
    EXPECT_LT(frame2.size(), 200u) << printable(frame2);
    EXPECT_NE(frame2.find('2'), std::string::npos) << printable(frame2);
    EXPECT_EQ(frame2.find("runtop probe"), std::string::npos);

    p.send(".");
    int status = 0;
    ASSERT_TRUE(p.wait_exit(status));
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status << printable(p.out);
    std::size_t frame2_end = frame1_end + frame2.size();
    expect_restored(p, frame2_end);
    std::string tail = p.out.substr(frame2_end);
    EXPECT_NE(tail.find("\x1b[?1006l\x1b[?1000l"), std::string::npos) << printable(tail);
}

// A fatal end after the first frame; `signal` is what the child dies of without ASan (with
// it, ASan's SEGV report exits with an error code instead).
void expect_crash_restores(const std::string& mode, int signal) {
    PtyProbe p(mode);
    ASSERT_TRUE(p.started());
    ASSERT_TRUE(p.wait_report("frame1")) << printable(p.out);
    std::size_t frame1_end = 0;
    ASSERT_TRUE(p.pump([&] { return p.out.find("┌─") != std::string::npos; }, 5000));
    frame1_end = p.out.find("┌─");
    int status = 0;
    ASSERT_TRUE(p.wait_exit(status)) << printable(p.out);
    bool died = WIFSIGNALED(status) && WTERMSIG(status) == signal;
    bool sanitizer_exit = WIFEXITED(status) && WEXITSTATUS(status) != 0 && signal == SIGSEGV;
    EXPECT_TRUE(died || sanitizer_exit) << "status " << status << ": " << printable(p.out);
    expect_restored(p, frame1_end);
}

TEST(TerminalPty, RestoresAfterSegfault) {
    expect_crash_restores("segv", SIGSEGV);
}

TEST(TerminalPty, RestoresAfterAbort) {
    expect_crash_restores("abort", SIGABRT);
}

TEST(TerminalPty, RestoresAfterUncaughtExceptionBeforeTheMessage) {
    expect_crash_restores("terminate", SIGABRT);
    PtyProbe p("terminate");
    ASSERT_TRUE(p.wait_report("frame1"));
    int status = 0;
    ASSERT_TRUE(p.wait_exit(status));
    // The "terminate called..." message lands on the normal screen, after the restore.
    std::size_t message = p.out.find("deliberately uncaught");
    ASSERT_NE(message, std::string::npos) << printable(p.out);
    std::size_t rmcup = p.out.rfind("\x1b[?1049l");
    ASSERT_NE(rmcup, std::string::npos);
    EXPECT_LT(rmcup, message);
}

// `kill -QUIT`: the terminal back, then the end SIGQUIT's default action gives (a core dump
// where enabled).
TEST(TerminalPty, RestoresAfterSigquit) {
    expect_crash_restores("quit", SIGQUIT);
}

// Ctrl-\ on a terminal with ISIG on: the kernel's SIGQUIT (si_code SI_KERNEL, which a fault
// also has) must be raised again, not waited for like a fault that recurs.
TEST(TerminalPty, RestoresAfterSigquitFromTheKeyboard) {
    PtyProbe p("quit-key");
    ASSERT_TRUE(p.started());
    ASSERT_TRUE(p.wait_report("isig")) << printable(p.out);
    ASSERT_TRUE(p.pump([&] { return p.out.find("┌─") != std::string::npos; }, 5000));
    const std::size_t frame1_end = p.out.find("┌─");
    p.send("\x1c");  // Ctrl-\ (VQUIT)
    int status = 0;
    ASSERT_TRUE(p.wait_exit(status)) << printable(p.out);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGQUIT) << status;
    expect_restored(p, frame1_end);
}

// A SIGQUIT ignored from the start stays ignored: nothing is restored while the probe still
// draws; the one restore is its normal end's.
TEST(TerminalPty, AnIgnoredSigquitStaysIgnored) {
    PtyProbe p("quit-ignored");
    ASSERT_TRUE(p.started());
    ASSERT_TRUE(p.wait_report("frame2")) << printable(p.out);
    int status = 0;
    ASSERT_TRUE(p.wait_exit(status)) << printable(p.out);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    EXPECT_NE(p.find_report("survived"), -1);
    std::size_t leaves = 0;
    for (std::size_t at = p.out.find("\x1b[?1049l"); at != std::string::npos;
         at = p.out.find("\x1b[?1049l", at + 1))
        ++leaves;
    EXPECT_EQ(leaves, 1u) << printable(p.out);
    expect_restored(p, p.out.find("┌─"));
}

TEST(TerminalPty, RestoresOnExitWithTheTerminalStillOpen) {
    PtyProbe p("exit");
    ASSERT_TRUE(p.wait_report("frame1"));
    ASSERT_TRUE(p.pump([&] { return p.out.find("┌─") != std::string::npos; }, 5000));
    std::size_t frame1_end = p.out.find("┌─");
    int status = 0;
    ASSERT_TRUE(p.wait_exit(status));
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 7) << status;
    expect_restored(p, frame1_end);
}

// A $TERM terminfo does not know (a new emulator on an old host, or no database at all): the
// built-in xterm-256color stands in, so the dashboard starts, with 256 colours.
TEST(TerminalPty, UnknownTerminalTypeFallsBackToTheBuiltInXterm256color) {
    PtyProbe p("keys", {"TERM=no-such-terminal-runtop"});
    ASSERT_TRUE(p.wait_report("frame1")) << printable(p.out);
    EXPECT_EQ(p.reports[0], "opened 256 braille 80x24");
    EXPECT_NE(p.out.find("\x1b[?1049h"), std::string::npos) << printable(p.out);  // smcup
    EXPECT_NE(p.out.find("38;5;"), std::string::npos) << printable(p.out);
    p.send("!");
    ASSERT_TRUE(p.wait_report("frame2")) << testing::PrintToString(p.reports);
    p.send(".");
    int status = 0;
    ASSERT_TRUE(p.wait_exit(status));
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    EXPECT_TRUE(cooked(p.modes()));
}

// TERM=dumb says there is no cursor to move: no stand-in, a clean refusal.
TEST(TerminalPty, DumbTerminalFailsCleanly) {
    PtyProbe p("keys", {"TERM=dumb"});
    ASSERT_TRUE(p.wait_report("open-failed")) << printable(p.out);
    EXPECT_NE(p.reports[0].find("\"dumb\""), std::string::npos) << p.reports[0];
    int status = 0;
    ASSERT_TRUE(p.wait_exit(status));
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 3) << status;
    EXPECT_EQ(p.out.find("\x1b[?1049h"), std::string::npos) << printable(p.out);
    EXPECT_TRUE(cooked(p.modes()));
}

TEST(TerminalPty, NoColorKeepsAttributes) {
    PtyProbe p("exit", {"NO_COLOR=1"});
    ASSERT_TRUE(p.wait_report("frame1"));
    ASSERT_TRUE(p.pump([&] { return p.out.find("┌─") != std::string::npos; }, 5000));
    EXPECT_EQ(p.reports[0], "opened none braille 80x24");
    EXPECT_EQ(p.out.find("38;5;"), std::string::npos) << printable(p.out);
    // The alert title is bold: SGR 1 comes before it.
    std::size_t title = p.out.find("runtop probe");
    ASSERT_NE(title, std::string::npos);
    EXPECT_NE(p.out.rfind("1m", title), std::string::npos) << printable(p.out);
}

}  // namespace
}  // namespace runtop::ui
