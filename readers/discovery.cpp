#include "readers/discovery.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <utility>

#include "readers/file_kinds.h"

namespace runtop {
namespace {

struct Walker {
    const RootSpec& root;
    Discovered& out;
    std::set<std::pair<dev_t, ino_t>> visited;

    void add_file(const std::string& path, const std::string& rel_dir, SourceFormat format) {
        out.files.push_back(source_file(root, path, rel_dir, format));
    }

    void walk(const std::string& dir, const std::string& rel_dir, const struct stat& st) {
        if (!visited.insert({st.st_dev, st.st_ino}).second) return;  // symlink loop
        DIR* d = ::opendir(dir.c_str());
        if (!d) {
            if (rel_dir.empty()) out.root_ok = false;
            ++out.unreadable_dirs;
            out.errors.push_back(dir + ": cannot read directory: " + std::strerror(errno));
            return;
        }
        if (rel_dir.empty()) out.root_ok = true;
        // Each name with its type as the directory says (DT_UNKNOWN where the filesystem
        // does not): a regular file is not stat'ed, a million step files cost no million stats.
        std::vector<std::pair<std::string, unsigned char>> names;
        while (dirent* e = ::readdir(d)) {
            std::string_view name = e->d_name;
            if (name == "." || name == "..") continue;
            names.emplace_back(name, e->d_type);
        }
        ::closedir(d);
        std::sort(names.begin(), names.end());
        for (const auto& [name, type] : names) {
            std::string path = dir + "/" + name;
            if (type == DT_REG) {
                if (auto format = classify_file(rel_dir, name)) add_file(path, rel_dir, *format);
                continue;
            }
            struct stat child;
            if (::stat(path.c_str(), &child) != 0) continue;  // dangling link, or gone already
            if (S_ISDIR(child.st_mode)) {
                walk(path, rel_dir.empty() ? name : rel_dir + "/" + name, child);
            } else if (S_ISREG(child.st_mode)) {
                if (auto format = classify_file(rel_dir, name)) add_file(path, rel_dir, *format);
            }
        }
    }
};

}  // namespace

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
        // A single file is a run of its own, named by the root. Named on the command line, a
        // file is read even when its name is not one discovery would pick: its form decides.
        walker.add_file(root.path, "", file_format_of_named_file(base_name(root.path)));
    } else {
        out.root_ok = false;
        out.errors.push_back(root.path + ": not a directory or regular file");
    }
    std::vector<std::pair<std::string, SourceFile>> keyed;
    keyed.reserve(out.files.size());
    for (SourceFile& f : out.files) {
        std::string key = read_order_key(f);
        keyed.emplace_back(std::move(key), std::move(f));
    }
    std::sort(keyed.begin(), keyed.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    out.files.clear();
    for (auto& [key, f] : keyed) out.files.push_back(std::move(f));
    return out;
}

}  // namespace runtop
