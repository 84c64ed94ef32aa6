#include "tests/test_support.h"

#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace runtop::testing {

TempDir::TempDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/runtop-test-XXXXXX";
    if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
}

TempDir::~TempDir() {
    std::string cmd = "chmod -R u+rwx '" + path_ + "' 2>/dev/null; rm -rf '" + path_ + "'";
    if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "could not remove %s\n", path_.c_str());
}

void make_dirs(const std::string& path) {
    std::string partial;
    for (std::size_t i = 0; i <= path.size(); ++i) {
        if ((i == path.size() || path[i] == '/') && !partial.empty())
            ::mkdir(partial.c_str(), 0755);
        if (i < path.size()) partial += path[i];
    }
}

void write_file(const std::string& path, std::string_view bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void append_file(const std::string& path, std::string_view bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::app);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void expect_same_lines(const std::vector<std::string>& want, const std::vector<std::string>& got,
                       const char* what) {
    ASSERT_EQ(want.size(), got.size()) << what;
    for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(want[i], got[i]) << what << " " << i;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

bool same_bits(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

std::string samples_dir() {
    std::string dir = RUNTOP_SAMPLES_DIR;
    struct stat st;
    return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) ? dir : "";
}

std::string runtop_binary() {
    const char* chosen = std::getenv("RUNTOP_TEST_BINARY");
    return chosen && *chosen ? chosen : RUNTOP_BINARY;
}

CommandResult run_runtop(const std::vector<std::string>& args, const RunOptions& options) {
    const std::string binary = runtop_binary();
    TempDir tmp;
    std::string out_path = tmp / "out", err_path = tmp / "err";
    const rlimit files{options.max_open_files, options.max_open_files};
    pid_t pid = ::fork();
    if (pid == 0) {
        int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(out, 1);
        ::dup2(err, 2);
        ::close(out);
        ::close(err);
        if (options.max_open_files != 0 && ::setrlimit(RLIMIT_NOFILE, &files) != 0) ::_exit(125);
        if (options.cpus != 0) {
            cpu_set_t allowed, chosen;
            CPU_ZERO(&chosen);
            if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) ::_exit(124);
            std::size_t taken = 0;
            for (int c = 0; c < CPU_SETSIZE && taken < options.cpus; ++c)
                if (CPU_ISSET(c, &allowed)) {
                    CPU_SET(c, &chosen);
                    ++taken;
                }
            if (::sched_setaffinity(0, sizeof chosen, &chosen) != 0) ::_exit(124);
        }
        // The output files stay open across the switch: nobody needs no access to them.
        if (options.as_nobody &&
            (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0))
            ::_exit(126);
        std::vector<char*> argv;
        argv.push_back(const_cast<char*>(binary.c_str()));
        std::vector<std::string> copy = args;
        for (std::string& a : copy) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(binary.c_str(), argv.data());
        ::_exit(127);
    }
    int status = 0;
    struct rusage usage {};
    ::wait4(pid, &status, 0, &usage);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), read_file(out_path),
            read_file(err_path), usage.ru_maxrss};
}

std::size_t usable_cpus() {
    cpu_set_t set;
    if (::sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    return static_cast<std::size_t>(CPU_COUNT(&set));
}

CommandResult run_runtop_as_nobody(const std::vector<std::string>& args) {
    RunOptions options;
    options.as_nobody = true;
    return run_runtop(args, options);
}

SeriesId RecordingSink::series(const SeriesKey& key, SourceId source) {
    keys.push_back(key);
    sources.push_back(source);
    return static_cast<SeriesId>(keys.size() - 1);
}

void RecordingSink::append(SeriesId id, const Point& point) {
    (series_source(sources.at(id)).quantile >= 0 ? quantiles : scalars)
        .push_back({keys.at(id), point});
}

void RecordingSink::session_start(std::string_view, int, std::int64_t step, double) {
    starts.push_back(step);
}

CommandResult run_runtop_without_root(const std::vector<std::string>& args) {
    return ::geteuid() == 0 ? run_runtop_as_nobody(args) : run_runtop(args);
}

}  // namespace runtop::testing
