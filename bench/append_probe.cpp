// runtop_append_probe: the writer side of the dashboard benchmarks (run_bench.sh "dashboard").
//
//   runtop_append_probe create DIR TAGS RANKS STEPS
//       DIR/rank_<r>/events.out.tfevents.1 for RANKS ranks, TAGS tags ("train/loss", then
//       "layers/stat_<i>"), STEPS steps each: a run whose overview has TAGS cards.
//   runtop_append_probe append FILE TAG FIRST_STEP COUNT INTERVAL_MS [VALUE]
//       appends COUNT points of TAG to FILE, one every INTERVAL_MS (O_APPEND, one write per
//       record, as a training job's writer flushes), values VALUE (default 1.5) plus 0.001 a
//       step: each is "one value changed" for the dashboard watching FILE. A VALUE inside the
//       series' range changes only that; one outside it rescales the card, as it should.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace {

double wall_now() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

int usage() {
    std::fprintf(
        stderr,
        "usage: runtop_append_probe create DIR TAGS RANKS STEPS\n"
        "       runtop_append_probe append FILE TAG FIRST_STEP COUNT INTERVAL_MS [VALUE]\n");
    return 2;
}

bool write_all(int fd, const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

int create(const std::string& dir, int tags, int ranks, int steps) {
    ::mkdir(dir.c_str(), 0755);
    const double wall0 = wall_now() - steps;
    for (int r = 0; r < ranks; ++r) {
        const std::string d = dir + "/rank_" + std::to_string(r);
        ::mkdir(d.c_str(), 0755);
        std::string bytes;
        for (int s = 0; s < steps; ++s)
            for (int t = 0; t < tags; ++t) {
                const std::string tag = t == 0 ? "train/loss" : "layers/stat_" + std::to_string(t);
                const double v =
                    (1 + t % 7) * (1 + std::exp(-s / 300.0)) + 0.01 * std::sin(s * 0.37 + r + t);
                bytes += runtop::frame_record(
                    runtop::events::simple_scalar(tag, static_cast<float>(v), s, wall0 + s));
            }
        const std::string file = d + "/events.out.tfevents.1";
        const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0 || !write_all(fd, bytes)) {
            std::fprintf(stderr, "runtop_append_probe: %s: cannot write\n", file.c_str());
            return 1;
        }
        ::close(fd);
    }
    return 0;
}

int append(const std::string& file, const std::string& tag, long first, long count, int ms,
           double base) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) {
        std::fprintf(stderr, "runtop_append_probe: %s: cannot open for appending\n", file.c_str());
        return 1;
    }
    for (long i = 0; i < count; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        const auto v = static_cast<float>(base + 0.001 * static_cast<double>(i));
        if (!write_all(fd, runtop::frame_record(
                               runtop::events::simple_scalar(tag, v, first + i, wall_now()))))
            return 1;
    }
    ::close(fd);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    const std::string mode = argv[1];
    if (mode == "create" && argc == 6)
        return create(argv[2], std::atoi(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]));
    if (mode == "append" && (argc == 7 || argc == 8))
        return append(argv[2], argv[3], std::atol(argv[4]), std::atol(argv[5]), std::atoi(argv[6]),
                      argc == 8 ? std::atof(argv[7]) : 1.5);
    return usage();
}
