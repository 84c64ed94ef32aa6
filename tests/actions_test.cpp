// The action table: one key, one action per scope; every action reachable; docs/keys.md is what
// the table generates (RUNTOP_BLESS=1 rewrites it).
#include "views/actions.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace runtop::ui {
namespace {

std::string source_dir() {
    std::string samples = RUNTOP_SAMPLES_DIR;  // <source>/../shared/samples
    return samples.substr(0, samples.size() - std::string("/../shared/samples").size());
}

TEST(Actions, NoKeyMeansTwoThingsInOneScope) {
    std::map<std::pair<Scope, std::string_view>, Action> seen;
    for (const Binding& b : bindings()) {
        for (std::string_view key : b.keys) {
            auto [it, fresh] = seen.try_emplace({b.scope, key}, b.action);
            EXPECT_TRUE(fresh || it->second == b.action) << key;
        }
    }
}

TEST(Actions, EveryActionHasAKey) {
    std::set<Action> bound;
    for (const Binding& b : bindings()) {
        EXPECT_FALSE(b.keys.empty());
        EXPECT_FALSE(b.help.empty());
        bound.insert(b.action);
    }
    EXPECT_EQ(bound.size(), static_cast<std::size_t>(Action::kQuit) + 1);
}

TEST(Actions, DesignKeysDoWhatDesignSays) {
    const std::pair<const char*, Action> design[] = {
        {"1", Action::kViewOverview}, {"2", Action::kViewRanks},
        {"3", Action::kViewHeatmap},  {"4", Action::kViewAnomalies},
        {"5", Action::kViewCompare},  {"Enter", Action::kOpenDetail},
        {"Esc", Action::kBack},       {"/", Action::kFilterTags},
        {"r", Action::kFilterRanks},  {"s", Action::kCycleSmoothing},
        {"l", Action::kToggleLogY},   {"f", Action::kToggleFollow},
        {"k", Action::kUp},           {"j", Action::kDown},
        {"h", Action::kLeft},         {"PgUp", Action::kPageUp},
        {"PgDn", Action::kPageDown},  {"g", Action::kFirst},
        {"G", Action::kLast},         {"?", Action::kHelp},
        {"q", Action::kQuit},
    };
    for (const auto& [key, action] : design) {
        const Binding* b = binding_for_key(key, Scope::kOverview);
        ASSERT_NE(b, nullptr) << key;
        EXPECT_EQ(b->action, action) << key;
    }
}

TEST(Actions, AViewsOwnBindingWinsAndStaysInItsView) {
    const Binding* ack = binding_for_key("a", Scope::kAnomalies);
    ASSERT_NE(ack, nullptr);
    EXPECT_EQ(ack->action, Action::kAcknowledge);
    EXPECT_EQ(binding_for_key("a", Scope::kOverview), nullptr);
    EXPECT_EQ(binding_for_key("+", Scope::kDetail)->action, Action::kZoomIn);
    EXPECT_EQ(binding_for_key("+", Scope::kOverview), nullptr);
    EXPECT_EQ(binding_for_key("no such key", Scope::kGlobal), nullptr);
}

TEST(Actions, DocsKeysMdIsGeneratedFromTheTable) {
    const std::string path = source_dir() + "/docs/keys.md";
    const std::string want = keys_markdown();
    if (std::getenv("RUNTOP_BLESS")) {
        std::ofstream(path, std::ios::binary) << want;
        GTEST_SKIP() << "wrote " << path;
    }
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in) << path << " is missing: run the tests once with RUNTOP_BLESS=1";
    std::ostringstream have;
    have << in.rdbuf();
    EXPECT_EQ(have.str(), want) << path << " is stale: run the tests with RUNTOP_BLESS=1";
}

}  // namespace
}  // namespace runtop::ui
