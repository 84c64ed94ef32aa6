#include "core/config/config_flatten.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>

#include "core/json/json_value.h"

namespace runtop {
namespace {

constexpr std::string_view kTextSummarySuffix = "/text_summary";
// Deeper JSON is not a configuration anyone wrote by hand; it stays one piece of text, and the
// recursion stays bounded whatever the input.
constexpr std::uint32_t kMaxJsonDepth = 64;
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

// Rule 1: a JSON object, flattened: a value at `key`; objects open into their members,
// anything else is one item.
void flatten_json(JsonValue value, const std::string& key, char separator,
                  std::vector<ConfigItem>& items) {
    if (!value.is_object()) {
        items.push_back(
            {key, value.is_string() ? std::string(value.string()) : spaced_json(value.raw())});
        return;
    }
    if (value.size() == 0) {
        items.push_back({key, "{}"});
        return;
    }
    for (const auto& [name, member] : value.members())
        flatten_json(member, join_key(key, separator, name), '.', items);
}

// The items only when the whole text is one JSON object (RFC 8259 plus Python's NaN,
// Infinity, -Infinity; no byte-order mark: a text summary with one is prose).
std::optional<std::vector<ConfigItem>> json_items(std::string_view base, std::string_view text) {
    if (text.starts_with("\xEF\xBB\xBF")) return std::nullopt;
    JsonLimits limits;
    limits.max_depth = kMaxJsonDepth;
    const JsonParse parsed = parse_json(text, limits);
    if (!parsed || !parsed.document().root().is_object()) return std::nullopt;
    std::vector<ConfigItem> items;
    flatten_json(parsed.document().root(), std::string(base), '/', items);
    return items;
}

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

// Markdown around a key or value ("**lr**", "`0.1`"): the text plugin renders it, it is not
// part of the setting.
std::string_view unmarked(std::string_view s) {
    for (std::string_view mark : {"**", "__", "`"})
        if (s.size() > 2 * mark.size() && s.starts_with(mark) && s.ends_with(mark))
            return trim(s.substr(mark.size(), s.size() - 2 * mark.size()));
    return s;
}

// Rule 4: "key: value" / "key=value" lines, also as a markdown list ("- lr: 0.1").
std::optional<std::vector<ConfigItem>> line_items(std::string_view base,
                                                  const std::vector<std::string_view>& lines) {
    std::vector<ConfigItem> items;
    std::map<std::string_view, bool> seen;
    for (std::string_view line : lines) {
        if (line.starts_with('#')) continue;
        if (line.starts_with("- ") || line.starts_with("* ") || line.starts_with("+ "))
            line = trim(line.substr(2));
        const std::size_t at = line.find_first_of(":=");
        if (at == std::string_view::npos) return std::nullopt;
        const std::string_view key = unmarked(trim(line.substr(0, at)));
        if (key.empty() || key.size() > kMaxLineKey || key.starts_with('|') ||
            key.starts_with('-') || key.starts_with('{'))
            return std::nullopt;
        if (!seen.emplace(key, true).second) return std::nullopt;
        items.push_back(
            {join_key(base, '/', key), std::string(unmarked(trim(line.substr(at + 1))))});
    }
    if (items.size() < 2) return std::nullopt;
    return items;
}

// Splits `text` at whitespace and commas outside quotes and brackets; nullopt when a quote or
// bracket is left open.
std::optional<std::vector<std::string_view>> pair_tokens(std::string_view text) {
    std::vector<std::string_view> tokens;
    std::string closers;  // the brackets open, innermost last
    char quote = 0;
    std::size_t start = std::string_view::npos;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const bool separator = quote == 0 && closers.empty() && (is_space(c) || c == ',');
        if (separator) {
            if (start != std::string_view::npos) tokens.push_back(text.substr(start, i - start));
            start = std::string_view::npos;
            continue;
        }
        if (start == std::string_view::npos) start = i;
        if (quote != 0) {
            if (c == '\\')
                ++i;
            else if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            closers += c == '(' ? ')' : c == '[' ? ']' : '}';
        } else if (c == ')' || c == ']' || c == '}') {
            if (closers.empty() || closers.back() != c) return std::nullopt;
            closers.pop_back();
        }
    }
    if (quote != 0 || !closers.empty()) return std::nullopt;
    if (start != std::string_view::npos) tokens.push_back(text.substr(start));
    return tokens;
}

// A setting's name as scripts write one: letters, digits, "_", ".", "-", "/", not a number.
bool is_setting_name(std::string_view s) {
    if (s.empty() || s.size() > kMaxLineKey) return false;
    const char first = s.front();
    if (!(std::isalpha(static_cast<unsigned char>(first)) || first == '_')) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
               c == '/';
    });
}

// Rule 3: "key=value" pairs in one text, separated by spaces or commas ("lr=0.003 batch=6
// seed=1", "--lr=0.003 --seed=1"), or inside a Python repr ("Namespace(lr=0.003, seed=1)",
// a dataclass's). Every piece must be a pair, or the text is prose ("lr=0.003 worked"). Bare,
// it takes two pairs (one is a value that holds "="); a quoted value loses its quotes.
std::optional<std::vector<ConfigItem>> pair_items(std::string_view base, std::string_view text) {
    text = trim(text);
    std::size_t wanted = 2;
    if (const std::size_t open = text.find('('); open != std::string_view::npos &&
                                                 text.ends_with(')') &&
                                                 is_setting_name(text.substr(0, open))) {
        text = text.substr(open + 1, text.size() - open - 2);
        wanted = 1;
    }
    const std::optional<std::vector<std::string_view>> tokens = pair_tokens(text);
    if (!tokens || tokens->size() < wanted) return std::nullopt;
    std::vector<ConfigItem> items;
    std::map<std::string_view, bool> seen;
    for (std::string_view token : *tokens) {
        const std::size_t at = token.find('=');
        if (at == std::string_view::npos) return std::nullopt;
        std::string_view key = token.substr(0, at);
        if (key.starts_with("--")) key.remove_prefix(2);
        if (!is_setting_name(key) || !seen.emplace(key, true).second) return std::nullopt;
        std::string_view value = token.substr(at + 1);
        if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') &&
            value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        items.push_back({join_key(base, '/', key), std::string(value)});
    }
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
    if (std::optional<std::vector<ConfigItem>> json = json_items(base, text))
        return last_wins(std::move(*json));
    const std::vector<std::string_view> lines = lines_of(text);
    if (std::optional<std::vector<ConfigItem>> table = table_items(base, lines)) return *table;
    // Pairs before lines: "lr=1 batch=6\nseed=1" is three settings, not lr = "1 batch=6".
    if (std::optional<std::vector<ConfigItem>> pairs = pair_items(base, text)) return *pairs;
    if (std::optional<std::vector<ConfigItem>> items = line_items(base, lines)) return *items;
    return {ConfigItem{std::string(base), std::string(text)}};
}

}  // namespace runtop
