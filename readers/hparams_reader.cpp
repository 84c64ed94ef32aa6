#include "readers/hparams_reader.h"

#include "core/format.h"

#include <fmt/format.h>

#include <charconv>

namespace runtop {
namespace {

struct Line {
    std::size_t number;     // 1-based
    std::string_view raw;   // without '\n' and '\r'
    std::string_view text;  // after the indentation
    int indent;             // leading spaces
    bool blank;
    bool comment;
    bool tab;  // a tab in the indentation: YAML forbids it, and columns would be guesses

    bool significant() const { return !blank && !comment; }
    bool list_item() const { return text == "-" || text.starts_with("- "); }
};

std::vector<Line> split_lines(std::string_view text) {
    std::vector<Line> lines;
    std::size_t start = 0, number = 1;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        Line l{number++, text.substr(start, end - start), {}, 0, false, false, false};
        if (l.raw.ends_with('\r')) l.raw.remove_suffix(1);
        std::size_t i = 0;
        while (i < l.raw.size() && (l.raw[i] == ' ' || l.raw[i] == '\t')) {
            if (l.raw[i] == '\t') l.tab = true;
            ++i;
        }
        l.indent = static_cast<int>(i);
        l.text = l.raw.substr(i);
        l.blank = l.text.empty();
        l.comment = l.text.starts_with('#');
        lines.push_back(l);
        start = end + 1;
    }
    return lines;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// A plain scalar ends at " #" (a comment).
std::string_view strip_comment(std::string_view s) {
    for (std::size_t i = 1; i < s.size(); ++i)
        if (s[i] == '#' && (s[i - 1] == ' ' || s[i - 1] == '\t')) return trim(s.substr(0, i));
    return trim(s);
}

// The position of the quote `q` that closes a quoted scalar, searching s from `from` (past
// the opening quote), or npos.
std::size_t closing_quote(std::string_view s, char q, std::size_t from) {
    for (std::size_t i = from; i < s.size(); ++i) {
        if (q == '\'' && s[i] == '\'') {
            if (i + 1 < s.size() && s[i + 1] == '\'') {
                ++i;  // '' is an escaped quote
                continue;
            }
            return i;
        }
        if (q == '"') {
            if (s[i] == '\\') {
                ++i;
                continue;
            }
            if (s[i] == '"') return i;
        }
    }
    return std::string_view::npos;
}

// The quote closing the one at s[0].
std::size_t closing_quote(std::string_view s) {
    return closing_quote(s, s[0], 1);
}

// The text of a quoted scalar, s = "'...'" or "\"...\"" (quotes included).
std::string unquote(std::string_view s) {
    std::string out;
    std::string_view body = s.substr(1, s.size() - 2);
    if (s[0] == '\'') {
        for (std::size_t i = 0; i < body.size(); ++i) {
            out += body[i];
            if (body[i] == '\'' && i + 1 < body.size() && body[i + 1] == '\'') ++i;
        }
        return out;
    }
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] != '\\' || i + 1 >= body.size()) {
            out += body[i];
            continue;
        }
        char e = body[++i];
        const std::size_t hex_digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
        if (hex_digits > 0 && i + hex_digits < body.size()) {
            unsigned long cp = 0;
            std::string_view hex = body.substr(i + 1, hex_digits);
            auto [ptr, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), cp, 16);
            if (ec == std::errc() && ptr == hex.data() + hex.size()) {
                append_utf8(out, static_cast<std::uint32_t>(std::min<unsigned long>(cp, 0x110000)));
                i += hex_digits;
                continue;
            }
        }
        switch (e) {
            case 'n':
                out += '\n';
                break;
            case 't':
                out += '\t';
                break;
            case 'r':
                out += '\r';
                break;
            case '0':
                out += '\0';
                break;
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case ' ':
                out += ' ';
                break;
            default:  // not an escape YAML knows: keep it as written
                out += '\\';
                out += e;
        }
    }
    return out;
}

// A scalar as written after "key:" or "- " (continuation lines already joined).
bool scalar_text(std::string_view s, std::string& out) {
    s = trim(s);
    if (!s.empty() && (s[0] == '"' || s[0] == '\'')) {
        std::size_t close = closing_quote(s);
        if (close == std::string_view::npos) return false;
        out = unquote(s.substr(0, close + 1));
        return true;
    }
    out.assign(strip_comment(s));
    return true;
}

// "key: rest" (or "key:"). The key may be quoted.
bool split_key(std::string_view s, std::string& key, std::string_view& rest) {
    if (s.empty() || s.starts_with("- ") || s == "-" || s[0] == '?' || s[0] == '[' || s[0] == '{')
        return false;
    if (s[0] == '"' || s[0] == '\'') {
        std::size_t close = closing_quote(s);
        if (close == std::string_view::npos) return false;
        std::string_view after = trim(s.substr(close + 1));
        if (!after.starts_with(':')) return false;
        after.remove_prefix(1);
        if (!after.empty() && after[0] != ' ' && after[0] != '\t') return false;
        key = unquote(s.substr(0, close + 1));
        rest = after;
        return true;
    }
    for (std::size_t p = s.find(':'); p != std::string_view::npos; p = s.find(':', p + 1)) {
        if (p + 1 == s.size() || s[p + 1] == ' ' || s[p + 1] == '\t') {
            std::string_view k = trim(s.substr(0, p));
            if (k.empty()) return false;
            key.assign(k);
            rest = s.substr(p + 1);
            return true;
        }
    }
    return false;
}

class YamlSubset {
  public:
    explicit YamlSubset(std::string_view text) : lines_(split_lines(text)) {}

    HparamsYaml run() {
        std::size_t i = 0;
        while (i < lines_.size()) i = statement(i);
        return std::move(out_);
    }

  private:
    struct Frame {
        int indent;          // of the key line that opened it
        std::string prefix;  // "a.b."
    };

    std::size_t next_significant(std::size_t i) const {
        while (i < lines_.size() && !lines_[i].significant()) ++i;
        return i;
    }

    // Records a problem at line i and skips it with every line indented below it.
    std::size_t skip(std::size_t i, std::string reason) {
        out_.problems.push_back({lines_[i].number, std::move(reason)});
        const int indent = lines_[i].indent;
        std::size_t k = i + 1;
        while (true) {
            k = next_significant(k);
            if (k >= lines_.size() || lines_[k].indent <= indent) return k;
            ++k;
        }
    }

    // `first` continued by the lines after `k` indented deeper than `base` (a multi-line
    // plain or quoted scalar). Leaves k after the last line used.
    std::string gather(std::string_view first, std::size_t& k, int base) {
        std::string joined(first);
        const bool quoted = !first.empty() && (first[0] == '"' || first[0] == '\'');
        // Only the text added since the last look is searched for the closing quote.
        std::size_t unsearched = 1;
        while (k < lines_.size()) {
            if (quoted && closing_quote(joined, first[0], unsearched) != std::string::npos) break;
            unsearched = joined.size();
            const Line& l = lines_[k];
            if (l.blank) {
                if (!quoted) break;
                joined += '\n';
                ++k;
                continue;
            }
            if (l.indent <= base || (!quoted && (l.comment || l.tab))) break;
            if (!joined.empty() && joined.back() != '\n') joined += ' ';
            joined += trim(l.text);
            ++k;
        }
        return joined;
    }

    std::size_t statement(std::size_t i) {
        const Line& l = lines_[i];
        if (!l.significant()) return i + 1;
        if (l.tab) return skip(i, "a tab in the indentation");
        std::string_view t = l.text;
        if (t == "---" || t.starts_with("--- ") || t == "...") return i + 1;
        while (!stack_.empty() && stack_.back().indent >= l.indent) stack_.pop_back();
        if (stack_.empty() && (t == "{}" || t == "[]")) return i + 1;  // an empty document
        if (l.list_item()) return skip(i, "a list item where a key was expected");
        std::string key;
        std::string_view rest;
        if (!split_key(t, key, rest)) return skip(i, "not a `key: value` line");
        std::string full = stack_.empty() ? key : stack_.back().prefix + key;
        rest = trim(rest);
        if (rest.starts_with('#')) rest = {};
        // A YAML tag ("!!python/tuple", "!!float 1e-3") says how to build the value; the
        // text is what matters here.
        if (rest.starts_with('!')) {
            std::size_t space = rest.find(' ');
            rest = space == std::string_view::npos ? std::string_view() : trim(rest.substr(space));
        }
        if (rest.empty()) {
            std::size_t j = next_significant(i + 1);
            if (j < lines_.size() && lines_[j].list_item() && lines_[j].indent >= l.indent &&
                !lines_[j].tab)
                return list(j, full);
            if (j < lines_.size() && lines_[j].indent > l.indent) {
                stack_.push_back({l.indent, full + "."});
                return j;
            }
            out_.entries.push_back({std::move(full), ""});
            return i + 1;
        }
        if (rest[0] == '|' || rest[0] == '>') return block_scalar(i, full, rest[0] == '|');
        std::size_t k = i + 1;
        std::string value;
        if (!scalar_text(gather(rest, k, l.indent), value))
            return skip(i, "a quoted value that is never closed");
        out_.entries.push_back({std::move(full), std::move(value)});
        return k;
    }

    // The items of a list of scalars, from line j; the value is "[a, b]".
    std::size_t list(std::size_t j, std::string& key) {
        const int indent = lines_[j].indent;
        std::string joined = "[";
        bool first = true, bad = false;
        std::size_t k = j;
        while (true) {
            k = next_significant(k);
            if (k >= lines_.size() || lines_[k].indent != indent || !lines_[k].list_item()) break;
            const std::size_t item_line = k;
            std::string_view item = trim(lines_[k].text.substr(1));
            std::string item_key;
            std::string_view item_rest;
            if (item == "-" || item.starts_with("- ")) {
                bad = true;
                k = skip(item_line, "a nested list");
                continue;
            }
            if (split_key(item, item_key, item_rest)) {
                bad = true;
                k = skip(item_line, "a list of mappings");
                continue;
            }
            ++k;
            std::string value;
            if (!scalar_text(gather(item, k, indent), value)) {
                bad = true;
                k = skip(item_line, "a quoted value that is never closed");
                continue;
            }
            if (!first) joined += ", ";
            joined += value;
            first = false;
        }
        if (!bad) out_.entries.push_back({std::move(key), joined + "]"});
        return k;
    }

    // "key: |" or "key: >": the lines indented deeper, joined with '\n' (literal) or ' '.
    std::size_t block_scalar(std::size_t i, std::string& key, bool literal) {
        const int base = lines_[i].indent;
        int block_indent = -1;
        std::vector<std::string_view> body;
        std::size_t k = i + 1;
        for (; k < lines_.size(); ++k) {
            const Line& l = lines_[k];
            if (l.blank) {
                body.emplace_back();
                continue;
            }
            if (l.indent <= base) break;
            if (block_indent < 0) block_indent = l.indent;
            body.push_back(
                l.raw.substr(static_cast<std::size_t>(std::min(block_indent, l.indent))));
        }
        while (!body.empty() && body.back().empty()) body.pop_back();
        std::string value;
        for (std::size_t b = 0; b < body.size(); ++b) {
            if (b > 0) value += literal ? '\n' : ' ';
            value += body[b];
        }
        out_.entries.push_back({std::move(key), std::move(value)});
        return k;
    }

    std::vector<Line> lines_;
    std::vector<Frame> stack_;
    HparamsYaml out_;
};

}  // namespace

HparamsYaml parse_hparams_yaml(std::string_view text) {
    return YamlSubset(text).run();
}

HparamsReader::HparamsReader(SourceFile file, PointSink& sink)
    : WholeFileReader(std::move(file), sink) {}

ParseOutcome HparamsReader::parse(std::string_view text, bool settled) {
    // PyYAML ends every document with a newline; without one the writer is not done yet
    // (unless the file has stayed so: then it is what was meant).
    if (!settled && !text.empty() && text.back() != '\n')
        return ParseOutcome::incomplete("the last line is not finished");
    HparamsYaml yaml = parse_hparams_yaml(text);
    std::vector<ConfigText> texts;
    for (HparamsYaml::Entry& e : yaml.entries)
        texts.push_back(
            ConfigText{file_.run, file_.rank, "hparams/" + e.key, 0, std::move(e.value)});
    records_ = texts.size();
    send_texts(std::move(texts));
    if (!yaml.problems.empty()) {
        const HparamsYaml::Problem& p = yaml.problems.front();
        std::string more = yaml.problems.size() > 1
                               ? fmt::format(" ({} places in all)", yaml.problems.size())
                               : std::string();
        warn(fmt::format("{}: line {}: {}; skipped{}, the rest was read", file_.path, p.line,
                         p.reason, more));
    }
    return ParseOutcome::ok();
}

}  // namespace runtop
