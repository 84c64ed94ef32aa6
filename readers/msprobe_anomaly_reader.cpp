#include "readers/msprobe_anomaly_reader.h"

#include "core/analysis/msprobe_tag.h"
#include "core/identity.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

#include "core/json/json_value.h"
#include "readers/number_text.h"

namespace runtop {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Takes `word` off the front of `s`.
bool eat(std::string_view& s, std::string_view word) {
    if (!s.starts_with(word)) return false;
    s.remove_prefix(word.size());
    return true;
}

// Python's float repr, as the message prints it ("nan", "inf", "476.07618007421394").
double message_number(std::string_view text) {
    double v;
    return parse_value(text, v) ? v : kNaN;
}

const char* json_type_name(JsonType type) {
    switch (type) {
        case JsonType::kNull:
            return "null";
        case JsonType::kBool:
            return "a boolean";
        case JsonType::kNumber:
            return "a number";
        case JsonType::kString:
            return "a string";
        case JsonType::kArray:
            return "an array";
        case JsonType::kObject:
            return "an object";
    }
    return "?";
}

}  // namespace

// The equivalent of the regex
//   Rule (\S+) reports anomaly signal in \('([^']*)', '([^']*)'\) at step (\d+)
//   (?:, current value (\S+), history mean (\S+))?\.
// and of the legacy "Rule (\S+) reports anomaly signal in (.*) at step (\d+)\.".
bool parse_anomaly_message(std::string_view s, AnomalyMessage& out) {
    out = AnomalyMessage{};
    out.value = kNaN;
    out.history_mean = kNaN;
    std::size_t at = s.find("Rule ");
    if (at == std::string_view::npos) return false;
    s.remove_prefix(at + 5);
    std::size_t space = s.find(' ');
    if (space == 0 || space == std::string_view::npos) return false;
    std::string_view rule = s.substr(0, space);
    s.remove_prefix(space);
    if (!eat(s, " reports anomaly signal in ")) return false;
    out.rule.assign(rule);
    std::string_view rest = s;
    if (eat(rest, "('")) {
        std::size_t q = rest.find('\'');
        if (q != std::string_view::npos) {
            std::string_view after_tag = rest.substr(q + 1);
            if (eat(after_tag, ", '")) {
                std::size_t q2 = after_tag.find('\'');
                if (q2 != std::string_view::npos) {
                    std::string_view op = after_tag.substr(0, q2);
                    std::string_view tail = after_tag.substr(q2 + 1);
                    std::size_t digits_end = 0;
                    if (eat(tail, ") at step ")) {
                        while (digits_end < tail.size() && tail[digits_end] >= '0' &&
                               tail[digits_end] <= '9')
                            ++digits_end;
                    }
                    if (digits_end > 0) {
                        out.op.assign(op);
                        out.tag_name.assign(rest.substr(0, q));
                        parse_step(tail.substr(0, digits_end), out.step);
                        tail.remove_prefix(digits_end);
                        if (eat(tail, ", current value ")) {
                            std::size_t sep = tail.find(", history mean ");
                            if (sep != std::string_view::npos) {
                                out.value = message_number(tail.substr(0, sep));
                                std::string_view mean = tail.substr(sep + 15);
                                std::size_t end = mean.find_first_of(" \t\r\n");
                                if (end != std::string_view::npos) mean = mean.substr(0, end);
                                // The sentence's final '.' is not part of the number.
                                if (mean.ends_with('.')) mean.remove_suffix(1);
                                out.history_mean = message_number(mean);
                            }
                        }
                        return true;
                    }
                }
            }
        }
    }
    // Legacy: "... in <tag_name> at step <s>." carries the rule only.
    return s.find(" at step ") != std::string_view::npos;
}

bool anomaly_from_alarm(std::string_view line, ImportedAnomaly& out) {
    AnomalyMessage msg;
    const std::size_t at = line.find("Rule ");
    if (at == std::string_view::npos || !parse_anomaly_message(line.substr(at), msg) ||
        msg.op.empty() || msg.step < 0)
        return false;
    std::string_view message = line.substr(at);
    if (const std::size_t end = message.find(".\x1b"); end != std::string_view::npos)
        message = message.substr(0, end + 1);
    out.message.assign(message);
    out.raw_tag = std::move(msg.tag_name);
    out.op = std::move(msg.op);
    out.rule = std::move(msg.rule);
    out.step = msg.step;
    out.value = msg.value;
    out.history_mean = msg.history_mean;
    out.call_id = -1;
    const AnomalyTagName parts = parse_anomaly_tag_name(out.raw_tag);
    out.rank = parts.ok ? parts.rank : kNoRank;
    out.micro_step = parts.ok && parts.has_micro ? parts.micro : 0;
    out.vpp_stage = parts.ok && parts.has_vpp ? parts.vpp : 0;
    out.tag = anomaly_series_tag(out.raw_tag, out.op);
    out.key = fmt::format("{}_step_{}_op_{}", out.raw_tag, out.step, out.op);
    return true;
}

MsProbeAnomalyReader::MsProbeAnomalyReader(SourceFile file, PointSink& sink)
    : WholeFileReader(std::move(file), sink) {}

ParseOutcome MsProbeAnomalyReader::parse(std::string_view text, bool) {
    JsonParse parsed = parse_json(text);
    if (!parsed) return ParseOutcome::from(parsed.error());
    JsonValue root = parsed.document().root();
    if (!root.is_object())
        return ParseOutcome::invalid(
            fmt::format("not an msProbe anomaly file: the top level is {}, not an object",
                        json_type_name(root.type())));

    std::uint64_t entries = 0, bad = 0;
    std::string first_bad;
    for (const JsonMember& m : root.members()) {
        if (!m.value.is_object()) {
            if (bad++ == 0)
                first_bad = fmt::format("entry \"{}\" is {}, not an object", m.key,
                                        json_type_name(m.value.type()));
            continue;
        }
        ImportedAnomaly a;
        a.run = file_.run;
        std::int64_t rank;
        a.rank = m.value.get("rank").integer(rank) && rank >= 0 && rank <= 1000000
                     ? static_cast<int>(rank)
                     : file_.rank;
        a.key.assign(m.key);
        a.raw_tag.assign(m.value.get("tag_name").string());
        a.message.assign(m.value.get("message").string());
        m.value.get("step").integer(a.step);
        m.value.get("pp_stage").integer(a.pp_stage);
        m.value.get("vpp_stage").integer(a.vpp_stage);
        m.value.get("call_id").integer(a.call_id);
        // micro_step is always 0 in the entry; the tag's ":<micro>" is the real one.
        AnomalyTagName parts = parse_anomaly_tag_name(a.raw_tag);
        if (parts.ok && parts.has_micro) {
            a.micro_step = parts.micro;
        } else {
            m.value.get("micro_step").integer(a.micro_step);
        }
        for (JsonValue mate : m.value.get("group_mates").elements()) {
            std::int64_t r;
            if (mate.integer(r) && r >= 0 && r <= 1000000)
                a.group_mates.push_back(static_cast<int>(r));
        }
        AnomalyMessage msg;
        if (parse_anomaly_message(a.message, msg)) {
            a.rule = std::move(msg.rule);
            a.op = std::move(msg.op);
            a.value = msg.value;
            a.history_mean = msg.history_mean;
        } else {
            a.value = kNaN;
            a.history_mean = kNaN;
        }
        a.tag = anomaly_series_tag(a.raw_tag, a.op);
        a.source_path = file_.path;
        sink_.anomaly(std::move(a));
        ++entries;
    }
    records_ = entries;
    anomalies_ = entries;
    if (bad > 0 && !warned_bad_entry_) {
        warned_bad_entry_ = true;
        warn(fmt::format("{}: {} entr{} skipped ({})", file_.path, bad, bad == 1 ? "y" : "ies",
                         first_bad));
    }
    return ParseOutcome::ok();
}

}  // namespace runtop
