#include "readers/csv_tokenizer.h"

namespace runtop {

const char* CsvTokenizer::split_quoted(const char* begin, const char* end) {
    // Storage is per record; fields_ may point into it, so it is cleared only here.
    std::size_t used = 0;
    const char* p = begin;
    while (true) {
        if (p < end && *p == '"') {
            // A quoted field: up to the closing quote, "" standing for one quote.
            if (used == unquoted_.size()) unquoted_.emplace_back();
            std::string& text = unquoted_[used];
            text.clear();
            ++p;
            while (true) {
                const char* q = static_cast<const char*>(
                    std::memchr(p, '"', static_cast<std::size_t>(end - p)));
                if (!q) return nullptr;  // still open at the end of the data
                text.append(p, static_cast<std::size_t>(q - p));
                if (q + 1 < end && q[1] == '"') {
                    text.push_back('"');
                    p = q + 2;
                    continue;
                }
                if (q + 1 == end) return nullptr;  // cannot tell "" from the closing quote yet
                p = q + 1;
                break;
            }
            // Anything between the closing quote and the separator is kept, as Python's csv
            // module does ("ab"c -> abc).
            while (p < end && *p != ',' && *p != '\n' &&
                   !(*p == '\r' && p + 1 < end && p[1] == '\n'))
                text.push_back(*p++);
            if (p == end) return nullptr;
            if (*p == '\r') ++p;
            fields_.emplace_back(text);
            ++used;
        } else {
            const char* field = p;
            while (p < end && *p != ',' && *p != '\n') ++p;
            if (p == end) return nullptr;
            const char* stop = p;
            if (*p == '\n' && stop > field && stop[-1] == '\r') --stop;
            fields_.emplace_back(field, static_cast<std::size_t>(stop - field));
        }
        if (*p == '\n') return p + 1;
        ++p;  // the comma
    }
}

}  // namespace runtop
