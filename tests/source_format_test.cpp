// Every C++ file is clang-format clean (.clang-format at the root): `make format` fixes it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/tmux_session.h"

namespace runtop::testing {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> source_files(const fs::path& root) {
    std::vector<std::string> files;
    for (const char* top : {"core", "readers", "writers", "views", "app", "tests", "bench"}) {
        if (!fs::is_directory(root / top)) continue;
        for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
            const std::string ext = entry.path().extension().string();
            if (entry.is_regular_file() && (ext == ".h" || ext == ".cpp"))
                files.push_back(fs::relative(entry.path(), root).generic_string());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

TEST(SourceFormat, EveryFileIsClangFormatClean) {
    REQUIRE_TOOL("clang-format");
    const std::vector<std::string> files = source_files(RUNTOP_SOURCE_DIR);
    ASSERT_GT(files.size(), 100u) << "no sources under " << RUNTOP_SOURCE_DIR;
    std::vector<std::string> unclean;
    for (std::size_t i = 0; i < files.size(); i += 64) {  // a few runs, not one per file
        std::string command = std::string("cd '") + RUNTOP_SOURCE_DIR + "' && clang-format -n";
        for (std::size_t j = i; j < std::min(files.size(), i + 64); ++j)
            command += " '" + files[j] + "'";
        command += " 2>&1";
        FILE* pipe = ::popen(command.c_str(), "r");
        ASSERT_NE(pipe, nullptr);
        char line[4096];
        // clang-format -n says "FILE:LINE:COL: warning: code should be clang-formatted".
        while (std::fgets(line, sizeof line, pipe)) {
            const std::string text = line;
            const std::size_t colon = text.find(':');
            if (text.find("code should be clang-formatted") == std::string::npos) continue;
            const std::string file = text.substr(0, colon);
            if (std::find(unclean.begin(), unclean.end(), file) == unclean.end())
                unclean.push_back(file);
        }
        ::pclose(pipe);
    }
    std::string list;
    for (const std::string& f : unclean) list += "  " + f + "\n";
    EXPECT_TRUE(unclean.empty()) << unclean.size() << " of " << files.size()
                                 << " files are not clang-format clean (run `make format`):\n"
                                 << list;
}

}  // namespace
}  // namespace runtop::testing
