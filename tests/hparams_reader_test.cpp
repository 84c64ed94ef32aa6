// Lightning's hparams.yaml: the YAML subset PyYAML writes (scalars, nesting, lists, multi-line
// scalars, tags), unreadable lines skipped with the rest kept, the reader's texts and warnings;
// and every sample file checked against its raw text.
#include <gtest/gtest.h>

#include <cstddef>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "readers/hparams_reader.h"
#include "tests/json_test_support.h"
#include "tests/test_support.h"

namespace runtop {
namespace {

using testing::FakeClock;
using testing::RecordingSink;
using testing::sample_files;
using testing::TempDir;
using testing::write_file;

std::vector<std::pair<std::string, std::string>> yaml_entries(const std::string& text) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& e : parse_hparams_yaml(text).entries) out.emplace_back(e.key, e.value);
    return out;
}

using Pairs = std::vector<std::pair<std::string, std::string>>;

TEST(HparamsYaml, ScalarsNestingAndLists) {
    const std::string text =
        "# written by Lightning\n"
        "lr: 0.001\n"
        "batch_size: 32  # per device\n"
        "name: 'it''s'\n"
        "path: \"a\\tb \\u00e9\"\n"
        "optimizer:\n"
        "  name: adam\n"
        "  betas:\n"
        "  - 0.9\n"
        "  - 0.999\n"
        "  sched:\n"
        "    warmup: 100\n"
        "layers:\n"
        "- 64\n"
        "- '32'\n"
        "empty_list: []\n"
        "empty_dict: {}\n"
        "none: null\n"
        "after: 1\n";
    EXPECT_EQ(yaml_entries(text), (Pairs{{"lr", "0.001"},
                                         {"batch_size", "32"},
                                         {"name", "it's"},
                                         {"path", "a\tb \xC3\xA9"},
                                         {"optimizer.name", "adam"},
                                         {"optimizer.betas", "[0.9, 0.999]"},
                                         {"optimizer.sched.warmup", "100"},
                                         {"layers", "[64, 32]"},
                                         {"empty_list", "[]"},
                                         {"empty_dict", "{}"},
                                         {"none", "null"},
                                         {"after", "1"}}));
    EXPECT_TRUE(parse_hparams_yaml(text).problems.empty());
}

TEST(HparamsYaml, EmptyDocumentsAndMarkers) {
    EXPECT_TRUE(yaml_entries("{}\n").empty());
    EXPECT_TRUE(yaml_entries("").empty());
    EXPECT_TRUE(yaml_entries("# nothing\n\n").empty());
    EXPECT_EQ(yaml_entries("---\na: 1\n...\n"), (Pairs{{"a", "1"}}));
    EXPECT_TRUE(parse_hparams_yaml("{}\n").problems.empty());
}

TEST(HparamsYaml, MultiLineScalarsAndTags) {
    const std::string text =
        "desc: a long plain value\n"
        "  that PyYAML wrapped\n"
        "quoted: 'first part\n"
        "  second part'\n"
        "escaped: 'it''s\n"
        "  a \"b\" c'\n"
        "double: \"x \\\"y\\\"\n"
        "   z\"\n"
        "script: |\n"
        "  line one\n"
        "    indented\n"
        "\n"
        "folded: >-\n"
        "  one\n"
        "  two\n"
        "shape: !!python/tuple\n"
        "- 3\n"
        "- 224\n"
        "tagged: !!float 1e-3\n"
        "key with spaces: yes\n"
        "\"quoted key\": v\n"
        "url: http://x:80/y\n";
    EXPECT_EQ(yaml_entries(text), (Pairs{{"desc", "a long plain value that PyYAML wrapped"},
                                         {"quoted", "first part second part"},
                                         {"escaped", "it's a \"b\" c"},
                                         {"double", "x \"y\" z"},
                                         {"script", "line one\n  indented"},
                                         {"folded", "one two"},
                                         {"shape", "[3, 224]"},
                                         {"tagged", "1e-3"},
                                         {"key with spaces", "yes"},
                                         {"quoted key", "v"},
                                         {"url", "http://x:80/y"}}));
}

TEST(HparamsYaml, UnreadableLinesAreSkippedAndTheRestKept) {
    const std::string text =
        "a: 1\n"
        "layers:\n"
        "- size: 64\n"
        "  act: relu\n"
        "- size: 32\n"
        "just text\n"
        "c: 3\n"
        "\tb: 2\n"
        "d: 4\n";
    HparamsYaml yaml = parse_hparams_yaml(text);
    std::vector<std::pair<std::string, std::string>> got;
    for (const auto& e : yaml.entries) got.emplace_back(e.key, e.value);
    EXPECT_EQ(got, (Pairs{{"a", "1"}, {"c", "3"}, {"d", "4"}}));
    std::vector<std::size_t> lines;
    for (const auto& p : yaml.problems) lines.push_back(p.line);
    EXPECT_EQ(lines, (std::vector<std::size_t>{3, 5, 6, 8}));
    ASSERT_EQ(yaml.problems.size(), 4u);
    EXPECT_EQ(yaml.problems[0].reason, "a list of mappings");
    EXPECT_EQ(yaml.problems[2].reason, "not a `key: value` line");
    EXPECT_EQ(yaml.problems[3].reason, "a tab in the indentation");
}

TEST(HparamsReader, TextsWarningsAndAnUnfinishedLastLine) {
    TempDir dir;
    const std::string path = dir / "hparams.yaml";
    write_file(path, "lr: 0.00");
    RecordingSink sink;
    FakeClock clock;
    HparamsReader reader(SourceFile{path, "version_0", kNoRank, SourceFormat::kLightningHparams},
                         sink);
    reader.set_clock(clock.fn());
    ASSERT_TRUE(reader.poll());
    EXPECT_TRUE(sink.texts.empty());
    EXPECT_EQ(reader.pending(), "the last line is not finished");
    write_file(path, "lr: 0.001\nmodel:\n  depth: 4\nbad line\n");
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.texts.size(), 2u);
    EXPECT_EQ(sink.texts[0].tag, "hparams/lr");
    EXPECT_EQ(sink.texts[0].text, "0.001");
    EXPECT_EQ(sink.texts[0].run, "version_0");
    EXPECT_EQ(sink.texts[1].tag, "hparams/model.depth");
    std::vector<std::string> warnings = reader.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0], path + ": line 4: not a `key: value` line; skipped, the rest was read");
    // Written without a final newline and left so: after 2 s it is what the writer meant.
    write_file(path, "lr: 0.002");
    ASSERT_TRUE(reader.poll());
    EXPECT_EQ(sink.texts.size(), 2u);
    clock.ms = 2000;
    ASSERT_TRUE(reader.poll());
    ASSERT_EQ(sink.texts.size(), 3u);
    EXPECT_EQ(sink.texts[2].text, "0.002");
    EXPECT_EQ(reader.pending(), "");
    EXPECT_TRUE(reader.take_warnings().empty());
}

// --- samples (../shared/samples): checked against the raw text, parsed here by regex ---

TEST(JsonSamples, LightningHparams) {
    const std::string samples = testing::samples_dir();
    if (samples.empty()) GTEST_SKIP() << "../shared/samples is absent (it ships with CI only)";
    const std::vector<std::string> files =
        sample_files(samples + "/other-public/lightning", std::regex(R"(hparams\.yaml$)"));
    ASSERT_FALSE(files.empty());
    for (const std::string& path : files) {
        SCOPED_TRACE(path);
        RecordingSink sink;
        HparamsReader reader(
            SourceFile{path, "lightning", kNoRank, SourceFormat::kLightningHparams}, sink);
        ASSERT_TRUE(reader.poll());
        EXPECT_EQ(reader.pending(), "");
        EXPECT_TRUE(reader.take_warnings().empty());
        // One text per "key: value" line of the raw file (these hold "{}": none).
        const std::string text = testing::read_file(path);
        std::size_t keys = 0;
        static const std::regex key_re(R"((^|\n)[ ]*[\w.]+:( |\r?\n))");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), key_re);
             it != std::sregex_iterator(); ++it)
            ++keys;
        EXPECT_EQ(sink.texts.size(), keys);
        EXPECT_EQ(reader.parses(), 1u);
    }
}

}  // namespace
}  // namespace runtop
