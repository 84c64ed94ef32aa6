#include "readers/log_line.h"

#include <cstddef>

namespace runtop {
namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_letter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// Digits from `i`: their value (capped, a rank is small) and where they end.
std::size_t digits(std::string_view s, std::size_t i, int& value) {
    value = 0;
    const std::size_t from = i;
    for (; i < s.size() && is_digit(s[i]); ++i)
        if (value < 100'000'000) value = value * 10 + (s[i] - '0');
    return i - from;
}

// srun --label: spaces, an optional "P<n> ", digits, ": ". Returns the prefix length, or 0.
std::size_t srun_label(std::string_view s, int& rank) {
    std::size_t i = 0;
    while (i < s.size() && s[i] == ' ') ++i;
    if (i < s.size() && s[i] == 'P') {  // heterogeneous job component: "P0 3: "
        int component = 0;
        const std::size_t n = digits(s, i + 1, component);
        if (n > 0 && i + 1 + n < s.size() && s[i + 1 + n] == ' ') i += 2 + n;
    }
    int value = 0;
    const std::size_t n = digits(s, i, value);
    if (n == 0 || i + n + 1 >= s.size() || s[i + n] != ':' || s[i + n + 1] != ' ') return 0;
    rank = value;
    return i + n + 2;
}

// torchrun "[default3]:" / "[rank3]:", Open MPI "[1,3]:" / "[1,3]<stdout>:".
std::size_t bracket_label(std::string_view s, int& rank) {
    if (s.empty() || s[0] != '[') return 0;
    std::size_t i = 1;
    while (i < s.size() && is_letter(s[i])) ++i;
    int value = 0;
    std::size_t n = digits(s, i, value);
    if (n == 0) return 0;
    i += n;
    if (i < s.size() && s[i] == ',' && i == 1 + n) {  // Open MPI: job id, then the rank
        n = digits(s, i + 1, value);
        if (n == 0) return 0;
        i += 1 + n;
    }
    if (i >= s.size() || s[i] != ']') return 0;
    ++i;
    for (std::string_view stream : {"<stdout>", "<stderr>", "<stddiag>"})
        if (s.substr(i, stream.size()) == stream) {
            i += stream.size();
            break;
        }
    if (i >= s.size() || s[i] != ':') return 0;
    rank = value;
    return i + 1;
}

// ESC '[' parameters intermediates final: where the sequence starting at `i` ends, or `i`.
std::size_t ansi_end(std::string_view s, std::size_t i) {
    if (i + 1 >= s.size() || s[i] != '\x1b' || s[i + 1] != '[') return i;
    std::size_t j = i + 2;
    while (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x20 &&
           static_cast<unsigned char>(s[j]) <= 0x3f)
        ++j;
    if (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x40 &&
        static_cast<unsigned char>(s[j]) <= 0x7e)
        return j + 1;
    return i;
}

}  // namespace

std::string_view strip_launcher_prefixes(std::string_view text, int& rank) {
    for (;;) {
        std::size_t n = srun_label(text, rank);
        if (n == 0) n = bracket_label(text, rank);
        if (n == 0) return text;
        text.remove_prefix(n);
    }
}

LogLine clean_log_line(std::string_view raw, std::string& scratch) {
    LogLine out;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    // The rank of the whole line: a redraw after a '\r' may come without its prefix.
    std::string_view text = strip_launcher_prefixes(raw, out.rank);
    // What a terminal was left showing: the last segment after a '\r' that is not empty.
    for (std::size_t cr = text.rfind('\r'); cr != std::string_view::npos; cr = text.rfind('\r')) {
        if (cr + 1 < text.size()) {
            text.remove_prefix(cr + 1);
            text = strip_launcher_prefixes(text, out.rank);
            break;
        }
        text.remove_suffix(text.size() - cr);
    }
    if (text.find('\x1b') != std::string_view::npos) {
        scratch.clear();
        for (std::size_t i = 0; i < text.size();) {
            const std::size_t end = ansi_end(text, i);
            if (end != i) {
                i = end;
            } else {
                scratch.push_back(text[i++]);
            }
        }
        text = strip_launcher_prefixes(scratch, out.rank);  // a coloured prefix
    }
    out.text = text;
    return out;
}

}  // namespace runtop
