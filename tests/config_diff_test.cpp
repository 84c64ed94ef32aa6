// Configuration flattening (core/config/config_flatten.h) and the difference between two runs'
// configurations (core/config/config_diff.h): JSON nesting, key/value lines, markdown tables, the
// keys the hparams.yaml and deepspeed_config.csv readers give, ranks that agree or not, text that
// is not structured, empty configurations.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/config/config_diff.h"
#include "core/config/config_flatten.h"
#include "core/store/store.h"

namespace runtop {
namespace {

using Items = std::vector<ConfigItem>;

ConfigText text(std::string run, int rank, std::string tag, std::string body) {
    return ConfigText{std::move(run), rank, std::move(tag), 0, std::move(body)};
}

TEST(ConfigFlatten, TheTextSummarySuffixLeavesTheKey) {
    EXPECT_EQ(config_key_of_tag("config/text_summary"), "config");
    EXPECT_EQ(config_key_of_tag("lr/text_summary"), "lr");
    EXPECT_EQ(config_key_of_tag("text_summary"), "text_summary");
    EXPECT_EQ(config_key_of_tag("/text_summary"), "/text_summary");
    EXPECT_EQ(config_key_of_tag("notes"), "notes");
}

TEST(ConfigFlatten, JsonObjectsFlattenToDottedKeysBelowTheTag) {
    const std::string json = R"({
  "learning_rate": 5e-05,
  "optim": {"name": "adamw", "betas": [0.9, 0.999], "eps": 1e-8, "sched": {"warmup": 100}},
  "run_name": "a \"quoted\"\n\u00e9\ud83d\ude00",
  "fp16": true, "seed": null, "extra": {}, "ids": [ ],
  "nested_list": [{"a":1}, "x,y"],
  "max_grad_norm": NaN, "limit": -Infinity
})";
    EXPECT_EQ(flatten_config_text("args/text_summary", json),
              (Items{{"args/learning_rate", "5e-05"},
                     {"args/optim.name", "adamw"},
                     {"args/optim.betas", "[0.9, 0.999]"},
                     {"args/optim.eps", "1e-8"},
                     {"args/optim.sched.warmup", "100"},
                     {"args/run_name", "a \"quoted\"\n\xC3\xA9\xF0\x9F\x98\x80"},
                     {"args/fp16", "true"},
                     {"args/seed", "null"},
                     {"args/extra", "{}"},
                     {"args/ids", "[]"},
                     {"args/nested_list", "[{\"a\": 1}, \"x,y\"]"},
                     {"args/max_grad_norm", "NaN"},
                     {"args/limit", "-Infinity"}}));
}

TEST(ConfigFlatten, JsonDuplicateKeysKeepTheLastValueAndAnEmptyObjectIsOneKey) {
    EXPECT_EQ(flatten_config_text("c", R"({"a": 1, "b": 2, "a": 3})"),
              (Items{{"c/a", "3"}, {"c/b", "2"}}));
    EXPECT_EQ(flatten_config_text("c", " {} "), (Items{{"c", "{}"}}));
}

TEST(ConfigFlatten, BrokenOrNonObjectJsonIsOneKey) {
    for (const char* body : {R"({"a": 1,})", R"({"a": 01})", R"({"a" 1})", "[1, 2]", "\"s\"",
                             R"({"a": 1} trailing)", "{\"a\": \"\\x\"}", "{\"a\": tru}"}) {
        EXPECT_EQ(flatten_config_text("c/text_summary", body), (Items{{"c", body}})) << body;
    }
    // Nesting deeper than any configuration: one key, and no stack exhausted.
    const std::string deep = "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
    EXPECT_EQ(flatten_config_text("c", deep).size(), 1u);
    const std::string deep_objects = std::string(50000, '{') + std::string(50000, '}');
    EXPECT_EQ(flatten_config_text("c", deep_objects).size(), 1u);
}

TEST(ConfigFlatten, KeyValueLinesFlattenPerLine) {
    EXPECT_EQ(
        flatten_config_text("config/text_summary",
                            "lr: 0.001\r\n\n# a comment\nbatch_size = 32\nurl: http://x=1\n"),
        (Items{{"config/lr", "0.001"}, {"config/batch_size", "32"}, {"config/url", "http://x=1"}}));
    // One line is a value that happens to hold a colon, not a list.
    EXPECT_EQ(flatten_config_text("start/text_summary", "time: 12:30"),
              (Items{{"start", "time: 12:30"}}));
    // A line that is not key/value, or a key twice: the text stays whole.
    EXPECT_EQ(flatten_config_text("notes", "lr: 1\nthis run is the baseline\n").size(), 1u);
    EXPECT_EQ(flatten_config_text("notes", "lr: 1\nlr: 2\n").size(), 1u);
}

TEST(ConfigFlatten, TwoColumnMarkdownTablesFlattenPerRow) {
    const std::string table =
        "|param|value|\n|-|-|\n|learning_rate|0.00025|\n| gamma | 0.99 |\n|env\\|id|CartPole|\n";
    EXPECT_EQ(flatten_config_text("hyperparameters/text_summary", table),
              (Items{{"hyperparameters/learning_rate", "0.00025"},
                     {"hyperparameters/gamma", "0.99"},
                     {"hyperparameters/env|id", "CartPole"}}));
    EXPECT_EQ(flatten_config_text("h", "| a | b |\n| :--- | ---: |\n| x | 1 |"),
              (Items{{"h/x", "1"}}));
    // Three columns, or no separator row: not a two-column table.
    EXPECT_EQ(flatten_config_text("h", "|a|b|c|\n|-|-|-|\n|x|1|2|").size(), 1u);
    EXPECT_EQ(flatten_config_text("h", "|a|b|\n|x|1|\n|y|2|").size(), 1u);
}

// Issue 18: a configuration that arrives as one string (a text summary "lr=0.003 batch=6
// seed=1") is split into its settings, so two runs differ by `seed`, not by the whole string.
TEST(ConfigFlatten, KeyValuePairsInOneTextSplitIntoKeys) {
    EXPECT_EQ(flatten_config_text("config/text_summary", "lr=0.003 batch=6 seed=1"),
              (Items{{"config/lr", "0.003"}, {"config/batch", "6"}, {"config/seed", "1"}}));
    // Commas, line breaks, runs of spaces; argv style.
    EXPECT_EQ(flatten_config_text("c", "lr=0.003,  batch=6\nseed=1\n"),
              (Items{{"c/lr", "0.003"}, {"c/batch", "6"}, {"c/seed", "1"}}));
    EXPECT_EQ(flatten_config_text("cmd", "--lr=0.003 --warmup=100"),
              (Items{{"cmd/lr", "0.003"}, {"cmd/warmup", "100"}}));
    // argparse's Namespace (add_text("args", str(args))): quotes and brackets keep a value
    // whole, quotes go.
    EXPECT_EQ(flatten_config_text("args/text_summary",
                                  "Namespace(lr=0.003, name='run 1, b', betas=(0.9, 0.999), "
                                  "tags=['a', 'b'], seed=1)"),
              (Items{{"args/lr", "0.003"},
                     {"args/name", "run 1, b"},
                     {"args/betas", "(0.9, 0.999)"},
                     {"args/tags", "['a', 'b']"},
                     {"args/seed", "1"}}));
    EXPECT_EQ(flatten_config_text("args", "Namespace(seed=2)"), (Items{{"args/seed", "2"}}));
}

TEST(ConfigFlatten, MarkdownListsAndMarksAroundKeysAreKeyValueLines) {
    EXPECT_EQ(flatten_config_text("hp/text_summary", "- lr: 0.003  \n- **batch**: `6`\n* seed: 1"),
              (Items{{"hp/lr", "0.003"}, {"hp/batch", "6"}, {"hp/seed", "1"}}));
}

TEST(ConfigFlatten, PairsThatAreNotAllPairsStayProse) {
    // A sentence that holds a pair, a single pair, unbalanced quotes or brackets, a key twice,
    // a key that is a number: one key with the whole text.
    for (const char* body :
         {"lr=0.003 worked better than lr=0.01", "seed=1", "a=1 b='open", "a=(1, 2 b=3", "a=1 a=2",
          "1=2 3=4", "a = 1 b = 2 c", "Namespace(lr=0.1) and more", "f(a=1) g(b=2)"}) {
        EXPECT_EQ(flatten_config_text("notes/text_summary", body), (Items{{"notes", body}}))
            << body;
    }
}

TEST(ConfigFlatten, UnstructuredTextIsOneKeyWithTheWholeText) {
    EXPECT_EQ(flatten_config_text("notes/text_summary",
                                  "The baseline run: learning rate 0.003, batch 6, seed 1."),
              (Items{{"notes", "The baseline run: learning rate 0.003, batch 6, seed 1."}}));
    EXPECT_EQ(flatten_config_text("notes/text_summary", "baseline, seed 1\nsecond line"),
              (Items{{"notes", "baseline, seed 1\nsecond line"}}));
    EXPECT_EQ(flatten_config_text("lr/text_summary", "0.001"), (Items{{"lr", "0.001"}}));
    EXPECT_EQ(flatten_config_text("empty", ""), (Items{{"empty", ""}}));
}

TEST(ConfigFlatten, ReaderKeysPassThrough) {
    // readers/hparams_reader.cpp: one text per YAML leaf, "hparams/<dotted key>".
    EXPECT_EQ(flatten_config_text("hparams/optimizer.betas", "[0.9, 0.999]"),
              (Items{{"hparams/optimizer.betas", "[0.9, 0.999]"}}));
    // deepspeed_config.csv: one text per row, the key as the tag; Python reprs stay text.
    EXPECT_EQ(flatten_config_text("fp16", "{'enabled': True, 'loss_scale': 0}"),
              (Items{{"fp16", "{'enabled': True, 'loss_scale': 0}"}}));
    EXPECT_EQ(flatten_config_text("train_batch_size", "32"), (Items{{"train_batch_size", "32"}}));
}

TEST(RunConfig, TextsOfTheRunFlattenedAndSorted) {
    std::vector<ConfigText> texts = {
        text("a", kNoRank, "hparams/lr", "0.001"),
        text("a", kNoRank, "hparams/model.depth", "12"),
        text("a", kNoRank, "train_batch_size", "32"),
        text("a", 0, "config/text_summary", R"({"seed": 1, "data": {"path": "/d"}})"),
        text("other", kNoRank, "hparams/lr", "0.5"),
    };
    EXPECT_EQ(run_config(texts, "a"), (std::vector<ConfigEntry>{
                                          {"config/data.path", std::nullopt, "/d"},
                                          {"config/seed", std::nullopt, "1"},
                                          {"hparams/lr", std::nullopt, "0.001"},
                                          {"hparams/model.depth", std::nullopt, "12"},
                                          {"train_batch_size", std::nullopt, "32"},
                                      }));
    EXPECT_TRUE(run_config(texts, "missing").empty());
}

TEST(RunConfig, AKeyTheSameOnEveryRankIsOneKey) {
    std::vector<ConfigText> texts;
    for (int rank = 0; rank < 4; ++rank)
        texts.push_back(text("a", rank, "lr/text_summary", "0.001"));
    texts.push_back(text("a", 0, "only_rank0/text_summary", "x"));  // others lack it: no split
    EXPECT_EQ(run_config(texts, "a"),
              (std::vector<ConfigEntry>{{"lr", std::nullopt, "0.001"},
                                        {"only_rank0", std::nullopt, "x"}}));
}

TEST(RunConfig, RanksThatDisagreeKeepTheirRankInTheKey) {
    std::vector<ConfigText> texts;
    for (int rank = 0; rank < 4; ++rank)
        texts.push_back(text("a", rank, "host/text_summary", rank == 2 ? "node7" : "node1"));
    // A tie: the lowest rank's value is the run's.
    texts.push_back(text("a", 0, "seed/text_summary", "10"));
    texts.push_back(text("a", 1, "seed/text_summary", "11"));
    const std::vector<ConfigEntry> config = run_config(texts, "a");
    EXPECT_EQ(config, (std::vector<ConfigEntry>{{"host", std::nullopt, "node1"},
                                                {"host", 2, "node7"},
                                                {"seed", std::nullopt, "10"},
                                                {"seed", 1, "11"}}));
    EXPECT_EQ(config_entry_name(config[1].key, config[1].rank), "rank2:host");
    EXPECT_EQ(config_entry_name("host", std::nullopt), "host");
    EXPECT_EQ(config_entry_name("host", kNoRank), "unranked:host");
}

TEST(RunConfig, TheStoreKeepsTheLatestTextPerRankAndTag) {
    Store store;
    store.config_text(text("a", kNoRank, "notes", "first"));
    store.config_text(text("a", kNoRank, "notes", "second"));
    EXPECT_EQ(run_config(store, "a"),
              (std::vector<ConfigEntry>{{"notes", std::nullopt, "second"}}));
}

TEST(DiffConfigs, AddedRemovedChangedInKeyOrder) {
    // Both in run_config's order: by key ("host" < "hparams/..."), the run's entry first.
    const std::vector<ConfigEntry> a = {{"host", std::nullopt, "n1"},
                                        {"host", 3, "n2"},
                                        {"hparams/lr", std::nullopt, "0.001"},
                                        {"hparams/wd", std::nullopt, "0.1"},
                                        {"seed", std::nullopt, "1"}};
    const std::vector<ConfigEntry> b = {{"host", std::nullopt, "n1"},
                                        {"hparams/lr", std::nullopt, "0.002"},
                                        {"seed", std::nullopt, "1"},
                                        {"zero_stage", std::nullopt, "2"}};
    const std::vector<ConfigChange> changes = diff_configs(a, b);
    EXPECT_EQ(changes,
              (std::vector<ConfigChange>{
                  {ConfigChangeKind::kRemoved, "host", 3, "n2", ""},
                  {ConfigChangeKind::kChanged, "hparams/lr", std::nullopt, "0.001", "0.002"},
                  {ConfigChangeKind::kRemoved, "hparams/wd", std::nullopt, "0.1", ""},
                  {ConfigChangeKind::kAdded, "zero_stage", std::nullopt, "", "2"}}));
    const ConfigChangeCounts counts = count_changes(changes);
    EXPECT_EQ(counts.added, 1u);
    EXPECT_EQ(counts.removed, 2u);
    EXPECT_EQ(counts.changed, 1u);
    EXPECT_EQ(counts.total(), 4u);
    EXPECT_EQ(config_change_name(ConfigChangeKind::kAdded), "added");
}

TEST(DiffConfigs, EmptyConfigurations) {
    const std::vector<ConfigEntry> some = {{"k", std::nullopt, "v"}};
    EXPECT_TRUE(diff_configs({}, {}).empty());
    EXPECT_TRUE(diff_configs(some, some).empty());
    EXPECT_EQ(diff_configs({}, some),
              (std::vector<ConfigChange>{{ConfigChangeKind::kAdded, "k", std::nullopt, "", "v"}}));
    EXPECT_EQ(
        diff_configs(some, {}),
        (std::vector<ConfigChange>{{ConfigChangeKind::kRemoved, "k", std::nullopt, "v", ""}}));
}

TEST(DiffConfigs, RunsFromTextsOfEveryKind) {
    Store store;
    // Run a: a JSON text summary, hparams.yaml leaves, deepspeed_config.csv rows.
    store.config_text(
        text("a", 0, "config/text_summary", R"({"lr": 0.1, "opt": {"name": "sgd"}})"));
    store.config_text(text("a", kNoRank, "hparams/batch_size", "32"));
    store.config_text(text("a", kNoRank, "zero_optimization", "{'stage': 2}"));
    // Run b: the same, lr and the optimizer changed, one hparam gone, one deepspeed key new.
    store.config_text(
        text("b", 0, "config/text_summary", R"({"lr": 0.2, "opt": {"name": "adam"}})"));
    store.config_text(text("b", kNoRank, "zero_optimization", "{'stage': 2}"));
    store.config_text(text("b", kNoRank, "gradient_clipping", "1.0"));
    EXPECT_EQ(diff_configs(run_config(store, "a"), run_config(store, "b")),
              (std::vector<ConfigChange>{
                  {ConfigChangeKind::kChanged, "config/lr", std::nullopt, "0.1", "0.2"},
                  {ConfigChangeKind::kChanged, "config/opt.name", std::nullopt, "sgd", "adam"},
                  {ConfigChangeKind::kAdded, "gradient_clipping", std::nullopt, "", "1.0"},
                  {ConfigChangeKind::kRemoved, "hparams/batch_size", std::nullopt, "32", ""}}));
}

TEST(DiffConfigs, OneStringTextSummariesDifferByTheKeyThatChanged) {
    Store store;
    store.config_text(text("a", 0, "config/text_summary", "lr=0.003 batch=6 seed=1"));
    store.config_text(text("b", 0, "config/text_summary", "lr=0.003 batch=6 seed=2"));
    EXPECT_EQ(diff_configs(run_config(store, "a"), run_config(store, "b")),
              (std::vector<ConfigChange>{
                  {ConfigChangeKind::kChanged, "config/seed", std::nullopt, "1", "2"}}));
}

}  // namespace
}  // namespace runtop
