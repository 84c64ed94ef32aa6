// Seed corpora for the fuzzers, written at run time into the (gitignored) build directory:
//   fuzz_seedgen generate FILE_DIR PAYLOAD_DIR
//       event files and Event payloads built with runtop's own writer (every scalar encoding,
//       text, histogram, session start, MindSpore, corruption, torn tails) and the tensors
//       inside them (tensor_scalar_value runs on the decoder fuzzer's input);
//   fuzz_seedgen extract FILE_DIR PAYLOAD_DIR FILE_MAX PAYLOAD_MAX SAMPLE...
//       from sample event files: the first FILE_MAX bytes, a file of the records that fit in
//       FILE_MAX, and up to 16 payloads of at most PAYLOAD_MAX bytes each.
// Seed names are content hashes, so running it again adds nothing twice.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "readers/protowire.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

using namespace runtop;
namespace ev = runtop::events;

namespace {

void save(const std::string& dir, std::string_view prefix, std::string_view bytes) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
    char name[32];
    std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(h));
    std::ofstream out(dir + "/" + std::string(prefix) + "-" + name, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
        std::fprintf(stderr, "fuzz_seedgen: cannot write in %s\n", dir.c_str());
        std::exit(1);
    }
}

// Summary.value[0].tensor of an Event, or "".
std::string_view tensor_of(std::string_view event) {
    auto field = [](std::string_view msg, std::uint32_t want) -> std::string_view {
        wire::Cursor c(msg);
        std::uint32_t f;
        wire::WireType t;
        while (c.next(f, t)) {
            if (f == want && t == wire::kLengthDelimited) return c.bytes();
            c.skip(t);
        }
        return {};
    };
    return field(field(field(event, 5), 1), 8);
}

int generate(const std::string& file_dir, const std::string& payload_dir) {
    std::vector<std::string> tf2, torch, mindspore;
    double wall = 1700000000.25;
    tf2.push_back(ev::file_version(wall));
    torch.push_back(ev::file_version(wall));
    mindspore.push_back(ev::file_version(wall, "MindSpore.Event:1"));
    const ev::DType dtypes[] = {ev::DType::kFloat,  ev::DType::kDouble, ev::DType::kInt32,
                                ev::DType::kUInt8,  ev::DType::kInt16,  ev::DType::kInt8,
                                ev::DType::kInt64,  ev::DType::kBool,   ev::DType::kBFloat16,
                                ev::DType::kUInt16, ev::DType::kHalf,   ev::DType::kUInt32,
                                ev::DType::kUInt64};
    std::int64_t step = 0;
    for (ev::DType d : dtypes) {
        for (ev::Encoding e : {ev::Encoding::kTypedField, ev::Encoding::kTensorContent}) {
            tf2.push_back(ev::tensor_scalar("m/" + std::to_string(static_cast<int>(d)), d, 3.0, e,
                                            step, wall + step, step % 2 == 0, step % 3 == 0));
            ++step;
        }
    }
    tf2.push_back(ev::text("config", "lr: 0.1\nbatch: 32", 0, wall));
    tf2.push_back(ev::histogram("weights", {0.5, 1.5, -2.0}, 1, wall));
    for (std::int64_t s = 0; s < 6; ++s) {
        torch.push_back(
            ev::simple_scalar("train/loss", 2.5f / static_cast<float>(s + 1), s, wall + s));
        torch.push_back(ev::simple_scalar("0:fc1.input:0/rank1/actv_norm", 0.5f, s, wall + s));
        if (s == 3) torch.push_back(ev::session_start(2, wall + s));
    }
    for (std::int64_t s = 0; s < 4; ++s)
        mindspore.push_back(
            ev::mindspore_scalar("loss", 1.0f / static_cast<float>(s + 1), s, wall));

    auto file_of = [](const std::vector<std::string>& payloads) {
        std::string out;
        for (const std::string& p : payloads) out += frame_record(p);
        return out;
    };
    for (const auto* set : {&tf2, &torch, &mindspore}) {
        const std::string file = file_of(*set);
        save(file_dir, "gen", file);
        save(file_dir, "gen", file.substr(0, file.size() - 7));  // torn last record
        for (const std::string& p : *set) {
            save(payload_dir, "gen", p);
            std::string_view t = tensor_of(p);
            if (!t.empty()) save(payload_dir, "tensor", t);
        }
    }
    // Corruption: a bad data CRC, garbage between records, a bad length CRC, a zero tail.
    std::string bad = frame_record(torch[1]);
    bad[14] ^= 0x40;
    const std::string good = frame_record(torch[2]);
    std::string broken_len = frame_record(torch[3]);
    broken_len[3] ^= 1;
    save(file_dir, "gen",
         frame_record(torch[0]) + bad + good + "garbage!" + good + broken_len + good +
             std::string(40, '\0'));
    save(file_dir, "gen", good + std::string(12, '\0') + good);
    // Two files concatenated: TF then MindSpore.
    save(file_dir, "gen", file_of(torch) + file_of(mindspore));
    return 0;
}

int extract(const std::string& file_dir, const std::string& payload_dir, std::size_t file_max,
            std::size_t payload_max, int argc, char** argv) {
    int files = 0;
    for (int i = 0; i < argc; ++i) {
        std::ifstream in(argv[i], std::ios::binary);
        std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (data.empty()) continue;
        ++files;
        save(file_dir, "head", std::string_view(data).substr(0, file_max));
        std::string packed;
        int payloads = 0;
        std::size_t pos = 0;
        while (data.size() - pos >= 16) {
            std::uint64_t n;
            std::memcpy(&n, data.data() + pos, 8);
            if (n > data.size() - pos - 16) break;
            std::string_view payload(data.data() + pos + 12, n);
            std::string_view record(data.data() + pos, n + 16);
            if (packed.size() + record.size() <= file_max) packed += record;
            if (payload.size() <= payload_max && payloads < 16) {
                save(payload_dir, "sample", payload);
                ++payloads;
            }
            pos += 16 + static_cast<std::size_t>(n);
        }
        if (!packed.empty()) save(file_dir, "packed", packed);
    }
    std::printf("fuzz_seedgen: seeds from %d sample files\n", files);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string_view(argv[1]) == "generate") return generate(argv[2], argv[3]);
    if (argc >= 6 && std::string_view(argv[1]) == "extract")
        return extract(argv[2], argv[3], std::strtoull(argv[4], nullptr, 10),
                       std::strtoull(argv[5], nullptr, 10), argc - 6, argv + 6);
    std::fprintf(
        stderr,
        "usage: fuzz_seedgen generate FILE_DIR PAYLOAD_DIR\n"
        "       fuzz_seedgen extract FILE_DIR PAYLOAD_DIR FILE_MAX PAYLOAD_MAX SAMPLE...\n");
    return 2;
}
