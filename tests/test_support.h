// Shared test helpers: temporary directories, file writes, a recording sink, the samples dir.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/point_sink.h"

namespace runtop::testing {

class TempDir {
  public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    std::string operator/(std::string_view name) const { return path_ + "/" + std::string(name); }

  private:
    std::string path_;
};

void make_dirs(const std::string& path);
void write_file(const std::string& path, std::string_view bytes);
void append_file(const std::string& path, std::string_view bytes);
std::string read_file(const std::string& path);
// The lines of a text, without their '\n'.
std::vector<std::string> split_lines(const std::string& text);
// Two lists of lines equal, the first difference named by its index and `what` (gtest would
// print both lists whole: thousands of lines). Fatal failures: call it under
// ASSERT_NO_FATAL_FAILURE to stop there.
void expect_same_lines(const std::vector<std::string>& want, const std::vector<std::string>& got,
                       const char* what);

// Equal values, NaN equal to NaN (a point read back must be the point written).
inline bool same(double a, double b) {
    return (a != a && b != b) || a == b;
}

// Deterministic, roughly normal noise (a sum of four uniforms from an LCG, variance 1/3), so
// fixtures are the same on every machine and standard library.
class FixtureNoise {
  public:
    explicit FixtureNoise(std::uint64_t seed) : state_(seed) {}
    double operator()() {
        double s = 0;
        for (int i = 0; i < 4; ++i) {
            state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
            s += static_cast<double>(state_ >> 11) / 9007199254740992.0 - 0.5;
        }
        return s;
    }

  private:
    std::uint64_t state_;
};

// ../shared/samples, or "" when it is absent (a user's clone has none).
std::string samples_dir();

// Bit for bit the same double, any NaN equal to any NaN: what lossless storage and parsing
// must keep (-0.0 is not 0.0).
bool same_bits(double a, double b);

// Runs the runtop binary; returns the exit code and captures stdout and stderr.
struct CommandResult {
    int exit_code;
    std::string out;
    std::string err;
    long max_rss_kb = 0;  // the child's peak resident set (wait4's ru_maxrss)
};
struct RunOptions {
    std::uint64_t max_open_files = 0;  // RLIMIT_NOFILE of the child; 0: inherited
    bool as_nobody = false;            // see run_runtop_as_nobody()
    std::size_t cpus = 0;  // runs on the first this many CPUs it may use (as taskset); 0: all
};
// The CPUs this process may run on (taskset counts).
std::size_t usable_cpus();
// The runtop binary the tests drive: this build's, or $RUNTOP_TEST_BINARY when set (`make
// test-portable` runs the same tests against the static runtop-portable).
std::string runtop_binary();
CommandResult run_runtop(const std::vector<std::string>& args, const RunOptions& options = {});
// The same as user `nobody` (uid 65534), so file permissions apply: for tests run as root
// (root reads a chmod 000 file). Only when geteuid() == 0; the files it reads must be
// reachable by others (TempDir is 0700: chmod it 0755).
CommandResult run_runtop_as_nobody(const std::vector<std::string>& args);
// As nobody when the tests run as root, else as is: wherever file permissions must apply.
CommandResult run_runtop_without_root(const std::vector<std::string>& args);

// Records every sink call in order.
class RecordingSink : public PointSink {
  public:
    struct Scalar {
        SeriesKey key;
        Point point;
    };
    SeriesId series(const SeriesKey& key, SourceId source) override;
    void append(SeriesId id, const Point& point) override;
    void session_start(std::string_view run, int rank, std::int64_t step, double wall) override;
    void config_text(ConfigText text) override { texts.push_back(std::move(text)); }
    void anomaly(ImportedAnomaly a) override { anomalies.push_back(std::move(a)); }

    std::vector<SeriesKey> keys;
    std::vector<SourceId> sources;  // per series, as its reader described it
    const SeriesSource& source(std::size_t series) const {
        return series_source(sources.at(series));
    }
    std::vector<Scalar> scalars;    // every point but a histogram's
    std::vector<Scalar> quantiles;  // a histogram's quantile points (core/distribution.h)
    std::vector<std::int64_t> starts;
    std::vector<ConfigText> texts;
    std::vector<ImportedAnomaly> anomalies;
};

}  // namespace runtop::testing
