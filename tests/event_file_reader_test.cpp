// The incremental reader on files written by runtop's own writer: growth at every split point,
// torn tails, corrupt records, zero-filled tails, garbage, truncation and replacement.
#include "readers/event_file_reader.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "readers/crc32c.h"
#include "readers/read_scratch.h"
#include "tests/test_support.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using events::DType;
using events::Encoding;
using testing::RecordingSink;
using testing::TempDir;

constexpr double kWall = 1700000000.25;

// A small file with every kind of record the reader treats differently.
std::vector<std::string> sample_records() {
    return {
        frame_record(events::file_version(kWall)),
        frame_record(events::text("config", "{\"lr\": 0.1}", 0, kWall)),
        frame_record(events::simple_scalar("train/loss", 2.5f, 0, kWall)),
        frame_record(events::tensor_scalar("train/acc", DType::kFloat, 0.25,
                                           Encoding::kTensorContent, 0, kWall)),
        frame_record(events::histogram("weights", {1, 2, 3}, 0, kWall)),
        frame_record(events::simple_scalar("train/loss", 2.0f, 1, kWall + 1)),
        frame_record(events::tensor_scalar("train/acc", DType::kDouble, 0.5, Encoding::kTypedField,
                                           1, kWall + 1)),
        frame_record(events::simple_scalar("train/loss", NAN, 2, kWall + 2)),
        frame_record(events::simple_scalar("train/loss", 1.5f, 3, kWall + 3)),
    };
}

std::string join(const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& p : parts) out += p;
    return out;
}

struct Seen {
    std::string tag;
    std::int64_t step;
    std::uint64_t value_bits;
    bool operator==(const Seen&) const = default;
};

std::vector<Seen> seen(const RecordingSink& sink) {
    std::vector<Seen> out;
    for (const auto& s : sink.scalars) {
        std::uint64_t bits;
        double v = std::isnan(s.point.value) ? NAN : s.point.value;  // one NaN payload
        std::memcpy(&bits, &v, 8);
        out.push_back({s.key.tag, s.point.step, bits});
    }
    return out;
}

std::vector<Seen> read_whole(const std::string& bytes) {
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, bytes);
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    EXPECT_TRUE(reader.poll().ok());
    return seen(sink);
}

TEST(EventFileReader, ReadsEveryRecordKind) {
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, join(sample_records()));
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", 3}, sink);
    ASSERT_TRUE(reader.poll().ok());
    ASSERT_EQ(sink.scalars.size(), 6u);
    EXPECT_EQ(sink.scalars[0].key, (SeriesKey{"run", 3, "train/loss"}));
    EXPECT_EQ(sink.scalars[0].point.value, 2.5);
    EXPECT_EQ(sink.scalars[0].point.wall_time, kWall);
    EXPECT_EQ(sink.scalars[1].point.value, 0.25);
    EXPECT_EQ(sink.scalars[3].point.value, 0.5);
    EXPECT_TRUE(std::isnan(sink.scalars[4].point.value));
    EXPECT_EQ(reader.counts().non_scalar_values, 0u);
    EXPECT_EQ(reader.counts().distributions, 1u);  // the histogram: nine quantile points
    EXPECT_EQ(sink.quantiles.size(), 9u);
    ASSERT_EQ(sink.texts.size(), 1u);
    EXPECT_EQ(sink.texts[0].tag, "config/text_summary");
    EXPECT_EQ(sink.texts[0].text, "{\"lr\": 0.1}");
    EXPECT_EQ(sink.texts[0].rank, 3);
    EXPECT_EQ(reader.stats().records, 9u);
    EXPECT_EQ(reader.pending(), "");
    EXPECT_TRUE(reader.take_warnings().empty());
}

// The reader, not core, says what each series' format is and what its step counts.
TEST(EventFileReader, SuppliesEachSeriesFormatAndStepAxis) {
    TempDir dir;
    std::string tb = dir / "events.out.tfevents.1";
    testing::write_file(
        tb, frame_record(events::file_version(kWall)) +
                frame_record(events::simple_scalar("train/loss", 1, 0, kWall)) +
                frame_record(events::simple_scalar("loss vs samples", 1, 64, kWall)) +
                frame_record(events::simple_scalar("loss_vs_samples", 1, 64, kWall)) +
                frame_record(events::simple_scalar("Train/Samples/train_loss", 1, 64, kWall)));
    RecordingSink sink;
    EventFileReader reader(SourceFile{tb, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    ASSERT_EQ(sink.keys.size(), 4u);
    EXPECT_EQ(sink.source(0), (SeriesSource{"tfevents", StepAxis::kSteps}));
    for (std::size_t i = 1; i < 4; ++i)
        EXPECT_EQ(sink.source(i), (SeriesSource{"tfevents", StepAxis::kSamples})) << i;

    std::string ms = dir / "events.out.tfevents.2";
    testing::write_file(ms, frame_record(events::file_version(1, "MindSpore.Event:1")) +
                                frame_record(events::mindspore_scalar("loss", 1.5f, 1, 1)) +
                                frame_record(events::mindspore_scalar("loss vs samples", 1, 8, 1)));
    RecordingSink ms_sink;
    EventFileReader ms_reader(SourceFile{ms, "run", kNoRank}, ms_sink);
    ASSERT_TRUE(ms_reader.poll().ok());
    ASSERT_EQ(ms_sink.keys.size(), 2u);
    EXPECT_EQ(ms_sink.source(0), (SeriesSource{"mindspore", StepAxis::kSteps}));
    EXPECT_EQ(ms_sink.source(1), (SeriesSource{"mindspore", StepAxis::kSamples}));
}

TEST(EventFileReader, GrowthAtEverySplitPointGivesTheOneShotResult) {
    const std::string bytes = join(sample_records());
    const std::vector<Seen> expected = read_whole(bytes);
    ASSERT_EQ(expected.size(), 6u);
    TempDir dir;
    for (std::size_t split = 0; split <= bytes.size(); ++split) {
        std::string path = dir / ("events.out.tfevents.split" + std::to_string(split));
        testing::write_file(path, bytes.substr(0, split));
        RecordingSink sink;
        EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
        ASSERT_TRUE(reader.poll().ok());
        testing::append_file(path, bytes.substr(split));
        ASSERT_TRUE(reader.poll().ok());
        ASSERT_EQ(seen(sink), expected) << "split at byte " << split;
        ASSERT_TRUE(reader.take_warnings().empty()) << "split at byte " << split;
        ASSERT_EQ(reader.pending(), "");
        ::unlink(path.c_str());
    }
}

TEST(EventFileReader, ByteByByteGrowthGivesTheOneShotResult) {
    const std::string bytes = join(sample_records());
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, "");
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    for (char c : bytes) {
        testing::append_file(path, std::string(1, c));
        ASSERT_TRUE(reader.poll().ok());
    }
    EXPECT_EQ(seen(sink), read_whole(bytes));
    EXPECT_TRUE(reader.take_warnings().empty());
    EXPECT_EQ(reader.offset(), bytes.size());
}

TEST(EventFileReader, TornTailIsRetriedWhenCompleted) {
    const std::string bytes = join(sample_records());
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, bytes.substr(0, bytes.size() - 5));
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 5u);
    EXPECT_NE(reader.pending().find("incomplete record"), std::string::npos) << reader.pending();
    ASSERT_TRUE(reader.poll().ok());  // nothing new: still waiting, nothing re-emitted
    EXPECT_EQ(sink.scalars.size(), 5u);
    testing::append_file(path, bytes.substr(bytes.size() - 5));
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(seen(sink), read_whole(bytes));
    EXPECT_EQ(reader.pending(), "");
    EXPECT_TRUE(reader.take_warnings().empty());
}

TEST(EventFileReader, BadDataCrcMidFileSkipsOnlyThatRecord) {
    std::vector<std::string> records = sample_records();
    std::size_t offset = records[0].size() + records[1].size();
    records[2][14] ^= 0x40;  // a payload byte of the first train/loss record
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, join(records));
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 5u);
    EXPECT_EQ(reader.stats().bad_data_crc, 1u);
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find(path), std::string::npos);
    EXPECT_NE(warnings[0].find("offset " + std::to_string(offset)), std::string::npos)
        << warnings[0];
    EXPECT_NE(warnings[0].find("data checksum"), std::string::npos);
}

TEST(EventFileReader, CorruptLengthResynchronisesAtTheNextRecord) {
    std::vector<std::string> records = sample_records();
    records[2][0] ^= 0x01;  // the length of the first train/loss record
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, join(records));
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 5u);  // everything but the corrupt record
    EXPECT_EQ(reader.stats().resyncs, 1u);
    EXPECT_EQ(reader.stats().bytes_skipped, records[2].size());
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("length checksum"), std::string::npos) << warnings[0];
}

TEST(EventFileReader, CorruptRegionSpanningPollsIsSkippedOnce) {
    std::vector<std::string> records = sample_records();
    std::string garbage(3000, '\x5a');
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, records[0] + records[2] + garbage.substr(0, 1000));
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 1u);
    EXPECT_NE(reader.pending().find("corrupt"), std::string::npos);
    ASSERT_EQ(reader.take_warnings().size(), 1u);  // "corrupt data ... to the end of the file"
    testing::append_file(path, garbage.substr(1000));
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_TRUE(reader.take_warnings().empty());  // said once
    testing::append_file(path, records[5] + records[8]);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 3u);
    EXPECT_EQ(reader.stats().bytes_skipped, garbage.size());
    EXPECT_EQ(reader.take_warnings().size(), 1u);  // "skipped 3000 bytes"
    EXPECT_EQ(reader.pending(), "");
}

TEST(EventFileReader, ZeroByteFileIsQuiet) {
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, "");
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_TRUE(sink.scalars.empty());
    EXPECT_TRUE(reader.take_warnings().empty());
    EXPECT_EQ(reader.pending(), "");
}

TEST(EventFileReader, ZeroFilledTailIsReadAgainOnceItLands) {
    std::vector<std::string> records = sample_records();
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    std::string head = records[0] + records[2];
    testing::write_file(path, head + std::string(records[5].size(), '\0'));
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 1u);
    EXPECT_NE(reader.pending().find("zero bytes"), std::string::npos) << reader.pending();
    EXPECT_TRUE(reader.take_warnings().empty());
    // The data lands where the zeros were (same size), as on a network filesystem.
    int fd = ::open(path.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::pwrite(fd, records[5].data(), records[5].size(), static_cast<off_t>(head.size())),
              static_cast<ssize_t>(records[5].size()));
    ::close(fd);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 2u);
    EXPECT_EQ(reader.pending(), "");
}

TEST(EventFileReader, LastRecordWithBadDataCrcWaitsThenIsSkippedWhenTheFileGrows) {
    std::vector<std::string> records = sample_records();
    std::string bad = records[5];
    bad[bad.size() - 6] ^= 0x10;
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, records[0] + records[2] + bad);
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 1u);
    EXPECT_NE(reader.pending().find("data checksum"), std::string::npos);
    EXPECT_EQ(reader.stats().bad_data_crc, 0u);
    testing::append_file(path, records[8]);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 2u);
    EXPECT_EQ(reader.stats().bad_data_crc, 1u);
}

TEST(EventFileReader, GarbageFileIsReportedOnceAndIsNotFatal) {
    TempDir dir;
    std::string path = dir / "events.out.tfevents.garbage";
    std::string text;
    for (int i = 0; i < 200; ++i) text += "this is a log line, not a TFRecord file\n";
    testing::write_file(path, text);
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("not a TFRecord event file"), std::string::npos) << warnings[0];
    EXPECT_EQ(reader.pending(), "");  // not "waiting": the warning said what it is
    testing::append_file(path, text);
    ASSERT_TRUE(reader.poll().ok());
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_TRUE(reader.take_warnings().empty());
    EXPECT_TRUE(sink.scalars.empty());
}

TEST(EventFileReader, ShrunkFileIsReadAgainFromTheStart) {
    std::vector<std::string> records = sample_records();
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, join(records));
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    ASSERT_EQ(sink.scalars.size(), 6u);
    testing::write_file(path, records[0] + records[2]);  // truncated and rewritten
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 7u);
    EXPECT_EQ(reader.stats().resets, 1u);
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("shrank"), std::string::npos);
}

TEST(EventFileReader, ReplacedFileIsANewFileUnlessItHoldsWhatWasRead) {
    std::vector<std::string> records = sample_records();
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, join(records));
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    // rsync without --inplace: a new inode renamed over the old one, larger than before, that
    // holds what was read: only the new record is read, nothing twice.
    std::string tmp = dir / "incoming";
    testing::write_file(tmp, join(records) + records[8]);
    ASSERT_EQ(::rename(tmp.c_str(), path.c_str()), 0);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 6u + 1u);
    EXPECT_EQ(reader.stats().resets, 0u);
    // A different file renamed over it: read from its start.
    testing::write_file(tmp, records[0] + records[8] + records[2]);
    ASSERT_EQ(::rename(tmp.c_str(), path.c_str()), 0);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 6u + 1u + 2u);
    EXPECT_EQ(reader.stats().resets, 1u);
}

TEST(EventFileReader, DeletedFileKeepsWhatWasRead) {
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, join(sample_records()));
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    ::unlink(path.c_str());
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 6u);
    EXPECT_EQ(reader.pending(), "file was removed");
}

TEST(EventFileReader, MissingOrUnreadableFileIsAnErrorNamingIt) {
    TempDir dir;
    RecordingSink sink;
    EventFileReader missing(SourceFile{dir / "events.out.tfevents.none", "run", kNoRank}, sink);
    Status s = missing.poll();
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("events.out.tfevents.none"), std::string::npos);
    if (::geteuid() != 0) {  // root reads anything
        std::string path = dir / "events.out.tfevents.locked";
        testing::write_file(path, join(sample_records()));
        ::chmod(path.c_str(), 0);
        EventFileReader locked(SourceFile{path, "run", kNoRank}, sink);
        EXPECT_FALSE(locked.poll().ok());
    }
}

// A file's first read opens it before any stat (one path lookup): a FIFO or a directory where
// a data file was found is an error naming it, and the open does not wait for a writer.
TEST(EventFileReader, AFifoOrDirectoryAtTheFilesPathIsAnErrorNotAWait) {
    TempDir dir;
    RecordingSink sink;
    const std::string fifo = dir / "events.out.tfevents.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EventFileReader from_fifo(SourceFile{fifo, "run", kNoRank}, sink);
    Status s = from_fifo.poll();
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message, fifo + ": not a regular file");
    const std::string subdir = dir / "events.out.tfevents.dir";
    testing::make_dirs(subdir);
    EventFileReader from_dir(SourceFile{subdir, "run", kNoRank}, sink);
    s = from_dir.poll();
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message, subdir + ": not a regular file");
    // Once a regular file is there, it is read.
    std::filesystem::remove(fifo);
    testing::write_file(fifo, join(sample_records()));
    EXPECT_TRUE(from_fifo.poll().ok());
    EXPECT_FALSE(sink.scalars.empty());
}

TEST(EventFileReader, RecordLargerThanTheReadBufferIsRead) {
    std::string big(3 << 20, 'x');
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, frame_record(events::file_version(kWall)) +
                                  frame_record(events::text("notes", big, 0, kWall)) +
                                  frame_record(events::simple_scalar("after", 1, 1, kWall)));
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    ASSERT_EQ(sink.texts.size(), 1u);
    EXPECT_EQ(sink.texts[0].text.size(), big.size());
    ASSERT_EQ(sink.scalars.size(), 1u);
}

}  // namespace
}  // namespace runtop

namespace runtop {
namespace {

// A header claiming `length` bytes, with a valid length CRC: no writer makes one, so it is
// corruption, not a record to wait for.
std::string header_claiming(std::uint64_t length) {
    std::string h(12, '\0');
    std::memcpy(h.data(), &length, 8);
    const std::uint32_t crc = masked_crc32c(h.data(), 8);
    std::memcpy(h.data() + 8, &crc, 4);
    return h;
}

TEST(EventFileReader, AWildLengthWithAValidChecksumIsCorruptionNotAWait) {
    for (std::uint64_t length :
         {(std::uint64_t{1} << 28) + 5, std::uint64_t{1} << 34, std::uint64_t{1} << 60}) {
        SCOPED_TRACE(length);
        std::string bytes = frame_record(events::file_version(kWall)) +
                            frame_record(events::simple_scalar("loss", 1, 0, kWall)) +
                            header_claiming(length);
        for (int s = 1; s <= 1000; ++s)
            bytes += frame_record(events::simple_scalar("loss", static_cast<float>(s), s, kWall));
        TempDir dir;
        std::string path = dir / "events.out.tfevents.1";
        testing::write_file(path, bytes);
        RecordingSink sink;
        EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
        ASSERT_TRUE(reader.poll().ok());
        EXPECT_EQ(sink.scalars.size(), 1001u);
        EXPECT_EQ(reader.pending(), "");
        EXPECT_EQ(reader.stats().resyncs, 1u);
        EXPECT_EQ(reader.stats().oversized, 1u);
        EXPECT_EQ(reader.stats().bytes_skipped, 12u);
        std::vector<std::string> warnings = reader.take_warnings();
        ASSERT_EQ(warnings.size(), 1u);
        EXPECT_NE(warnings[0].find("past the 256 MiB limit"), std::string::npos) << warnings[0];
        EXPECT_NE(warnings[0].find(path), std::string::npos) << warnings[0];
        EXPECT_EQ(warnings[0].find("checksum"), std::string::npos) << warnings[0];
    }
}

TEST(EventFileReader, APollReadsAtMostItsBudgetAndSaysThereIsMore) {
    std::string bytes = frame_record(events::file_version(kWall));
    const std::string pad(4000, 'p');
    int n = 0;
    while (bytes.size() < 3 * FileTail::kPollBudget)
        bytes += frame_record(events::text("notes", pad, n++, kWall));
    bytes += frame_record(events::simple_scalar("last", 7, n, kWall));
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    testing::write_file(path, bytes);
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    int polls = 0;
    do {
        ASSERT_TRUE(reader.poll().ok());
        ++polls;
        // The budget is checked after each buffer: a poll overshoots it by less than one.
        EXPECT_LE(reader.offset(), polls * (FileTail::kPollBudget + kReadChunk));
    } while (reader.more());
    EXPECT_GE(polls, 3);
    EXPECT_EQ(sink.texts.size(), static_cast<std::size_t>(n));
    ASSERT_EQ(sink.scalars.size(), 1u);
    EXPECT_EQ(reader.offset(), bytes.size());
}

TEST(EventFileReader, RewrittenInPlacePastItsOldSizeIsReadAgain) {
    TempDir dir;
    std::string path = dir / "events.out.tfevents.1";
    std::string first = frame_record(events::file_version(kWall));
    for (int s = 0; s < 3; ++s) first += frame_record(events::simple_scalar("loss", 1, s, kWall));
    testing::write_file(path, first);
    RecordingSink sink;
    EventFileReader reader(SourceFile{path, "run", kNoRank}, sink);
    ASSERT_TRUE(reader.poll().ok());
    ASSERT_EQ(sink.scalars.size(), 3u);
    // Truncated and at once written again, longer: the same inode, a larger size.
    std::string second = frame_record(events::file_version(kWall + 60));
    for (int s = 0; s < 12; ++s)
        second += frame_record(events::simple_scalar("loss", 2, s, kWall + 60));
    int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, second.data(), second.size()), static_cast<ssize_t>(second.size()));
    ::close(fd);
    ASSERT_TRUE(reader.poll().ok());
    EXPECT_EQ(sink.scalars.size(), 15u);
    EXPECT_EQ(sink.scalars.back().point.value, 2.0);
    EXPECT_EQ(reader.stats().resets, 1u);
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("rewritten"), std::string::npos) << warnings[0];
}

}  // namespace
}  // namespace runtop
