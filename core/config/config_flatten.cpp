#include "core/config/config_flatten.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include "core/format.h"

namespace runtop {
namespace {

constexpr std::string_view kTextSummarySuffix = "/text_summary";
// Deeper JSON is not a configuration anyone wrote by hand; it stays one piece of text, and the
// recursion stays bounded whatever the input.
constexpr int kMaxJsonDepth = 64;
// A "key: value" line whose key is longer than this is prose, not a setting.
constexpr std::size_t kMaxLineKey = 100;

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

std::string join_key(std::string_view base, char separator, std::string_view name) {
    if (base.empty()) return std::string(name);
    std::string key(base);
    key += separator;
    key += name;
    return key;
}

// Later items with the same key replace earlier ones, in the place of the first.
std::vector<ConfigItem> last_wins(std::vector<ConfigItem> items) {
    std::map<std::string_view, std::size_t> last;
    for (std::size_t i = 0; i < items.size(); ++i) last[items[i].key] = i;
    if (last.size() == items.size()) return items;
    std::vector<ConfigItem> out;
    std::map<std::string, bool> placed;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (placed[items[i].key]) continue;
        placed[items[i].key] = true;
        out.push_back(items[last[items[i].key]]);
    }
    return out;
}

// Rule 1: a JSON object, flattened. A small validating parser: the items come out only when
// the whole text is one JSON object (RFC 8259 plus Python's NaN, Infinity, -Infinity).
class JsonFlattener {
  public:
    explicit JsonFlattener(std::string_view text) : s_(text) {}

    std::optional<std::vector<ConfigItem>> run(std::string_view base) {
        skip_space();
        if (!peek('{')) return std::nullopt;
        if (!flat(std::string(base), '/', 0)) return std::nullopt;
        skip_space();
        if (i_ != s_.size()) return std::nullopt;
        return std::move(items_);
    }

  private:
    bool peek(char c) const { return i_ < s_.size() && s_[i_] == c; }
    void skip_space() {
        while (i_ < s_.size() && is_space(s_[i_])) ++i_;
    }
    bool literal(std::string_view word) {
        if (s_.substr(i_, word.size()) != word) return false;
        i_ += word.size();
        return true;
    }

    // A value at `key`: objects open into their members, anything else is one item.
    bool flat(const std::string& key, char separator, int depth) {
        skip_space();
        if (!peek('{')) {
            std::string value;
            if (peek('"')) {
                if (!string(&value)) return false;
            } else if (!compact(value, depth)) {
                return false;
            }
            items_.push_back({key, std::move(value)});
            return true;
        }
        if (depth >= kMaxJsonDepth) return false;
        ++i_;
        skip_space();
        if (peek('}')) {
            ++i_;
            items_.push_back({key, "{}"});
            return true;
        }
        while (true) {
            skip_space();
            std::string name;
            if (!string(&name)) return false;
            skip_space();
            if (!peek(':')) return false;
            ++i_;
            if (!flat(join_key(key, separator, name), '.', depth + 1)) return false;
            skip_space();
            if (peek(',')) {
                ++i_;
                continue;
            }
            if (!peek('}')) return false;
            ++i_;
            return true;
        }
    }

    // Any value as compact JSON: strings as written, no space but one after ',' and ':'.
    bool compact(std::string& out, int depth) {
        skip_space();
        if (i_ >= s_.size()) return false;
        const char c = s_[i_];
        if (c == '"') {
            const std::size_t begin = i_;
            if (!string(nullptr)) return false;
            out += s_.substr(begin, i_ - begin);
            return true;
        }
        if (c == '[' || c == '{') {
            if (depth >= kMaxJsonDepth) return false;
            const char close = c == '[' ? ']' : '}';
            out += c;
            ++i_;
            skip_space();
            if (peek(close)) {
                out += close;
                ++i_;
                return true;
            }
            while (true) {
                if (c == '{') {
                    skip_space();
                    if (!compact_string_only(out)) return false;
                    skip_space();
                    if (!peek(':')) return false;
                    ++i_;
                    out += ": ";
                }
                if (!compact(out, depth + 1)) return false;
                skip_space();
                if (peek(',')) {
                    ++i_;
                    out += ", ";
                    continue;
                }
                if (!peek(close)) return false;
                ++i_;
                out += close;
                return true;
            }
        }
        for (std::string_view word : {"true", "false", "null", "NaN", "Infinity", "-Infinity"}) {
            if (literal(word)) {
                out += word;
                return true;
            }
        }
        return number(out);
    }

    bool compact_string_only(std::string& out) {
        const std::size_t begin = i_;
        if (!peek('"') || !string(nullptr)) return false;
        out += s_.substr(begin, i_ - begin);
        return true;
    }

    // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, copied as written.
    bool number(std::string& out) {
        const std::size_t begin = i_;
        auto digits = [&] {
            const std::size_t from = i_;
            while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
            return i_ > from;
        };
        if (peek('-')) ++i_;
        if (peek('0'))
            ++i_;
        else if (!digits())
            return false;
        if (peek('.')) {
            ++i_;
            if (!digits()) return false;
        }
        if (peek('e') || peek('E')) {
            ++i_;
            if (peek('+') || peek('-')) ++i_;
            if (!digits()) return false;
        }
        out += s_.substr(begin, i_ - begin);
        return true;
    }

    std::optional<std::uint32_t> hex4() {
        if (s_.size() - i_ < 4) return std::nullopt;
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const char h = s_[i_++];
            v <<= 4;
            if (h >= '0' && h <= '9')
                v |= static_cast<std::uint32_t>(h - '0');
            else if (h >= 'a' && h <= 'f')
                v |= static_cast<std::uint32_t>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
                v |= static_cast<std::uint32_t>(h - 'A' + 10);
            else
                return std::nullopt;
        }
        return v;
    }

    // A string literal at i_, decoded into `out` (nullptr: only checked).
    bool string(std::string* out) {
        if (!peek('"')) return false;
        ++i_;
        while (i_ < s_.size()) {
            const char c = s_[i_++];
            if (c == '"') return true;
            if (static_cast<unsigned char>(c) < 0x20) return false;
            if (c != '\\') {
                if (out) *out += c;
                continue;
            }
            if (i_ >= s_.size()) return false;
            const char e = s_[i_++];
            char plain = 0;
            switch (e) {
                case '"':
                    plain = '"';
                    break;
                case '\\':
                    plain = '\\';
                    break;
                case '/':
                    plain = '/';
                    break;
                case 'b':
                    plain = '\b';
                    break;
                case 'f':
                    plain = '\f';
                    break;
                case 'n':
                    plain = '\n';
                    break;
                case 'r':
                    plain = '\r';
                    break;
                case 't':
                    plain = '\t';
                    break;
                case 'u':
                    break;
                default:
                    return false;
            }
            if (e != 'u') {
                if (out) *out += plain;
                continue;
            }
            std::optional<std::uint32_t> cp = hex4();
            if (!cp) return false;
            // A high surrogate followed by a low one is one code point; a lone one is U+FFFD.
            if (*cp >= 0xD800 && *cp < 0xDC00 && s_.substr(i_, 2) == "\\u") {
                const std::size_t save = i_;
                i_ += 2;
                std::optional<std::uint32_t> low = hex4();
                if (low && *low >= 0xDC00 && *low < 0xE000)
                    *cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
                else
                    i_ = save;
            }
            if (out) append_utf8(*out, *cp);
        }
        return false;
    }

    std::string_view s_;
    std::size_t i_ = 0;
    std::vector<ConfigItem> items_;
};

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = trim(text.substr(start, end - start));
        if (!line.empty()) lines.push_back(line);
        start = end + 1;
    }
    return lines;
}

// The cells of "| a | b |" ("\|" is a pipe inside a cell); nullopt unless a table row.
std::optional<std::vector<std::string>> table_cells(std::string_view line) {
    if (!line.starts_with('|')) return std::nullopt;
    std::vector<std::string> cells(1);
    for (std::size_t i = 1; i < line.size(); ++i) {
        if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
            cells.back() += '|';
            ++i;
        } else if (line[i] == '|') {
            cells.emplace_back();
        } else {
            cells.back() += line[i];
        }
    }
    // "| a | b |" ends with an empty cell after the last pipe; "| a | b" does not.
    if (line.size() > 1 && line.back() == '|' && cells.back().empty()) cells.pop_back();
    for (std::string& c : cells) c = std::string(trim(c));
    return cells;
}

bool is_separator_cell(std::string_view cell) {
    if (cell.starts_with(':')) cell.remove_prefix(1);
    if (cell.ends_with(':')) cell.remove_suffix(1);
    return !cell.empty() && cell.find_first_not_of('-') == std::string_view::npos;
}

// Rule 2: a two-column markdown table.
std::optional<std::vector<ConfigItem>> table_items(std::string_view base,
                                                   const std::vector<std::string_view>& lines) {
    if (lines.size() < 3) return std::nullopt;
    std::vector<ConfigItem> items;
    for (std::size_t n = 0; n < lines.size(); ++n) {
        std::optional<std::vector<std::string>> cells = table_cells(lines[n]);
        if (!cells || cells->size() != 2) return std::nullopt;
        if (n == 0) continue;  // the header: "Parameter | Value"
        if (n == 1) {
            if (!is_separator_cell((*cells)[0]) || !is_separator_cell((*cells)[1]))
                return std::nullopt;
            continue;
        }
        if ((*cells)[0].empty()) return std::nullopt;
        items.push_back({join_key(base, '/', (*cells)[0]), std::move((*cells)[1])});
    }
    return last_wins(std::move(items));
}

// Rule 3: "key: value" / "key=value" lines.
std::optional<std::vector<ConfigItem>> line_items(std::string_view base,
                                                  const std::vector<std::string_view>& lines) {
    std::vector<ConfigItem> items;
    std::map<std::string_view, bool> seen;
    for (std::string_view line : lines) {
        if (line.starts_with('#')) continue;
        const std::size_t at = line.find_first_of(":=");
        if (at == std::string_view::npos) return std::nullopt;
        const std::string_view key = trim(line.substr(0, at));
        if (key.empty() || key.size() > kMaxLineKey || key.starts_with('|') ||
            key.starts_with('-') || key.starts_with('{'))
            return std::nullopt;
        if (!seen.emplace(key, true).second) return std::nullopt;
        items.push_back({join_key(base, '/', key), std::string(trim(line.substr(at + 1)))});
    }
    if (items.size() < 2) return std::nullopt;
    return items;
}

}  // namespace

std::string_view config_key_of_tag(std::string_view tag) {
    if (tag.size() > kTextSummarySuffix.size() && tag.ends_with(kTextSummarySuffix))
        tag.remove_suffix(kTextSummarySuffix.size());
    return tag;
}

std::vector<ConfigItem> flatten_config_text(std::string_view tag, std::string_view text) {
    const std::string_view base = config_key_of_tag(tag);
    if (std::optional<std::vector<ConfigItem>> json = JsonFlattener(text).run(base))
        return last_wins(std::move(*json));
    const std::vector<std::string_view> lines = lines_of(text);
    if (std::optional<std::vector<ConfigItem>> table = table_items(base, lines)) return *table;
    if (std::optional<std::vector<ConfigItem>> items = line_items(base, lines)) return *items;
    return {ConfigItem{std::string(base), std::string(text)}};
}

}  // namespace runtop
