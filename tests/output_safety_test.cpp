// Untrusted names in every output of the real binary: a run directory, tags and a text summary
// holding an escape (1B), a C1 CSI (C2 9B: a CSI to some terminals) and bytes that are not
// UTF-8 (FF, FE). No output may carry a raw control byte, and the tags `loss\xff` and
// `loss\xfe` must stay apart: text and CSV show the bytes as \xNN, JSON as \udcXX
// (surrogateescape, core/format.h).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/json/json_value.h"
#include "tests/test_support.h"
#include "writers/event_writer.h"
#include "writers/tfrecord_writer.h"

namespace runtop {
namespace {

using testing::run_runtop;
using testing::TempDir;

const std::string kRun = "run\x1b\xc2\x9b\xff";
const std::string kHostile =
    "hostile\xc2\x9b"
    "2J\x1b[31m";

// A run under `root`: an event file with a hostile tag and a text summary under a hostile
// name (protobuf strings: valid UTF-8), and a CSV whose columns are the tags `loss\xff` and
// `loss\xfe`. Every series ends in a NaN, so `check` lists them; `offset` moves the values,
// so two roots differ.
void write_run(const std::string& root, double offset, const std::string& note) {
    const std::string dir = root + "/" + kRun;
    testing::make_dirs(dir);
    std::string bytes = frame_record(events::file_version(1.7e9));
    bytes += frame_record(events::text("note\xc2\x9b", note, 0, 1.7e9));
    std::string csv = "step,loss\xff,loss\xfe\n";
    for (int step = 0; step < 3; ++step) {
        bytes += frame_record(
            events::simple_scalar(kHostile, static_cast<float>(offset + step), step, 1.7e9 + step));
        const std::string v = std::to_string(offset + step);
        csv += std::to_string(step) + "," + v + "," + v + "\n";
    }
    bytes += frame_record(events::simple_scalar(kHostile, NAN, 3, 1.7e9 + 3));
    csv += "3,nan,nan\n";
    testing::write_file(dir + "/events.out.tfevents.1", bytes);
    testing::write_file(dir + "/metrics.csv", csv);
}

// The first control byte a terminal would act on (C0 but '\n', DEL, C1 as UTF-8), or npos.
std::size_t control_byte(const std::string& s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if ((c < 0x20 && c != '\n') || c == 0x7f) return i;
        if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xa0) return i;
    }
    return std::string::npos;
}

std::string shown(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
        if (c < 0x20 || c >= 0x7f) {
            const char* hex = "0123456789abcdef";
            out += "<";
            out += hex[c >> 4];
            out += hex[c & 15];
            out += ">";
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

class OutputSafety : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir();
        write_run(a(), 0, "a\x1b[2Jb");
        write_run(b(), 10,
                  "c\xc2\x9b"
                  "d");
    }
    static void TearDownTestSuite() { delete dir_; }
    static std::string a() { return dir_->path() + "/a"; }
    static std::string b() { return dir_->path() + "/b"; }

    // Runs runtop; nothing it prints, on stdout or stderr, holds a control byte; the two loss
    // tags appear apart, in the form the format gives them. Returns stdout.
    static std::string expect_safe(const std::vector<std::string>& args, bool json) {
        const testing::CommandResult r = run_runtop(args);
        EXPECT_LE(r.exit_code, 1) << r.err;
        EXPECT_EQ(control_byte(r.out), std::string::npos) << shown(r.out);
        EXPECT_EQ(control_byte(r.err), std::string::npos) << shown(r.err);
        const std::string ff = json ? "loss\\udcff" : "loss\\xff";
        const std::string fe = json ? "loss\\udcfe" : "loss\\xfe";
        EXPECT_NE(r.out.find(ff), std::string::npos) << shown(r.out);
        EXPECT_NE(r.out.find(fe), std::string::npos) << shown(r.out);
        return r.out;
    }
    static TempDir* dir_;
};
TempDir* OutputSafety::dir_ = nullptr;

// Valid JSON text (runtop's own reader: RFC 8259, lone surrogates read as U+FFFD), and the
// tags as written: `field` of each object in `docs`.
std::set<std::string> json_tags(const std::vector<std::string>& docs, const char* array,
                                const char* field) {
    std::set<std::string> tags;
    for (const std::string& text : docs) {
        const JsonParse parsed = parse_json(text);
        EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().describe()) << "\n"
                                 << shown(text);
        if (!parsed.ok()) continue;
        JsonValue root = parsed.document().root();
        if (array) root = root.get(array);
        if (root.is_object()) tags.emplace(root.get(field).raw());
        for (JsonValue e : root.elements()) tags.emplace(e.get(field).raw());
    }
    return tags;
}

TEST_F(OutputSafety, LsTextAndCsv) {
    const std::string text = expect_safe({"ls", a()}, false);
    const std::string csv = expect_safe({"ls", "--format", "csv", a()}, false);
    // The text's columns are as wide as their widest cell, escapes counted as shown (ls finds
    // the widths without formatting the rows): every line is that long (the last column is
    // right-aligned), and the CSV has the same cells ('-' where it has none; no RESTARTS column).
    std::size_t width[9] = {3, 4, 3, 6, 5, 4, 10, 6, 8};  // the headers
    std::istringstream rows(csv);
    std::string line;
    std::getline(rows, line);  // its header
    while (std::getline(rows, line)) {
        std::istringstream cells(line);
        std::string cell;
        for (int c = 0; c < 8 && std::getline(cells, cell, ','); ++c)
            width[c] = std::max(width[c], cell.empty() ? 1 : cell.size());
    }
    std::size_t expected = 2 * 8;
    for (std::size_t w : width) expected += w;
    std::istringstream lines(text);
    int count = 0;
    while (std::getline(lines, line)) {
        EXPECT_EQ(line.size(), expected) << shown(line);
        ++count;
    }
    EXPECT_EQ(count, 4);  // the header and three series
}

// A file still being written is named on stderr ("waiting: PATH: ..."): its path is untrusted.
TEST(OutputSafetyStderr, LsWaitingLineShowsThePathEscaped) {
    TempDir dir;
    const std::string run = dir / "r\x1b[31m\xc2\x9b";
    testing::make_dirs(run);
    testing::write_file(run + "/metrics.csv", "step,loss\n1,0.5\n2,0.");  // a torn last line
    const testing::CommandResult r = run_runtop({"ls", dir.path()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("waiting: "), std::string::npos) << shown(r.err);
    EXPECT_NE(r.err.find("r\\x1b[31m\\xc2\\x9b/metrics.csv"), std::string::npos) << shown(r.err);
    EXPECT_EQ(control_byte(r.err), std::string::npos) << shown(r.err);
}

TEST_F(OutputSafety, DumpCsv) {
    const std::string out = expect_safe({"dump", a()}, false);
    EXPECT_NE(out.find("hostile\\xc2\\x9b2J\\x1b[31m"), std::string::npos) << out;
}

TEST_F(OutputSafety, DumpJsonlKeepsRawBytesApartAndReversible) {
    const std::string out = expect_safe({"dump", "--format", "jsonl", a()}, true);
    const std::set<std::string> tags = json_tags(testing::split_lines(out), nullptr, "tag");
    const std::set<std::string> want = {R"("hostile\u009b2J\u001b[31m")", R"("loss\udcff")",
                                        R"("loss\udcfe")"};
    EXPECT_EQ(tags, want);
    EXPECT_NE(out.find(R"("run":"a/run\u001b\u009b\udcff")"), std::string::npos) << out;
}

TEST_F(OutputSafety, CheckTextAndJson) {
    expect_safe({"check", "--members", a()}, false);  // both tags: the members are listed
    const std::string out = expect_safe({"check", "--format", "json", a()}, true);
    const std::set<std::string> tags = json_tags({out}, "anomalies", "tag");
    EXPECT_TRUE(tags.count(R"("loss\udcff")") && tags.count(R"("loss\udcfe")")) << out;
}

TEST_F(OutputSafety, DiffTextCsvAndJson) {
    const std::string text = expect_safe({"diff", a(), b()}, false);
    EXPECT_NE(text.find("note\\xc2\\x9b"), std::string::npos) << text;  // the config key
    expect_safe({"diff", "--format", "csv", a(), b()}, false);
    const std::string out = expect_safe({"diff", "--format", "json", a(), b()}, true);
    const std::set<std::string> tags = json_tags({out}, "tags", "tag");
    EXPECT_TRUE(tags.count(R"("loss\udcff")") && tags.count(R"("loss\udcfe")")) << out;
    EXPECT_NE(out.find(R"(a\u001b[2Jb)"), std::string::npos) << out;  // a config value
    EXPECT_NE(out.find(R"(c\u009bd)"), std::string::npos) << out;
}

TEST_F(OutputSafety, SnapshotFrames) {
    for (const char* view : {"overview", "anomalies", "ranks"}) {
        const testing::CommandResult r =
            run_runtop({"snapshot", "--size", "160x30", "--view", view, a()});
        EXPECT_EQ(r.exit_code, 0) << view << ": " << r.err;
        EXPECT_EQ(control_byte(r.out), std::string::npos) << view << ":\n" << shown(r.out);
        EXPECT_EQ(control_byte(r.err), std::string::npos) << view << ":\n" << shown(r.err);
    }
}

}  // namespace
}  // namespace runtop
