// What the readers of files rewritten whole share (msProbe's anomaly.json, Hugging Face's
// trainer_state.json, Oumi's telemetry JSON, Lightning's hparams.yaml): such a file is never
// appended to, so each change means reading and parsing all of it again.
//
// poll() stats the file; when (device, inode, size, mtime) differ from the last successful
// parse, it reads the whole file (pread, no mmap, no lock, at most 256 MiB) and hands it to
// parse(). Writers truncate and then write (Python's open("w")), so a reader regularly meets
// an empty or half-written file: a parse that fails is not an error but a reason to wait
// (pending()) and read again at the next change. Only when the same unchanged content has
// failed for 2 seconds is it parsed once more as final (`settled`) and, if it still fails,
// described in ONE warning. A removed file keeps what was read; it is "pending" until it
// comes back.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <ctime>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "readers/source_reader.h"

namespace runtop {

struct JsonError;

// What parse() made of the text.
struct ParseOutcome {
    enum class Kind : std::uint8_t {
        kDone,        // delivered to the sink
        kIncomplete,  // ends early: probably caught mid-write
        kInvalid,     // wrong somewhere (maybe also mid-write: the file is rewritten in place)
    };
    Kind kind = Kind::kDone;
    std::string reason;  // for the pending state and the warning, without the file's path

    bool done() const { return kind == Kind::kDone; }
    static ParseOutcome ok() { return {}; }
    static ParseOutcome incomplete(std::string why) { return {Kind::kIncomplete, std::move(why)}; }
    static ParseOutcome invalid(std::string why) { return {Kind::kInvalid, std::move(why)}; }
    static ParseOutcome from(const JsonError& error);
};

class WholeFileReader : public SourceReader {
  public:
    // Milliseconds of a monotonic clock; replaceable for tests.
    using Clock = std::function<std::int64_t()>;
    // How long unchanged content may fail to parse before it is reported.
    static constexpr std::int64_t kSettleMs = 2000;
    static constexpr std::uint64_t kMaxBytes = std::uint64_t{256} << 20;

    WholeFileReader(SourceFile file, PointSink& sink);

    Status poll() override;
    const FileId* identity() const override { return have_parsed_ ? &parsed_id_ : nullptr; }
    void moved_to(std::string path) override { file_.path = std::move(path); }
    const SourceFile& file() const override { return file_; }
    const std::string& pending() const override { return pending_; }
    std::vector<std::string> take_warnings() override;
    void add_totals(IngestTotals& totals) const override;

    void set_clock(Clock clock) { clock_ = std::move(clock); }
    // The parse step alone, on `text` as if it were the file's content (mtime 0): for tests
    // and fuzzing.
    ParseOutcome parse_content(std::string_view text, bool settled) { return parse(text, settled); }
    // Successful parses so far.
    std::uint64_t parses() const { return parses_; }

  protected:
    // Delivers the content to the sink, or sends nothing and says why not. A failure must
    // leave the sink untouched: the same content may come back complete. `settled`: the file
    // has kept this content for kSettleMs after a failed parse, so it is what the writer meant
    // (a text format may then accept what it held back as possibly cut short).
    virtual ParseOutcome parse(std::string_view text, bool settled) = 0;

    // Modification time of the file read last, in seconds since the epoch: the wall time of
    // points from files without timestamps.
    double mtime() const { return mtime_; }
    void warn(std::string line);
    // Sends the config texts of one parse. For a (rank, tag) given twice the last text counts,
    // as Python's json and yaml keep the last of duplicate keys; a text equal to the one this
    // reader sent before is not sent again (the sink keeps the latest per tag already).
    void send_texts(std::vector<ConfigText> texts);

    SourceFile file_;
    PointSink& sink_;
    // For add_totals(); each subclass keeps the ones it feeds.
    std::uint64_t records_ = 0;    // entries in the file as last parsed
    std::uint64_t scalars_ = 0;    // points delivered
    std::uint64_t texts_ = 0;      // config texts delivered
    std::uint64_t anomalies_ = 0;  // anomaly entries in the file as last parsed

  private:
    struct Signature {
        dev_t dev = 0;
        ino_t ino = 0;
        std::uint64_t size = 0;
        std::int64_t mtime_ns = 0;
        bool operator==(const Signature&) const = default;
    };
    Status read_and_parse(bool settled);
    std::int64_t now() const { return clock_ ? clock_() : steady_ms(); }
    static std::int64_t steady_ms();

    Clock clock_;
    std::string pending_;
    std::vector<std::string> warnings_;
    bool have_parsed_ = false;
    Signature parsed_;      // the content parsed last
    FileId parsed_id_;      // its file
    bool failing_ = false;  // `failed_` holds content that did not parse
    Signature failed_;
    std::int64_t failed_since_ms_ = 0;
    bool failure_settled_ = false;  // tried as final (and warned, if it failed again)
    bool seen_ = false;             // the file existed at some poll
    double mtime_ = 0;
    std::uint64_t bytes_ = 0;  // size of the content parsed last
    std::map<std::pair<int, std::string>, std::string> sent_texts_;  // (rank, tag) -> text
    std::uint64_t parses_ = 0;
};

}  // namespace runtop
