// Where the next of several literals starts in a buffer, in one pass: the log reader's prefilter
// (a log is mostly lines of no format: they go by without a pattern, or a line by line search).
//
// Each literal is found by its rarest byte (by how often bytes occur in logs: a brace or a bar
// before a colon, a colon before a letter, a letter before a space): the buffer is scanned for
// the set of those bytes, 16 at a time, and each hit is checked with a compare. One scan for
// every format, where a memmem a format made one scan each.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace runtop {

class AnchorScan {
  public:
    // For each format, the literals its lines all hold: the one cheapest to look for (a rare
    // byte, and rarely whole in other lines) stands for the format. A format with none makes
    // every position a candidate.
    explicit AnchorScan(const std::vector<std::vector<std::string_view>>& required);
    // Where the first chosen literal at or after `from` starts in data[0, len) (it lies wholly
    // inside); `len` when none does.
    std::size_t find(const char* data, std::size_t from, std::size_t len) const;

  private:
    struct Needle {
        std::string text;
        std::size_t key_at = 0;  // where its rarest byte is in it
    };
    // The start of a needle at byte `key` position `at` (or `len`), the first if several.
    std::size_t start_at(const char* data, std::size_t from, std::size_t len, std::size_t at) const;

    void add(std::string_view literal);

    bool every_position_ = false;
    std::vector<Needle> needles_;
    std::vector<unsigned char> keys_;                 // distinct key bytes
    std::vector<std::vector<std::uint16_t>> by_key_;  // needles of each, as in keys_
    std::array<std::uint16_t, 256> slot_{};           // 1 + its index in keys_; 0: none
    std::size_t max_key_at_ = 0;
};

}  // namespace runtop
