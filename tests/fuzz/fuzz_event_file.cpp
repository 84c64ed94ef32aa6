// libFuzzer target: the input is an event file. It is read by EventFileReader from a memfd (as
// /proc/self/fd/N, which stat()s as a regular file) and these properties must hold, or the
// target aborts:
// 1. reading the bytes in two or three appends, polling after each, yields exactly the same
//    sink calls (series keys, steps, value and wall-time bits, texts, session starts) as
//    reading them all at once;
// 2. polling an unchanged file again yields nothing;
// 3. after the file is truncated: if the reader re-read it from the start, it yields what a
//    fresh reader of the shorter file yields, otherwise nothing; after it grows back to the
//    full bytes, everything since the re-read equals a fresh read of the full file.
// A custom mutator keeps the TFRecord framing valid most of the time (a random mutation
// almost never matches a CRC), so the decoder behind the reader is reached too.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/point_sink.h"
#include "readers/crc32c.h"
#include "readers/event_file_reader.h"

using namespace runtop;

extern "C" size_t LLVMFuzzerMutate(std::uint8_t* data, size_t size, size_t max_size);

namespace {

std::uint64_t bits_of(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
}

// One sink call, with the series resolved to its key so readers with different ids compare.
struct Call {
    char what;  // 's' scalar, 't' text, 'S' session start
    SeriesKey key;
    SourceId source = 0;  // scalars only
    std::int64_t step = 0;
    std::uint64_t value = 0, wall = 0;
    std::string text;
    bool operator==(const Call&) const = default;
};

class Sink final : public PointSink {
  public:
    SeriesId series(const SeriesKey& key, SourceId source) override {
        keys_.push_back({key, source});
        return static_cast<SeriesId>(keys_.size() - 1);
    }
    void append(SeriesId id, const Point& p) override {
        if (id >= keys_.size()) {
            std::fprintf(stderr, "append() with unknown series id %u\n", id);
            std::abort();
        }
        calls.push_back(Call{'s',
                             keys_[id].first,
                             keys_[id].second,
                             p.step,
                             bits_of(p.value),
                             bits_of(p.wall_time),
                             {}});
    }
    void session_start(std::string_view run, int rank, std::int64_t step, double wall) override {
        calls.push_back(
            Call{'S', SeriesKey{std::string(run), rank, {}}, 0, step, 0, bits_of(wall), {}});
    }
    void config_text(ConfigText t) override {
        calls.push_back(
            Call{'t', SeriesKey{t.run, t.rank, t.tag}, 0, t.step, 0, 0, std::move(t.text)});
    }
    void anomaly(ImportedAnomaly) override {}
    std::vector<Call> calls;

  private:
    std::vector<std::pair<SeriesKey, SourceId>> keys_;
};

int g_fd = -1;
std::string g_path;

void die(const char* what) {
    std::perror(what);
    std::abort();
}

void set_contents(const std::uint8_t* data, size_t size) {
    if (::ftruncate(g_fd, 0) != 0) die("ftruncate");
    if (size && ::pwrite(g_fd, data, size, 0) != static_cast<ssize_t>(size)) die("pwrite");
}

void append_contents(const std::uint8_t* data, size_t from, size_t to) {
    if (to > from && ::pwrite(g_fd, data + from, to - from, static_cast<off_t>(from)) !=
                         static_cast<ssize_t>(to - from))
        die("pwrite");
}

void poll(EventFileReader& reader) {
    do {  // a poll reads at most its budget of bytes
        Status s = reader.poll();
        if (!s) {
            std::fprintf(stderr, "poll failed: %s\n", s.error().message.c_str());
            std::abort();
        }
    } while (reader.more());
    reader.take_warnings();
}

std::vector<Call> read_fresh(const std::uint8_t* data, size_t size) {
    set_contents(data, size);
    Sink sink;
    EventFileReader reader(SourceFile{g_path, "run", 3}, sink);
    poll(reader);
    return std::move(sink.calls);
}

void describe(const char* label, const std::vector<Call>& calls) {
    std::fprintf(stderr, "%s: %zu calls\n", label, calls.size());
    for (const Call& c : calls)
        std::fprintf(stderr, "  %c %s/%d/%s step=%lld value=%016llx wall=%016llx text=%zu\n",
                     c.what, c.key.run.c_str(), c.key.rank, c.key.tag.c_str(),
                     static_cast<long long>(c.step), static_cast<unsigned long long>(c.value),
                     static_cast<unsigned long long>(c.wall), c.text.size());
}

void expect_equal(const char* property, const std::vector<Call>& expected,
                  const std::vector<Call>& got) {
    if (expected == got) return;
    std::fprintf(stderr, "PROPERTY VIOLATED: %s\n", property);
    describe("expected", expected);
    describe("got", got);
    std::abort();
}

std::uint64_t hash_bytes(const std::uint8_t* data, size_t size) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

// --- structure-aware mutation ---

struct Rec {
    size_t at, n;
};

std::vector<Rec> records_of(const std::uint8_t* data, size_t size) {
    std::vector<Rec> out;
    size_t pos = 0;
    while (size - pos >= 16) {
        std::uint64_t n;
        std::memcpy(&n, data + pos, 8);
        if (n > size - pos - 16) break;
        out.push_back({pos, static_cast<size_t>(n)});
        pos += 16 + static_cast<size_t>(n);
    }
    return out;
}

void put_crcs(std::uint8_t* rec, size_t n) {
    std::uint32_t c = masked_crc32c(rec, 8);
    std::memcpy(rec + 8, &c, 4);
    c = masked_crc32c(rec + 12, n);
    std::memcpy(rec + 12 + n, &c, 4);
}

void fix_crcs(std::uint8_t* data, size_t size) {
    for (const Rec& r : records_of(data, size)) put_crcs(data + r.at, r.n);
}

std::string frame(const std::uint8_t* payload, size_t n) {
    std::string out(16 + n, '\0');
    std::uint64_t len = n;
    std::memcpy(out.data(), &len, 8);
    if (n) std::memcpy(out.data() + 12, payload, n);
    put_crcs(reinterpret_cast<std::uint8_t*>(out.data()), n);
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    g_fd = ::memfd_create("fuzz_event_file", MFD_CLOEXEC);
    if (g_fd < 0) die("memfd_create");
    g_path = "/proc/self/fd/" + std::to_string(g_fd);
    // The reader must accept the memfd path as a regular file, or every input is wasted.
    const std::uint8_t probe[] = {1, 2, 3};
    set_contents(probe, sizeof probe);
    Sink sink;
    EventFileReader reader(SourceFile{g_path, "run", 3}, sink);
    poll(reader);
    if (reader.offset() != 0 || reader.stats().resyncs != 0) {
        std::fprintf(stderr, "unexpected reader state on the memfd probe\n");
        std::abort();
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const std::uint64_t h = hash_bytes(data, size);

    // All at once, then an idle poll.
    std::vector<Call> whole;
    {
        set_contents(data, size);
        Sink sink;
        EventFileReader reader(SourceFile{g_path, "run", 3}, sink);
        poll(reader);
        whole = sink.calls;
        poll(reader);
        expect_equal("polling an unchanged file again yields nothing", whole, sink.calls);
    }

    // In two or three appends.
    size_t cut1 = size ? static_cast<size_t>(h % (size + 1)) : 0;
    size_t cut2 = (h >> 32) & 1 ? cut1 + static_cast<size_t>((h >> 33) % (size - cut1 + 1)) : size;
    set_contents(data, cut1);
    Sink sink;
    EventFileReader reader(SourceFile{g_path, "run", 3}, sink);
    poll(reader);
    append_contents(data, cut1, cut2);
    poll(reader);
    append_contents(data, cut2, size);
    poll(reader);
    expect_equal("reading in appends yields what reading at once yields", whole, sink.calls);
    if (size == 0) return 0;

    // Truncated, then grown back to the full bytes.
    const size_t cut = static_cast<size_t>((h >> 7) % size);
    const std::uint64_t resets = reader.stats().resets;
    const size_t before = sink.calls.size();
    if (::ftruncate(g_fd, static_cast<off_t>(cut)) != 0) die("ftruncate");
    poll(reader);
    const bool reset = reader.stats().resets != resets;
    std::vector<Call> after(sink.calls.begin() + static_cast<std::ptrdiff_t>(before),
                            sink.calls.end());
    append_contents(data, cut, size);
    poll(reader);
    std::vector<Call> regrown(sink.calls.begin() + static_cast<std::ptrdiff_t>(before),
                              sink.calls.end());
    if (!reset) {
        expect_equal("a truncation that does not reach the reader's offset yields nothing", {},
                     regrown);
    } else {
        expect_equal("after a truncation and a re-read, the file grown back reads as new", whole,
                     regrown);
        expect_equal("after a truncation, the re-read yields what a fresh read yields",
                     read_fresh(data, cut), after);
    }
    return 0;
}

// Mostly keeps the framing valid: mutates one record's payload and re-frames it, or mutates
// raw bytes and then fixes every CRC it can, or repeats or drops a record, or plants a header
// with a valid length CRC (corrupt-data resync, oversized records); sometimes only raw bytes.
extern "C" size_t LLVMFuzzerCustomMutator(std::uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
    std::minstd_rand rng(seed);
    const unsigned mode = rng() % 9;
    if (mode == 0 || size == 0) return LLVMFuzzerMutate(data, size, max_size);
    if (mode == 8) {  // plant a header with a valid length CRC anywhere, any length
        if (size < 12) return LLVMFuzzerMutate(data, size, max_size);
        const size_t at = rng() % (size - 11);
        std::uint64_t n = 0;
        switch (rng() % 4) {
            case 0:
                n = rng() % 64;
                break;
            case 1:
                n = size - at >= 16 ? size - at - 16 : 0;
                break;  // ends at the end
            case 2:
                n = EventFileReader::kMaxRecordBytes + 1 + rng() % 4096;
                break;
            default:
                n = (std::uint64_t{rng()} << 33) ^ (std::uint64_t{rng()} << 2) ^ rng();
        }
        std::memcpy(data + at, &n, 8);
        const std::uint32_t c = masked_crc32c(data + at, 8);
        std::memcpy(data + at + 8, &c, 4);
        return size;
    }
    std::vector<Rec> recs = records_of(data, size);
    if (mode <= 2 || recs.empty()) {
        size = LLVMFuzzerMutate(data, size, max_size);
        fix_crcs(data, size);
        return size;
    }
    const Rec r = recs[rng() % recs.size()];
    std::string out(reinterpret_cast<const char*>(data), r.at);
    if (mode <= 5) {  // mutate one payload in place
        std::vector<std::uint8_t> payload(data + r.at + 12, data + r.at + 12 + r.n);
        const size_t room = max_size - (size - r.n - 16) - 16;  // >= r.n
        if (room == 0) return LLVMFuzzerMutate(data, size, max_size);
        payload.resize(std::max(room, r.n) + 1);
        size_t n = LLVMFuzzerMutate(payload.data(), r.n, std::min(room, payload.size()));
        out += frame(payload.data(), n);
        out.append(reinterpret_cast<const char*>(data) + r.at + 16 + r.n, size - r.at - 16 - r.n);
    } else if (mode == 6) {  // repeat one record after itself
        out.append(reinterpret_cast<const char*>(data) + r.at, size - r.at);
        out.insert(r.at + 16 + r.n, reinterpret_cast<const char*>(data) + r.at, 16 + r.n);
    } else {  // drop one record
        out.append(reinterpret_cast<const char*>(data) + r.at + 16 + r.n, size - r.at - 16 - r.n);
    }
    if (out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
    std::memcpy(data, out.data(), out.size());
    return out.size();
}
