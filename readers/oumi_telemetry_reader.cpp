#include "readers/oumi_telemetry_reader.h"

#include <charconv>

#include "core/json/json_value.h"

namespace runtop {
namespace {

// "rank0012" -> 12; false for anything else.
bool rank_key(std::string_view s, int& rank) {
    if (!s.starts_with("rank") || s.size() == 4 || s.size() > 12) return false;
    if (!all_digits(s.substr(4))) return false;
    const char* first = s.data() + 4;
    const char* last = s.data() + s.size();
    auto [ptr, ec] = std::from_chars(first, last, rank);
    return ec == std::errc() && ptr == last && rank <= 1000000;
}

}  // namespace

std::string oumi_file_kind(std::string_view name, int& rank) {
    rank = kNoRank;
    if (name.starts_with("telemetry_callback_")) name.remove_prefix(19);
    if (name.ends_with(".json")) name.remove_suffix(5);
    if (name == "all_ranks") return "summary";
    if (rank_key(name, rank)) return "summary";
    std::size_t sep = name.rfind('_');
    if (sep != std::string_view::npos && rank_key(name.substr(sep + 1), rank))
        name = name.substr(0, sep);
    return std::string(name.empty() ? "telemetry" : name);
}

OumiTelemetryReader::OumiTelemetryReader(SourceFile file, PointSink& sink)
    : WholeFileReader(std::move(file), sink) {
    kind_ = oumi_file_kind(base_name(file_.path), name_rank_);
    if (name_rank_ == kNoRank) name_rank_ = file_.rank;
}

// Depth-first; the parser's depth limit bounds the recursion.
void OumiTelemetryReader::walk(const JsonValue& value, int rank, std::string& tag,
                               std::vector<ConfigText>& out) {
    if (!value.is_object()) {
        out.push_back(
            ConfigText{file_.run, rank, tag, 0,
                       value.is_array() ? compact_json(value.raw()) : std::string(value.raw())});
        return;
    }
    const std::size_t length = tag.size();
    for (const JsonMember& m : value.members()) {
        tag += '/';
        tag += m.key;
        walk(m.value, rank, tag, out);
        tag.resize(length);
    }
}

ParseOutcome OumiTelemetryReader::parse(std::string_view text, bool) {
    JsonParse parsed = parse_json(text);
    if (!parsed) return ParseOutcome::from(parsed.error());
    JsonValue root = parsed.document().root();
    if (!root.is_object())
        return ParseOutcome::invalid("not an Oumi telemetry file: the top level is not an object");
    const std::string base = "oumi/" + kind_;
    std::string tag;
    std::vector<ConfigText> leaves;
    for (const JsonMember& m : root.members()) {
        int rank;
        if (m.value.is_object() && rank_key(m.key, rank)) {
            tag = base;
            walk(m.value, rank, tag, leaves);
            continue;
        }
        tag = base + "/";
        tag += m.key;
        walk(m.value, name_rank_, tag, leaves);
    }
    records_ = leaves.size();
    send_texts(std::move(leaves));
    return ParseOutcome::ok();
}

}  // namespace runtop
