// The one CSV tokenizer every CSV reader shares: RFC 4180 quoting (a field in double quotes
// may hold commas, newlines and "" for a quote), LF or CRLF line ends, incremental.
//
// split() hands over only complete records, those ending in '\n', and returns where the
// first incomplete one starts: the caller offers those bytes again once more have arrived,
// so a line the writer is still appending is never half-read. A record without a final
// newline is never taken, even at the end of the file: the writer may be mid-line.
#pragma once

#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace runtop {

class CsvTokenizer {
  public:
    // Calls on_record(std::span<const std::string_view> fields, std::size_t record_offset)
    // for each complete, non-blank record in data[0, len). Views are valid during the call.
    // Returns the number of bytes consumed.
    template <class OnRecord>
    std::size_t split(const char* data, std::size_t len, OnRecord&& on_record) {
        std::size_t pos = 0;
        while (pos < len) {
            const char* begin = data + pos;
            const char* end = data + len;
            const char* nl = static_cast<const char*>(std::memchr(begin, '\n', len - pos));
            if (!nl) return pos;
            fields_.clear();
            const char* next;
            if (!std::memchr(begin, '"', static_cast<std::size_t>(nl - begin))) {
                split_plain(begin, nl);
                next = nl + 1;
            } else {
                next = split_quoted(begin, end);
                if (!next) return pos;  // a quoted field runs past the data we have
            }
            if (!(fields_.size() == 1 && fields_[0].empty()))  // blank line
                on_record(std::span<const std::string_view>(fields_), pos);
            pos = static_cast<std::size_t>(next - data);
        }
        return pos;
    }

  private:
    // A line without quotes: split on commas; drop the '\r' of a CRLF end.
    void split_plain(const char* begin, const char* nl) {
        const char* stop = nl;
        if (stop > begin && stop[-1] == '\r') --stop;
        const char* field = begin;
        while (true) {
            const char* comma = static_cast<const char*>(
                std::memchr(field, ',', static_cast<std::size_t>(stop - field)));
            if (!comma) {
                fields_.emplace_back(field, static_cast<std::size_t>(stop - field));
                return;
            }
            fields_.emplace_back(field, static_cast<std::size_t>(comma - field));
            field = comma + 1;
        }
    }

    // Returns one past the record's newline, or nullptr when the record is incomplete.
    const char* split_quoted(const char* begin, const char* end);

    std::vector<std::string_view> fields_;
    std::vector<std::string> unquoted_;  // storage for fields that needed unescaping
};

}  // namespace runtop
