#include "readers/discovery.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <utility>

namespace runtop {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

struct Walker {
    const RootSpec& root;
    Discovered& out;
    std::set<std::pair<dev_t, ino_t>> visited;

    void add_file(const std::string& path, const std::string& rel_dir) {
        DirIdentity id = identity_of_dir(rel_dir);
        out.files.push_back(SourceFile{path, run_name(root.name, id.run_rel), id.rank});
    }

    void walk(const std::string& dir, const std::string& rel_dir, const struct stat& st) {
        if (!visited.insert({st.st_dev, st.st_ino}).second) return;  // symlink loop
        DIR* d = ::opendir(dir.c_str());
        if (!d) {
            if (rel_dir.empty()) out.root_ok = false;
            out.errors.push_back(dir + ": cannot read directory: " + std::strerror(errno));
            return;
        }
        if (rel_dir.empty()) out.root_ok = true;
        std::vector<std::string> names;
        while (dirent* e = ::readdir(d)) {
            std::string_view name = e->d_name;
            if (name == "." || name == "..") continue;
            names.emplace_back(name);
        }
        ::closedir(d);
        std::sort(names.begin(), names.end());
        for (const std::string& name : names) {
            std::string path = dir + "/" + name;
            struct stat child;
            if (::stat(path.c_str(), &child) != 0) continue;  // dangling link, or gone already
            if (S_ISDIR(child.st_mode)) {
                walk(path, rel_dir.empty() ? name : rel_dir + "/" + name, child);
            } else if (S_ISREG(child.st_mode) && is_event_file_name(name)) {
                add_file(path, rel_dir);
            }
        }
    }
};

}  // namespace

bool is_event_file_name(std::string_view name) {
    if (name.find("tfevents") != std::string_view::npos) return !ends_with(name, ".profile-empty");
    return name.find(".out.events.summary.") != std::string_view::npos;
}

Discovered discover(const RootSpec& root) {
    Discovered out;
    struct stat st;
    if (::stat(root.path.c_str(), &st) != 0) {
        out.errors.push_back(root.path + ": " + std::strerror(errno));
        return out;
    }
    Walker walker{root, out, {}};
    out.root_ok = true;
    if (S_ISDIR(st.st_mode)) {
        std::string dir = root.path;
        while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
        walker.walk(dir, "", st);
    } else if (S_ISREG(st.st_mode)) {
        walker.add_file(root.path, "");  // a single file is a run of its own, named by the root
    } else {
        out.root_ok = false;
        out.errors.push_back(root.path + ": not a directory or regular file");
    }
    std::sort(out.files.begin(), out.files.end(),
              [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
    return out;
}

}  // namespace runtop
