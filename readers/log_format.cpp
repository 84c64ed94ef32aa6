#include "readers/log_format.h"

#include <re2/re2.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <ctime>
#include <limits>

#include <fmt/format.h>

#include "core/json/json_value.h"
#include "readers/number_text.h"

namespace runtop {
namespace {

// A number as Python prints it (LOGS.md §0), for `{NUM}` in a pattern.
constexpr std::string_view kNumber =
    R"((?:[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|(?i:nan|inf))))";

// Capturing groups a pattern may have, the whole match included.
constexpr int kMaxGroups = 16;

// A local date and time as Python's logging and Megatron print them, for `{TIME}`.
constexpr std::string_view kTime = R"(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?)";

std::string expand(std::string_view pattern) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size();) {
        if (pattern.substr(i, 5) == "{NUM}") {
            out += kNumber;
            i += 5;
        } else if (pattern.substr(i, 6) == "{TIME}") {
            out += kTime;
            i += 6;
        } else {
            out += pattern[i++];
        }
    }
    return out;
}

int group(const re2::RE2& re, const std::string& name) {
    const auto& groups = re.NamedCapturingGroups();
    const auto it = groups.find(name);
    return it == groups.end() ? 0 : it->second;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// Each field of `line` between separators, as `name assign value`: a name that begins with a
// letter and a value that is one number are a metric. No pattern: a split and a search a field.
template <class Add>
void fields(std::string_view line, std::string_view separator, std::string_view assign,
            const Add& add) {
    while (!line.empty()) {
        const std::size_t end = line.find(separator);
        const std::string_view field = line.substr(0, end);
        line = end == std::string_view::npos ? std::string_view{}
                                             : line.substr(end + separator.size());
        const std::size_t at = field.find(assign);
        if (at == std::string_view::npos) continue;
        const std::string_view name = trim(field.substr(0, at));
        if (name.empty() ||
            !((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z')))
            continue;
        add(name, trim(field.substr(at + assign.size())));
    }
}

// A rank beyond this in a line is a misread, not a rank.
constexpr std::int64_t kMaxRank = 1000000;

// "7,282" or "-1,234,567.5": digits grouped by three with ','. False for anything else, so a
// list ("1,2") is no number.
bool parse_grouped(std::string_view text, double& out) {
    const std::size_t comma = text.find(',');
    if (comma == std::string_view::npos) return false;
    std::string digits;
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) digits += text[i++];
    std::size_t run = 0;
    bool grouped = false;
    for (; i < text.size() && text[i] != '.'; ++i) {
        if (text[i] == ',') {
            if (run == 0 || (grouped && run != 3) || run > 3) return false;
            grouped = true;
            run = 0;
        } else if (text[i] >= '0' && text[i] <= '9') {
            digits += text[i];
            ++run;
        } else {
            return false;
        }
    }
    if (run != 3) return false;
    digits.append(text.substr(i));
    return parse_value(digits, out);
}

bool two_digits(std::string_view s, std::size_t at, int& out) {
    if (at + 2 > s.size() || s[at] < '0' || s[at] > '9' || s[at + 1] < '0' || s[at + 1] > '9')
        return false;
    out = (s[at] - '0') * 10 + (s[at + 1] - '0');
    return true;
}

}  // namespace

struct LogFormat::Metric {
    std::string name;               // fixed; empty for pairs and fields
    std::unique_ptr<re2::RE2> re;   // null for fields
    std::string separator, assign;  // fields
    int name_group = 0;
    int value_group = 0;  // 0: the whole match
};

LogFormat::LogFormat() = default;
LogFormat::LogFormat(LogFormat&&) noexcept = default;
LogFormat& LogFormat::operator=(LogFormat&&) noexcept = default;
LogFormat::~LogFormat() = default;

bool parse_log_time(std::string_view s, double& seconds) {
    // YYYY-MM-DD HH:MM:SS
    if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') ||
        s[13] != ':' || s[16] != ':')
        return false;
    int century = 0, year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!two_digits(s, 0, century) || !two_digits(s, 2, year) || !two_digits(s, 5, month) ||
        !two_digits(s, 8, day) || !two_digits(s, 11, hour) || !two_digits(s, 14, minute) ||
        !two_digits(s, 17, second))
        return false;
    double fraction = 0;
    if (s.size() > 20 && (s[19] == '.' || s[19] == ',')) {
        double scale = 0.1;
        for (std::size_t i = 20; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10)
            fraction += (s[i] - '0') * scale;
    }
    // mktime reads the time zone again on every call (a stat of /etc/localtime): once an hour
    // of log time is enough, the rest is minutes and seconds into it.
    struct HourStart {
        int key = -1;
        std::time_t at = 0;
    };
    thread_local HourStart cache;
    const int key = ((((century * 100 + year) * 13 + month) * 32 + day) * 24) + hour;
    if (key != cache.key) {
        std::tm tm{};
        tm.tm_year = century * 100 + year - 1900;
        tm.tm_mon = month - 1;
        tm.tm_mday = day;
        tm.tm_hour = hour;
        tm.tm_isdst = -1;  // the writer's local time, summer or not
        const std::time_t t = std::mktime(&tm);
        if (t == static_cast<std::time_t>(-1)) return false;
        cache = {key, t};
    }
    if (minute > 59 || second > 60) return false;
    seconds = static_cast<double>(cache.at) + minute * 60 + second + fraction;
    return true;
}

Result<LogFormat> LogFormat::parse(std::string_view json, std::string_view origin) {
    JsonLimits limits;
    limits.comments = true;
    const JsonParse parsed = parse_json(json, limits);
    if (!parsed) return Error{fmt::format("{}: {}", origin, parsed.error().describe_position())};
    const auto line_of = [&](JsonValue v) {
        const std::string_view raw = v.raw();
        const std::size_t at = static_cast<std::size_t>(raw.data() - json.data());
        return 1 + std::count(json.begin(), json.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    };
    const auto fail = [&](JsonValue at, std::string why) -> Result<LogFormat> {
        return Error{fmt::format("{}:{}: {}", origin, line_of(at), why)};
    };
    const auto compile = [&](JsonValue at, std::string_view key,
                             std::unique_ptr<re2::RE2>& out) -> std::string {
        if (!at.is_string()) return fmt::format("'{}' is not a string", key);
        RE2::Options options;
        options.set_log_errors(false);
        out = std::make_unique<re2::RE2>(expand(at.string()), options);
        if (!out->ok())
            return fmt::format("'{}' is not a valid RE2 pattern: {}", key, out->error());
        if (out->NumberOfCapturingGroups() >= kMaxGroups)
            return fmt::format("'{}' has more than {} groups", key, kMaxGroups - 1);
        return {};
    };

    const JsonValue doc = parsed.document().root();
    if (!doc.is_object()) return fail(doc, "the top level is not an object");
    LogFormat f;
    for (const auto& [key, value] : doc.unique_members()) {
        if (key == "name" || key == "description") {
            if (!value.is_string() || value.string().empty())
                return fail(value, fmt::format("'{}' is not a string", key));
            (key == "name" ? f.name_ : f.description_) = std::string(value.string());
        } else if (key == "require" || key == "ignore") {
            if (!value.is_array()) return fail(value, fmt::format("'{}' is not a list", key));
            for (JsonValue e : value.elements()) {
                if (!e.is_string() || e.string().empty())
                    return fail(e, fmt::format("'{}' holds something not a string", key));
                (key == "require" ? f.require_ : f.ignore_).emplace_back(e.string());
            }
        } else if (key == "line" || key == "time") {
            std::unique_ptr<re2::RE2>& re = key == "line" ? f.line_ : f.time_;
            if (std::string why = compile(value, key, re); !why.empty()) return fail(value, why);
        } else if (key == "step") {
            if (!value.is_string() || (value.string() != "line" && value.string() != "ordinal"))
                return fail(value, "'step' is not \"line\" or \"ordinal\"");
            f.ordinal_step_ = value.string() == "ordinal";
        } else if (key == "prefix") {
            if (!value.is_string() || value.string().empty())
                return fail(value, "'prefix' is not a string");
            f.prefix_ = std::string(value.string());
        } else if (key == "stride") {
            if (!value.is_string() || value.string().empty())
                return fail(value, "'stride' is not a string");
            f.stride_key_ = std::string(value.string());
        } else if (key == "anomalies") {
            if (!value.is_string() || value.string() != "msprobe")
                return fail(value, "'anomalies' is not \"msprobe\"");
            f.msprobe_anomalies_ = true;
        } else if (key == "metrics") {
            if (!value.is_array()) return fail(value, "'metrics' is not a list");
            for (JsonValue e : value.elements()) {
                if (!e.is_object()) return fail(e, "a metric is not an object");
                Metric m;
                const JsonValue pairs = e.get("pairs"), name = e.get("name"),
                                pattern = e.get("value"), fields = e.get("fields"),
                                assign = e.get("assign");
                for (const auto& [mkey, mvalue] : e.unique_members())
                    if (mkey != "pairs" && mkey != "name" && mkey != "value" && mkey != "fields" &&
                        mkey != "assign")
                        return fail(mvalue, fmt::format("unknown key '{}' in a metric", mkey));
                if (int(pairs.exists()) + int(name.exists() || pattern.exists()) +
                        int(fields.exists() || assign.exists()) !=
                    1)
                    return fail(e,
                                "a metric has one of 'pairs', 'name' and 'value', or "
                                "'fields' and 'assign'");
                if (fields || assign) {
                    if (!fields.is_string() || fields.string().empty() || !assign.is_string() ||
                        assign.string().empty())
                        return fail(e, "'fields' and 'assign' are both non-empty strings");
                    m.separator = std::string(fields.string());
                    m.assign = std::string(assign.string());
                } else if (pairs) {
                    if (std::string why = compile(pairs, "pairs", m.re); !why.empty())
                        return fail(pairs, why);
                    m.name_group = group(*m.re, "name");
                    m.value_group = group(*m.re, "value");
                    if (m.name_group == 0 || m.value_group == 0)
                        return fail(pairs, "'pairs' needs groups (?P<name>...) and (?P<value>...)");
                } else {
                    if (!name.is_string() || name.string().empty())
                        return fail(e, "a metric's 'name' is not a string");
                    m.name = std::string(name.string());
                    if (std::string why = compile(pattern, "value", m.re); !why.empty())
                        return fail(pattern, why);
                    m.value_group = group(*m.re, "value");
                }
                f.metrics_.push_back(std::move(m));
            }
        } else {
            return fail(value, fmt::format("unknown key '{}'", key));
        }
    }
    if (f.name_.empty()) return fail(doc, "no 'name'");
    f.origin_ = std::string(origin);
    f.source_ = std::string(json);
    if (!f.stride_key_.empty() && !f.ordinal_step_)
        return fail(doc.get("stride"), "'stride' needs \"step\": \"ordinal\"");
    if (f.line_) {
        f.step_group_ = group(*f.line_, "step");
        f.epoch_group_ = group(*f.line_, "epoch");
        f.epoch_steps_group_ = group(*f.line_, "epoch_steps");
        f.time_group_ = group(*f.line_, "time");
        f.name_group_ = group(*f.line_, "name");
        f.value_group_ = group(*f.line_, "value");
        f.rank_group_ = group(*f.line_, "rank");
        if ((f.name_group_ == 0) != (f.value_group_ == 0))
            return fail(doc.get("line"),
                        "'line' has a (?P<name>) group without (?P<value>) or "
                        "the other way round");
    }
    if (f.time_ && (f.time_pattern_group_ = group(*f.time_, "time")) == 0)
        return fail(doc.get("time"), "'time' has no (?P<time>...) group");
    if (f.metrics_.empty() && f.name_group_ == 0 && !f.msprobe_anomalies_)
        return fail(doc, "no metric: give 'metrics', or (?P<name>) and (?P<value>) in 'line'");
    if (!f.ordinal_step_ && f.step_group_ == 0)
        return fail(doc, "no step: give (?P<step>...) in 'line', or \"step\": \"ordinal\"");
    return f;
}

LogFormat LogFormat::copy() const {
    Result<LogFormat> again = parse(source_, origin_);
    assert(again.ok());  // it was parsed once
    return std::move(*again);
}

bool LogFormat::may_match(std::string_view line) const {
    for (const std::string& literal : require_)
        if (line.find(literal) == std::string_view::npos) return false;
    return true;
}

bool LogFormat::match(std::string_view line, std::uint64_t ordinal, LogRecord& out) const {
    out.metrics.clear();
    out.has_step = false;
    out.rank = -1;
    out.wall_time = std::numeric_limits<double>::quiet_NaN();
    const re2::StringPiece text(line.data(), line.size());
    re2::StringPiece groups[kMaxGroups];
    const auto view = [](const re2::StringPiece& p) {
        return std::string_view(p.data(), p.size());
    };
    const auto add = [&](std::string_view name, std::string_view value) {
        double v = 0;
        if (std::find(ignore_.begin(), ignore_.end(), name) != ignore_.end()) return;
        if (parse_value(value, v) || parse_grouped(value, v)) out.metrics.emplace_back(name, v);
    };
    if (line_) {
        const int n = 1 + line_->NumberOfCapturingGroups();
        if (!line_->Match(text, 0, text.size(), re2::RE2::UNANCHORED, groups, n)) return false;
        const auto integer = [&](int g, std::int64_t& v) {
            return g > 0 && groups[g].data() != nullptr && parse_step(view(groups[g]), v);
        };
        std::int64_t step = 0, epoch = 0, epoch_steps = 0;
        if (integer(step_group_, step)) {
            out.has_step = true;
            out.step = step;
            if (integer(epoch_group_, epoch) && integer(epoch_steps_group_, epoch_steps) &&
                epoch >= 1)
                out.step = (epoch - 1) * epoch_steps + step;
        }
        std::int64_t rank = 0;
        if (integer(rank_group_, rank) && rank >= 0 && rank <= kMaxRank)
            out.rank = static_cast<int>(rank);
        if (time_group_ > 0 && groups[time_group_].data() != nullptr)
            parse_log_time(view(groups[time_group_]), out.wall_time);
        if (name_group_ > 0 && groups[name_group_].data() != nullptr &&
            groups[value_group_].data() != nullptr)
            add(view(groups[name_group_]), view(groups[value_group_]));
    }
    if (ordinal_step_) {
        out.has_step = true;
        out.step = static_cast<std::int64_t>(ordinal) + 1;
    }
    if (!out.has_step) return false;
    if (time_ && std::isnan(out.wall_time) &&
        time_->Match(text, 0, text.size(), re2::RE2::UNANCHORED, groups, time_pattern_group_ + 1))
        parse_log_time(view(groups[time_pattern_group_]), out.wall_time);
    for (const Metric& m : metrics_) {
        if (!m.re) {
            fields(line, m.separator, m.assign, add);
            continue;
        }
        const int n = 1 + m.re->NumberOfCapturingGroups();
        if (m.name.empty()) {
            for (std::size_t at = 0; at <= text.size();) {
                if (!m.re->Match(text, at, text.size(), re2::RE2::UNANCHORED, groups, n)) break;
                add(view(groups[m.name_group]), view(groups[m.value_group]));
                const std::size_t end =
                    static_cast<std::size_t>(groups[0].data() - text.data()) + groups[0].size();
                at = end > at ? end : at + 1;
            }
        } else if (m.re->Match(text, 0, text.size(), re2::RE2::UNANCHORED, groups, n)) {
            add(m.name, view(groups[m.value_group]));
        }
    }
    return msprobe_anomalies_ || !out.metrics.empty();
}

int match_log_line(const std::vector<LogFormat>& formats, std::string_view text,
                   std::vector<std::uint64_t>& ordinals, LogRecord& out) {
    for (std::size_t f = 0; f < formats.size(); ++f) {
        if (!formats[f].may_match(text) || !formats[f].match(text, ordinals[f], out)) continue;
        ++ordinals[f];
        return static_cast<int>(f);
    }
    return -1;
}

}  // namespace runtop
