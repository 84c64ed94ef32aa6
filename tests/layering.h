// The include rules between folders, checked on the source tree (tests/layering_test.cpp):
// readers -> core <- views, app wires them; inside core, the base types at core/'s top and the
// rooms (store, analysis, compare, config, json) below them; only views/terminal/ includes
// curses. The build enforces the folder rules too (each library sees only the headers it may
// use); this check says which line broke which rule, and also covers core's rooms.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace runtop::testing {

struct LayerRule {
    std::string_view folder;                    // the files directly in it ("core/store")
    std::vector<std::string_view> may_include;  // folders; "core/**": core and every room
};

// One row per folder of the libraries; a file is judged by the row of its own folder.
const std::vector<LayerRule>& layer_rules();

// Every `#include` in the .h and .cpp files under `root` (core, readers, writers, views, app)
// that breaks its folder's rule, one line each:
//   core/store/series.cpp:9: includes "views/canvas.h": core/store/ may include only core/,
//   core/store/
std::vector<std::string> layering_violations(const std::string& root);

}  // namespace runtop::testing
