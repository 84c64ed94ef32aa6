// The Hugging Face trainer_state.json reader: history entries become points and top-level
// scalars texts, rewrites deliver only what is new, and checkpoints of one run deliver each point
// once in either order; and every sample file checked against its raw text.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "core/json/json_value.h"
#include "readers/hf_trainer_state_reader.h"
#include "readers/json_readers.h"
#include "tests/json_test_support.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::RecordingSink;
using testing::sample_files;
using testing::TempDir;
using testing::write_file;

std::string hf_entry(int step, const std::string& loss, double epoch) {
    return "    {\n      \"epoch\": " + std::to_string(epoch) + ",\n      \"grad_norm\": 1.5,\n" +
           "      \"loss\": " + loss + ",\n      \"step\": " + std::to_string(step) + "\n    }";
}

std::string hf_state(int global_step, const std::vector<std::string>& entries) {
    std::string out = "{\n  \"best_metric\": null,\n  \"epoch\": 1.0,\n  \"global_step\": " +
                      std::to_string(global_step) + ",\n  \"log_history\": [\n";
    for (std::size_t i = 0; i < entries.size(); ++i) out += (i ? ",\n" : "") + entries[i];
    return out +
           "\n  ],\n  \"max_steps\": 30,\n  \"stateful_callbacks\": {\"a\": {\"b\": 1}},\n"
           "  \"trial_name\": \"t\\u00e9\"\n}\n";
}

struct Delivered {
    std::string tag;
    std::int64_t step;
    double value;
};

std::vector<Delivered> delivered(const RecordingSink& sink) {
    std::vector<Delivered> out;
    for (const auto& s : sink.scalars) out.push_back({s.key.tag, s.point.step, s.point.value});
    return out;
}

SourceFile hf_file(const std::string& path, const std::string& run = "hf") {
    return SourceFile{path, run, kNoRank, SourceFormat::kHfTrainerState};
}

TEST(HfTrainerStateReader, HistoryBecomesPointsAndScalarsBecomeTexts) {
    TempDir dir;
    const std::string path = dir / "trainer_state.json";
    write_file(path, hf_state(20, {hf_entry(10, "NaN", 0.5), hf_entry(20, "Infinity", 1.0),
                                   "    {\"eval_loss\": -Infinity, \"note\": \"text\", "
                                   "\"flag\": true, \"list\": [1], \"step\": 20}"}));
    RecordingSink sink;
    HfLedgers ledgers;
    HfTrainerStateReader reader(hf_file(path), sink, ledgers);
    ASSERT_TRUE(reader.poll());
    std::vector<Delivered> got = delivered(sink);
    ASSERT_EQ(got.size(), 7u);
    EXPECT_EQ(got[0].tag, "epoch");
    EXPECT_EQ(got[0].step, 10);
    EXPECT_EQ(got[0].value, 0.5);
    EXPECT_EQ(got[1].tag, "grad_norm");
    EXPECT_EQ(got[2].tag, "loss");
    EXPECT_TRUE(std::isnan(got[2].value));
    EXPECT_EQ(got[5].tag, "loss");
    EXPECT_EQ(got[5].value, INFINITY);
    EXPECT_EQ(got[6].tag, "eval_loss");
    EXPECT_EQ(got[6].value, -INFINITY);
    for (std::size_t i = 0; i < sink.sources.size(); ++i)
        EXPECT_EQ(sink.source(i), (SeriesSource{"hf-trainer-state", StepAxis::kSteps}));
    for (const auto& s : sink.scalars) {
        EXPECT_EQ(s.key.run, "hf");
        EXPECT_EQ(s.key.rank, kNoRank);
    }
    // Wall time: the file's mtime (the file has no timestamps).
    struct stat st;
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_DOUBLE_EQ(sink.scalars[0].point.wall_time,
                     static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec * 1e-9);

    std::vector<std::pair<std::string, std::string>> texts;
    for (const ConfigText& t : sink.texts) {
        texts.emplace_back(t.tag, t.text);
        EXPECT_EQ(t.step, 20);
    }
    EXPECT_EQ(texts, (std::vector<std::pair<std::string, std::string>>{
                         {"trainer_state/best_metric", "null"},
                         {"trainer_state/epoch", "1.0"},
                         {"trainer_state/global_step", "20"},
                         {"trainer_state/max_steps", "30"},
                         {"trainer_state/trial_name", "\"t\\u00e9\""}}));
    IngestTotals totals;
    reader.add_totals(totals);
    EXPECT_EQ(totals.records, 3u);
    EXPECT_EQ(totals.scalars, 7u);
    EXPECT_EQ(totals.texts, 5u);
}

TEST(HfTrainerStateReader, RewriteDeliversOnlyNewEntries) {
    TempDir dir;
    const std::string path = dir / "trainer_state.json";
    write_file(path, hf_state(10, {hf_entry(10, "2.0", 0.1)}));
    RecordingSink sink;
    HfLedgers ledgers;
    HfTrainerStateReader reader(hf_file(path), sink, ledgers);
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(sink.scalars.size(), 3u);
    const std::size_t texts = sink.texts.size();
    write_file(path, hf_state(20, {hf_entry(10, "2.0", 0.1), hf_entry(20, "1.0", 0.2)}));
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.scalars.size(), 6u);
    for (std::size_t i = 3; i < 6; ++i) EXPECT_EQ(sink.scalars[i].point.step, 20);
    // Only the texts that changed are sent again.
    ASSERT_EQ(sink.texts.size(), texts + 1);
    EXPECT_EQ(sink.texts.back().tag, "trainer_state/global_step");
    EXPECT_EQ(sink.texts.back().text, "20");
}

TEST(HfTrainerStateReader, RewrittenHistoryIsDeliveredFromTheFirstDifference) {
    TempDir dir;
    const std::string path = dir / "trainer_state.json";
    write_file(path, hf_state(30, {hf_entry(10, "2.0", 0.1), hf_entry(20, "1.0", 0.2),
                                   hf_entry(30, "0.5", 0.3)}));
    RecordingSink sink;
    HfLedgers ledgers;
    HfTrainerStateReader reader(hf_file(path), sink, ledgers);
    ASSERT_TRUE(reader.poll());
    sink.scalars.clear();
    // A new training from scratch in the same output dir: the history differs at entry 1.
    write_file(path, hf_state(20, {hf_entry(10, "2.0", 0.1), hf_entry(20, "1.7", 0.2)}));
    ASSERT_TRUE(reader.poll());
    std::vector<Delivered> got = delivered(sink);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[2].tag, "loss");
    EXPECT_EQ(got[2].step, 20);
    EXPECT_EQ(got[2].value, 1.7);
    EXPECT_EQ(ledgers.of("hf").entries.size(), 2u);
}

TEST(HfTrainerStateReader, CheckpointsDeliverEachPointOnceInEitherOrder) {
    TempDir dir;
    testing::make_dirs(dir / "checkpoint-500");
    testing::make_dirs(dir / "checkpoint-1000");
    const std::vector<std::string> history = {hf_entry(250, "2.0", 0.5), hf_entry(500, "1.5", 1.0),
                                              hf_entry(750, "1.2", 1.5),
                                              hf_entry(1000, "1.0", 2.0)};
    const std::string early = dir / "checkpoint-500/trainer_state.json";
    const std::string late = dir / "checkpoint-1000/trainer_state.json";
    write_file(early, hf_state(500, {history[0], history[1]}));
    // The later copy with another indentation: entries compare without layout.
    std::string late_text = hf_state(1000, history);
    write_file(late, compact_json(late_text));

    for (bool early_first : {true, false}) {
        SCOPED_TRACE(early_first ? "checkpoint-500 first" : "checkpoint-1000 first");
        RecordingSink sink;
        HfLedgers ledgers;
        HfTrainerStateReader a(hf_file(early_first ? early : late), sink, ledgers);
        HfTrainerStateReader b(hf_file(early_first ? late : early), sink, ledgers);
        ASSERT_TRUE(a.poll());
        ASSERT_TRUE(b.poll());
        std::vector<Delivered> got = delivered(sink);
        ASSERT_EQ(got.size(), 12u);  // 4 entries x (epoch, grad_norm, loss), each once
        std::vector<std::int64_t> steps;
        for (std::size_t i = 0; i < got.size(); i += 3) steps.push_back(got[i].step);
        EXPECT_EQ(steps, (std::vector<std::int64_t>{250, 500, 750, 1000}));
        // The older copy never overwrites the newer state.
        std::string global_step;
        for (const ConfigText& t : sink.texts)
            if (t.tag == "trainer_state/global_step") global_step = t.text;
        EXPECT_EQ(global_step, "1000");
        // A reread of an unchanged file sends nothing.
        ASSERT_TRUE(a.poll());
        ASSERT_TRUE(b.poll());
        EXPECT_EQ(sink.scalars.size(), 12u);
    }
}

TEST(HfTrainerStateReader, LedgersArePerRun) {
    TempDir dir;
    const std::string path = dir / "trainer_state.json";
    write_file(path, hf_state(10, {hf_entry(10, "2.0", 0.1)}));
    RecordingSink sink;
    JsonReaderShared shared;
    std::unique_ptr<SourceReader> a = make_json_reader(hf_file(path, "a"), sink, shared);
    std::unique_ptr<SourceReader> b = make_json_reader(hf_file(path, "b"), sink, shared);
    ASSERT_TRUE(a->poll());
    ASSERT_TRUE(b->poll());
    EXPECT_EQ(sink.scalars.size(), 6u);
}

TEST(HfTrainerStateReader, EntryWithoutStepIsSkippedAndWrongShapeIsInvalid) {
    TempDir dir;
    const std::string path = dir / "trainer_state.json";
    write_file(path, "{\"log_history\": [{\"loss\": 1}, {\"loss\": 2, \"step\": 3}, 7]}");
    RecordingSink sink;
    HfLedgers ledgers;
    HfTrainerStateReader reader(hf_file(path), sink, ledgers);
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.scalars.size(), 1u);
    EXPECT_EQ(sink.scalars[0].point.step, 3);
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("2 log_history entries skipped"), std::string::npos) << warnings[0];

    EXPECT_EQ(reader.parse_content("{\"log_history\": {}}", true).kind,
              ParseOutcome::Kind::kInvalid);
    EXPECT_EQ(reader.parse_content("[]", true).kind, ParseOutcome::Kind::kInvalid);
    EXPECT_EQ(reader.parse_content("{\"log_history\": [", false).kind,
              ParseOutcome::Kind::kIncomplete);
    EXPECT_EQ(sink.scalars.size(), 1u);
}

// --- samples (../shared/samples): checked against the raw text, parsed here by regex ---

std::uint64_t bits(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
}

// Python's repr of a float, or JSON's literals, as a double.
double number_of(const std::string& text) {
    if (text == "NaN") return NAN;
    if (text == "Infinity") return INFINITY;
    if (text == "-Infinity") return -INFINITY;
    return std::strtod(text.c_str(), nullptr);
}

TEST(JsonSamples, HfTrainerState) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent (it ships with CI only)";
    const std::vector<std::string> files = sample_files(samples + "/other-public/hf_transformers",
                                                        std::regex(R"(trainer_state\.json$)"));
    ASSERT_FALSE(files.empty());
    for (const std::string& path : files) {
        SCOPED_TRACE(path);
        const std::string text = testing::read_file(path);
        // The raw history: entries are flat objects inside "log_history": [ ... ].
        const std::size_t begin = text.find("\"log_history\": [");
        ASSERT_NE(begin, std::string::npos);
        const std::size_t end = text.find("\n  ]", begin);
        ASSERT_NE(end, std::string::npos);
        const std::string history = text.substr(begin, end - begin);
        std::vector<Delivered> expected;
        static const std::regex entry_re(R"(\{([^{}]*)\})");
        static const std::regex pair_re(R"re("(\w+)": ([-0-9.eE+]+|NaN|-?Infinity))re");
        static const std::regex step_re(R"re("step": (\d+))re");
        for (auto e = std::sregex_iterator(history.begin(), history.end(), entry_re);
             e != std::sregex_iterator(); ++e) {
            const std::string body = (*e)[1];
            std::smatch step;
            ASSERT_TRUE(std::regex_search(body, step, step_re)) << body;
            for (auto p = std::sregex_iterator(body.begin(), body.end(), pair_re);
                 p != std::sregex_iterator(); ++p)
                if ((*p)[1] != "step")
                    expected.push_back({(*p)[1], std::stoll(step[1]), number_of((*p)[2])});
        }
        ASSERT_GT(expected.size(), 300u);

        RecordingSink sink;
        HfLedgers ledgers;
        HfTrainerStateReader reader(hf_file(path), sink, ledgers);
        ASSERT_TRUE(reader.poll());
        EXPECT_EQ(reader.pending(), "");
        EXPECT_TRUE(reader.take_warnings().empty());
        std::vector<Delivered> got = delivered(sink);
        ASSERT_EQ(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            EXPECT_EQ(got[i].tag, expected[i].tag) << i;
            EXPECT_EQ(got[i].step, expected[i].step) << i;
            EXPECT_EQ(bits(got[i].value), bits(expected[i].value))
                << i << " " << got[i].value << " " << expected[i].value;
        }
        std::smatch global_step;
        ASSERT_TRUE(
            std::regex_search(text, global_step, std::regex(R"re(\n  "global_step": (\d+),)re")));
        bool found = false;
        for (const ConfigText& t : sink.texts)
            if (t.tag == "trainer_state/global_step") found = t.text == std::string(global_step[1]);
        EXPECT_TRUE(found);

        // Another copy of the same run's history (a checkpoint) adds nothing.
        HfTrainerStateReader copy(hf_file(path), sink, ledgers);
        ASSERT_TRUE(copy.poll());
        EXPECT_EQ(sink.scalars.size(), expected.size());
    }
}

}  // namespace
}  // namespace runtop
