#include "readers/anchor_scan.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace runtop {
namespace {

// How often a byte occurs in training logs, roughly, per ten thousand bytes: only the order
// matters. Spaces and digits fill them, then lower-case letters by English frequency, then the
// punctuation of timestamps and key: value pairs; braces, bars and '=' are rare.
int frequency(unsigned char c) {
    if (c == ' ') return 1500;
    if (c >= '0' && c <= '9') return 250;
    if (c >= 'a' && c <= 'z') {
        static constexpr int kLetters[26] = {550, 120, 250, 300, 800, 180, 160, 300, 550,
                                             10,  60,  300, 200, 550, 550, 180, 10,  500,
                                             500, 600, 250, 80,  120, 20,  120, 10};
        return kLetters[c - 'a'];
    }
    if (c >= 'A' && c <= 'Z') return 40;
    switch (c) {
        case '.':
            return 150;
        case ':':
        case ',':
        case '-':
            return 100;
        case '_':
        case '/':
            return 60;
        case '[':
        case ']':
            return 50;
        case '(':
        case ')':
        case '\'':
            return 30;
        case '%':
        case '=':
            return 20;
        case '|':
        case '{':
        case '}':
            return 10;
        default:
            return 5;
    }
}

// Where a literal's rarest byte is in it.
std::size_t rarest_at(std::string_view literal) {
    std::size_t at = 0;
    for (std::size_t i = 1; i < literal.size(); ++i)
        if (frequency(static_cast<unsigned char>(literal[i])) <
            frequency(static_cast<unsigned char>(literal[at])))
            at = i;
    return at;
}

// What looking for a literal costs a byte of log, roughly, in ns: each place its rarest byte
// is at is checked (a few ns), and each line that holds the whole literal is a candidate, cut
// out, cleaned and tried on the formats (a few hundred ns). A one-byte literal is cheap to find
// but makes every line with that byte a candidate: " iteration " beats "|".
double cost(std::string_view literal) {
    double whole = 1;
    for (char c : literal) whole *= frequency(static_cast<unsigned char>(c)) / 10000.0;
    const double key = frequency(static_cast<unsigned char>(literal[rarest_at(literal)])) / 10000.0;
    return key * 3 + whole * 300;
}

}  // namespace

AnchorScan::AnchorScan(const std::vector<std::vector<std::string_view>>& required) {
    for (const std::vector<std::string_view>& literals : required) {
        std::string_view best;
        for (std::string_view literal : literals)
            if (!literal.empty() && (best.empty() || cost(literal) < cost(best))) best = literal;
        if (best.empty())
            every_position_ = true;
        else
            add(best);
    }
}

void AnchorScan::add(std::string_view literal) {
    if (std::any_of(needles_.begin(), needles_.end(),
                    [&](const Needle& n) { return n.text == literal; }))
        return;
    Needle n{std::string(literal), rarest_at(literal)};
    const auto key = static_cast<unsigned char>(literal[n.key_at]);
    if (slot_[key] == 0) {
        keys_.push_back(key);
        by_key_.emplace_back();
        slot_[key] = static_cast<std::uint16_t>(keys_.size());
    }
    by_key_[slot_[key] - 1].push_back(static_cast<std::uint16_t>(needles_.size()));
    max_key_at_ = std::max(max_key_at_, n.key_at);
    needles_.push_back(std::move(n));
}

std::size_t AnchorScan::start_at(const char* data, std::size_t from, std::size_t len,
                                 std::size_t at) const {
    std::size_t best = len;
    for (std::uint16_t i : by_key_[slot_[static_cast<unsigned char>(data[at])] - 1]) {
        const Needle& n = needles_[i];
        if (at < from + n.key_at) continue;  // it would start before `from`
        const std::size_t start = at - n.key_at;
        // The ends first, inline: most hits are the key byte in some other word.
        if (start + n.text.size() <= len && start < best && data[start] == n.text.front() &&
            data[start + n.text.size() - 1] == n.text.back() &&
            std::memcmp(data + start, n.text.data(), n.text.size()) == 0)
            best = start;
    }
    return best;
}

std::size_t AnchorScan::find(const char* data, std::size_t from, std::size_t len) const {
    if (every_position_) return from;
    std::size_t best = len;
    std::size_t at = from;
    // A needle found at key position `at` starts at most max_key_at_ before it: once `at` is
    // that far past the best start, no later key gives an earlier one.
    const auto done = [&] { return best != len && at > best + max_key_at_; };
#if defined(__SSE2__)
    if (keys_.size() <= 16) {
        __m128i splat[16];
        for (std::size_t k = 0; k < keys_.size(); ++k)
            splat[k] = _mm_set1_epi8(static_cast<char>(keys_[k]));
        while (at + 16 <= len && !done()) {
            const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + at));
            __m128i hits = _mm_setzero_si128();
            for (std::size_t k = 0; k < keys_.size(); ++k)
                hits = _mm_or_si128(hits, _mm_cmpeq_epi8(block, splat[k]));
            for (unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hits)); mask != 0;
                 mask &= mask - 1) {
                const std::size_t hit = at + static_cast<std::size_t>(__builtin_ctz(mask));
                best = std::min(best, start_at(data, from, len, hit));
            }
            at += 16;
        }
    }
#endif
    for (; at < len && !done(); ++at)
        if (slot_[static_cast<unsigned char>(data[at])] != 0)
            best = std::min(best, start_at(data, from, len, at));
    return best;
}

}  // namespace runtop
