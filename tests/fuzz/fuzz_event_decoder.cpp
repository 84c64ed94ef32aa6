// libFuzzer target: the input is one Event payload. EventDecoder::decode must not crash, read
// out of bounds or report anything when it returns false; tensor_scalar_value runs on the same
// bytes. The payload is decoded twice by one decoder (the second time with the tag plugins
// the first call remembered) and once more after reset(), which must repeat the first call;
// a well-formed payload with an unknown field appended must decode to the same calls. The
// bytes also go through crc32c(), which must agree with crc32c_portable().
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "readers/crc32c.h"
#include "readers/event_decoder.h"

using namespace runtop;

namespace {

std::uint64_t bits_of(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
}

class Handler final : public EventHandler {
  public:
    void on_scalar(std::string_view tag, std::int64_t step, double wall, double value) override {
        log += "s:";
        log += tag;  // touches every byte of the view (ASan checks the bounds)
        log += ':' + std::to_string(step) + ':' + std::to_string(bits_of(wall)) + ':' +
               std::to_string(bits_of(value)) + '\n';
    }
    void on_text(std::string_view tag, std::int64_t step, double wall, std::string text) override {
        log += "t:";
        log += tag;
        log += ':' + std::to_string(step) + ':' + std::to_string(bits_of(wall)) + ':' + text + '\n';
    }
    void on_session_start(std::int64_t step, double wall) override {
        log += "S:" + std::to_string(step) + ':' + std::to_string(bits_of(wall)) + '\n';
    }
    std::string log;
};

void check(bool ok, const Handler& h, const char* what) {
    if (!ok && !h.log.empty()) {
        std::fprintf(stderr, "decode() returned false after reporting (%s):\n%s", what,
                     h.log.c_str());
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    // A copy of exactly `size` bytes on the heap, so ASan flags any read past the end.
    std::vector<char> bytes(data, data + size);
    const std::string_view payload(bytes.data(), bytes.size());

    EventDecoder decoder;
    Handler first;
    const bool ok = decoder.decode(payload, first);
    check(ok, first, "first call");
    Handler second;
    check(decoder.decode(payload, second), second, "second call");
    decoder.reset();
    Handler again;
    const bool ok_again = decoder.decode(payload, again);
    // reset() forgets the flavour and the tag plugins, so a fresh decode repeats the first one.
    if (ok_again != ok || again.log != first.log) {
        std::fprintf(stderr, "decode() after reset() differs from the first decode()\n");
        std::abort();
    }

    // A well-formed Event with one more (unknown, skipped) field at the end must decode to the
    // same calls. The extra field also keeps it off any fast path that matches exact shapes,
    // so this compares such a path with the general decoder.
    if (ok) {
        std::vector<char> longer(bytes);
        longer.insert(longer.end(), {'\xa0', '\x06', '\x00'});  // field 100, varint 0
        EventDecoder fresh;
        Handler extended;
        if (!fresh.decode(std::string_view(longer.data(), longer.size()), extended) ||
            extended.log != first.log) {
            std::fprintf(stderr, "an extra unknown field changed the decode:\n%s---\n%s",
                         first.log.c_str(), extended.log.c_str());
            std::abort();
        }
    }

    double value = 0;
    if (tensor_scalar_value(payload, value)) (void)bits_of(value);

    // The CRC the reader checks every payload with: hardware (three streams past 192 bytes)
    // against the portable table, at the input's own alignment and one byte off.
    if (crc32c(payload.data(), payload.size()) != crc32c_portable(payload.data(), payload.size()) ||
        (size > 1 &&
         crc32c(payload.data() + 1, size - 1) != crc32c_portable(payload.data() + 1, size - 1))) {
        std::fprintf(stderr, "crc32c differs from crc32c_portable\n");
        std::abort();
    }
    return 0;
}
