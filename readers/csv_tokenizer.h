// The one CSV tokenizer every CSV reader shares: RFC 4180 quoting (a field in double quotes
// may hold commas, newlines and "" for a quote), LF or CRLF line ends, incremental.
//
// split() hands over only complete records, those ending in '\n', and returns where the
// first incomplete one starts: the caller offers those bytes again once more have arrived,
// so a line the writer is still appending is never half-read. A record without a final
// newline is never taken, even at the end of the file: the writer may be mid-line.
//
// Speed: one pass finds the separators 16 bytes at a time (SSE2; bytewise elsewhere), and a
// quoted field without "" inside (msProbe's "[4096, 4096]") is a view into the data like any
// other. Only fields that need unescaping are copied.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace runtop {

class CsvTokenizer {
  public:
    // Calls on_record(std::span<const std::string_view> fields, std::size_t record_offset)
    // for each complete, non-blank record in data[0, len). Views are valid during the call.
    // Returns the number of bytes consumed.
    template <class OnRecord>
    std::size_t split(const char* data, std::size_t len, OnRecord&& on_record) {
        std::size_t pos = 0;
        const char* const end = data + len;
        while (pos < len) {
            const char* const begin = data + pos;
            bool slow = false;
            const char* next = split_fast(begin, end, slow);
            if (slow) {
                fields_.clear();
                next = split_quoted(begin, end);
            }
            if (!next) return pos;                             // the record is not complete yet
            if (!(fields_.size() == 1 && fields_[0].empty()))  // blank line
                on_record(std::span<const std::string_view>(fields_), pos);
            pos = static_cast<std::size_t>(next - data);
        }
        return pos;
    }

  private:
    // Bit i set when p[i] (i < 16, p + i < end) is ',', '\n' or '"'.
    static std::uint32_t specials(const char* p, const char* end) {
#if defined(__SSE2__)
        __m128i block;
        std::uint32_t valid = 0xffff;
        if (end - p >= 16) {
            block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        } else {  // the last bytes: never read past the data
            alignas(16) char tail[16] = {};
            std::memcpy(tail, p, static_cast<std::size_t>(end - p));
            block = _mm_load_si128(reinterpret_cast<const __m128i*>(tail));
            valid = (1u << (end - p)) - 1;
        }
        __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8(',')),
                                                 _mm_cmpeq_epi8(block, _mm_set1_epi8('\n'))),
                                    _mm_cmpeq_epi8(block, _mm_set1_epi8('"')));
        return static_cast<std::uint32_t>(_mm_movemask_epi8(hits)) & valid;
#else
        std::uint32_t mask = 0;
        const std::size_t n = end - p >= 16 ? 16 : static_cast<std::size_t>(end - p);
        for (std::size_t i = 0; i < n; ++i)
            if (p[i] == ',' || p[i] == '\n' || p[i] == '"') mask |= 1u << i;
        return mask;
#endif
    }

    // The common record: unquoted fields, and quoted ones that hold no "" and are followed
    // directly by a separator. Fills fields_ and returns one past the record's newline, or
    // nullptr when the data ends first. Sets `slow` for anything else (a quote inside a
    // field, "" in a quoted one, text after a closing quote), which split_quoted reads from
    // the start of the record again, with the same result as if it had read it all.
    const char* split_fast(const char* begin, const char* end, bool& slow) {
        fields_.clear();
        const char* field = begin;  // start of the current field
        const char* block = begin;  // the 16 bytes `mask` describes
        std::uint32_t mask = specials(block, end);
        while (true) {
            while (mask == 0) {
                block += 16;
                if (block >= end) return nullptr;
                mask = specials(block, end);
            }
            const char* s = block + __builtin_ctz(mask);
            mask &= mask - 1;
            if (*s == ',') {
                fields_.emplace_back(field, static_cast<std::size_t>(s - field));
                field = s + 1;
            } else if (*s == '\n') {
                const char* stop = s;
                if (stop > field && stop[-1] == '\r') --stop;
                fields_.emplace_back(field, static_cast<std::size_t>(stop - field));
                return s + 1;
            } else {  // '"'
                const char* q = s == field ? static_cast<const char*>(std::memchr(
                                                 s + 1, '"', static_cast<std::size_t>(end - s - 1)))
                                           : nullptr;
                // A quote inside an unquoted field, or the closing one not seen yet (or
                // last, so that "" cannot be told from it): split_quoted decides.
                if (!q || q + 1 == end) {
                    slow = true;
                    return nullptr;
                }
                fields_.emplace_back(s + 1, static_cast<std::size_t>(q - s - 1));
                const char* after = q + 1;
                if (*after == '\r' && after + 1 < end && after[1] == '\n') ++after;
                if (*after == '\n') return after + 1;
                if (*after != ',') {  // "" or text after the closing quote
                    slow = true;
                    return nullptr;
                }
                field = after + 1;
                block = field;
                mask = specials(block, end);
            }
        }
    }

    // Any record; fills fields_ (cleared by the caller). Returns one past the record's
    // newline, or nullptr when the record is incomplete.
    const char* split_quoted(const char* begin, const char* end);

    std::vector<std::string_view> fields_;
    // Storage for fields that needed unescaping. A deque: growing it must not move the
    // strings earlier fields_ of the same record point into (short ones live inline).
    std::deque<std::string> unquoted_;
};

}  // namespace runtop
