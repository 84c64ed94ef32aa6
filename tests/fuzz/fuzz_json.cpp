// libFuzzer target: the input is the text of a file that is rewritten whole. These properties
// must hold, or the target aborts:
// 1. parse_json never crashes; "incomplete" means the error is at the end of the text; when
//    the text is invalid at byte k, its first k bytes are a possible start of a document, so
//    parsing them alone is never "invalid" (the readers retry incomplete files and report
//    invalid ones: a half-written file must never look invalid);
// 2. a document that parses: its whitespace-free form parses to the same form and hash, and
//    every prefix cut before the end of its top-level value is "incomplete" (a number may
//    also parse as a shorter number);
// 3. each reader's parse step (msProbe anomalies, Hugging Face trainer_state, Oumi telemetry,
//    Lightning hparams.yaml, the last as unsettled and as settled content, which it must
//    always accept): a failure leaves the sink untouched; the same text parsed again sends no
//    new point (HF's ledger) and no new config text (texts are sent when they change), and
//    the anomalies again, as many as before.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/json/json_value.h"
#include "core/point_sink.h"
#include "readers/hf_trainer_state_reader.h"
#include "readers/hparams_reader.h"
#include "readers/msprobe_anomaly_reader.h"
#include "readers/oumi_telemetry_reader.h"

using namespace runtop;

namespace {

[[noreturn]] void die(const char* what, std::string_view text) {
    std::fprintf(stderr, "%s (input of %zu bytes)\n", what, text.size());
    std::abort();
}

// Counts calls and touches every byte it is given (ASan checks the bounds).
class CountingSink final : public PointSink {
  public:
    SeriesId series(const SeriesKey& key, SourceId) override {
        sum += key.run.size() + key.tag.size();
        return static_cast<SeriesId>(series_calls++);
    }
    void append(SeriesId id, const Point& p) override {
        if (id >= series_calls) {
            std::fprintf(stderr, "append() with unknown series id %u\n", id);
            std::abort();
        }
        sum += static_cast<std::uint64_t>(p.step);
        ++points;
    }
    void session_start(std::string_view, int, std::int64_t, double) override { ++starts; }
    void config_text(ConfigText t) override {
        for (char c : t.tag + t.text) sum += static_cast<unsigned char>(c);
        ++texts;
    }
    void anomaly(ImportedAnomaly a) override {
        for (char c : a.key + a.tag + a.raw_tag + a.op + a.rule + a.message)
            sum += static_cast<unsigned char>(c);
        ++anomalies;
    }
    std::uint64_t calls() const { return series_calls + points + starts + texts + anomalies; }

    std::uint64_t series_calls = 0, points = 0, starts = 0, texts = 0, anomalies = 0, sum = 0;
};

void check_parser(std::string_view text) {
    JsonParse parsed = parse_json(text);
    if (!parsed.ok()) {
        const JsonError& e = parsed.error();
        if (e.incomplete() && e.offset != text.size()) die("incomplete, but not at the end", text);
        if (!e.incomplete()) {
            if (e.offset >= text.size()) die("invalid at or past the end", text);
            JsonParse before = parse_json(text.substr(0, e.offset));
            if (!before.ok() && !before.incomplete())
                die("the bytes before an invalid one are invalid on their own", text);
        }
        if (e.describe().empty()) die("an empty error description", text);
        return;
    }
    const JsonValue root = parsed.document().root();
    const std::string_view raw = root.raw();
    const std::string compact = compact_json(raw);
    JsonParse again = parse_json(compact);
    if (!again.ok()) die("the compact form does not parse", text);
    if (compact_json(again.document().root().raw()) != compact) die("compact form unstable", text);
    if (json_hash(raw) != json_hash(compact)) die("hash differs from the compact form's", text);

    // Prefixes cut before the end of the top-level value.
    const std::size_t end = static_cast<std::size_t>(raw.data() + raw.size() - text.data());
    const bool number = root.is_number();
    const std::size_t step = end <= 64 ? 1 : end / 8;
    for (std::size_t cut = 0; cut < end; cut += step) {
        JsonParse prefix = parse_json(text.substr(0, cut));
        if (prefix.incomplete()) continue;
        if (!(number && prefix.ok())) die("a prefix of a document is not incomplete", text);
    }
}

// One reader's parse step, twice over the same text.
template <class Reader>
void check_reader(Reader& reader, CountingSink& sink, std::string_view text, bool settled,
                  bool resends_anomalies) {
    const std::uint64_t before = sink.calls();
    const std::uint64_t anomalies_before = sink.anomalies;
    ParseOutcome first = reader.parse_content(text, settled);
    if (!first.done()) {
        if (sink.calls() != before) die("a failed parse sent something", text);
        if (first.reason.empty()) die("a failed parse without a reason", text);
        return;
    }
    const std::uint64_t points = sink.points, texts = sink.texts;
    const std::uint64_t anomalies = sink.anomalies - anomalies_before;
    ParseOutcome second = reader.parse_content(text, settled);
    if (!second.done()) die("the same text parsed once, then failed", text);
    if (sink.points != points) die("the same text sent points twice", text);
    if (sink.texts != texts) die("the same text sent unchanged config texts again", text);
    if (resends_anomalies && sink.anomalies - anomalies_before != 2 * anomalies)
        die("the same text sent another number of anomalies", text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    // A copy of exactly `size` bytes on the heap, so ASan flags any read past the end.
    std::vector<char> bytes(data, data + size);
    const std::string_view text(bytes.data(), bytes.size());

    check_parser(text);

    CountingSink sink;
    // The JSON readers do not look at `settled` (JSON has no "maybe cut short" to accept).
    MsProbeAnomalyReader anomalies(SourceFile{"/fuzz/anomaly_detected/rank0/anomaly.json", "run", 0,
                                              SourceFormat::kMsProbeAnomaly},
                                   sink);
    check_reader(anomalies, sink, text, false, true);

    HfLedgers ledgers;
    HfTrainerStateReader hf(
        SourceFile{"/fuzz/trainer_state.json", "run", kNoRank, SourceFormat::kHfTrainerState}, sink,
        ledgers);
    check_reader(hf, sink, text, false, false);

    OumiTelemetryReader oumi(SourceFile{"/fuzz/telemetry_callback_all_ranks.json", "run", kNoRank,
                                        SourceFormat::kOumiTelemetry},
                             sink);
    check_reader(oumi, sink, text, false, false);

    for (bool settled : {false, true}) {
        HparamsReader hparams(
            SourceFile{"/fuzz/hparams.yaml", "run", kNoRank, SourceFormat::kLightningHparams},
            sink);
        check_reader(hparams, sink, text, settled, false);
        if (settled && !hparams.parse_content(text, true).done())
            die("settled YAML must always be read", text);
        (void)hparams.take_warnings();
    }
    return 0;
}
