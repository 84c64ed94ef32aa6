#include "tests/layering.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace runtop::testing {
namespace fs = std::filesystem;

const std::vector<LayerRule>& layer_rules() {
    static const std::vector<LayerRule> kRules = {
        {"core", {"core", "core/json"}},
        {"core/json", {"core", "core/json"}},
        {"core/store", {"core", "core/store"}},
        {"core/analysis", {"core", "core/json", "core/store", "core/analysis"}},
        {"core/compare", {"core", "core/store", "core/analysis", "core/compare"}},
        {"core/config", {"core", "core/json", "core/store", "core/config"}},
        {"readers", {"core/**", "readers"}},
        {"writers", {"core/**", "readers", "writers"}},
        {"views", {"core/**", "views", "views/compare"}},
        {"views/compare", {"core/**", "views", "views/compare"}},
        {"views/terminal", {"core/**", "views", "views/terminal"}},
        {"app", {"core/**", "readers", "writers", "views/**", "app"}},
        {"app/tools", {"core/**", "readers", "writers", "views/**", "app"}},
        {"app/portable", {}},
    };
    return kRules;
}

namespace {

const LayerRule* rule_for(std::string_view folder) {
    for (const LayerRule& rule : layer_rules())
        if (rule.folder == folder) return &rule;
    return nullptr;
}

bool allowed(const LayerRule& rule, std::string_view included_folder) {
    return std::any_of(rule.may_include.begin(), rule.may_include.end(), [&](std::string_view f) {
        if (f.ends_with("/**")) {
            const std::string_view base = f.substr(0, f.size() - 3);
            return included_folder == base || included_folder.starts_with(std::string(base) + "/");
        }
        return included_folder == f;
    });
}

std::string may_include_text(const LayerRule& rule) {
    if (rule.may_include.empty()) return "nothing of runtop's";
    std::string text = "only";
    for (std::size_t i = 0; i < rule.may_include.size(); ++i) {
        std::string_view f = rule.may_include[i];
        text += i ? ", " : " ";
        text += f.ends_with("/**") ? std::string(f.substr(0, f.size() - 2)) + " and below"
                                   : std::string(f) + "/";
    }
    return text;
}

// Curses belongs to the terminal layer (runtop_terminal is the one library that links it).
bool is_curses_header(std::string_view header) {
    return header == "curses.h" || header == "ncurses.h" || header == "term.h" ||
           header == "termcap.h" || header.starts_with("ncursesw/") ||
           header.starts_with("ncurses/");
}

void check_file(const fs::path& file, const std::string& relative, const std::string& folder,
                const LayerRule& rule, std::vector<std::string>& out) {
    std::ifstream in(file);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        std::string_view text = line;
        const std::size_t hash = text.find_first_not_of(" \t");
        if (hash == std::string_view::npos || text[hash] != '#') continue;
        text.remove_prefix(hash + 1);
        text.remove_prefix(std::min(text.find_first_not_of(" \t"), text.size()));
        if (!text.starts_with("include")) continue;
        text.remove_prefix(7);
        text.remove_prefix(std::min(text.find_first_not_of(" \t"), text.size()));
        if (text.size() < 2 || (text[0] != '"' && text[0] != '<')) continue;
        const char close = text[0] == '"' ? '"' : '>';
        const std::size_t end = text.find(close, 1);
        if (end == std::string_view::npos) continue;
        const std::string header(text.substr(1, end - 1));
        const std::string where = relative + ":" + std::to_string(number) + ": includes " +
                                  text[0] + header + close + ": ";
        if (text[0] == '<') {
            if (is_curses_header(header) && folder != "views/terminal")
                out.push_back(where + "only views/terminal/ may include curses");
            continue;
        }
        const std::size_t slash = header.rfind('/');
        if (slash == std::string::npos) continue;  // generated (event.pb.h) or beside the file
        const std::string included_folder = header.substr(0, slash);
        if (!allowed(rule, included_folder))
            out.push_back(where + folder + "/ may include " + may_include_text(rule));
    }
}

}  // namespace

std::vector<std::string> layering_violations(const std::string& root) {
    std::vector<std::string> out;
    for (const char* top : {"core", "readers", "writers", "views", "app"}) {
        const fs::path base = fs::path(root) / top;
        if (!fs::is_directory(base)) continue;
        std::vector<fs::path> files;
        for (const auto& entry : fs::recursive_directory_iterator(base)) {
            const std::string ext = entry.path().extension().string();
            if (entry.is_regular_file() && (ext == ".h" || ext == ".cpp"))
                files.push_back(entry.path());
        }
        std::sort(files.begin(), files.end());
        for (const fs::path& file : files) {
            const std::string relative = fs::relative(file, root).generic_string();
            const std::string folder = fs::path(relative).parent_path().generic_string();
            const LayerRule* rule = rule_for(folder);
            if (!rule) {
                out.push_back(relative + ": its folder " + folder +
                              "/ has no row in layer_rules() (tests/layering.cpp): say what it "
                              "may include");
                continue;
            }
            check_file(file, relative, folder, *rule, out);
        }
    }
    return out;
}

}  // namespace runtop::testing
