// The layers are checked, not hoped for: the tree's includes against tests/layering.h's rules,
// and the checker itself against a tree that breaks each kind of rule.
#include "tests/layering.h"

#include <gtest/gtest.h>

#include "tests/test_support.h"

namespace runtop::testing {
namespace {

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    return text;
}

TEST(Layering, TheSourceTreeKeepsTheLayers) {
    const std::vector<std::string> violations = layering_violations(RUNTOP_SOURCE_DIR);
    EXPECT_TRUE(violations.empty()) << violations.size() << " include(s) break the layers "
                                    << "(readers -> core <- views; app wires them):\n"
                                    << joined(violations);
}

TEST(Layering, EveryKindOfBadIncludeIsNamedWithItsLine) {
    TempDir tree;
    make_dirs(tree / "core/store");
    make_dirs(tree / "readers");
    make_dirs(tree / "views/compare");
    make_dirs(tree / "views/terminal");
    make_dirs(tree / "app");
    make_dirs(tree / "core/gadgets");
    write_file(tree / "core/store/series.cpp",
               "#include \"core/store/series.h\"\n#include \"core/result.h\"\n"
               "// #include \"views/canvas.h\" is only a comment\n"
               "  #  include \"views/canvas.h\"\n#include \"core/analysis/analyzer.h\"\n");
    write_file(tree / "core/format.h", "#include \"readers/file_tail.h\"\n#include <vector>\n");
    write_file(tree / "readers/csv.cpp",
               "#include \"core/store/store.h\"\n#include \"views/model.h\"\n");
    write_file(tree / "views/canvas.cpp",
               "#include \"core/store/series.h\"\n#include \"views/compare/compare_view.h\"\n"
               "#include \"readers/json_value.h\"\n#include <curses.h>\n"
               "#include \"views/terminal/terminal.h\"\n");
    write_file(tree / "views/terminal/terminal.cpp",
               "#include <ncursesw/curses.h>\n#include \"views/canvas.h\"\n");
    write_file(tree / "views/compare/row.cpp", "#include \"app/cli.h\"\n");
    write_file(tree / "app/main.cpp",
               "#include \"views/terminal/terminal.h\"\n#include \"readers/x.h\"\n");
    write_file(tree / "core/gadgets/gadget.h", "#include \"core/result.h\"\n");

    const std::vector<std::string> expected = {
        "core/format.h:1: includes \"readers/file_tail.h\": core/ may include only core/, "
        "core/json/",
        "core/gadgets/gadget.h: its folder core/gadgets/ has no row in layer_rules() "
        "(tests/layering.cpp): say what it may include",
        "core/store/series.cpp:4: includes \"views/canvas.h\": core/store/ may include only "
        "core/, core/store/",
        "core/store/series.cpp:5: includes \"core/analysis/analyzer.h\": core/store/ may include "
        "only core/, core/store/",
        "readers/csv.cpp:2: includes \"views/model.h\": readers/ may include only core/ and "
        "below, readers/",
        "views/canvas.cpp:3: includes \"readers/json_value.h\": views/ may include only core/ and "
        "below, views/, views/compare/",
        "views/canvas.cpp:4: includes <curses.h>: only views/terminal/ may include curses",
        "views/canvas.cpp:5: includes \"views/terminal/terminal.h\": views/ may include only "
        "core/ and below, views/, views/compare/",
        "views/compare/row.cpp:1: includes \"app/cli.h\": views/compare/ may include only core/ "
        "and below, views/, views/compare/",
    };
    EXPECT_EQ(joined(layering_violations(tree.path())), joined(expected));
}

}  // namespace
}  // namespace runtop::testing
