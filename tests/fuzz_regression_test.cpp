// Regressions found by the fuzzers in tests/fuzz/ (run with `make fuzz`), reduced by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "readers/crc32c.h"
#include "readers/event_decoder.h"
#include "readers/event_file_reader.h"
#include "tests/test_support.h"
#include "writers/event_writer.h"

namespace runtop {
namespace {

using testing::RecordingSink;
using testing::TempDir;

struct Collect : EventHandler {
    int calls = 0;
    void on_scalar(std::string_view, std::int64_t, double, double) override { ++calls; }
    void on_text(std::string_view, std::int64_t, double, std::string) override { ++calls; }
    void on_session_start(std::int64_t, double) override { ++calls; }
};

std::string bytes(std::initializer_list<int> list) {
    std::string s;
    for (int b : list) s += static_cast<char>(b);
    return s;
}

// Summary { value { tag "loss" simple_value 1.0 } value { tag: 9 bytes announced, 1 there } }
std::string summary_with_a_bad_second_value() {
    std::string good = bytes({0x0a, 4}) + "loss" + bytes({0x15, 0x00, 0x00, 0x80, 0x3f});
    std::string bad = bytes({0x0a, 9}) + "x";
    std::string summary = bytes({0x0a, static_cast<int>(good.size())}) + good +
                          bytes({0x0a, static_cast<int>(bad.size())}) + bad;
    return bytes({0x2a, static_cast<int>(summary.size())}) + summary;
}

// fuzz_event_decoder: decode() reported the values before a malformed Value, then returned
// false ("not a well-formed Event: nothing is reported then").
TEST(FuzzRegression, MalformedSecondValueReportsNothing) {
    const std::string wall_and_step = bytes({0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x10, 7});
    EventDecoder decoder;
    Collect handler;
    EXPECT_FALSE(decoder.decode(wall_and_step + summary_with_a_bad_second_value(), handler));
    EXPECT_EQ(handler.calls, 0);
    EXPECT_EQ(decoder.counts().scalars, 0u);
    EXPECT_EQ(decoder.counts().undecodable, 1u);
}

TEST(FuzzRegression, SessionStartWithAMalformedSummaryReportsNothing) {
    // session_log { status: START } followed by the malformed summary.
    const std::string payload =
        bytes({0x10, 3, 0x3a, 2, 0x08, 1}) + summary_with_a_bad_second_value();
    EventDecoder decoder;
    Collect handler;
    EXPECT_FALSE(decoder.decode(payload, handler));
    EXPECT_EQ(handler.calls, 0);
    EXPECT_EQ(decoder.counts().session_starts, 0u);
}

TEST(FuzzRegression, FileReaderSkipsTheWholeMalformedRecord) {
    TempDir dir;
    const std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, frame_record(bytes({0x10, 1}) + summary_with_a_bad_second_value()) +
                                  frame_record(events::simple_scalar("loss", 2.0f, 2, 1.0)));
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    ASSERT_EQ(sink.scalars.size(), 1u);
    EXPECT_EQ(sink.scalars[0].point.step, 2);
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("not a valid Event protobuf"), std::string::npos) << warnings[0];
}

struct RankStartSink : RecordingSink {
    std::vector<std::pair<int, std::int64_t>> rank_starts;
    void session_start(std::string_view run, int rank, std::int64_t step, double wall) override {
        rank_starts.emplace_back(rank, step);
        RecordingSink::session_start(run, rank, step, wall);
    }
};

// fuzz_event_file: after a file shrank and was read again from the start, a session start
// also went to the ranks seen before the shrink, not only to those seen so far in the re-read
// (a fresh reader of the same bytes sends it to the file's rank only).
TEST(FuzzRegression, ReReadAfterShrinkIsAFreshRead) {
    const std::string start = frame_record(events::session_start(5, 1.0));
    const std::string rank1 =
        frame_record(events::simple_scalar("0:fc1.input:0/rank1/actv_norm", 0.5f, 6, 2.0));
    const std::string loss = frame_record(events::simple_scalar("loss", 1.5f, 7, 3.0));
    TempDir dir;
    const std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, start + rank1 + loss);
    RankStartSink sink;
    EventFileReader reader(SourceFile{path, "run", 0}, sink);
    ASSERT_TRUE(reader.poll().ok());
    ASSERT_EQ(sink.scalars.size(), 2u);
    EXPECT_EQ(sink.rank_starts, (std::vector<std::pair<int, std::int64_t>>{{0, 5}}));

    testing::write_file(path, start + rank1);  // shrank
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(reader.stats().resets, 1u);
    EXPECT_EQ(sink.rank_starts, (std::vector<std::pair<int, std::int64_t>>{{0, 5}, {0, 5}}));
    ASSERT_EQ(sink.scalars.size(), 3u);
    EXPECT_EQ(sink.scalars[2].key, (SeriesKey{"run", 1, "0:fc1.input:0/actv_norm"}));

    // After the re-read has seen rank 1 again, a later start goes to it as well.
    testing::append_file(path, frame_record(events::session_start(6, 4.0)));
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.rank_starts,
              (std::vector<std::pair<int, std::int64_t>>{{0, 5}, {0, 5}, {0, 6}, {1, 6}}));
}

// A header with a valid length CRC and a length over the limit, as corrupt data can hold.
std::string oversized_header() {
    std::string h(12, '\0');
    const std::uint64_t n = EventFileReader::kMaxRecordBytes + 1000;
    std::memcpy(h.data(), &n, 8);
    const std::uint32_t crc = masked_crc32c(h.data(), 8);
    std::memcpy(h.data() + 8, &crc, 4);
    return h;
}

// fuzz_event_file: inside corrupt data, resync() passes over an oversized header, but when a
// poll ended 11 bytes after one, the next poll started at it, took it for a record still being
// written and waited there forever: the records after it were read or not depending on where
// the writer's flushes fell.
TEST(FuzzRegression, OversizedHeaderInsideCorruptDataDoesNotDependOnPollBoundaries) {
    const std::string data =
        "garbage" + oversized_header() + frame_record(events::simple_scalar("loss", 1.5f, 7, 3.0));
    for (std::size_t first : {data.size(), std::size_t{7 + 11}}) {
        SCOPED_TRACE(first);
        TempDir dir;
        const std::string path = dir / "events.out.tfevents.1";
        testing::write_file(path, data.substr(0, first));
        RecordingSink sink;
        EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
        ASSERT_TRUE(reader.poll().ok());
        testing::append_file(path, data.substr(first));
        ASSERT_TRUE(reader.poll().ok());
        ASSERT_EQ(sink.scalars.size(), 1u);
        EXPECT_EQ(sink.scalars[0].point.step, 7);
        EXPECT_EQ(reader.offset(), data.size());
        EXPECT_EQ(reader.stats().oversized, 0u);
    }
}

}  // namespace
}  // namespace runtop
