#include "app/inputs.h"

#include <sys/stat.h>

namespace runtop {
namespace {

bool path_exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

Result<std::vector<RootSpec>> roots_from_args(const std::vector<std::string>& positional) {
    if (positional.empty()) return Error{"no PATH given (see --help)"};
    std::vector<RootSpec> roots;
    for (const std::string& arg : positional) {
        Result<RootSpec> root = parse_root_spec(arg, path_exists);
        if (!root) return root.error();
        roots.push_back(std::move(*root));
    }
    return roots;
}

std::size_t print_messages(SourceSet& sources, std::FILE* err) {
    std::vector<std::string> messages = sources.take_messages();
    for (const std::string& m : messages) std::fprintf(err, "runtop: %s\n", m.c_str());
    return messages.size();
}

void flush_output(std::string& out, bool force) {
    if (out.empty() || (!force && out.size() < (1u << 20))) return;
    std::fwrite(out.data(), 1, out.size(), stdout);
    out.clear();
    if (force) std::fflush(stdout);
}

}  // namespace runtop
