#include "readers/hf_trainer_state_reader.h"

#include <fmt/format.h>

#include "core/json/json_value.h"
#include "readers/samples_axis.h"

namespace runtop {

HfRunLedger& HfLedgers::of(std::string_view run) {
    auto it = runs_.find(run);
    if (it == runs_.end()) it = runs_.emplace(std::string(run), HfRunLedger{}).first;
    return it->second;
}

HfTrainerStateReader::HfTrainerStateReader(SourceFile file, PointSink& sink, HfLedgers& ledgers)
    : WholeFileReader(std::move(file), sink), ledger_(ledgers.of(file_.run)) {}

SeriesId HfTrainerStateReader::series_of(std::string_view tag) {
    auto it = series_.find(tag);
    if (it != series_.end()) return it->second;
    static const SourcesByTagAxis kSource("hf-trainer-state");
    SeriesId id = sink_.series(SeriesKey{file_.run, file_.rank, std::string(tag)}, kSource.of(tag));
    series_.emplace(std::string(tag), id);
    return id;
}

ParseOutcome HfTrainerStateReader::parse(std::string_view text, bool) {
    JsonParse parsed = parse_json(text);
    if (!parsed) return ParseOutcome::from(parsed.error());
    JsonValue root = parsed.document().root();
    if (!root.is_object())
        return ParseOutcome::invalid("not a trainer_state.json: the top level is not an object");
    JsonValue history = root.get("log_history");
    if (history && !history.is_array())
        return ParseOutcome::invalid("not a trainer_state.json: log_history is not a list");

    // History first: it is what the file is read for.
    std::size_t position = 0;
    std::uint64_t bad = 0;
    std::string first_bad;
    std::vector<std::uint64_t>& ledger = ledger_.entries;
    const double wall = mtime();
    for (JsonValue entry : history.elements()) {
        const std::uint64_t hash = json_hash(entry.raw());
        if (position < ledger.size()) {
            if (ledger[position] == hash) {  // delivered by this or another copy of the file
                ++position;
                continue;
            }
            ledger.resize(position);  // the history was rewritten from here on
        }
        ledger.push_back(hash);
        ++position;
        std::int64_t step;
        if (!entry.is_object() || !entry.get("step").integer(step)) {
            if (bad++ == 0)
                first_bad =
                    fmt::format("log_history entry {} has no integer \"step\"", position - 1);
            continue;
        }
        for (const JsonMember& m : entry.members()) {
            if (!m.value.is_number() || m.key == "step") continue;  // text, lists, null: skipped
            const SeriesId id = series_of(m.key);
            if (id == kSkippedSeries) continue;  // filtered out at ingest: not parsed
            sink_.append(id, Point{step, wall, m.value.number()});
            ++scalars_;
        }
    }
    records_ = history.size();
    if (bad > 0 && !warned_bad_entry_) {
        warned_bad_entry_ = true;
        warn(fmt::format("{}: {} log_history entr{} skipped ({})", file_.path, bad,
                         bad == 1 ? "y" : "ies", first_bad));
    }

    // The run's state: only from a copy at least as recent as any read before.
    std::int64_t global_step = 0;
    root.get("global_step").integer(global_step);
    if (global_step >= ledger_.max_global_step) {
        ledger_.max_global_step = global_step;
        std::vector<ConfigText> texts;
        for (const JsonMember& m : root.members()) {
            if (m.value.is_array() || m.value.is_object()) continue;
            texts.push_back(ConfigText{file_.run, file_.rank, "trainer_state/" + std::string(m.key),
                                       global_step, std::string(m.value.raw())});
        }
        send_texts(std::move(texts));
    }
    return ParseOutcome::ok();
}

}  // namespace runtop
