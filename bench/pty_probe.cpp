// runtop_pty_probe: runs a command on a pseudo-terminal of a given size and measures what a
// terminal user feels: time to first frame, bytes written per frame, key latency, idle CPU.
//
//   runtop_pty_probe --size 250x80 [--wait-text TEXT] [--keys "j,j,k"] [--repeat K]
//                    [--quiet-ms 30] [--key-window-ms 1000] [--idle-seconds 5]
//                    [--quit-keys q] [--timeout-seconds 60] [--env NAME=VALUE]... [--dump FILE]
//                    -- CMD ARGS...
//
// The child gets TERM=xterm-256color and LANG=C.UTF-8 (plus --env) on a pty of the given size.
// Phases, in order:
//   1. startup: from exec to the first byte (first_output_ms) and to the first time the output
//      contains TEXT (first_frame_ms; matched on the bytes with escape sequences removed, so
//      colour changes inside the text do not hide it), then until output is quiet for
//      --quiet-ms (startup_bytes, startup_settle_ms).
//   2. keys: the comma-separated keys, the list sent --repeat times. Each key is sent once the
//      output is quiet; its latency is from the write to the first byte after it, its frame is
//      every byte until the output is quiet again (or --key-window-ms). A key with no output
//      within --key-window-ms counts in key_no_output.
//   3. idle: for --idle-seconds, nothing is sent; CPU time of the child (utime + stime of
//      /proc/PID/stat, all its threads) and the bytes and frames it writes are counted.
//      With an external writer appending to the watched files, the idle frames are the
//      "one value changed" frames.
//   4. quit: --quit-keys are sent (default: none, SIGTERM instead), exit status and the child's
//      total CPU time (wait4) are reported; after 5 s it is killed.
// A frame is a burst of output ending in a quiet gap of --quiet-ms. Key names: a single
// character is itself; Enter, Esc, Tab, Space, Backspace, Up, Down, Left, Right, Home, End,
// PgUp, PgDn, Ins, Del, F1..F12, C-a..C-z, comma; cursor keys follow the mode the program set
// (DECCKM). Output: key=value lines on stdout; times in ms with 3 decimals.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

double now_ms() {
    timespec ts;
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

struct Options {
    int cols = 250;
    int rows = 80;
    std::string wait_text;
    std::vector<std::string> keys;
    int repeat = 1;
    double quiet_ms = 30;
    double key_window_ms = 1000;
    double idle_seconds = 0;
    std::vector<std::string> quit_keys;
    double timeout_seconds = 60;
    std::vector<std::string> env;
    std::string dump_path;
    std::vector<std::string> command;
};

[[noreturn]] void usage(const char* why) {
    std::fprintf(
        stderr,
        "runtop_pty_probe: %s\n"
        "usage: runtop_pty_probe [--size COLSxROWS] [--wait-text TEXT] [--keys K1,K2,...]\n"
        "         [--repeat N] [--quiet-ms MS] [--key-window-ms MS] [--idle-seconds S]\n"
        "         [--quit-keys K1,...] [--timeout-seconds S] [--env NAME=VALUE]...\n"
        "         [--dump FILE] -- CMD ARGS...\n",
        why);
    std::exit(2);
}

std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(',', start);
        if (end == std::string::npos) end = text.size();
        if (end > start) out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

Options parse(int argc, char** argv) {
    Options o;
    int i = 1;
    auto value = [&](const char* name) -> std::string {
        if (i + 1 >= argc) usage((std::string(name) + " needs a value").c_str());
        return argv[++i];
    };
    for (; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--") {
            for (++i; i < argc; ++i) o.command.push_back(argv[i]);
            break;
        }
        if (a == "--size") {
            std::string v = value("--size");
            if (std::sscanf(v.c_str(), "%dx%d", &o.cols, &o.rows) != 2 || o.cols <= 0 ||
                o.rows <= 0)
                usage("--size is COLSxROWS");
        } else if (a == "--wait-text") {
            o.wait_text = value("--wait-text");
        } else if (a == "--keys") {
            o.keys = split_commas(value("--keys"));
        } else if (a == "--repeat") {
            o.repeat = std::atoi(value("--repeat").c_str());
        } else if (a == "--quiet-ms") {
            o.quiet_ms = std::atof(value("--quiet-ms").c_str());
        } else if (a == "--key-window-ms") {
            o.key_window_ms = std::atof(value("--key-window-ms").c_str());
        } else if (a == "--idle-seconds") {
            o.idle_seconds = std::atof(value("--idle-seconds").c_str());
        } else if (a == "--quit-keys") {
            o.quit_keys = split_commas(value("--quit-keys"));
        } else if (a == "--timeout-seconds") {
            o.timeout_seconds = std::atof(value("--timeout-seconds").c_str());
        } else if (a == "--env") {
            o.env.push_back(value("--env"));
        } else if (a == "--dump") {
            o.dump_path = value("--dump");
        } else {
            usage(("unknown option " + a).c_str());
        }
    }
    if (o.command.empty()) usage("no command after --");
    if (o.quiet_ms <= 0 || o.key_window_ms <= 0 || o.repeat < 0) usage("bad numeric option");
    return o;
}

// The bytes a key sends; application cursor mode (DECCKM) uses ESC O for the arrows.
bool key_bytes(const std::string& name, bool app_cursor, std::string* out) {
    const std::string csi = "\033[";
    const std::string cursor = app_cursor ? "\033O" : "\033[";
    static const char* const kF[] = {"\033OP",   "\033OQ",   "\033OR",   "\033OS",
                                     "\033[15~", "\033[17~", "\033[18~", "\033[19~",
                                     "\033[20~", "\033[21~", "\033[23~", "\033[24~"};
    if (name.size() == 1) {
        *out = name;
    } else if (name == "Enter") {
        *out = "\r";
    } else if (name == "Esc" || name == "Escape") {
        *out = "\033";
    } else if (name == "Tab") {
        *out = "\t";
    } else if (name == "Space") {
        *out = " ";
    } else if (name == "comma") {
        *out = ",";
    } else if (name == "Backspace" || name == "BSpace") {
        *out = "\x7f";
    } else if (name == "Up") {
        *out = cursor + "A";
    } else if (name == "Down") {
        *out = cursor + "B";
    } else if (name == "Right") {
        *out = cursor + "C";
    } else if (name == "Left") {
        *out = cursor + "D";
    } else if (name == "Home") {
        *out = cursor + "H";
    } else if (name == "End") {
        *out = cursor + "F";
    } else if (name == "PgUp" || name == "PageUp" || name == "PPage") {
        *out = csi + "5~";
    } else if (name == "PgDn" || name == "PageDown" || name == "NPage") {
        *out = csi + "6~";
    } else if (name == "Ins") {
        *out = csi + "2~";
    } else if (name == "Del") {
        *out = csi + "3~";
    } else if (name.size() >= 2 && name[0] == 'F' && std::atoi(name.c_str() + 1) >= 1 &&
               std::atoi(name.c_str() + 1) <= 12) {
        *out = kF[std::atoi(name.c_str() + 1) - 1];
    } else if (name.size() == 3 && name[0] == 'C' && name[1] == '-' &&
               ((name[2] >= 'a' && name[2] <= 'z') || (name[2] >= 'A' && name[2] <= 'Z'))) {
        *out = std::string(1, static_cast<char>((name[2] | 0x20) - 'a' + 1));
    } else {
        return false;
    }
    return true;
}

// Output with escape sequences (CSI, OSC, two-byte ESC x, charset designations) and control
// characters removed, so a text split by attribute changes is still found.
class TextMatcher {
  public:
    explicit TextMatcher(std::string text) : text_(std::move(text)) {}
    bool feed(const char* data, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) {
            unsigned char c = static_cast<unsigned char>(data[i]);
            switch (state_) {
                case kText:
                    if (c == 0x1b)
                        state_ = kEsc;
                    else if (c >= 0x20 || c == '\t')
                        plain_ += static_cast<char>(c);
                    else if (c == '\n' || c == '\r')
                        plain_ += ' ';
                    break;
                case kEsc:
                    state_ = c == '['                   ? kCsi
                             : c == ']'                 ? kOsc
                             : (c >= 0x20 && c <= 0x2f) ? kEscInt
                                                        : kText;
                    break;
                case kEscInt:
                    state_ = kText;  // ESC ( B and the like: one final byte
                    break;
                case kCsi:
                    if (c >= 0x40 && c <= 0x7e) state_ = kText;
                    break;
                case kOsc:
                    if (c == 0x07) state_ = kText;
                    if (c == 0x1b) state_ = kEsc;  // ST = ESC backslash
                    break;
            }
        }
        if (plain_.find(text_) != std::string::npos) return true;
        // Keep only the tail that could start a match.
        if (plain_.size() > 2 * text_.size() + 4096) plain_.erase(0, plain_.size() - text_.size());
        return false;
    }

  private:
    enum State { kText, kEsc, kEscInt, kCsi, kOsc };
    std::string text_;
    std::string plain_;
    State state_ = kText;
};

struct Stats {
    std::vector<double> v;
    void add(double x) { v.push_back(x); }
    double pct(double p) {
        if (v.empty()) return 0;
        std::sort(v.begin(), v.end());
        std::size_t idx = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
        return v[std::min(idx, v.size() - 1)];
    }
    double max() { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }
    double sum() const {
        double s = 0;
        for (double x : v) s += x;
        return s;
    }
};

class Probe {
  public:
    Probe(const Options& o) : o_(o) {}

    int run();

  private:
    // Reads what is available within `wait_ms` (0: no wait); returns bytes read, -1 on EOF.
    long read_some(double wait_ms);
    // Reads until the output has been quiet for quiet_ms, or until `deadline`; returns false on
    // EOF.
    bool settle(double deadline);
    void send(const std::string& bytes);
    double child_cpu_ms();
    void print(const char* key, double value) { std::printf("%s=%.3f\n", key, value); }
    void print(const char* key, long long value) { std::printf("%s=%lld\n", key, value); }

    const Options& o_;
    int fd_ = -1;
    pid_t pid_ = -1;
    double start_ = 0;
    double last_output_ = 0;    // time of the last byte
    double first_output_ = -1;  // time of the first byte
    long long total_ = 0;
    bool eof_ = false;
    bool app_cursor_ = false;
    std::string mode_tail_;  // for DECCKM detection across reads
    TextMatcher* matcher_ = nullptr;
    double matched_at_ = -1;
    std::FILE* dump_ = nullptr;
    // Frames: bursts separated by quiet gaps.
    Stats frame_bytes_;
    long long current_frame_ = 0;
    std::vector<double> frame_start_;  // when each frame of frame_bytes_ began
};

long Probe::read_some(double wait_ms) {
    if (eof_) return -1;
    pollfd p{fd_, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(wait_ms + 0.999));
    if (r < 0) return errno == EINTR ? 0 : -1;
    if (r == 0) return 0;
    char buf[65536];
    ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n <= 0) {
        if (n < 0 && errno == EINTR) return 0;
        eof_ = true;  // EIO: the child closed the terminal
        return -1;
    }
    double t = now_ms();
    if (first_output_ < 0) first_output_ = t;
    if (current_frame_ > 0 && t - last_output_ >= o_.quiet_ms) {
        frame_bytes_.add(static_cast<double>(current_frame_));
        current_frame_ = 0;
    }
    if (current_frame_ == 0) frame_start_.push_back(t);
    current_frame_ += n;
    last_output_ = t;
    total_ += n;
    if (dump_) std::fwrite(buf, 1, static_cast<std::size_t>(n), dump_);
    if (matcher_ && matched_at_ < 0 && matcher_->feed(buf, static_cast<std::size_t>(n)))
        matched_at_ = t;
    // DECCKM: ESC [ ? 1 h (application cursor keys, ncurses' keypad mode) / l.
    mode_tail_.append(buf, static_cast<std::size_t>(n));
    for (std::size_t pos = 0; (pos = mode_tail_.find("\033[?1", pos)) != std::string::npos; ++pos) {
        if (pos + 5 > mode_tail_.size()) break;
        char c = mode_tail_[pos + 4];
        if (c == 'h') app_cursor_ = true;
        if (c == 'l') app_cursor_ = false;
        // "\033[?1;..." or "\033[?1049h" are other modes: only a direct h/l counts.
    }
    if (mode_tail_.size() > 8) mode_tail_.erase(0, mode_tail_.size() - 8);
    return n;
}

bool Probe::settle(double deadline) {
    for (;;) {
        double t = now_ms();
        if (t >= deadline) return true;
        double quiet_for = t - std::max(last_output_, start_);
        if (quiet_for >= o_.quiet_ms) return true;
        long n = read_some(std::min(o_.quiet_ms - quiet_for, deadline - t));
        if (n < 0) return false;
    }
}

void Probe::send(const std::string& bytes) {
    std::size_t off = 0;
    while (off < bytes.size()) {
        ssize_t n = ::write(fd_, bytes.data() + off, bytes.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        off += static_cast<std::size_t>(n);
    }
}

double Probe::child_cpu_ms() {
    std::ifstream f("/proc/" + std::to_string(pid_) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::size_t close = stat.rfind(')');
    if (close == std::string::npos) return -1;
    // Fields after "(comm)": state is field 3; utime and stime are fields 14 and 15.
    std::vector<std::string> fields;
    std::size_t pos = close + 2;
    while (pos < stat.size()) {
        std::size_t end = stat.find(' ', pos);
        if (end == std::string::npos) end = stat.size();
        fields.push_back(stat.substr(pos, end - pos));
        pos = end + 1;
    }
    if (fields.size() < 13) return -1;
    double ticks = std::atof(fields[11].c_str()) + std::atof(fields[12].c_str());
    return ticks * 1000.0 / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

int Probe::run() {
    for (const std::string& k : o_.keys) {
        std::string bytes;
        if (!key_bytes(k, false, &bytes)) usage(("unknown key name " + k).c_str());
    }
    for (const std::string& k : o_.quit_keys) {
        std::string bytes;
        if (!key_bytes(k, false, &bytes)) usage(("unknown key name " + k).c_str());
    }
    if (!o_.dump_path.empty()) dump_ = std::fopen(o_.dump_path.c_str(), "wb");
    TextMatcher matcher(o_.wait_text);
    if (!o_.wait_text.empty()) matcher_ = &matcher;

    winsize ws{};
    ws.ws_col = static_cast<unsigned short>(o_.cols);
    ws.ws_row = static_cast<unsigned short>(o_.rows);
    start_ = now_ms();
    pid_ = ::forkpty(&fd_, nullptr, nullptr, &ws);
    if (pid_ < 0) {
        std::perror("forkpty");
        return 1;
    }
    if (pid_ == 0) {
        ::setenv("TERM", "xterm-256color", 1);
        ::setenv("LANG", "C.UTF-8", 1);
        ::unsetenv("LC_ALL");
        ::unsetenv("COLUMNS");
        ::unsetenv("LINES");
        for (const std::string& e : o_.env) ::putenv(const_cast<char*>(e.c_str()));
        std::vector<char*> args;
        for (const std::string& a : o_.command) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        ::execvp(args[0], args.data());
        std::fprintf(stderr, "runtop_pty_probe: cannot run %s: %s\n", args[0],
                     std::strerror(errno));
        ::_exit(127);
    }
    const double deadline = start_ + o_.timeout_seconds * 1000.0;
    std::printf("size=%dx%d\n", o_.cols, o_.rows);

    // 1. Startup.
    while (!eof_ && now_ms() < deadline) {
        if (first_output_ >= 0 && (matcher_ == nullptr || matched_at_ >= 0)) break;
        read_some(std::min(50.0, deadline - now_ms()));
    }
    print("first_output_ms", first_output_ >= 0 ? first_output_ - start_ : -1.0);
    if (matcher_) {
        print("wait_text_found", static_cast<long long>(matched_at_ >= 0));
        print("first_frame_ms", matched_at_ >= 0 ? matched_at_ - start_ : -1.0);
    }
    settle(deadline);
    print("startup_settle_ms", now_ms() - start_);
    print("startup_bytes", total_);

    // 2. Keys.
    Stats latency, frame_ms, key_bytes_stats;
    long long no_output = 0, keys_sent = 0;
    for (int r = 0; r < o_.repeat && !eof_; ++r) {
        for (const std::string& k : o_.keys) {
            if (eof_ || now_ms() >= deadline) break;
            settle(std::min(deadline, now_ms() + o_.key_window_ms));
            std::string bytes;
            key_bytes(k, app_cursor_, &bytes);
            const long long before = total_;
            const double sent = now_ms();
            send(bytes);
            ++keys_sent;
            const double window_end = std::min(deadline, sent + o_.key_window_ms);
            double first = -1;
            while (!eof_ && now_ms() < window_end) {
                if (first >= 0 && now_ms() - last_output_ >= o_.quiet_ms) break;
                double wait =
                    first >= 0 ? o_.quiet_ms - (now_ms() - last_output_) : window_end - now_ms();
                long n = read_some(std::max(1.0, wait));
                if (n > 0 && first < 0) first = last_output_;
            }
            if (first < 0) {
                ++no_output;
                continue;
            }
            latency.add(first - sent);
            frame_ms.add(last_output_ - sent);
            key_bytes_stats.add(static_cast<double>(total_ - before));
        }
    }
    print("keys_sent", keys_sent);
    print("key_no_output", no_output);
    if (!latency.v.empty()) {
        print("key_latency_ms_median", latency.pct(0.5));
        print("key_latency_ms_p95", latency.pct(0.95));
        print("key_latency_ms_max", latency.max());
        print("key_frame_ms_median", frame_ms.pct(0.5));
        print("key_frame_ms_p95", frame_ms.pct(0.95));
        print("key_frame_ms_max", frame_ms.max());
        print("key_bytes_median", key_bytes_stats.pct(0.5));
        print("key_bytes_max", key_bytes_stats.max());
        print("key_bytes_total", key_bytes_stats.sum());
    }

    // 3. Idle.
    if (o_.idle_seconds > 0 && !eof_) {
        settle(std::min(deadline, now_ms() + o_.key_window_ms));
        // Close the running frame so idle frames are counted on their own.
        if (current_frame_ > 0) {
            frame_bytes_.add(static_cast<double>(current_frame_));
            current_frame_ = 0;
        }
        const std::size_t frames_before = frame_bytes_.v.size();
        const long long bytes_before = total_;
        const double cpu_before = child_cpu_ms();
        const double idle_start = now_ms();
        const double idle_end = idle_start + o_.idle_seconds * 1000.0;
        while (!eof_ && now_ms() < idle_end) read_some(std::min(100.0, idle_end - now_ms()));
        const double cpu_after = child_cpu_ms();
        const double elapsed = now_ms() - idle_start;
        if (current_frame_ > 0 && now_ms() - last_output_ >= o_.quiet_ms) {
            frame_bytes_.add(static_cast<double>(current_frame_));
            current_frame_ = 0;
        }
        Stats idle_frames;
        idle_frames.v.assign(frame_bytes_.v.begin() + static_cast<long>(frames_before),
                             frame_bytes_.v.end());
        print("idle_seconds", elapsed / 1000.0);
        if (cpu_before >= 0 && cpu_after >= 0) {
            print("idle_cpu_ms", cpu_after - cpu_before);
            print("idle_cpu_percent", 100.0 * (cpu_after - cpu_before) / elapsed);
        }
        print("idle_bytes", total_ - bytes_before);
        print("idle_frames", static_cast<long long>(idle_frames.v.size()));
        if (!idle_frames.v.empty()) {
            // Each idle frame in order (before the statistics sort them): with a writer
            // appending once a second, the "one value changed" frames stand out from the
            // status-line ones.
            std::string sizes;
            for (std::size_t i = 0; i < idle_frames.v.size(); ++i) {
                const std::size_t k = frames_before + i;
                const double at = k < frame_start_.size() ? frame_start_[k] - idle_start : 0;
                sizes += (sizes.empty() ? "" : ",") + std::to_string(static_cast<long long>(at)) +
                         "ms:" + std::to_string(static_cast<long long>(idle_frames.v[i]));
            }
            std::printf("idle_frames_at=%s\n", sizes.c_str());
            print("idle_frame_bytes_median", idle_frames.pct(0.5));
            print("idle_frame_bytes_max", idle_frames.max());
        }
    }

    // 4. Quit.
    const double quit_at = now_ms();
    if (!eof_) {
        if (o_.quit_keys.empty()) {
            ::kill(pid_, SIGTERM);
        } else {
            for (const std::string& k : o_.quit_keys) {
                std::string bytes;
                key_bytes(k, app_cursor_, &bytes);
                send(bytes);
            }
        }
    }
    int status = 0;
    rusage ru{};
    bool reaped = false;
    const double kill_at = now_ms() + 5000;
    while (!reaped) {
        pid_t w = ::wait4(pid_, &status, WNOHANG, &ru);
        if (w == pid_) {
            reaped = true;
            break;
        }
        if (now_ms() >= kill_at) {
            ::kill(pid_, SIGKILL);
            ::wait4(pid_, &status, 0, &ru);
            print("killed", 1LL);
            reaped = true;
            break;
        }
        if (read_some(20) < 0) ::usleep(5000);  // drain so the child never blocks on writes
    }
    while (read_some(0) > 0) {
    }
    if (current_frame_ > 0) frame_bytes_.add(static_cast<double>(current_frame_));
    print("quit_ms", now_ms() - quit_at);
    print("exit_status",
          static_cast<long long>(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)));
    const double cpu_ms = (static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-3);
    print("total_cpu_ms", cpu_ms);
    print("total_ms", now_ms() - start_);
    print("total_bytes", total_);
    print("frames", static_cast<long long>(frame_bytes_.v.size()));
    if (!frame_bytes_.v.empty()) {
        print("frame_bytes_median", frame_bytes_.pct(0.5));
        print("frame_bytes_max", frame_bytes_.max());
    }
    print("timed_out", static_cast<long long>(now_ms() >= deadline));
    if (dump_) std::fclose(dump_);
    ::close(fd_);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o = parse(argc, argv);
    ::signal(SIGPIPE, SIG_IGN);
    Probe probe(o);
    return probe.run();
}
