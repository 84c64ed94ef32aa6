// libFuzzer target for the CSV engine and every CSV reader. Input: byte 0 picks the reader
// (msProbe v1, msProbe v2, DeepSpeed, Lightning / plain), bytes 1-2 pick where the file is
// split into appends, the rest is the file. Properties (the target aborts when one fails):
// 1. reading the file in one go, and reading it appended in three pieces with a poll after
//    each, deliver exactly the same points (series key, step, value bits): no point is lost
//    or delivered twice whatever the boundaries of the writer's appends;
// 2. polling an unchanged file again delivers nothing;
// 3. the tokenizer consumes a prefix ending in '\n', and resuming it at any split point
//    yields the records of a single pass.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/point_sink.h"
#include "readers/csv_tokenizer.h"
#include "readers/msprobe_csv_reader.h"
#include "readers/step_table_csv_reader.h"

using namespace runtop;

namespace {

struct Call {
    SeriesKey key;
    std::int64_t step;
    std::uint64_t bits;
    bool operator==(const Call&) const = default;
};

class Sink final : public PointSink {
  public:
    SeriesId series(const SeriesKey& key, SourceId) override {
        keys_.push_back(key);
        return static_cast<SeriesId>(keys_.size() - 1);
    }
    void append(SeriesId id, const Point& p) override {
        if (id >= keys_.size()) std::abort();
        std::uint64_t bits;
        std::memcpy(&bits, &p.value, 8);
        calls.push_back({keys_[id], p.step, bits});
    }
    void session_start(std::string_view, int, std::int64_t, double) override {}
    void config_text(ConfigText) override {}
    void anomaly(ImportedAnomaly) override {}
    std::vector<Call> calls;

  private:
    std::vector<SeriesKey> keys_;
};

struct Kind {
    const char* name;
    SourceFormat format;
};
constexpr Kind kKinds[] = {{"grad_reduced_0-4.csv", SourceFormat::kMsProbeCsv},
                           {"module_step0-9.csv", SourceFormat::kMsProbeV2Csv},
                           {"Train_Samples_loss.csv", SourceFormat::kDeepSpeedCsv},
                           {"metrics.csv", SourceFormat::kLightningCsv}};

std::string g_dir;

void die(const char* what) {
    std::perror(what);
    std::abort();
}

void write_bytes(const std::string& path, const std::uint8_t* data, size_t size, bool append) {
    FILE* f = std::fopen(path.c_str(), append ? "ab" : "wb");
    if (!f) die("fopen");
    if (size && std::fwrite(data, 1, size, f) != size) die("fwrite");
    if (std::fclose(f) != 0) die("fclose");
}

std::unique_ptr<SourceReader> make(const SourceFile& file, PointSink& sink) {
    if (file.format == SourceFormat::kMsProbeCsv || file.format == SourceFormat::kMsProbeV2Csv)
        return std::make_unique<MsProbeCsvReader>(file, sink);
    return std::make_unique<StepTableCsvReader>(file, sink);
}

void poll(SourceReader& reader) {
    do {  // a poll reads at most its budget of bytes
        Status s = reader.poll();
        if (!s) {
            std::fprintf(stderr, "poll failed: %s\n", s.error().message.c_str());
            std::abort();
        }
    } while (reader.more());
    reader.take_warnings();
}

void expect(bool ok, const char* property) {
    if (ok) return;
    std::fprintf(stderr, "PROPERTY VIOLATED: %s\n", property);
    std::abort();
}

void check_tokenizer(const std::uint8_t* data, size_t size, size_t split) {
    using Records = std::vector<std::vector<std::string>>;
    auto collect = [](Records& out) {
        return [&out](std::span<const std::string_view> f, std::size_t) {
            out.emplace_back(f.begin(), f.end());
        };
    };
    const char* text = reinterpret_cast<const char*>(data);
    CsvTokenizer once;
    Records whole;
    size_t used = once.split(text, size, collect(whole));
    expect(used <= size && (used == 0 || text[used - 1] == '\n'), "tokenizer consumes whole lines");
    CsvTokenizer resumed;
    Records parts;
    size_t first = resumed.split(text, split, collect(parts));
    size_t second = resumed.split(text + first, size - first, collect(parts));
    expect(first + second == used && parts == whole, "tokenizer resumes at any split point");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    std::string base = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    g_dir = base + "/runtop-fuzz-csv-" + std::to_string(::getpid());
    if (::mkdir(g_dir.c_str(), 0700) != 0) die("mkdir");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    if (size < 3) return 0;
    const Kind& kind = kKinds[data[0] % 4];
    const size_t body = size - 3;
    const std::uint8_t* text = data + 3;
    size_t a = body * data[1] / 255, b = body * data[2] / 255;
    if (a > b) std::swap(a, b);
    check_tokenizer(text, body, a);

    const std::string path = g_dir + "/" + kind.name;
    const SourceFile file{path, "run", 1, kind.format};
    write_bytes(path, text, body, false);
    Sink once_sink;
    {
        auto reader = make(file, once_sink);
        poll(*reader);
        size_t before = once_sink.calls.size();
        poll(*reader);
        expect(once_sink.calls.size() == before, "an unchanged file delivers nothing more");
    }

    Sink parts_sink;
    auto reader = make(file, parts_sink);
    write_bytes(path, text, a, false);
    poll(*reader);
    write_bytes(path, text + a, b - a, true);
    poll(*reader);
    write_bytes(path, text + b, body - b, true);
    poll(*reader);
    if (!(parts_sink.calls == once_sink.calls)) {
        std::fprintf(stderr, "one pass: %zu points, in appends at %zu and %zu: %zu points\n",
                     once_sink.calls.size(), a, b, parts_sink.calls.size());
        expect(false, "appends in pieces deliver the points of one pass");
    }
    ::unlink(path.c_str());
    return 0;
}
